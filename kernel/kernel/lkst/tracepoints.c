// SPDX-License-Identifier: GPL-2.0
/*
 * lkst.ko on a kernel without the lkst patch: events from the kernel's own
 * tracepoints (docs/stock.md).
 *
 * Each probe records with the event ID and argument layout of the patch's
 * hook beside that tracepoint, through the same LKST_HOOK() (its static key
 * and argument count check), so tools, handlers and checkers see the same
 * records.  A tracepoint's probe is registered only while the active
 * maskset routes one of its events: lkc_tracepoints_sync() runs where the
 * core brings the static keys in line, in process context under lkst_mutex
 * (a switch from hook context defers to a work item, maskset.c).
 *
 * The kernel's own trace headers are included: a probe whose prototype
 * differs from the tracepoint's in the kernel the module is built for
 * fails the build (LKST_TP_CHECK), and DKMS builds for each kernel.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/netdevice.h>
#include <linux/sched/signal.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/syscall.h>
#include <trace/events/block.h>
#include <trace/events/ipi.h>
#include <trace/events/irq.h>
#include <trace/events/kmem.h>
#include <trace/events/napi.h>
#include <trace/events/net.h>
#include <trace/events/sched.h>
#include <trace/events/signal.h>
#include <trace/events/syscalls.h>
#include <trace/events/timer.h>
#include <trace/events/workqueue.h>
#ifdef CONFIG_X86
#include <asm/trace/exceptions.h>
#include <asm/trace/irq_vectors.h>
#endif
#include "internal.h"

/* sched */

static void lkst_tp_sched_switch(void *data, bool preempt,
				 struct task_struct *prev,
				 struct task_struct *next,
				 unsigned int prev_state)
{
	LKST_HOOK(PROCESS_CONTEXTSWITCH, prev->pid, next->pid,
		  preempt ? TASK_RUNNING : prev_state, next->prio,
		  lkst_comm_arg(next->comm, 0), lkst_comm_arg(next->comm, 1));
}

static void lkst_tp_sched_waking(void *data, struct task_struct *p)
{
	LKST_HOOK(PROCESS_WAKEUP, p->pid, READ_ONCE(p->__state), task_cpu(p),
		  p->prio, lkst_comm_arg(p->comm, 0),
		  lkst_comm_arg(p->comm, 1));
}

static void lkst_tp_sched_wakeup_new(void *data, struct task_struct *p)
{
	LKST_HOOK(PROCESS_WAKEUP_NEW, p->pid, task_cpu(p), p->prio,
		  lkst_comm_arg(p->comm, 0), lkst_comm_arg(p->comm, 1));
}

static void lkst_tp_sched_migrate_task(void *data, struct task_struct *p,
				       int new_cpu)
{
	LKST_HOOK(PROCESS_MIGRATE, p->pid, task_cpu(p), new_cpu, p->prio);
}

/* clone_flags is not in the tracepoint: 0 (LKST_EVENT_TWIN_PARTIAL). */
static void lkst_tp_sched_process_fork(void *data, struct task_struct *parent,
				       struct task_struct *child)
{
	LKST_HOOK(PROCESS_FORK, parent->pid, child->pid, child->tgid, 0,
		  lkst_comm_arg(child->comm, 0), lkst_comm_arg(child->comm, 1));
}

static void lkst_tp_sched_process_exec(void *data, struct task_struct *p,
				       pid_t old_pid,
				       struct linux_binprm *bprm)
{
	LKST_HOOK(PROCESS_EXEC, p->pid, old_pid, lkst_comm_arg(p->comm, 0),
		  lkst_comm_arg(p->comm, 1));
}

/*
 * do_exit() has set exit_code and counted the thread out of signal->live
 * (group_dead) before the tracepoint.
 */
static void lkst_tp_sched_process_exit(void *data, struct task_struct *p)
{
	LKST_HOOK(PROCESS_EXIT, p->pid, p->tgid, p->exit_code,
		  !atomic_read(&p->signal->live),
		  lkst_comm_arg(p->comm, 0), lkst_comm_arg(p->comm, 1));
}

/* signal */

