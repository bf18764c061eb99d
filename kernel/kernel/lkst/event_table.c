// SPDX-License-Identifier: GPL-2.0
/*
 * lkst core, the event table at run time: the events by ID (the built-in
 * table of lkst_events.h, indexed by lkc_init(), and the dynamic events
 * of probes), their descriptions for user space, and the adding and
 * removing of dynamic events.
 */
/* For LKST_NR_EVENTS only: boot.c reads the tables and indexes them. */
#define LKST_EVENT_TABLES

#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "internal.h"

/* lkst_event_table[] indexed by event ID, NULL where no event is. */
const struct lkst_event_info *lkst_events_by_id[LKST_NR_EVENT_IDS];

bool lkc_event_known(unsigned int event)
{
	if (event >= LKST_NR_EVENT_IDS)
		return false;
	return READ_ONCE(lkst_events_by_id[array_index_nospec(event,
							      LKST_NR_EVENT_IDS)]);
}

const struct lkst_event_info *lkc_event_info(unsigned int event)
{
	return lkc_event_known(event) ? READ_ONCE(lkst_events_by_id[event]) :
					 NULL;
}

unsigned int lkc_nr_events(void)
{
	return LKST_NR_EVENTS;
}

/*
 * Dynamic events live here, not with the probes that fire them, so that a
 * description stays valid wherever it is read (the panic dump takes no
 * lock): a slot is only ever rewritten while its ID is unused.
 */
struct lkst_dynamic_event {
	struct lkst_event_info info;
	char mnemonic[LKST_NAME_LEN];
	char description[LKST_DESC_LEN];
	char arg_desc[LKST_NR_ARGS][LKST_ARG_DESC_LEN];
};

#define LKST_NR_DYNAMIC	(LKST_EV_PROBE_LAST - LKST_EV_PROBE_FIRST + 1)
static struct lkst_dynamic_event lkst_dynamic_events[LKST_NR_DYNAMIC];
/* Taken from creation until a grace period after removal, under lkst_mutex. */
static DECLARE_BITMAP(lkst_dynamic_taken, LKST_NR_DYNAMIC);

static void lkst_fill_event_desc(struct lkst_event_desc *desc,
				 const struct lkst_event_info *info)
{
	unsigned int i;

	lockdep_assert_held(&lkst_mutex);
	desc->category = info->category;
	desc->flags = desc->id >= LKST_EV_PROBE_FIRST ? LKST_EVENT_DYNAMIC : 0;
	desc->flags |= lkc_event_site_flags(desc->id);
	memset(desc->arg_type, 0, sizeof(desc->arg_type));
	memset(desc->arg_desc, 0, sizeof(desc->arg_desc));
	strscpy_pad(desc->mnemonic, info->mnemonic, sizeof(desc->mnemonic));
	strscpy_pad(desc->description, info->description ?: "",
		    sizeof(desc->description));
	for (i = 0; i < LKST_NR_ARGS; i++) {
		desc->arg_type[i] = info->args[i].type;
		strscpy_pad(desc->arg_desc[i], info->args[i].desc ?: "",
			    sizeof(desc->arg_desc[i]));
	}
}

int lkc_ioc_event_desc(struct lkst_event_desc *desc)
{
	const struct lkst_event_info *info;
	int ret = 0;

	if (desc->__pad)
		return -EINVAL;
	mutex_lock(&lkst_mutex);
	info = lkc_event_info(desc->id);
	if (info)
		lkst_fill_event_desc(desc, info);
	else
		ret = -ENOENT;
	mutex_unlock(&lkst_mutex);
	return ret;
}

/*
 * The table is copied under the mutex into memory of our own and copied
 * out after, so that a slow user page never holds up masksets.
 */
int lkc_ioc_event_table(struct lkst_event_table *table)
{
	struct lkst_event_desc *descs;
	const struct lkst_event_info *info;
	unsigned int event, n = 0;
	int ret = 0;

	if (table->__pad || table->desc_size != sizeof(*descs))
		return -EINVAL;
	descs = kvcalloc(LKST_NR_EVENT_IDS, sizeof(*descs), GFP_KERNEL);
	if (!descs)
		return -ENOMEM;
	mutex_lock(&lkst_mutex);
	for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
		info = lkc_event_info(event);
		if (!info)
			continue;
		descs[n].id = event;
		lkst_fill_event_desc(&descs[n++], info);
	}
	mutex_unlock(&lkst_mutex);
	table->nr_descs = n;
	if (copy_to_user(u64_to_user_ptr(table->descs), descs,
			 array_size(min(n, table->max_descs), sizeof(*descs))))
		ret = -EFAULT;
	kvfree(descs);
	return ret;
}

