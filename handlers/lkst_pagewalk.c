// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_pagewalk: every second, record which physical pages one process
 * maps, as MEM_PAGE_SNAPSHOT events (LKST's memory demo module).
 *
 * A delayed work item takes the process's mmap lock for reading, walks its
 * VMAs and page tables and records one event per run of pages that are
 * contiguous both virtually and physically: pid, first virtual address,
 * first PFN, pages in the run and the snapshot number, which increases by
 * one per walk.  It stops when the process exits.
 *
 *   insmod lkst_pagewalk.ko pid=123
 *   echo 456 > /sys/module/lkst_pagewalk/parameters/pid   # 0: stop
 *   lkm config -m 3 MEM_PAGE_SNAPSHOT default
 *
 * The walk runs only while the active maskset routes MEM_PAGE_SNAPSHOT, and
 * the records go through the hook dispatcher like any hook's, so masksets,
 * handlers and `lkm stat` apply to them.
 *
 * walk_page_range() and pte_offset_map() are not exported to modules, so
 * the walk is open-coded the way the kernel's own lockless walkers read
 * page tables: the mmap read lock keeps munmap from freeing page tables,
 * and rcu_read_lock() covers tables that khugepaged retracts (freed after
 * a grace period); each entry is read once, locklessly.  A snapshot is a
 * sample, so an entry changing under the walk only makes it a little stale.
 * VM_IO/VM_PFNMAP areas and special PTEs (zero page, device memory) are
 * skipped: what is left is RAM the process owns or shares.
 */
#include <linux/lkst.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pgtable.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>

static unsigned int interval_ms = 1000;
module_param(interval_ms, uint, 0644);
MODULE_PARM_DESC(interval_ms, "time between snapshots in ms (default 1000)");

static unsigned int max_runs = 2048;
module_param(max_runs, uint, 0644);
MODULE_PARM_DESC(max_runs, "runs recorded per snapshot at most, to spare the buffer");

/*
 * Protects watched, watched_nr and live; the work item runs outside it.
 * live: the work may be queued (between init and exit only, since pid
 * can be set while the module is still loading).
 */
static DEFINE_MUTEX(watch_lock);
static struct pid *watched;
static int watched_nr;
static bool live;

static atomic_long_t snapshots = ATOMIC_LONG_INIT(0);
static atomic_long_t truncated = ATOMIC_LONG_INIT(0);

static void pagewalk_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pagewalk_work, pagewalk_fn);

/* The run being built; recorded when the next page does not extend it. */
struct run {
	pid_t pid;
	unsigned long vaddr;
	unsigned long pfn;
	unsigned long pages;
	unsigned long nr_runs;
	u64 snapshot;
};

static void run_emit(struct run *r)
{
	if (!r->pages)
		return;
	if (r->nr_runs < max_runs)
		LKST_HOOK(MEM_PAGE_SNAPSHOT, r->pid, r->vaddr, r->pfn, r->pages,
			  r->snapshot);
	r->nr_runs++;
	r->pages = 0;
}

static void run_add(struct run *r, unsigned long vaddr, unsigned long pfn,
		    unsigned long pages)
{
	if (r->pages && vaddr == r->vaddr + r->pages * PAGE_SIZE &&
	    pfn == r->pfn + r->pages) {
		r->pages += pages;
		return;
	}
	run_emit(r);
	r->vaddr = vaddr;
	r->pfn = pfn;
	r->pages = pages;
}

/* The PTEs of one page table, [addr, end) inside one PMD; under RCU. */
static void walk_ptes(struct run *r, pmd_t pmd, unsigned long addr,
		      unsigned long end)
{
	pte_t *ptep = pte_offset_kernel(&pmd, addr);

	for (; addr < end; addr += PAGE_SIZE, ptep++) {
		pte_t pte = ptep_get(ptep);

		if (pte_present(pte) && !pte_special(pte))
			run_add(r, addr, pte_pfn(pte), 1);
		else
			run_emit(r);
	}
}

static void walk_pmds(struct run *r, pud_t *pudp, unsigned long addr,
		      unsigned long end)
{
	unsigned long next;
	pmd_t *pmdp;
	pmd_t pmd;

	for (pmdp = pmd_offset(pudp, addr); addr < end; addr = next, pmdp++) {
		next = pmd_addr_end(addr, end);
		rcu_read_lock();
		pmd = pmdp_get_lockless(pmdp);
		/* a huge PMD looks "bad" to pmd_bad(): test for a leaf first */
		if (pmd_present(pmd) && pmd_leaf(pmd))
			run_add(r, addr, pmd_pfn(pmd) + ((addr & ~PMD_MASK) >> PAGE_SHIFT),
				(next - addr) >> PAGE_SHIFT);
		else if (pmd_present(pmd) && !pmd_bad(pmd))
			walk_ptes(r, pmd, addr, next);
		else
			run_emit(r);
		rcu_read_unlock();
		cond_resched();
	}
}

