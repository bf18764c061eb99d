// SPDX-License-Identifier: GPL-2.0
/*
 * lkst core, masksets and handlers.  A maskset routes each event to a
 * handler; the active one is what the dispatcher (core.c) reads.  Here:
 * switching, selecting, reading, writing, configuring and deleting
 * masksets, and registering extended handlers, their information and
 * their control requests.
 *
 * Keys follow the active maskset: an event's key is on exactly when the
 * active maskset routes it to a registered handler other than NOTHING
 * (lkc_sync_keys()).  The system masksets are built at boot (boot.c).
 */
#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "internal.h"

DEFINE_MUTEX(lkst_mutex);

struct lkst_maskset lkst_masksets[LKST_MAX_MASKSETS];
struct lkst_maskset __rcu *lkst_active;
struct lkst_handler __rcu *lkst_handlers[LKST_MAX_HANDLERS];

static bool lkst_routes_to_handler(const struct lkst_maskset *ms,
				   unsigned int event)
{
	u8 id = READ_ONCE(ms->handler[event]);

	return id != LKST_HANDLER_NOTHING &&
		rcu_access_pointer(lkst_handlers[id]);
}

/* Bring every event's static key in line with the active maskset. */
void lkc_sync_keys(void)
{
	struct lkst_maskset *ms;
	unsigned int event;
	bool want;

	lockdep_assert_held(&lkst_mutex);
	/* Handlers may switch the pointer without the mutex: load it once. */
	ms = rcu_dereference_check(lkst_active, lockdep_is_held(&lkst_mutex));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
		if (!lkc_event_known(event))
			continue;
		want = lkst_routes_to_handler(ms, event);
		if (want == static_key_enabled(&lkst_event_keys[event]))
			continue;
		if (want)
			static_branch_enable(&lkst_event_keys[event]);
		else
			static_branch_disable(&lkst_event_keys[event]);
	}
	want = lkst_routes_to_handler(ms, LKST_EV_SYSCALL_ENTRY) ||
	       lkst_routes_to_handler(ms, LKST_EV_SYSCALL_ENTRY_ARG5);
	if (want != static_key_enabled(&lkst_syscall_entry_key)) {
		if (want)
			static_branch_enable(&lkst_syscall_entry_key);
		else
			static_branch_disable(&lkst_syscall_entry_key);
	}
	/* Without the patch, tracepoint probes follow the keys. */
	lkc_tracepoints_sync();
}

static void lkst_sync_keys_work_fn(struct work_struct *work)
{
	mutex_lock(&lkst_mutex);
	lkc_sync_keys();
	mutex_unlock(&lkst_mutex);
}

DECLARE_WORK(lkst_sync_keys_work, lkst_sync_keys_work_fn);

static void lkst_sync_keys_irq_work_fn(struct irq_work *work)
{
	schedule_work(&lkst_sync_keys_work);
}

DEFINE_IRQ_WORK(lkst_sync_keys_irq_work, lkst_sync_keys_irq_work_fn);

unsigned int lkc_active_maskset_id(void)
{
	struct lkst_maskset *ms;
	unsigned int id;

	rcu_read_lock();
	ms = rcu_dereference(lkst_active);
	id = ms - lkst_masksets;
	rcu_read_unlock();
	return id;
}

/**
 * lkst_maskset_switch() - make a maskset the active one, from any context
 * @id: the maskset's ID
 *
 * For handlers, hooks included: the pointer changes at once; the static
 * keys, which can only change in process context, follow from an irq_work
 * and a work item, so events newly routed are recorded a moment later.
 *
 * Context: preemption off (hook context, NMI included); never sleeps.
 * Return: 0; -EPERM for a preemptible caller (with a warning: a delete of
 * the maskset could not wait for it); -ENOENT when @id is
 * LKST_MAX_MASKSETS or more or no maskset has it.
 */
