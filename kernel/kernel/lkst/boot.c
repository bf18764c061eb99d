// SPDX-License-Identifier: GPL-2.0
/*
 * lkst core, boot: the boot options lkst.maskset=, lkst.bufsize=,
 * lkst.mode= and lkst.events= (lkst.ko's module parameters), the system
 * masksets RNOTHING, RDEFAULT and RALL, the core's init (an early initcall
 * in the patched kernel) and lkst.ko's exit.
 */
#define pr_fmt(fmt) "lkst: " fmt
#define LKST_EVENT_TABLES

#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "clock.h"
#include "internal.h"

static void __init lkst_init_system_maskset(unsigned int id, const char *name,
					    bool (*routed)(unsigned int event))
{
	struct lkst_maskset *ms = &lkst_masksets[id];
	unsigned int event;

	ms->in_use = true;
	ms->system = true;
	strscpy(ms->name, name, sizeof(ms->name));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		ms->handler[event] = routed(event) ? LKST_HANDLER_DEFAULT :
						     LKST_HANDLER_NOTHING;
}

static bool __init lkst_route_none(unsigned int event)
{
	return false;
}

/* The primary events, as in LKST's RDEFAULT, and user marks. */
static bool __init lkst_route_primary(unsigned int event)
{
	if (!lkc_event_known(event))
		return false;
	switch (lkst_events_by_id[event]->category) {
	case LKST_CAT_PROCESS:
	case LKST_CAT_INTERRUPT:
	case LKST_CAT_EXCEPTION:
	case LKST_CAT_SYSCALL:
	case LKST_CAT_TRACER:
		return true;
	default:
		return false;
	}
}

static bool __init lkst_route_all(unsigned int event)
{
	return lkc_event_known(event);
}

static unsigned int lkst_boot_maskset __initdata = LKST_MASKSET_RNOTHING;
static unsigned int lkst_boot_bufsize __initdata = 256 << 10;

static int __init lkst_set_boot_maskset(char *str)
{
	if (!strcmp(str, "rnothing"))
		lkst_boot_maskset = LKST_MASKSET_RNOTHING;
	else if (!strcmp(str, "rdefault"))
		lkst_boot_maskset = LKST_MASKSET_RDEFAULT;
	else if (!strcmp(str, "rall"))
		lkst_boot_maskset = LKST_MASKSET_RALL;
	else if (kstrtouint(str, 0, &lkst_boot_maskset) ||
		 lkst_boot_maskset >= LKST_MASKSET_FIRST_USER)
		pr_warn("lkst.maskset=%s: use rnothing, rdefault, rall or 0-2\n",
			str);
	if (lkst_boot_maskset >= LKST_MASKSET_FIRST_USER)
		lkst_boot_maskset = LKST_MASKSET_RNOTHING;
	return 1;
}
lkst_setup(maskset, lkst_set_boot_maskset);

static int __init lkst_set_boot_bufsize(char *str)
{
	unsigned long long size = memparse(str, NULL);

	if (size < LKST_BLOCK_MIN_SIZE || size > LKST_BLOCK_MAX_SIZE)
		pr_warn("lkst.bufsize=%s: must be %u to %u bytes; using %u\n",
			str, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE,
			lkst_boot_bufsize);
	else
		lkst_boot_bufsize = size;
	return 1;
}
lkst_setup(bufsize, lkst_set_boot_bufsize);

static unsigned int lkst_boot_mode __initdata = LKST_MODE_OVERWRITE;

static int __init lkst_set_boot_mode(char *str)
{
	if (!strcmp(str, "overwrite"))
		lkst_boot_mode = LKST_MODE_OVERWRITE;
	else if (!strcmp(str, "stop"))
		lkst_boot_mode = LKST_MODE_STOP;
	else
		pr_warn("lkst.mode=%s: use overwrite or stop\n", str);
	return 1;
}
lkst_setup(mode, lkst_set_boot_mode);

/* Kept as given; parsed by lkc_init(), once the event table is indexed. */
static char *lkst_boot_events __initdata;

static int __init lkst_set_boot_events(char *str)
{
	lkst_boot_events = str;
	return 1;
}
lkst_setup(events, lkst_set_boot_events);

/* Route @name (an event mnemonic or a category), @len bytes, in @ms. */
static bool __init lkst_route_boot_item(struct lkst_maskset *ms,
					const char *name, size_t len)
{
	unsigned int i, event;
	bool found = false;

	for (i = 0; i < LKST_NR_EVENTS; i++) {
		const char *mnemonic = lkst_event_table[i].mnemonic;

		if (strlen(mnemonic) == len && !strncasecmp(mnemonic, name, len)) {
			ms->handler[lkst_event_table[i].id] =
				LKST_HANDLER_DEFAULT;
			return true;
		}
	}
	for (i = 0; i < ARRAY_SIZE(lkst_category_table); i++) {
		const char *cat = lkst_category_table[i].name;

		if (!cat || strlen(cat) != len || strncasecmp(cat, name, len))
			continue;
		for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
			if (lkc_event_known(event) &&
			    lkst_events_by_id[event]->category == i) {
				ms->handler[event] = LKST_HANDLER_DEFAULT;
				found = true;
			}
		}
		return found;
	}
	return false;
}

