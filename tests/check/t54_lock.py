"""Lock events: lkst_lock's threads contend for a pipe mutex and for their
mmap_lock; each contention pairs with the acquisition that ends it, by
the same thread on the same lock, with the wait it measured."""
import os
import sys
from collections import Counter

from lkstcheck import EV, check, covers, done, read_csv, read_log_cpus
from scenario_facts import read_facts, rows_since_mark

covers("LOCK_MUTEX_CONTENDED", "LOCK_MUTEX_ACQUIRED",
       "LOCK_RWSEM_CONTENDED", "LOCK_RWSEM_ACQUIRED")
d = sys.argv[1]
prog = read_facts(os.path.join(d, "prog.txt"))
check("done" in prog, "lkst_lock did not finish")
mutex_tids = {int(t) for t in prog["mutex_tids"].split()}
writers = {int(t) for t in prog["rwsem_writer_tids"].split()}
readers = {int(t) for t in prog["rwsem_reader_tids"].split()}
workload = mutex_tids | writers | readers | {int(prog["pid"])}
rows = rows_since_mark(d, "t54_lock")
# The scenario gives each CPU room for the whole workload: a record lost
# to overwriting would make the counts below a matter of luck.
for cpu, c in read_log_cpus(os.path.join(d, "trace.log")).items():
    check(c["lost"] == 0, f"cpu {cpu}: {c['lost']} records of the workload were overwritten")
# The wait is measured inside the two records: its start is read just
# after CONTENDED is recorded, its end just before ACQUIRED is, so it is
# never longer than the records are apart (SLACK_NS: the clock's own
# granularity across CPUs).  It can be much shorter: the task may be
# preempted or interrupted between a record and the clock read beside it
# (seen once: 5.2 ms under KASAN), so there is no lower bound but > 0.
SLACK_NS = 5_000_000


def pairs(contended, acquired, kind, key):
    """Check that per workload task, contentions and acquisitions alternate, each
    pair on one lock (key(row) equal) with a wait matching the records'
    time difference.  Returns the contention records of the workload."""
    c_id, a_id = EV[contended], EV[acquired]
    open_by_pid = {}
    unpaired = bad_wait = 0
    ours = []
    # Other tasks may have been waiting already when tracing began.
    for r in (r for r in rows if r["pid"] in workload):
        if r["id"] == c_id:
            if r["pid"] in open_by_pid:
                unpaired += 1
            open_by_pid[r["pid"]] = r
            ours.append(r)
        elif r["id"] == a_id:
            c = open_by_pid.pop(r["pid"], None)
            if c is None or key(c) != key(r):
                unpaired += 1
                continue
            between = int(r["time"]) - int(c["time"])
            wait = r["arg3"] if kind == "rwsem" else r["arg2"]
            if not 0 < wait <= between + SLACK_NS:
                bad_wait += 1
                print(f"{acquired} pid {r['pid']}: wait {wait} ns, records {between} ns apart")
    # Only a task killed while waiting may leave one open; ours are not.
    left = list(open_by_pid)
    check(unpaired == 0, f"{unpaired} {kind} contentions/acquisitions do not pair up",
          event=contended)
    check(not left, f"{kind} contentions of {left} never acquired", event=acquired)
    check(bad_wait == 0, f"{bad_wait} {kind} waits disagree with the records' times",
          event=acquired)
    return ours


# The pipe mutex: the workload's most contended mutex, queued on by its
# pipe threads, held by one of the workload's threads whenever an owner
# was seen.
ours = pairs("LOCK_MUTEX_CONTENDED", "LOCK_MUTEX_ACQUIRED", "mutex", lambda r: r["arg1"])
piped = [r for r in ours if r["pid"] in mutex_tids]
check(len(piped) >= 5, f"only {len(piped)} mutex contentions by the pipe threads",
      event="LOCK_MUTEX_CONTENDED")
if piped:
    pipe_mutex, n = Counter(r["arg1"] for r in piped).most_common(1)[0]
    check(n >= 0.8 * len(piped),
          f"the pipe threads contended {n} of {len(piped)} times on one mutex",
          event="LOCK_MUTEX_CONTENDED")
    # The main thread holds it too, to close the pipe.
    owners = [r["arg2"] for r in piped if r["arg1"] == pipe_mutex]
    strangers = set(owners) - mutex_tids - {int(prog["pid"]), 0}
    check(not strangers, f"pipe mutex owners {strangers} are not the workload's",
          event="LOCK_MUTEX_CONTENDED")
    check(any(o in mutex_tids for o in owners), "no pipe mutex owner recorded",
          event="LOCK_MUTEX_CONTENDED")
    check(len({r["pid"] for r in piped if r["arg1"] == pipe_mutex}) >= 2,
          "fewer than two pipe threads queued on the pipe mutex",
          event="LOCK_MUTEX_CONTENDED")

# mmap_lock: the readers (mincore) wait on it only for reading, and it is
# one rw_semaphore the writers (mmap/munmap) also wait on for writing.
ours = pairs("LOCK_RWSEM_CONTENDED", "LOCK_RWSEM_ACQUIRED", "rwsem",
             lambda r: (r["arg1"], r["arg2"]))
by_readers = [r for r in ours if r["pid"] in readers]
by_writers = [r for r in ours if r["pid"] in writers]
check(len(by_readers) >= 3, f"only {len(by_readers)} rwsem contentions by mincore threads",
      event="LOCK_RWSEM_CONTENDED")
check(len(by_writers) >= 3, f"only {len(by_writers)} rwsem contentions by mmap threads",
      event="LOCK_RWSEM_CONTENDED")
check(all(r["arg2"] == 0 for r in by_readers), "a mincore thread waited to write",
      event="LOCK_RWSEM_CONTENDED")
mmap_locks = {r["arg1"] for r in by_readers}
check(len(mmap_locks) == 1, f"mincore threads waited on {len(mmap_locks)} rwsems",
      event="LOCK_RWSEM_CONTENDED")
check(any(r["arg2"] == 1 and r["arg1"] in mmap_locks for r in by_writers),
      "the mmap threads never waited to write the readers' mmap_lock",
      event="LOCK_RWSEM_CONTENDED")
acq = [r for r in rows if r["id"] == EV["LOCK_RWSEM_ACQUIRED"] and r["pid"] in readers]
check(acq and all(r["arg1"] in mmap_locks and r["arg2"] == 0 for r in acq),
      "mincore threads acquired something other than mmap_lock for reading",
      event="LOCK_RWSEM_ACQUIRED")
done()