int lkst_maskset_switch(unsigned int id)
{
	/*
	 * lkc_ioc_maskset_delete() waits for a grace period to know no
	 * switch to a maskset it is deleting is under way: only a caller that
	 * cannot be preempted between the check and the switch is covered by
	 * it.
	 */
	if (WARN_ON_ONCE(preemptible()))
		return -EPERM;
	if (id >= LKST_MAX_MASKSETS)
		return -ENOENT;
	id = array_index_nospec(id, LKST_MAX_MASKSETS);
	if (!READ_ONCE(lkst_masksets[id].in_use))
		return -ENOENT;
	rcu_assign_pointer(lkst_active, &lkst_masksets[id]);
	irq_work_queue(&lkst_sync_keys_irq_work);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(lkst_maskset_switch, LKST);

/*
 * Route everything to NOTHING at once, from a context that must not queue
 * work (panic); the static keys stay as they are.
 */
void lkc_stop_recording(void)
{
	rcu_assign_pointer(lkst_active, &lkst_masksets[LKST_MASKSET_RNOTHING]);
}

int lkc_ioc_maskset_set(unsigned int id)
{
	if (id >= LKST_MAX_MASKSETS)
		return -EINVAL;
	id = array_index_nospec(id, LKST_MAX_MASKSETS);
	mutex_lock(&lkst_mutex);
	if (!lkst_masksets[id].in_use) {
		mutex_unlock(&lkst_mutex);
		return -ENOENT;
	}
	rcu_assign_pointer(lkst_active, &lkst_masksets[id]);
	lkc_sync_keys();
	mutex_unlock(&lkst_mutex);
	/* No hook runs with the previous maskset after this returns. */
	synchronize_rcu();
	return 0;
}

int lkc_ioc_maskset_read(struct lkst_maskset_desc *desc)
{
	struct lkst_maskset *ms;
	unsigned int event;

	if (desc->id >= LKST_MAX_MASKSETS)
		return -EINVAL;
	mutex_lock(&lkst_mutex);
	ms = &lkst_masksets[array_index_nospec(desc->id, LKST_MAX_MASKSETS)];
	if (!ms->in_use) {
		mutex_unlock(&lkst_mutex);
		return -ENOENT;
	}
	desc->flags = (ms->system ? LKST_MS_SYSTEM : 0) |
		(rcu_access_pointer(lkst_active) == ms ? LKST_MS_ACTIVE : 0);
	strscpy(desc->name, ms->name, sizeof(desc->name));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		desc->handler[event] = READ_ONCE(ms->handler[event]);
	mutex_unlock(&lkst_mutex);
	return 0;
}

/* IDs of maskset entries a user may write: system masksets are read-only. */
static int lkst_check_user_maskset(unsigned int id)
{
	if (id >= LKST_MAX_MASKSETS)
		return -EINVAL;
	if (id < LKST_MASKSET_FIRST_USER)
		return -EROFS;
	return 0;
}

static int lkst_check_route(unsigned int event, unsigned int handler)
{
	if (event >= LKST_NR_EVENT_IDS || !handler ||
	    handler >= LKST_MAX_HANDLERS)
		return -EINVAL;
	if (handler == LKST_HANDLER_NOTHING)
		return 0;
	if (!lkc_event_known(event))
		return -EINVAL;
	handler = array_index_nospec(handler, LKST_MAX_HANDLERS);
	if (!rcu_access_pointer(lkst_handlers[handler]))
		return -ENOENT;
	return 0;
}

static bool lkst_active_is(const struct lkst_maskset *ms)
{
	return rcu_access_pointer(lkst_active) == ms;
}

int lkc_ioc_maskset_write(const struct lkst_maskset_desc *desc)
{
	struct lkst_maskset *ms;
	unsigned int event;
	int ret;

	ret = lkst_check_user_maskset(desc->id);
	if (ret)
		return ret;
	if (desc->flags || !memchr(desc->name, 0, sizeof(desc->name)))
		return -EINVAL;

	mutex_lock(&lkst_mutex);
	for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
		ret = lkst_check_route(event, desc->handler[event]);
		if (ret)
			goto unlock;
	}
	ms = &lkst_masksets[array_index_nospec(desc->id, LKST_MAX_MASKSETS)];
	strscpy(ms->name, desc->name, sizeof(ms->name));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		WRITE_ONCE(ms->handler[event], desc->handler[event]);
	WRITE_ONCE(ms->in_use, true);
	if (lkst_active_is(ms))
		lkc_sync_keys();
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}

int lkc_ioc_maskset_config(const struct lkst_maskset_entry *entry)
{
	struct lkst_maskset *ms;
	int ret;

	ret = lkst_check_user_maskset(entry->id);
	if (ret)
		return ret;
	if (entry->__pad)
		return -EINVAL;

	mutex_lock(&lkst_mutex);
	ms = &lkst_masksets[array_index_nospec(entry->id, LKST_MAX_MASKSETS)];
	if (!ms->in_use) {
		ret = -ENOENT;
		goto unlock;
	}
	ret = lkst_check_route(entry->event, entry->handler);
	if (ret)
		goto unlock;
	WRITE_ONCE(ms->handler[array_index_nospec(entry->event,
						  LKST_NR_EVENT_IDS)],
		   entry->handler);
	if (lkst_active_is(ms))
		lkc_sync_keys();
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}

int lkc_ioc_maskset_delete(unsigned int id)
{
	struct lkst_maskset *ms;
	int ret;

	ret = lkst_check_user_maskset(id);
	if (ret)
		return ret;

	mutex_lock(&lkst_mutex);
	ms = &lkst_masksets[array_index_nospec(id, LKST_MAX_MASKSETS)];
	if (!ms->in_use) {
		ret = -ENOENT;
		goto unlock;
	}
	if (lkst_active_is(ms)) {
		ret = -EBUSY;
		goto unlock;
	}
	WRITE_ONCE(ms->in_use, false);
	/* A handler may have switched to it from hook context meanwhile. */
	synchronize_rcu();
	if (lkst_active_is(ms)) {
		WRITE_ONCE(ms->in_use, true);
		ret = -EBUSY;
	}
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}