/* As the hooks read it: a fatal SIGKILL is delivered with no siginfo. */
static int lkst_tp_si_code(struct kernel_siginfo *info)
{
	if (info == SEND_SIG_NOINFO)
		return SI_USER;
	if (info == SEND_SIG_PRIV)
		return SI_KERNEL;
	return info->si_code;
}

static void lkst_tp_signal_generate(void *data, int sig,
				    struct kernel_siginfo *info,
				    struct task_struct *task, int group,
				    int result)
{
	LKST_HOOK(PROCESS_SIGSEND, sig, task_pid_nr(task), lkst_tp_si_code(info),
		  group, result);
}

static void lkst_tp_signal_deliver(void *data, int sig,
				   struct kernel_siginfo *info,
				   struct k_sigaction *ka)
{
	LKST_HOOK(PROCESS_SIGDELIVER, sig, lkst_tp_si_code(info),
		  ka->sa.sa_handler, ka->sa.sa_flags);
}

/* interrupts */

static void lkst_tp_irq_handler_entry(void *data, int irq,
				      struct irqaction *action)
{
	LKST_HOOK(INT_HARDWARE_ENTRY, irq, action->handler, action->dev_id);
}

static void lkst_tp_irq_handler_exit(void *data, int irq,
				     struct irqaction *action, int ret)
{
	LKST_HOOK(INT_HARDWARE_EXIT, irq, ret, action->handler);
}

/* softirq_vec[] is not exported: the action is 0 (TWIN_PARTIAL). */
static void lkst_tp_softirq_entry(void *data, unsigned int vec_nr)
{
	LKST_HOOK(INT_SOFTIRQ_ENTRY, vec_nr, 0);
}

static void lkst_tp_softirq_exit(void *data, unsigned int vec_nr)
{
	LKST_HOOK(INT_SOFTIRQ_EXIT, vec_nr, 0);
}

static void lkst_tp_softirq_raise(void *data, unsigned int vec_nr)
{
	LKST_HOOK(INT_SOFTIRQ_RAISE, vec_nr);
}

/* The target also as a mask, so that single-CPU and mask IPIs compare. */
static void lkst_tp_ipi_send_cpu(void *data, const unsigned int cpu,
				 unsigned long callsite, void *callback)
{
	LKST_HOOK(INT_IPI_SEND, cpu, cpu < BITS_PER_LONG ? 1UL << cpu : 0,
		  callback, callsite);
}

static void lkst_tp_ipi_send_cpumask(void *data, const struct cpumask *mask,
				     unsigned long callsite, void *callback)
{
	LKST_HOOK(INT_IPI_SEND, -1, cpumask_bits(mask)[0], callback, callsite);
}

/* The pool is private to workqueue.c: pool_cpu is 0 (TWIN_PARTIAL). */
static void lkst_tp_workqueue_queue_work(void *data, int req_cpu,
					 struct pool_workqueue *pwq,
					 struct work_struct *work)
{
	LKST_HOOK(INT_WORKQUEUE_QUEUE, work->func, work,
		  req_cpu == WORK_CPU_UNBOUND ? -1 : req_cpu, 0);
}

static void lkst_tp_workqueue_execute_start(void *data,
					    struct work_struct *work)
{
	LKST_HOOK(INT_WORKQUEUE_START, work->func, work);
}

static void lkst_tp_workqueue_execute_end(void *data,
					  struct work_struct *work,
					  work_func_t function)
{
	LKST_HOOK(INT_WORKQUEUE_END, function, work);
}

#ifdef CONFIG_X86
static void lkst_tp_vector_entry(void *data, int vector)
{
	LKST_HOOK(INT_VECTOR_ENTRY, vector);
}

static void lkst_tp_vector_exit(void *data, int vector)
{
	LKST_HOOK(INT_VECTOR_EXIT, vector);
}

static void lkst_tp_page_fault(void *data, unsigned long address,
			       struct pt_regs *regs, unsigned long error_code)
{
	LKST_HOOK(EXCEPTION_PAGEFAULT_ENTRY, address, error_code, regs->ip,
		  user_mode(regs));
}
#endif

/* system calls: the six arguments of either ABI */

static u64 lkst_syscall_nr_abi(struct pt_regs *regs)
{
	return LKST_SYSCALL_NR_ABI(syscall_get_nr(current, regs),
				   in_compat_syscall() ?
				   LKST_SYSCALL_ABI_IA32 :
				   LKST_SYSCALL_ABI_NATIVE);
}

