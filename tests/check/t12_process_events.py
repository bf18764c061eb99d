"""Process management events of lkst_procev, with their arguments."""
import os
import sys

from lkstcheck import EV, check, covers, done, events, read_csv, read_facts

covers("PROCESS_FORK", "PROCESS_WAKEUP_NEW", "PROCESS_EXEC", "PROCESS_EXIT",
       "PROCESS_SIGSEND", "PROCESS_SIGDELIVER", "PROCESS_SETPRIO",
       "PROCESS_MIGRATE", "PROCESS_SLEEP", "PROCESS_WAITQ_INIT",
       "PROCESS_WAITQ_ADD", "PROCESS_WAITQ_REMOVE", "PROCESS_LTHREADGEN")

CLONE_THREAD = 0x10000
SIGUSR1, SIGCHLD = 10, 17
SI_USER, CLD_EXITED = 0, 1
TASK_INTERRUPTIBLE = 1
SCHED_NORMAL, SCHED_FIFO = 0, 1
KTHREADD = 2

d = sys.argv[1]
facts = read_facts(os.path.join(d, "facts.txt"))
comms = {}
with open(os.path.join(d, "comms.txt")) as f:
    for line in f:
        pid, _, comm = line.rstrip("\n").partition(" ")
        comms[int(pid)] = comm

raw = read_csv(os.path.join(d, "trace.csv"))
decoded = read_csv(os.path.join(d, "decoded.csv"))
# The same records in the same order: decoded rows give the names.
check(len(raw) == len(decoded), "raw and decoded prints differ in length")
rows = [dict(r, names=dn) for r, dn in zip(raw, decoded)]
pid, tid = facts["pid"], facts["thread"]
exec_child, sig_child = facts["exec_child"], facts["sig_child"]


def of(name, **want):
    """Rows of event NAME whose fields equal WANT (argN or pid)."""
    return [r for r in events(rows, EV[name])
            if all(r[k] == v for k, v in want.items())]


# fork: a thread of this process, and a child process
thr = of("PROCESS_FORK", arg1=pid, arg2=tid, arg3=pid)
check(len(thr) == 1 and thr[0]["arg4"] & CLONE_THREAD,
      f"thread {tid} fork with CLONE_THREAD: {thr}", event="PROCESS_FORK")
child = of("PROCESS_FORK", arg1=pid, arg2=exec_child, arg3=exec_child)
check(len(child) == 1 and not child[0]["arg4"] & CLONE_THREAD and
      child[0]["names"]["arg5"] == "lkst_procev",
      f"fork of {exec_child}: {child}", event="PROCESS_FORK")

new = of("PROCESS_WAKEUP_NEW", arg1=exec_child)
check(len(new) == 1 and new[0]["arg2"] in (0, 1) and
      new[0]["names"]["arg4"] == "lkst_procev",
      f"wake_up_new_task of {exec_child}: {new}", event="PROCESS_WAKEUP_NEW")

ex = of("PROCESS_EXEC", pid=exec_child, arg1=exec_child, arg2=exec_child)
check(len(ex) == 1 and ex[0]["names"]["arg3"] == "sh",
      f"exec of sh by {exec_child}: {ex}", event="PROCESS_EXEC")

# exit: "exit 7" is code 0x700, the last of its group; the thread is not
gone = of("PROCESS_EXIT", arg1=exec_child, arg2=exec_child)
check(len(gone) == 1 and gone[0]["arg3"] == 0x700 and gone[0]["arg4"] == 1 and
      gone[0]["names"]["arg5"] == "sh", f"exit of {exec_child}: {gone}",
      event="PROCESS_EXIT")
thr_gone = of("PROCESS_EXIT", arg1=tid, arg2=pid)
check(len(thr_gone) == 1 and thr_gone[0]["arg4"] == 0,
      f"exit of thread {tid}: {thr_gone}", event="PROCESS_EXIT")

# kill(sig_child, SIGUSR1) and the SIGCHLD its exit sends back
usr1 = of("PROCESS_SIGSEND", pid=pid, arg1=SIGUSR1, arg2=sig_child)
check(len(usr1) == 1 and usr1[0]["arg3"] == SI_USER and usr1[0]["arg4"] == 1 and
      usr1[0]["arg5"] == 0, f"SIGUSR1 sent to {sig_child}: {usr1}",
      event="PROCESS_SIGSEND")