static void walk_range(struct run *r, struct mm_struct *mm,
		       unsigned long addr, unsigned long end)
{
	unsigned long next, p4d_next;
	pgd_t *pgdp = pgd_offset(mm, addr);

	for (; addr < end; addr = next, pgdp++) {
		p4d_t *p4dp;

		next = pgd_addr_end(addr, end);
		/* read only: never clear a bad entry from here */
		if (pgd_none(*pgdp) || pgd_bad(*pgdp)) {
			run_emit(r);
			continue;
		}
		for (p4dp = p4d_offset(pgdp, addr); addr < next;
		     addr = p4d_next, p4dp++) {
			unsigned long pud_next;
			pud_t *pudp;

			p4d_next = p4d_addr_end(addr, next);
			if (p4d_none(*p4dp) || p4d_bad(*p4dp)) {
				run_emit(r);
				continue;
			}
			for (pudp = pud_offset(p4dp, addr); addr < p4d_next;
			     addr = pud_next, pudp++) {
				pud_t pud = pudp_get(pudp);

				pud_next = pud_addr_end(addr, p4d_next);
				if (pud_present(pud) && pud_leaf(pud))
					run_add(r, addr, pud_pfn(pud) +
						((addr & ~PUD_MASK) >> PAGE_SHIFT),
						(pud_next - addr) >> PAGE_SHIFT);
				else if (pud_present(pud) && !pud_bad(pud))
					walk_pmds(r, pudp, addr, pud_next);
				else
					run_emit(r);
			}
		}
	}
}

static void snapshot_mm(struct mm_struct *mm, pid_t nr)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct run r = { .pid = nr };
	struct vm_area_struct *vma;

	bool cut = false;

	r.snapshot = atomic_long_inc_return(&snapshots);
	for_each_vma(vmi, vma) {
		if (vma->vm_flags & (VM_IO | VM_PFNMAP))
			continue;
		if (r.nr_runs >= max_runs) {
			cut = true;
			break;
		}
		walk_range(&r, mm, vma->vm_start, vma->vm_end);
	}
	run_emit(&r);
	if (cut || r.nr_runs > max_runs)
		atomic_long_inc(&truncated);
}

/* Forget @pid if it is still the one watched (it exited). */
static void unwatch(struct pid *pid)
{
	mutex_lock(&watch_lock);
	if (watched == pid) {
		put_pid(watched);
		watched = NULL;
		watched_nr = 0;
	}
	mutex_unlock(&watch_lock);
}

static void pagewalk_fn(struct work_struct *work)
{
	unsigned long delay = msecs_to_jiffies(interval_ms ? interval_ms : 1000);
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;
	pid_t nr;

	mutex_lock(&watch_lock);
	pid = get_pid(watched);
	nr = watched_nr;
	mutex_unlock(&watch_lock);
	if (!pid)
		return;

	task = get_pid_task(pid, PIDTYPE_PID);
	mm = task ? get_task_mm(task) : NULL;
	if (task)
		put_task_struct(task);
	if (!mm) {		/* exited (or exiting, or a kernel thread) */
		unwatch(pid);
		put_pid(pid);
		return;
	}

	if (!LKST_HOOK_ENABLED(MEM_PAGE_SNAPSHOT)) {
		/* not routed: no walk */
	} else if (mmap_read_trylock(mm)) {
		snapshot_mm(mm, nr);
		mmap_read_unlock(mm);
	} else {
		/* mmap/munmap in progress: try again soon rather than wait */
		delay = msecs_to_jiffies(20);
	}
	mmput(mm);
	put_pid(pid);
	schedule_delayed_work(&pagewalk_work, delay);
}

/* Writing pid watches that process from now on; 0 stops. */
static int set_pid(const char *val, const struct kernel_param *kp)
{
	struct pid *pid = NULL;
	int nr, ret;

	ret = kstrtoint(val, 0, &nr);
	if (ret)
		return ret;
	if (nr < 0)
		return -EINVAL;
	if (nr) {
		pid = find_get_pid(nr);
		if (!pid)
			return -ESRCH;
	}
	mutex_lock(&watch_lock);
	put_pid(watched);
	watched = pid;
	watched_nr = nr;
	if (pid && live)
		mod_delayed_work(system_wq, &pagewalk_work, 0);
	mutex_unlock(&watch_lock);
	return 0;
}

static int get_pid_param(char *buf, const struct kernel_param *kp)
{
	int nr;

	mutex_lock(&watch_lock);
	nr = watched_nr;
	mutex_unlock(&watch_lock);
	return sysfs_emit(buf, "%d\n", nr);
}

static int get_snapshots(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&snapshots));
}

static int get_truncated(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&truncated));
}

static const struct kernel_param_ops pid_ops = {
	.set = set_pid,
	.get = get_pid_param,
};
static const struct kernel_param_ops snapshots_ops = { .get = get_snapshots };
static const struct kernel_param_ops truncated_ops = { .get = get_truncated };
module_param_cb(pid, &pid_ops, NULL, 0644);
MODULE_PARM_DESC(pid, "process to snapshot every interval_ms (0: none); reads 0 once it exited");
module_param_cb(snapshots, &snapshots_ops, NULL, 0444);
MODULE_PARM_DESC(snapshots, "snapshots taken (the last snapshot number)");
module_param_cb(truncated, &truncated_ops, NULL, 0444);
MODULE_PARM_DESC(truncated, "snapshots cut short at max_runs");

static int __init lkst_pagewalk_init(void)
{
	mutex_lock(&watch_lock);
	live = true;
	if (watched)
		schedule_delayed_work(&pagewalk_work, 0);
	mutex_unlock(&watch_lock);
	return 0;
}

static void __exit lkst_pagewalk_exit(void)
{
	mutex_lock(&watch_lock);
	live = false;
	put_pid(watched);
	watched = NULL;
	watched_nr = 0;
	mutex_unlock(&watch_lock);
	cancel_delayed_work_sync(&pagewalk_work);
}

module_init(lkst_pagewalk_init);
module_exit(lkst_pagewalk_exit);
MODULE_DESCRIPTION("lkst: snapshots of the physical pages a process maps");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