static void lkst_tp_sys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[6];
	u64 nr = LKST_SYSCALL_NR_ABI(id, in_compat_syscall() ?
				     LKST_SYSCALL_ABI_IA32 :
				     LKST_SYSCALL_ABI_NATIVE);

	syscall_get_arguments(current, regs, args);
	LKST_HOOK(SYSCALL_ENTRY, nr, args[0], args[1], args[2], args[3],
		  args[4]);
	LKST_HOOK(SYSCALL_ENTRY_ARG5, nr, args[5]);
}

static void lkst_tp_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	LKST_HOOK(SYSCALL_EXIT, lkst_syscall_nr_abi(regs), ret);
}

/* memory */

static void lkst_tp_mm_page_alloc(void *data, struct page *page,
				  unsigned int order, gfp_t gfp,
				  int migratetype)
{
	if (page)
		LKST_HOOK(MEM_PAGE_ALLOC, page_to_pfn(page), order,
			  (__force u32)gfp, migratetype);
}

static void lkst_tp_mm_page_free(void *data, struct page *page,
				 unsigned int order)
{
	LKST_HOOK(MEM_PAGE_FREE, page_to_pfn(page), order);
}

static void lkst_tp_kfree(void *data, unsigned long call_site,
			  const void *ptr)
{
	LKST_HOOK(MEM_SLAB_FREE, ptr, call_site);
}

static void lkst_tp_kmem_cache_free(void *data, unsigned long call_site,
				    const void *ptr,
				    const struct kmem_cache *s)
{
	LKST_HOOK(MEM_SLAB_FREE, ptr, call_site);
}

/* block and net */

static void lkst_tp_block_bio_queue(void *data, struct bio *bio)
{
	LKST_HOOK(BLOCK_BIO_SUBMIT, bio_dev(bio), bio->bi_iter.bi_sector,
		  bio->bi_iter.bi_size, bio->bi_opf);
}

static void lkst_tp_block_rq_issue(void *data, struct request *rq)
{
	LKST_HOOK(BLOCK_RQ_ISSUE, rq->q->disk ? disk_devt(rq->q->disk) : 0,
		  blk_rq_pos(rq), blk_rq_bytes(rq), rq->cmd_flags);
}

static void lkst_tp_block_rq_complete(void *data, struct request *rq,
				      blk_status_t error,
				      unsigned int nr_bytes)
{
	LKST_HOOK(BLOCK_RQ_COMPLETE,
		  rq->q->disk ? disk_devt(rq->q->disk) : 0, blk_rq_pos(rq),
		  nr_bytes, blk_status_to_errno(error), rq->start_time_ns);
}

static void lkst_tp_napi_poll(void *data, struct napi_struct *napi,
			      int work, int budget)
{
	LKST_HOOK(NET_NAPI_POLL, napi, work, budget,
		  napi->dev ? napi->dev->ifindex : 0);
}

static void lkst_tp_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
				 struct net_device *dev, unsigned int len)
{
	LKST_HOOK(NET_XMIT, len, ntohs(skb->protocol), dev->ifindex, rc,
		  lkst_comm_arg(dev->name, 0), lkst_comm_arg(dev->name, 1));
}

static void lkst_tp_netif_receive_skb(void *data, struct sk_buff *skb)
{
	LKST_HOOK(NET_RECEIVE, skb->len, ntohs(skb->protocol),
		  skb->dev->ifindex, skb->pkt_type,
		  lkst_comm_arg(skb->dev->name, 0),
		  lkst_comm_arg(skb->dev->name, 1));
}

/* timers */

static void lkst_tp_timer_start(void *data, struct timer_list *timer,
				unsigned long bucket_expiry)
{
	LKST_HOOK(TIMER_ADD, timer, timer->function, timer->expires, jiffies,
		  timer->flags & TIMER_CPUMASK);
}

static void lkst_tp_timer_expire_entry(void *data, struct timer_list *timer,
				       unsigned long baseclk)
{
	LKST_HOOK(TIMER_EXPIRE_ENTRY, timer, timer->function, jiffies);
}