chld = of("PROCESS_SIGSEND", pid=sig_child, arg1=SIGCHLD, arg2=pid)
check(len(chld) == 1 and chld[0]["arg3"] == CLD_EXITED,
      f"SIGCHLD from {sig_child}: {chld}", event="PROCESS_SIGSEND")
dlv = of("PROCESS_SIGDELIVER", pid=sig_child, arg1=SIGUSR1)
check(len(dlv) == 1 and dlv[0]["arg2"] == SI_USER and
      dlv[0]["arg3"] == facts["handler"],
      f"SIGUSR1 delivered to handler {facts['handler']:#x}: {dlv}",
      event="PROCESS_SIGDELIVER")

# nice 5, then SCHED_FIFO 10, then back to normal (nice stays 5)
prio = [(r["arg2"], r["arg3"], r["arg4"], r["arg5"])
        for r in of("PROCESS_SETPRIO", arg1=pid)]
check(prio == [(120, 125, SCHED_NORMAL, 5), (125, 89, SCHED_FIFO, 5),
               (89, 125, SCHED_NORMAL, 5)],
      f"priority changes (old, new, policy, nice): {prio}", event="PROCESS_SETPRIO")

# Pinned to CPU 0, then 1, then 0: a move 0 -> 1 followed by 1 -> 0 (it may
# have moved before, wherever fork balancing put it).
moves = [(r["arg2"], r["arg3"]) for r in of("PROCESS_MIGRATE", arg1=pid)]
to_1 = moves.index((0, 1)) if (0, 1) in moves else len(moves)
check((1, 0) in moves[to_1 + 1:],
      f"migrations to CPU 1 and back: {moves}", event="PROCESS_MIGRATE")

# nanosleep, waitpid and the pipe read sleep interruptibly (nanosleep adds
# TASK_FREEZABLE), none of them cut short by a signal.
sleeps = [r for r in of("PROCESS_SLEEP", pid=pid, arg2=0) if r["arg1"] & TASK_INTERRUPTIBLE]
check(len(sleeps) >= 3, f"{len(sleeps)} interruptible sleeps of {pid}",
      event="PROCESS_SLEEP")

# pipe(): its two wait queue heads; the blocking read adds an exclusive
# entry that the writer's wakeup removes.
check(len(of("PROCESS_WAITQ_INIT", pid=pid)) >= 2,
      f"pipe() by {pid} initialized no wait queues", event="PROCESS_WAITQ_INIT")
adds = of("PROCESS_WAITQ_ADD", pid=pid, arg3=pid, arg4=1)
removed = {r["arg2"] for r in of("PROCESS_WAITQ_REMOVE", arg3=pid)}
check(adds, f"no exclusive wait queue entry added by {pid}", event="PROCESS_WAITQ_ADD")
check(any(a["arg2"] in removed for a in adds),
      "no exclusive entry of the pipe reader is removed again",
      event="PROCESS_WAITQ_REMOVE")

# kernel threads: created by kthreadd, named as /proc shows them (a
# worker's /proc name adds "-" or "+" and its last workqueue)
# Only those created after the workload began (its first fork): the
# buffers also hold records from boot.
start = min((int(r["time"]) for r in of("PROCESS_FORK", arg1=pid)), default=None)
kthreads = [r for r in of("PROCESS_LTHREADGEN", arg4=KTHREADD)
            if start is not None and int(r["time"]) > start]


def same_thread_name(proc, name):
    return proc is not None and (proc == name[:15] or proc.startswith((name + "-", name + "+")))


named = [r for r in kthreads if same_thread_name(comms.get(r["arg1"]), r["names"]["arg5"])]
check(named, f"no kernel thread created by kthreadd that /proc names the same: "
      f"{[(r['arg1'], r['names']['arg5']) for r in kthreads]}",
      event="PROCESS_LTHREADGEN")
# ... and by the function they run: a kworker's is worker_thread, never
# kthread(), the common entry of kthreadd's children.
syms = {}
for line in open(os.path.join(d, "kallsyms.txt")):
    addr, _kind, name = line.split()[:3]
    syms[name] = int(addr, 16)
workers = [r for r in named if r["names"]["arg5"].startswith("kworker")]
check(workers and all(r["arg2"] == syms.get("worker_thread") for r in workers),
      f"kworker threads' functions {[hex(r['arg2']) for r in workers]}, expected "
      f"worker_thread {syms.get('worker_thread', 0):#x} (kthread is "
      f"{syms.get('kthread', 0):#x})", event="PROCESS_LTHREADGEN")
done()