/*
 * lkst.events=NAME[,NAME...]: a user maskset "boot" that routes exactly
 * these events (mnemonics such as SYSCALL_ENTRY, or categories such as
 * process) to DEFAULT.  Handler modules load too late to be named here.
 * Returns whether the maskset routes anything.
 */
static bool __init lkst_init_boot_events(const char *list)
{
	struct lkst_maskset *ms = &lkst_masksets[LKST_MASKSET_FIRST_USER];
	unsigned int event, routed = 0;
	const char *item = list;
	size_t len;

	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		ms->handler[event] = LKST_HANDLER_NOTHING;
	while (*item) {
		len = strcspn(item, ",");
		if (len && !lkst_route_boot_item(ms, item, len))
			pr_warn("lkst.events: no event or category '%.*s'\n",
				(int)len, item);
		item += len;
		if (*item == ',')
			item++;
	}
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		routed += ms->handler[event] == LKST_HANDLER_DEFAULT;
	if (!routed) {
		pr_warn("lkst.events=%s routes no event; ignored\n", list);
		return false;
	}
	ms->in_use = true;
	strscpy(ms->name, "boot", sizeof(ms->name));
	return true;
}

/* Early, so that tracing selected on the command line starts before init. */
int __init lkc_init(void)
{
	unsigned int i, first_kib = lkst_boot_bufsize >> 10;
	u32 first_pages;
	int ret;

#ifdef MODULE
	lkst_counters_ptr = alloc_percpu(struct lkst_event_counters);
	if (!lkst_counters_ptr)
		return -ENOMEM;
#endif
	/* Without it, records are timed by ktime_get_mono_fast_ns(). */
	if (lkc_clock_init())
		pr_warn("no timekeeper notifier: the slower clock read\n");
	for (i = 0; i < LKST_NR_EVENTS; i++)
		lkst_events_by_id[lkst_event_table[i].id] = &lkst_event_table[i];
	lkst_init_system_maskset(LKST_MASKSET_RNOTHING, "RNOTHING",
				 lkst_route_none);
	lkst_init_system_maskset(LKST_MASKSET_RDEFAULT, "RDEFAULT",
				 lkst_route_primary);
	lkst_init_system_maskset(LKST_MASKSET_RALL, "RALL", lkst_route_all);
	RCU_INIT_POINTER(lkst_handlers[LKST_HANDLER_DEFAULT],
			 &lkst_default_handler);
	RCU_INIT_POINTER(lkst_handlers[LKST_HANDLER_NOTHING],
			 &lkst_nothing_handler);
	RCU_INIT_POINTER(lkst_active, &lkst_masksets[LKST_MASKSET_RNOTHING]);

	ret = lkc_buffers_init(lkst_boot_bufsize);
	if (ret) {
		pr_err("cannot allocate buffers (%d); tracing stays off\n", ret);
		return ret;
	}
	register_die_notifier(&lkst_die_nb);
	lkc_ioc_buffer_mode(&(struct lkst_buffer_mode){
		.cpu = LKST_ALL_CPUS, .mode = lkst_boot_mode });
	if (lkst_boot_events && lkst_init_boot_events(lkst_boot_events))
		lkst_boot_maskset = LKST_MASKSET_FIRST_USER;

	mutex_lock(&lkst_mutex);
	rcu_assign_pointer(lkst_active, &lkst_masksets[lkst_boot_maskset]);
	lkc_sync_keys();
	mutex_unlock(&lkst_mutex);
	/* A persistent region gives each CPU its share instead. */
	if (lkc_persist_pages(0, &first_pages))
		first_kib = first_pages * (LKST_PAGE_SIZE >> 10);
	pr_info("%u events, records of %u-%u bytes, %u KiB per CPU, %s mode, maskset %s\n",
		lkc_nr_events(), LKST_BREC_MIN_SIZE,
		LKST_BREC_MAX_SIZE, first_kib,
		lkst_boot_mode == LKST_MODE_STOP ? "stop" : "overwrite",
		lkst_masksets[lkst_boot_maskset].name);
	return 0;
}
#ifdef MODULE
/* Route nothing: every key off and every probe unregistered. */
void lkc_exit(void)
{
	/*
	 * lkc_init() failed before the masksets were set up: routing by them
	 * would register probes for every event, with no counters to count.
	 */
	if (!lkst_counters_ptr)
		return;
	mutex_lock(&lkst_mutex);
	rcu_assign_pointer(lkst_active, &lkst_masksets[LKST_MASKSET_RNOTHING]);
	lkc_sync_keys();
	mutex_unlock(&lkst_mutex);
	irq_work_sync(&lkst_sync_keys_irq_work);
	cancel_work_sync(&lkst_sync_keys_work);
	unregister_die_notifier(&lkst_die_nb);
	/* No probe runs once this returns: then the counters can go. */
	lkc_tracepoints_exit();
	free_percpu(lkst_counters_ptr);
	lkst_counters_ptr = NULL;
}
#else
early_initcall(lkc_init);
#endif