/* Only the address: the function may have freed the timer. */
static void lkst_tp_timer_expire_exit(void *data, struct timer_list *timer)
{
	LKST_HOOK(TIMER_EXPIRE_EXIT, timer, 0);
}

static void lkst_tp_hrtimer_start(void *data, struct hrtimer *timer,
				  enum hrtimer_mode mode, bool was_armed)
{
	LKST_HOOK(HRTIMER_START, timer, timer->function,
		  hrtimer_get_softexpires_tv64(timer), mode,
		  hrtimer_get_expires_tv64(timer), timer->base->clockid);
}

static void lkst_tp_hrtimer_expire_entry(void *data, struct hrtimer *timer,
					 ktime_t *now)
{
	LKST_HOOK(HRTIMER_EXPIRE_ENTRY, timer, timer->function,
		  ktime_to_ns(*now));
}

/*
 * The callback may have freed the timer, and the tracepoint gives no restart
 * value: the address only (TWIN_PARTIAL).
 */
static void lkst_tp_hrtimer_expire_exit(void *data, struct hrtimer *timer)
{
	LKST_HOOK(HRTIMER_EXPIRE_EXIT, timer, 0, 0);
}

/*
 * One tracepoint: the events it feeds (0 pads: no event has ID 0), and
 * whether its probe is registered now.
 */
struct lkst_tp {
	const char *name;
	void *probe;
	u16 events[2];
	struct tracepoint *tp;
	bool registered;
};

/*
 * A probe's prototype is checked against the tracepoint's in the kernel's
 * trace header: register_trace_NAME() takes only the right one.  Inside
 * sizeof, nothing is called or linked.
 */
