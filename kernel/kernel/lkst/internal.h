/* SPDX-License-Identifier: GPL-2.0 */
/* lkst internals shared by the core, the buffers, the device and KUnit. */
#ifndef _LKST_INTERNAL_H
#define _LKST_INTERNAL_H

#include <linux/lkst.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include "lkst_buf.h"

/*
 * A boot option lkst.NAME=; built as a module (a kernel without the patch),
 * the module parameter NAME, which modprobe also takes from the command
 * line as lkst.NAME=.  The parser returns 1 as __setup() wants.
 */
#ifdef MODULE
#define lkst_setup(name, fn)						\
	static int __ref fn##_param(const char *val,			\
				    const struct kernel_param *kp)	\
	{								\
		return fn((char *)val) == 1 ? 0 : -EINVAL;		\
	}								\
	static const struct kernel_param_ops fn##_ops = {		\
		.set = fn##_param,					\
	};								\
	module_param_cb(name, &fn##_ops, NULL, 0)
#else
#define lkst_setup(name, fn)	__setup("lkst." #name "=", fn)
#endif

/* The init functions, each an initcall in the patched kernel. */
int lkc_init(void);
int lkc_dev_init(void);
int lkc_panic_dump_init(void);

#ifdef MODULE
/* Tracepoints feed the events (tracepoints.c); the module's exit path. */
int lkc_tracepoints_init(void);
void lkc_tracepoints_sync(void);
void lkc_tracepoints_report(void);
void lkc_tracepoints_exit(void);
u32 lkc_event_site_flags(unsigned int event);
void lkc_exit(void);
void lkc_dev_exit(void);
void lkc_panic_dump_exit(void);
void lkc_persist_exit(void);
void lkc_buffers_exit(void);
#else
static inline void lkc_tracepoints_sync(void)
{
}

/* The patch's hook sites: every event has its sites. */
static inline u32 lkc_event_site_flags(unsigned int event)
{
	return 0;
}
#endif

struct lkst_maskset {
	bool in_use;
	bool system;
	char name[LKST_NAME_LEN];
	u8 handler[LKST_NR_EVENT_IDS];
};

/* Serializes every control operation: masksets, handlers, blocks. */
extern struct mutex lkst_mutex;

/*
 * The core's state, shared by its files: core.c (the hot path), maskset.c
 * (masksets and handlers), event_table.c (the events by ID) and boot.c
 * (boot options, init and exit).
 */
struct irq_work;
struct notifier_block;
struct work_struct;

/* lkst_event_table[] indexed by event ID, NULL where no event is. */
extern const struct lkst_event_info *lkst_events_by_id[LKST_NR_EVENT_IDS];
extern struct lkst_maskset lkst_masksets[LKST_MAX_MASKSETS];
extern struct lkst_maskset __rcu *lkst_active;
extern struct lkst_handler __rcu *lkst_handlers[LKST_MAX_HANDLERS];
/* The built-in handlers (core.c), registered by lkc_init(). */
extern struct lkst_handler lkst_default_handler;
extern struct lkst_handler lkst_nothing_handler;
/* Clears the recursion bits an oops leaves set (core.c). */
extern struct notifier_block lkst_die_nb;

/* Bring every event's static key in line with the active maskset. */
void lkc_sync_keys(void);
/* How lkst_maskset_switch() defers lkc_sync_keys() to process context. */
extern struct work_struct lkst_sync_keys_work;
extern struct irq_work lkst_sync_keys_irq_work;

/* What `lkm stat` shows; this_cpu_inc() is one instruction, NMI-safe. */
struct lkst_event_counters {
	u64 hits[LKST_NR_EVENT_IDS];
	u64 dropped[LKST_NR_EVENT_IDS];
};
#ifdef MODULE
/* Defined in core.c, allocated by lkc_init(), freed by lkc_exit(). */
extern struct lkst_event_counters __percpu *lkst_counters_ptr;
#endif

DECLARE_PER_CPU(struct lkst_cpu_buffer, lkst_cpu_buffers);

bool lkc_event_known(unsigned int event);
const struct lkst_event_info *lkc_event_info(unsigned int event);
unsigned int lkc_nr_events(void);
unsigned int lkc_active_maskset_id(void);

int lkc_ioc_maskset_read(struct lkst_maskset_desc *desc);
int lkc_ioc_maskset_write(const struct lkst_maskset_desc *desc);
int lkc_ioc_maskset_config(const struct lkst_maskset_entry *entry);
int lkc_ioc_maskset_set(unsigned int id);
void lkc_stop_recording(void);
int lkc_ioc_maskset_delete(unsigned int id);
int lkc_ioc_handler_info(struct lkst_handler_desc *desc);
int lkc_ioc_handler_ctl(struct lkst_handler_ctl *ctl);
int lkc_ioc_event_stat(struct lkst_event_stat *stat);
int lkc_ioc_event_desc(struct lkst_event_desc *desc);
int lkc_ioc_event_table(struct lkst_event_table *table);
void lkc_ioc_event_stat_reset(void);

/* Around the dispatch of a kprobe hit through a trap (probe.c). */
unsigned int lkc_trap_enter(void);
void lkc_trap_exit(unsigned int outer);

/* Dynamic probes (probe.c); without kprobes, PROBE_ADD is EOPNOTSUPP. */
#ifdef CONFIG_KPROBES
struct kprobe;
struct pt_regs;
int lkc_ioc_probe_add(struct lkst_probe *req);
int lkc_ioc_probe_del(struct lkst_probe *req);
int lkc_probe_check(const struct lkst_probe *req);
void lkc_probe_format(const struct lkst_fetch *f, char *buf, size_t size);
u64 lkc_probe_fetch(const struct lkst_fetch *f, struct pt_regs *regs,
		    const unsigned long *saved);
bool lkc_kprobe_trapped(struct kprobe *kp, struct pt_regs *regs);
#else
static inline int lkc_ioc_probe_add(struct lkst_probe *req)
{
	return -EOPNOTSUPP;
}

static inline int lkc_ioc_probe_del(struct lkst_probe *req)
{
	return -EOPNOTSUPP;
}
#endif

int lkc_buffers_init(unsigned int block_size);
int lkc_ioc_cpu_info(struct lkst_cpu_info *info);
int lkc_ioc_block_info(struct lkst_block_info *info);
int lkc_ioc_block_read(struct lkst_block_read *req);
int lkc_ioc_block_create(struct lkst_block_create *req);
int lkc_ioc_block_link(const struct lkst_block_link *req);
int lkc_ioc_block_delete(const struct lkst_block_delete *req);
int lkc_ioc_block_jump(const struct lkst_block_jump *req);
int lkc_ioc_buffer_drain(struct lkst_buffer_drain *req);
int lkc_ioc_buffer_mode(const struct lkst_buffer_mode *req);
int lkc_ioc_buffer_resize(const struct lkst_buffer_resize *req);

extern struct lkst_clock_anchor lkst_saved_clock_anchor;
void lkc_save_clock_anchor(void);

/* The persistent region (persist.c) and the previous boot's trace. */
void lkc_persist_init(void);
bool lkc_persisting(void);
void *lkc_persist_pages(unsigned int cpu, u32 *nr_pages);
struct lkst_block *lkc_previous_block(unsigned int cpu);
int lkc_previous_info(struct lkst_previous_info *info);
bool lkc_previous_counts(unsigned int cpu, u64 *overwritten, u64 *dropped);
u64 lkc_previous_end(const struct lkst_block *blk);
u64 lkc_previous_held(const struct lkst_block *blk);
void lkc_previous_free(void);
int lkc_ioc_previous_info(struct lkst_previous_info *info);
int lkc_ioc_previous_drain(struct lkst_buffer_drain *req);
int lkc_ioc_previous_release(void);
/* The region's format and its validation, also for KUnit. */
void lkc_persist_format(void *region, u64 pages, u32 nr_cpus);
void *lkc_persist_cpu_pages(void *region, unsigned int cpu, u32 *nr_pages);
const char *lkc_persist_refusal(void *region, u64 pages);
u32 lkc_persist_check_pages(struct lkst_block *blk, u64 *nr_records);

#endif /* _LKST_INTERNAL_H */