/**
 * lkst_handler_register() - make an extended handler available to
 *	masksets
 * @handler: its handle() and name set; @handler->id 0 for the lowest free
 *	ID, which is stored there, or the ID it wants (2..254)
 *
 * Maskset entries naming the ID, which act as NOTHING while no handler
 * has it, route to @handler from now on.
 *
 * Context: process context; sleeps (takes lkst_mutex and the jump label
 * lock).
 * Return: 0; -EINVAL without handle() or name, or for ID 1 (DEFAULT) or
 * LKST_HANDLER_NOTHING and above; -EBUSY when a handler has the ID asked
 * for; -ENOSPC when no ID is free.
 */
int lkst_handler_register(struct lkst_handler *handler)
{
	unsigned int id = handler->id;
	int ret = 0;

	if (!handler->handle || !handler->name ||
	    id == LKST_HANDLER_DEFAULT || id >= LKST_HANDLER_NOTHING)
		return -EINVAL;

	mutex_lock(&lkst_mutex);
	if (!id) {
		for (id = LKST_HANDLER_DEFAULT + 1; id < LKST_HANDLER_NOTHING; id++)
			if (!rcu_access_pointer(lkst_handlers[id]))
				break;
		if (id == LKST_HANDLER_NOTHING) {
			ret = -ENOSPC;
			goto unlock;
		}
	} else if (rcu_access_pointer(lkst_handlers[id])) {
		ret = -EBUSY;
		goto unlock;
	}
	handler->id = id;
	rcu_assign_pointer(lkst_handlers[id], handler);
	lkc_sync_keys();
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_handler_register, LKST);

/**
 * lkst_handler_unregister() - take back a registered handler
 * @handler: what lkst_handler_register() was given
 *
 * After this returns no CPU runs @handler any more.  Maskset entries that
 * name its ID stay and act as NOTHING until a handler takes the ID again.
 * A handler that is not registered is refused with a warning.
 *
 * Context: process context; sleeps (lkst_mutex, a grace period).
 */
void lkst_handler_unregister(struct lkst_handler *handler)
{
	unsigned int id = handler->id;

	mutex_lock(&lkst_mutex);
	if (WARN_ON_ONCE(id >= LKST_MAX_HANDLERS ||
			 rcu_access_pointer(lkst_handlers[id]) != handler)) {
		mutex_unlock(&lkst_mutex);
		return;
	}
	RCU_INIT_POINTER(lkst_handlers[id], NULL);
	lkc_sync_keys();
	mutex_unlock(&lkst_mutex);
	synchronize_rcu();
}
EXPORT_SYMBOL_NS_GPL(lkst_handler_unregister, LKST);

/*
 * The handler registered with @id, below LKST_MAX_HANDLERS as the caller
 * checked, or NULL; under lkst_mutex, which keeps it registered.
 */
static struct lkst_handler *lkst_handler_locked(unsigned int id)
{
	id = array_index_nospec(id, LKST_MAX_HANDLERS);
	return rcu_dereference_protected(lkst_handlers[id],
					 lockdep_is_held(&lkst_mutex));
}

/*
 * The module reference keeps the handler registered while its control
 * runs: unregistering happens in the module's exit, which cannot start
 * while a reference is held.
 */
int lkc_ioc_handler_ctl(struct lkst_handler_ctl *ctl)
{
	struct lkst_handler *h;
	int ret;

	if (ctl->handler >= LKST_MAX_HANDLERS || ctl->__pad)
		return -EINVAL;
	mutex_lock(&lkst_mutex);
	h = lkst_handler_locked(ctl->handler);
	if (!h)
		ret = -ENOENT;
	else if (!h->control)
		ret = -EOPNOTSUPP;
	else if (!try_module_get(h->owner))
		ret = -ENOENT;	/* on its way out */
	else
		ret = 0;
	mutex_unlock(&lkst_mutex);
	if (ret)
		return ret;
	ret = h->control(h, ctl->cmd, u64_to_user_ptr(ctl->data), ctl->size);
	module_put(h->owner);
	return ret;
}

int lkc_ioc_handler_info(struct lkst_handler_desc *desc)
{
	struct lkst_handler *h;
	int ret = 0;

	if (desc->id >= LKST_MAX_HANDLERS || desc->__pad)
		return -EINVAL;
	mutex_lock(&lkst_mutex);
	h = lkst_handler_locked(desc->id);
	if (h) {
		strscpy(desc->name, h->name, sizeof(desc->name));
		strscpy(desc->module, h->owner ? module_name(h->owner) : "",
			sizeof(desc->module));
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&lkst_mutex);
	return ret;
}
