// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_filter: an extended lkst handler that hands an event on (to DEFAULT,
 * which records it, or to another handler) only when the event's predicate
 * holds: comparisons of its arguments, the current task's pid, tgid,
 * command name and cgroup, the CPU and the context, joined by and, or and
 * not.  lkm compiles the expression; the program format and its evaluator
 * are in lkst_filter.h.
 *
 *   insmod lkst_filter.ko
 *   lkm filter -m 3 SYSCALL_ENTRY 'comm == "sshd" && arg1 == 59'
 *
 * Programs are published per event with RCU and freed after a grace
 * period, so a hook (NMI included) runs a whole program or none.
 */
#include <linux/cgroup.h>
#include <linux/lkst.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "lkst_filter.h"
#include "lkst_handler_ctl.h"

struct lkst_filter_entry {
	struct rcu_head rcu;
	struct lkst_filter_prog prog;
};

struct lkst_filter_counts {
	u64 tested[LKST_NR_EVENT_IDS];
	u64 passed[LKST_NR_EVENT_IDS];
};

static struct lkst_filter_entry __rcu *lkst_filters[LKST_NR_EVENT_IDS];
static DEFINE_PER_CPU(struct lkst_filter_counts, lkst_filter_counts);
/* Serializes control commands; hooks never take it. */
static DEFINE_MUTEX(lkst_filter_mutex);

/*
 * The cgroup of current, read without cgroup locks: its css_set is freed
 * only after an RCU grace period, which cannot end while this CPU runs the
 * hook with preemption off.
 */
static u64 lkst_filter_cgroup_id(void)
{
#ifdef CONFIG_CGROUPS
	struct css_set *cset = rcu_dereference_raw(current->cgroups);

	return cset && cset->dfl_cgrp ? cgroup_id(cset->dfl_cgrp) : 0;
#else
	return 0;
#endif
}

/* Half of current's name; a racing rename may mix two, as ftrace's may. */
static u64 lkst_filter_comm_half(unsigned int half)
{
	u64 word;

	BUILD_BUG_ON(sizeof(current->comm) < 2 * sizeof(word));
	memcpy(&word, current->comm + half * sizeof(word), sizeof(word));
	return word;
}

/* Only the fields a test reads are computed, when it reads them. */
static __always_inline u64 lkst_filter_field(unsigned int id, const void *ctx)
{
	const u64 *args = ctx;

	switch (id) {
	case LKST_FF_PID:
		return current->pid;
	case LKST_FF_TGID:
		return current->tgid;
	case LKST_FF_CPU:
		return raw_smp_processor_id();
	case LKST_FF_CONTEXT:
		return lkst_event_context();
	case LKST_FF_COMM_LO:
		return lkst_filter_comm_half(0);
	case LKST_FF_COMM_HI:
		return lkst_filter_comm_half(1);
	case LKST_FF_CGROUP:
		return lkst_filter_cgroup_id();
	default:	/* lkst_filter_check() allows nothing else */
		return args[id - LKST_FF_ARG1];
	}
}

static void lkst_filter_handle(struct lkst_handler *handler,
			       unsigned int event,
			       const u64 args[LKST_NR_ARGS])
{
	const struct lkst_filter_entry *f;

	f = rcu_dereference_sched(lkst_filters[event]);
	if (!f)
		return;
	this_cpu_inc(lkst_filter_counts.tested[event]);
	if (!lkst_filter_eval(f->prog.insns, f->prog.nr_insns,
			      lkst_filter_field, args))
		return;
	this_cpu_inc(lkst_filter_counts.passed[event]);
	lkst_handler_pass(f->prog.target, event, args);
}