/* Letters, digits and '_', a letter first, and no event named so yet. */
static int lkst_check_dynamic_name(const char *name)
{
	unsigned int event;
	size_t len = strnlen(name, LKST_NAME_LEN), i;

	if (!len || len == LKST_NAME_LEN || !isalpha(name[0]))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return -EINVAL;
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		if (lkc_event_known(event) &&
		    !strcasecmp(lkst_events_by_id[event]->mnemonic, name))
			return -EEXIST;
	return 0;
}

/**
 * lkst_event_add_dynamic() - give a dynamic event (a probe's) a free ID
 * @desc: its mnemonic, description, argument types and argument
 *	descriptions; the other fields are ignored
 *
 * The event gets an ID in LKST_EV_PROBE_FIRST..LKST_EV_PROBE_LAST, which
 * no maskset routes yet.  Fire it with lkst_hook_dispatch() under its
 * key, as a hook does; remove it with lkst_event_remove_dynamic().
 *
 * Context: process context; sleeps (takes lkst_mutex).
 * Return: the new event's ID; -EINVAL for a mnemonic that is not
 * [A-Za-z][A-Za-z0-9_]* shorter than LKST_NAME_LEN, or an argument type
 * of LKST_NR_ARG_TYPES or more; -EEXIST when an event has that mnemonic
 * (in any case); -ENOSPC when every probe ID is taken.
 */
int lkst_event_add_dynamic(const struct lkst_event_desc *desc)
{
	struct lkst_dynamic_event *dyn;
	unsigned int event, i;
	int ret;

	for (i = 0; i < LKST_NR_ARGS; i++)
		if (desc->arg_type[i] >= LKST_NR_ARG_TYPES)
			return -EINVAL;
	mutex_lock(&lkst_mutex);
	ret = lkst_check_dynamic_name(desc->mnemonic);
	if (ret)
		goto unlock;
	ret = -ENOSPC;
	for (event = LKST_EV_PROBE_FIRST; event <= LKST_EV_PROBE_LAST; event++) {
		if (__test_and_set_bit(event - LKST_EV_PROBE_FIRST,
				       lkst_dynamic_taken))
			continue;
		dyn = &lkst_dynamic_events[event - LKST_EV_PROBE_FIRST];
		strscpy_pad(dyn->mnemonic, desc->mnemonic, sizeof(dyn->mnemonic));
		strscpy_pad(dyn->description, desc->description,
			    sizeof(dyn->description));
		dyn->info.id = event;
		dyn->info.mnemonic = dyn->mnemonic;
		dyn->info.category = LKST_CAT_PROBE;
		dyn->info.description = dyn->description;
		for (i = 0; i < LKST_NR_ARGS; i++) {
			strscpy_pad(dyn->arg_desc[i], desc->arg_desc[i],
				    sizeof(dyn->arg_desc[i]));
			dyn->info.args[i].type = desc->arg_type[i];
			dyn->info.args[i].desc = dyn->arg_desc[i];
		}
		/* No maskset routes a new ID: every entry is NOTHING. */
		WRITE_ONCE(lkst_events_by_id[event], &dyn->info);
		ret = event;
		break;
	}
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_event_add_dynamic, LKST);

/**
 * lkst_event_remove_dynamic() - remove an event lkst_event_add_dynamic()
 *	made
 * @event: its ID
 *
 * Unroutes it from every maskset, turns its key off and returns once no
 * dispatch can still route it; its ID may then be given again.  An ID
 * outside LKST_EV_PROBE_FIRST..LKST_EV_PROBE_LAST is refused with a
 * warning.
 *
 * Context: process context; sleeps (lkst_mutex, a grace period).
 */
void lkst_event_remove_dynamic(unsigned int event)
{
	unsigned int id;

	if (WARN_ON_ONCE(event < LKST_EV_PROBE_FIRST ||
			 event > LKST_EV_PROBE_LAST))
		return;
	mutex_lock(&lkst_mutex);
	for (id = 0; id < LKST_MAX_MASKSETS; id++)
		WRITE_ONCE(lkst_masksets[id].handler[event],
			   LKST_HANDLER_NOTHING);
	/* Its key goes off while it is still known; then nothing routes it. */
	lkc_sync_keys();
	WRITE_ONCE(lkst_events_by_id[event], NULL);
	mutex_unlock(&lkst_mutex);
	/* A dispatch that read the old entry ends within a grace period. */
	synchronize_rcu();
	mutex_lock(&lkst_mutex);
	__clear_bit(event - LKST_EV_PROBE_FIRST, lkst_dynamic_taken);
	mutex_unlock(&lkst_mutex);
}
EXPORT_SYMBOL_NS_GPL(lkst_event_remove_dynamic, LKST);