#define LKST_TP(tpname, fn, ...)					\
	{ .name = #tpname, .probe = fn, .events = { __VA_ARGS__ } }
#define LKST_TP_CHECK(tpname, fn)					\
	static_assert(sizeof(register_trace_##tpname(fn, NULL)))

#define EV(e)	LKST_EV_##e

static struct lkst_tp lkst_tps[] = {
	LKST_TP(sched_switch, lkst_tp_sched_switch, EV(PROCESS_CONTEXTSWITCH)),
	LKST_TP(sched_waking, lkst_tp_sched_waking, EV(PROCESS_WAKEUP)),
	LKST_TP(sched_wakeup_new, lkst_tp_sched_wakeup_new,
		EV(PROCESS_WAKEUP_NEW)),
	LKST_TP(sched_migrate_task, lkst_tp_sched_migrate_task,
		EV(PROCESS_MIGRATE)),
	LKST_TP(sched_process_fork, lkst_tp_sched_process_fork,
		EV(PROCESS_FORK)),
	LKST_TP(sched_process_exec, lkst_tp_sched_process_exec,
		EV(PROCESS_EXEC)),
	LKST_TP(sched_process_exit, lkst_tp_sched_process_exit,
		EV(PROCESS_EXIT)),
	LKST_TP(signal_generate, lkst_tp_signal_generate, EV(PROCESS_SIGSEND)),
	LKST_TP(signal_deliver, lkst_tp_signal_deliver,
		EV(PROCESS_SIGDELIVER)),
	LKST_TP(irq_handler_entry, lkst_tp_irq_handler_entry,
		EV(INT_HARDWARE_ENTRY)),
	LKST_TP(irq_handler_exit, lkst_tp_irq_handler_exit,
		EV(INT_HARDWARE_EXIT)),
	LKST_TP(softirq_entry, lkst_tp_softirq_entry, EV(INT_SOFTIRQ_ENTRY)),
	LKST_TP(softirq_exit, lkst_tp_softirq_exit, EV(INT_SOFTIRQ_EXIT)),
	LKST_TP(softirq_raise, lkst_tp_softirq_raise, EV(INT_SOFTIRQ_RAISE)),
	LKST_TP(ipi_send_cpu, lkst_tp_ipi_send_cpu, EV(INT_IPI_SEND)),
	LKST_TP(ipi_send_cpumask, lkst_tp_ipi_send_cpumask, EV(INT_IPI_SEND)),
	LKST_TP(workqueue_queue_work, lkst_tp_workqueue_queue_work,
		EV(INT_WORKQUEUE_QUEUE)),
	LKST_TP(workqueue_execute_start, lkst_tp_workqueue_execute_start,
		EV(INT_WORKQUEUE_START)),
	LKST_TP(workqueue_execute_end, lkst_tp_workqueue_execute_end,
		EV(INT_WORKQUEUE_END)),
#ifdef CONFIG_X86
	LKST_TP(local_timer_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(local_timer_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(reschedule_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(reschedule_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(call_function_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(call_function_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(call_function_single_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(call_function_single_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(irq_work_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(irq_work_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(spurious_apic_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(spurious_apic_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(error_apic_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(error_apic_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(x86_platform_ipi_entry, lkst_tp_vector_entry,
		EV(INT_VECTOR_ENTRY)),
	LKST_TP(x86_platform_ipi_exit, lkst_tp_vector_exit, EV(INT_VECTOR_EXIT)),
	LKST_TP(page_fault_user, lkst_tp_page_fault,
		EV(EXCEPTION_PAGEFAULT_ENTRY)),
	LKST_TP(page_fault_kernel, lkst_tp_page_fault,
		EV(EXCEPTION_PAGEFAULT_ENTRY)),
#endif
	LKST_TP(sys_enter, lkst_tp_sys_enter, EV(SYSCALL_ENTRY),
		EV(SYSCALL_ENTRY_ARG5)),
	LKST_TP(sys_exit, lkst_tp_sys_exit, EV(SYSCALL_EXIT)),
	LKST_TP(mm_page_alloc, lkst_tp_mm_page_alloc, EV(MEM_PAGE_ALLOC)),
	LKST_TP(mm_page_free, lkst_tp_mm_page_free, EV(MEM_PAGE_FREE)),
	LKST_TP(kfree, lkst_tp_kfree, EV(MEM_SLAB_FREE)),
	LKST_TP(kmem_cache_free, lkst_tp_kmem_cache_free, EV(MEM_SLAB_FREE)),
	LKST_TP(block_bio_queue, lkst_tp_block_bio_queue,
		EV(BLOCK_BIO_SUBMIT)),
	LKST_TP(block_rq_issue, lkst_tp_block_rq_issue, EV(BLOCK_RQ_ISSUE)),
	LKST_TP(block_rq_complete, lkst_tp_block_rq_complete,
		EV(BLOCK_RQ_COMPLETE)),
	LKST_TP(napi_poll, lkst_tp_napi_poll, EV(NET_NAPI_POLL)),
	LKST_TP(net_dev_xmit, lkst_tp_net_dev_xmit, EV(NET_XMIT)),
	LKST_TP(netif_receive_skb, lkst_tp_netif_receive_skb, EV(NET_RECEIVE)),
	LKST_TP(timer_start, lkst_tp_timer_start, EV(TIMER_ADD)),
	LKST_TP(timer_expire_entry, lkst_tp_timer_expire_entry,
		EV(TIMER_EXPIRE_ENTRY)),
	LKST_TP(timer_expire_exit, lkst_tp_timer_expire_exit,
		EV(TIMER_EXPIRE_EXIT)),
	LKST_TP(hrtimer_start, lkst_tp_hrtimer_start, EV(HRTIMER_START)),
	LKST_TP(hrtimer_expire_entry, lkst_tp_hrtimer_expire_entry,
		EV(HRTIMER_EXPIRE_ENTRY)),
	LKST_TP(hrtimer_expire_exit, lkst_tp_hrtimer_expire_exit,
		EV(HRTIMER_EXPIRE_EXIT)),
};

LKST_TP_CHECK(sched_switch, lkst_tp_sched_switch);
LKST_TP_CHECK(sched_waking, lkst_tp_sched_waking);
LKST_TP_CHECK(sched_wakeup_new, lkst_tp_sched_wakeup_new);
LKST_TP_CHECK(sched_migrate_task, lkst_tp_sched_migrate_task);
LKST_TP_CHECK(sched_process_fork, lkst_tp_sched_process_fork);
LKST_TP_CHECK(sched_process_exec, lkst_tp_sched_process_exec);
LKST_TP_CHECK(sched_process_exit, lkst_tp_sched_process_exit);
LKST_TP_CHECK(signal_generate, lkst_tp_signal_generate);
LKST_TP_CHECK(signal_deliver, lkst_tp_signal_deliver);
LKST_TP_CHECK(irq_handler_entry, lkst_tp_irq_handler_entry);
LKST_TP_CHECK(irq_handler_exit, lkst_tp_irq_handler_exit);
LKST_TP_CHECK(softirq_entry, lkst_tp_softirq_entry);
LKST_TP_CHECK(softirq_exit, lkst_tp_softirq_exit);
LKST_TP_CHECK(softirq_raise, lkst_tp_softirq_raise);
LKST_TP_CHECK(ipi_send_cpu, lkst_tp_ipi_send_cpu);
LKST_TP_CHECK(ipi_send_cpumask, lkst_tp_ipi_send_cpumask);
LKST_TP_CHECK(workqueue_queue_work, lkst_tp_workqueue_queue_work);
LKST_TP_CHECK(workqueue_execute_start, lkst_tp_workqueue_execute_start);
LKST_TP_CHECK(workqueue_execute_end, lkst_tp_workqueue_execute_end);
#ifdef CONFIG_X86
LKST_TP_CHECK(local_timer_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(local_timer_exit, lkst_tp_vector_exit);
LKST_TP_CHECK(reschedule_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(call_function_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(call_function_single_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(irq_work_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(spurious_apic_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(error_apic_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(x86_platform_ipi_entry, lkst_tp_vector_entry);
LKST_TP_CHECK(page_fault_user, lkst_tp_page_fault);
LKST_TP_CHECK(page_fault_kernel, lkst_tp_page_fault);
#endif
LKST_TP_CHECK(sys_enter, lkst_tp_sys_enter);
LKST_TP_CHECK(sys_exit, lkst_tp_sys_exit);
LKST_TP_CHECK(mm_page_alloc, lkst_tp_mm_page_alloc);
LKST_TP_CHECK(mm_page_free, lkst_tp_mm_page_free);
LKST_TP_CHECK(kfree, lkst_tp_kfree);
LKST_TP_CHECK(kmem_cache_free, lkst_tp_kmem_cache_free);
LKST_TP_CHECK(block_bio_queue, lkst_tp_block_bio_queue);
LKST_TP_CHECK(block_rq_issue, lkst_tp_block_rq_issue);
LKST_TP_CHECK(block_rq_complete, lkst_tp_block_rq_complete);
LKST_TP_CHECK(napi_poll, lkst_tp_napi_poll);
LKST_TP_CHECK(net_dev_xmit, lkst_tp_net_dev_xmit);
LKST_TP_CHECK(netif_receive_skb, lkst_tp_netif_receive_skb);
LKST_TP_CHECK(timer_start, lkst_tp_timer_start);
LKST_TP_CHECK(timer_expire_entry, lkst_tp_timer_expire_entry);
LKST_TP_CHECK(timer_expire_exit, lkst_tp_timer_expire_exit);
LKST_TP_CHECK(hrtimer_start, lkst_tp_hrtimer_start);
LKST_TP_CHECK(hrtimer_expire_entry, lkst_tp_hrtimer_expire_entry);
LKST_TP_CHECK(hrtimer_expire_exit, lkst_tp_hrtimer_expire_exit);

/*
 * Recorded from a tracepoint that carries less than the patch's hook: the
 * arguments it lacks are 0 (docs/stock.md lists which).
 */
static const u16 lkst_tp_partial[] = {
	EV(PROCESS_FORK), EV(INT_SOFTIRQ_ENTRY), EV(INT_SOFTIRQ_EXIT),
	EV(INT_WORKQUEUE_QUEUE), EV(TIMER_EXPIRE_EXIT), EV(HRTIMER_EXPIRE_EXIT),
};

/* No hook site: the tracer or a handler writes them, here as with the patch. */
static const u16 lkst_tp_written[] = {
	EV(USER_MARK), EV(STACK_KERNEL), EV(STACK_USER), EV(SYSCALL_ERROR),
	EV(MEM_PAGE_SNAPSHOT),
};

static bool lkst_tp_in(const u16 *list, size_t n, unsigned int event)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] == event)
			return true;
	return false;
}

static bool lkst_tp_feeds(const struct lkst_tp *t, unsigned int event)
{
	return t->events[0] == event || (t->events[1] && t->events[1] == event);
}

/* LKST_EVENT_* flags of @event on this kernel (the event table). */
u32 lkc_event_site_flags(unsigned int event)
{
	bool twin = false, found = false;
	unsigned int i;

	if (event >= LKST_EV_PROBE_FIRST ||
	    lkst_tp_in(lkst_tp_written, ARRAY_SIZE(lkst_tp_written), event))
		return 0;
	for (i = 0; i < ARRAY_SIZE(lkst_tps); i++) {
		if (!lkst_tp_feeds(&lkst_tps[i], event))
			continue;
		twin = true;
		found |= !!lkst_tps[i].tp;
	}
	if (!twin)
		return LKST_EVENT_ABSENT | LKST_EVENT_NO_TWIN;
	if (!found)
		return LKST_EVENT_ABSENT | LKST_EVENT_TWIN_MISSING;
	if (lkst_tp_in(lkst_tp_partial, ARRAY_SIZE(lkst_tp_partial), event))
		return LKST_EVENT_TWIN_PARTIAL;
	return 0;
}

static void lkst_tp_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lkst_tps); i++)
		if (!strcmp(tp->name, lkst_tps[i].name))
			lkst_tps[i].tp = tp;
}

int lkc_tracepoints_init(void)
{
	unsigned int i, found = 0;

	for_each_kernel_tracepoint(lkst_tp_find, NULL);
	for (i = 0; i < ARRAY_SIZE(lkst_tps); i++) {
		if (lkst_tps[i].tp)
			found++;
		else
			pr_info("no tracepoint %s on this kernel\n",
				lkst_tps[i].name);
	}
	pr_info("%u of %zu tracepoints found\n", found, ARRAY_SIZE(lkst_tps));
	return 0;
}

/* In the kernel log, as the event table says it (tests/stock reads it). */
void lkc_tracepoints_report(void)
{
	unsigned int event, absent = 0, partial = 0;
	const struct lkst_event_info *info;
	u32 flags;

	for (event = 0; event < LKST_EV_PROBE_FIRST; event++) {
		info = lkc_event_info(event);
		if (!info)
			continue;
		flags = lkc_event_site_flags(event);
		if (flags & LKST_EVENT_ABSENT) {
			absent++;
			pr_info("absent: %s (%s)\n", info->mnemonic,
				!(flags & LKST_EVENT_NO_TWIN) ?
				"its tracepoint is not in this kernel" :
				info->twin[0] ? "its tracepoint is not fed" :
				"no upstream tracepoint");
		} else if (flags & LKST_EVENT_TWIN_PARTIAL) {
			partial++;
			pr_info("partial: %s (its tracepoint carries less)\n",
				info->mnemonic);
		}
	}
	pr_info("%u of %u events absent without the lkst patch, %u partial\n",
		absent, lkc_nr_events(), partial);
}

/*
 * Register the probes of the tracepoints some routed event needs, and
 * unregister the others: with the static keys, under lkst_mutex.
 */
void lkc_tracepoints_sync(void)
{
	unsigned int i, j;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	for (i = 0; i < ARRAY_SIZE(lkst_tps); i++) {
		struct lkst_tp *t = &lkst_tps[i];
		bool want = false;

		for (j = 0; j < ARRAY_SIZE(t->events); j++)
			if (t->events[j])
				want |= static_key_enabled(
					&lkst_event_keys[t->events[j]]);
		if (!t->tp || want == t->registered)
			continue;
		if (want)
			ret = tracepoint_probe_register(t->tp, t->probe, NULL);
		else
			ret = tracepoint_probe_unregister(t->tp, t->probe, NULL);
		if (ret)
			pr_warn("tracepoint %s: %s failed (%d)\n", t->name,
				want ? "register" : "unregister", ret);
		else
			t->registered = want;
	}
}

/* After every key is off: no probe can still run once this returns. */
void lkc_tracepoints_exit(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lkst_tps); i++)
		if (lkst_tps[i].registered) {
			tracepoint_probe_unregister(lkst_tps[i].tp,
						    lkst_tps[i].probe, NULL);
			lkst_tps[i].registered = false;
		}
	tracepoint_synchronize_unregister();
}