static int lkst_filter_set(void __user *data, u32 size)
{
	struct lkst_filter_entry *f, *old;
	unsigned int event;

	if (size != sizeof(f->prog))
		return -EINVAL;
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	if (copy_from_user(&f->prog, data, size)) {
		kfree(f);
		return -EFAULT;
	}
	/* A handler that passes on would be refused by lkst_handler_pass(). */
	if (f->prog.event >= LKST_NR_EVENT_IDS || f->prog.__pad ||
	    f->prog.target >= LKST_MAX_HANDLERS ||
	    f->prog.text[LKST_FILTER_TEXT_LEN - 1] ||
	    lkst_filter_check(f->prog.insns, f->prog.nr_insns) < 0) {
		kfree(f);
		return -EINVAL;
	}
	event = array_index_nospec(f->prog.event, LKST_NR_EVENT_IDS);
	mutex_lock(&lkst_filter_mutex);
	old = rcu_replace_pointer(lkst_filters[event], f,
				  lockdep_is_held(&lkst_filter_mutex));
	mutex_unlock(&lkst_filter_mutex);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

static int lkst_filter_clear(void __user *data, u32 size)
{
	struct lkst_filter_entry *old;
	unsigned int event, first, last;
	u32 which;
	int ret;

	ret = lkst_ctl_copy_in(&which, sizeof(which), data, size);
	if (ret)
		return ret;
	if (which == LKST_FILTER_ALL) {
		first = 0;
		last = LKST_NR_EVENT_IDS - 1;
	} else if (which < LKST_NR_EVENT_IDS) {
		first = array_index_nospec(which, LKST_NR_EVENT_IDS);
		last = first;
	} else {
		return -EINVAL;
	}
	mutex_lock(&lkst_filter_mutex);
	for (event = first; event <= last; event++) {
		old = rcu_replace_pointer(lkst_filters[event], NULL,
					  lockdep_is_held(&lkst_filter_mutex));
		if (old)
			kfree_rcu(old, rcu);
	}
	mutex_unlock(&lkst_filter_mutex);
	return 0;
}

static int lkst_filter_get(void __user *data, u32 size)
{
	struct lkst_filter_entry *f;
	struct lkst_filter_prog *prog;
	unsigned int event;
	int ret = 0;

	if (size != sizeof(*prog))
		return -EINVAL;
	prog = kzalloc(sizeof(*prog), GFP_KERNEL);
	if (!prog)
		return -ENOMEM;
	if (get_user(event, (u32 __user *)data)) {
		ret = -EFAULT;
		goto out;
	}
	if (event >= LKST_NR_EVENT_IDS) {
		ret = -EINVAL;
		goto out;
	}
	event = array_index_nospec(event, LKST_NR_EVENT_IDS);
	mutex_lock(&lkst_filter_mutex);
	f = rcu_dereference_protected(lkst_filters[event],
				      lockdep_is_held(&lkst_filter_mutex));
	if (f)
		*prog = f->prog;
	else
		ret = -ENOENT;
	mutex_unlock(&lkst_filter_mutex);
	if (!ret && copy_to_user(data, prog, sizeof(*prog)))
		ret = -EFAULT;
out:
	kfree(prog);
	return ret;
}

static int lkst_filter_stat(void __user *data, u32 size)
{
	struct lkst_filter_stat st;
	unsigned int cpu, event;
	int ret;

	ret = lkst_ctl_copy_in(&st, sizeof(st), data, size);
	if (ret)
		return ret;
	if (st.event >= LKST_NR_EVENT_IDS || st.__pad)
		return -EINVAL;
	event = array_index_nospec(st.event, LKST_NR_EVENT_IDS);
	st.tested = 0;
	st.passed = 0;
	for_each_possible_cpu(cpu) {
		const struct lkst_filter_counts *c =
			per_cpu_ptr(&lkst_filter_counts, cpu);

		st.tested += READ_ONCE(c->tested[event]);
		st.passed += READ_ONCE(c->passed[event]);
	}
	return copy_to_user(data, &st, sizeof(st)) ? -EFAULT : 0;
}

/* GET returns the caller's own program, STAT counts: no argument values. */
static const struct lkst_ctl_cmd lkst_filter_cmds[] = {
	[LKST_FILTER_SET] = { .fn = lkst_filter_set },
	[LKST_FILTER_CLEAR] = { .fn = lkst_filter_clear },
	[LKST_FILTER_GET] = { .fn = lkst_filter_get },
	[LKST_FILTER_STAT] = { .fn = lkst_filter_stat },
};

static int lkst_filter_control(struct lkst_handler *handler, unsigned int cmd,
			       void __user *data, u32 size)
{
	return lkst_ctl_run(lkst_filter_cmds, ARRAY_SIZE(lkst_filter_cmds),
			    cmd, data, size);
}

static struct lkst_handler lkst_filter_handler = {
	.name = "filter",
	.owner = THIS_MODULE,
	.handle = lkst_filter_handle,
	.control = lkst_filter_control,
	.passes_on = true,
};

static int __init lkst_filter_init(void)
{
	return lkst_handler_register(&lkst_filter_handler);
}

static void __exit lkst_filter_exit(void)
{
	unsigned int event;

	/* No hook runs the handler when this returns. */
	lkst_handler_unregister(&lkst_filter_handler);
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		kfree(rcu_access_pointer(lkst_filters[event]));
}

module_init(lkst_filter_init);
module_exit(lkst_filter_exit);

MODULE_DESCRIPTION("lkst handler: record an event only when its predicate holds");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
