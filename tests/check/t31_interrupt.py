"""Interrupts: the scratch disk's IRQs and the flusher work sync() queued,
the VT keyboard tasklet KDSETLED scheduled (with its softirq), and the IPIs
of a two-CPU ping-pong and TLB shootdowns."""
import os
import re
import sys

from lkstcheck import (ARCH, EV, check, covers, done, events, read_csv, read_kallsyms,
                       read_prog_keyed)

covers("INT_HARDWARE_ENTRY", "INT_HARDWARE_EXIT",
       "INT_TASKLET_ENTRY", "INT_TASKLET_EXIT",
       "INT_SOFTIRQ_ENTRY", "INT_SOFTIRQ_EXIT", "INT_SOFTIRQ_RAISE",
       "INT_IPI_SEND", "INT_VECTOR_ENTRY", "INT_VECTOR_EXIT",
       "INT_WORKQUEUE_QUEUE", "INT_WORKQUEUE_START", "INT_WORKQUEUE_END")

TASKLET_SOFTIRQ = 6
RESCHEDULE_VECTOR, CALL_FUNCTION_VECTOR, CALL_FUNCTION_SINGLE_VECTOR = 0xfd, 0xfc, 0xfb
LOCAL_TIMER_VECTOR, IRQ_WORK_VECTOR = 0xec, 0xf6
if ARCH == "aarch64":
    # arm64 records its IPI number (enum ipi_msg_type) as the vector; one
    # IPI_CALL_FUNC serves one CPU and many; the arch timer is a per-CPU
    # IRQ, an INT_HARDWARE_* like the others, not a vector.
    RESCHEDULE_VECTOR, CALL_FUNCTION_VECTOR, CALL_FUNCTION_SINGLE_VECTOR = 0, 1, 1
    LOCAL_TIMER_VECTOR, IRQ_WORK_VECTOR = None, 5
ALL_CPUS = (1 << 64) - 1        # INT_IPI_SEND's target cpu for a mask (-1)
IRQ_HANDLED = 1


def read_interrupts(path):
    """{irq: (total count, description)} for the numbered lines."""
    out = {}
    with open(path) as f:
        ncpu = len(f.readline().split())
        for line in f:
            m = re.match(r"\s*(\d+):\s+(.*)", line)
            if m:
                fields = m.group(2).split()
                out[int(m.group(1))] = (sum(int(x) for x in fields[:ncpu]),
                                        " ".join(fields[ncpu:]))
    return out


d = sys.argv[1]
rows = sorted(read_csv(os.path.join(d, "trace.csv")), key=lambda r: int(r["time"]))
syms = read_kallsyms(os.path.join(d, "kallsyms.txt"))
prog = read_prog_keyed(os.path.join(d, "prog.txt"))
for key in ("disk", "led", "ipi"):
    check(key in prog, f"prog.txt has no '{key}' line")
if not all(k in prog for k in ("disk", "led", "ipi")):
    done()


def ev(name):
    return events(rows, EV[name])


def after(rows_, t):
    return [r for r in rows_ if int(r["time"]) >= t]


# ---- hardware IRQs: the scratch disk's, counted in /proc/interrupts ----
before = read_interrupts(os.path.join(d, "interrupts.before"))
after_ = read_interrupts(os.path.join(d, "interrupts.after"))
disk_irqs = {irq: after_[irq][0] - before.get(irq, (0, ""))[0]
             for irq in after_ if "virtio" in after_[irq][1]
             and after_[irq][0] > before.get(irq, (0, ""))[0]}
check(disk_irqs, "no virtio interrupt counted during the disk write", event="INT_HARDWARE_ENTRY")
handlers = {syms[n] for n in ("vring_interrupt", "vp_interrupt", "vp_vring_interrupt") if n in syms}
check(handlers, "kallsyms.txt has no virtio interrupt handler", event="INT_HARDWARE_ENTRY")
hw_in, hw_out = ev("INT_HARDWARE_ENTRY"), ev("INT_HARDWARE_EXIT")
for irq, delta in disk_irqs.items():
    ins = [r for r in hw_in if r["arg1"] == irq]
    outs = [r for r in hw_out if r["arg1"] == irq]
    check(len(ins) >= delta,
          f"irq {irq}: {len(ins)} INT_HARDWARE_ENTRY, /proc/interrupts counted {delta}",
          event="INT_HARDWARE_ENTRY")
    check(ins and all(r["arg2"] in handlers for r in ins),
          f"irq {irq}: handler not a virtio interrupt handler", event="INT_HARDWARE_ENTRY")
    check(all(r["context"] == "irq" for r in ins),
          f"irq {irq}: INT_HARDWARE_ENTRY outside hardirq context", event="INT_HARDWARE_ENTRY")
    check(len(outs) == len(ins) and all(r["arg3"] in handlers for r in outs),
          f"irq {irq}: {len(outs)} exits for {len(ins)} entries, or another handler",
          event="INT_HARDWARE_EXIT")
    check(any(r["arg2"] == IRQ_HANDLED for r in outs),
          f"irq {irq}: no INT_HARDWARE_EXIT returned IRQ_HANDLED", event="INT_HARDWARE_EXIT")
    # Each exit follows its entry on the same CPU.
    for r in outs:
        prev = [e for e in ins if e["cpu"] == r["cpu"] and int(e["time"]) <= int(r["time"])]
        if not check(prev, f"irq {irq}: exit without an entry before it",
                     event="INT_HARDWARE_EXIT"):
            break

# ---- workqueue: sync() queues the flusher's work (wb_workfn), unbound ----
wb = syms.get("wb_workfn")
check(wb, "kallsyms.txt has no wb_workfn", event="INT_WORKQUEUE_QUEUE")
queued = [r for r in ev("INT_WORKQUEUE_QUEUE") if r["pid"] == prog["disk"]["pid"]
          and r["context"] == "task" and r["arg1"] == wb]
check(queued, f"no INT_WORKQUEUE_QUEUE of wb_workfn by pid {prog['disk']['pid']}",
      event="INT_WORKQUEUE_QUEUE")
if queued:
    q = queued[0]
    check(q["arg3"] == (1 << 64) - 1 and q["arg4"] == (1 << 64) - 1,
          f"wb_workfn queued with requested cpu {q['arg3']:#x}, pool cpu {q['arg4']:#x}"
          " (expected -1, -1: unbound)", event="INT_WORKQUEUE_QUEUE")
    starts = [r for r in after(ev("INT_WORKQUEUE_START"), int(q["time"]))
              if r["arg1"] == wb and r["arg2"] == q["arg2"]]
    check(starts, "the queued wb_workfn work never started", event="INT_WORKQUEUE_START")
    if starts:
        s = starts[0]
        check(s["pid"] != q["pid"] and s["context"] == "task",
              "wb_workfn ran in the queueing task or outside a worker", event="INT_WORKQUEUE_START")
        ends = [r for r in after(ev("INT_WORKQUEUE_END"), int(s["time"]))
                if r["pid"] == s["pid"] and r["arg2"] == s["arg2"]]
        check(ends and ends[0]["arg1"] == wb,
              "no INT_WORKQUEUE_END of wb_workfn in its worker", event="INT_WORKQUEUE_END")

# ---- softirq and tasklet: KDSETLED schedules the keyboard tasklet ----
kbd_bh, kbd_t, tasklet_action = (syms.get(n) for n in
                                 ("kbd_bh", "keyboard_tasklet", "tasklet_action"))
check(kbd_bh and kbd_t and tasklet_action,
      "kallsyms.txt lacks kbd_bh, keyboard_tasklet or tasklet_action", event="INT_TASKLET_ENTRY")
raises = [r for r in ev("INT_SOFTIRQ_RAISE") if r["pid"] == prog["led"]["pid"]
          and r["context"] == "task" and r["arg1"] == TASKLET_SOFTIRQ]
check(raises, f"pid {prog['led']['pid']} raised no TASKLET_SOFTIRQ", event="INT_SOFTIRQ_RAISE")
if raises:
    t0 = int(raises[0]["time"])
    sirq_in = [r for r in after(ev("INT_SOFTIRQ_ENTRY"), t0) if r["arg1"] == TASKLET_SOFTIRQ]
    check(sirq_in and all(r["arg2"] == tasklet_action for r in sirq_in),
          "no TASKLET_SOFTIRQ entry calling tasklet_action after the raise",
          event="INT_SOFTIRQ_ENTRY")
    check(all(r["context"] == "softirq" for r in sirq_in),
          "INT_SOFTIRQ_ENTRY outside softirq context", event="INT_SOFTIRQ_ENTRY")
    sirq_out = [r for r in after(ev("INT_SOFTIRQ_EXIT"), t0) if r["arg1"] == TASKLET_SOFTIRQ]
    check(sirq_out and all(r["arg2"] == tasklet_action for r in sirq_out),
          "no TASKLET_SOFTIRQ exit of tasklet_action after the raise", event="INT_SOFTIRQ_EXIT")
    t_in = [r for r in after(ev("INT_TASKLET_ENTRY"), t0)
            if r["arg1"] == kbd_bh and r["arg2"] == kbd_t]
    t_out = [r for r in after(ev("INT_TASKLET_EXIT"), t0)
             if r["arg1"] == kbd_bh and r["arg2"] == kbd_t]
    check(t_in, "no INT_TASKLET_ENTRY (kbd_bh, keyboard_tasklet) after the raise",
          event="INT_TASKLET_ENTRY")
    check(t_out and t_in and int(t_out[0]["time"]) >= int(t_in[0]["time"])
          and t_out[0]["cpu"] == t_in[0]["cpu"],
          "no INT_TASKLET_EXIT of kbd_bh after its entry", event="INT_TASKLET_EXIT")
    # The tasklet runs inside the TASKLET_SOFTIRQ action.
    if t_in:
        inside = [r for r in sirq_in if r["cpu"] == t_in[0]["cpu"]
                  and int(r["time"]) <= int(t_in[0]["time"])]
        check(inside, "kbd_bh did not run inside a TASKLET_SOFTIRQ action",
              event="INT_TASKLET_ENTRY")
ev_all_raise = ev("INT_SOFTIRQ_RAISE")
check(all(r["arg1"] < 10 for r in ev_all_raise), "a raised softirq vector above 9",
      event="INT_SOFTIRQ_RAISE")

# ---- IPIs: the workload's threads on CPU 0 wake or flush CPU 1 ----
# INT_IPI_SEND is recorded in generic code, beside trace_ipi_send_cpu*():
# the callback says which vector the IPI arrives on (none: reschedule).
ipi = prog["ipi"]
tids = {ipi["pid"], ipi["waker"], ipi["sleeper"], ipi["spinner"]}
call_function = syms.get("generic_smp_call_function_single_interrupt")
check(call_function, "kallsyms.txt has no generic_smp_call_function_single_interrupt",
      event="INT_IPI_SEND")


def vector_of(send):
    if send["arg3"] == 0:
        return RESCHEDULE_VECTOR
    if send["arg3"] == call_function:
        return CALL_FUNCTION_VECTOR if send["arg1"] == ALL_CPUS else CALL_FUNCTION_SINGLE_VECTOR
    return IRQ_WORK_VECTOR


sends = [r for r in ev("INT_IPI_SEND") if r["pid"] in tids]
to1 = [r for r in sends if r["arg2"] & 2 and r["arg1"] in (1, ALL_CPUS)
       and vector_of(r) != IRQ_WORK_VECTOR]
check(len(to1) >= 20, f"{len(to1)} IPIs from the workload to CPU 1, expected >= 20",
      event="INT_IPI_SEND")
check(all(r["arg1"] == ALL_CPUS or r["arg2"] == 1 << r["arg1"] for r in sends),
      "a single-CPU IPI whose mask is not its CPU's bit", event="INT_IPI_SEND")
check(any(r["arg3"] == call_function for r in to1),
      "no call-function IPI from the workload", event="INT_IPI_SEND")
check(all(r["arg4"] >= 0xffff800000000000 for r in sends),
      "an IPI whose call site is not a kernel address", event="INT_IPI_SEND")
entries = ev("INT_VECTOR_ENTRY")
exits = ev("INT_VECTOR_EXIT")
check(all(r["context"] == "irq" for r in entries), "INT_VECTOR_ENTRY outside hardirq context",
      event="INT_VECTOR_ENTRY")
unanswered = [r for r in to1 if not any(
    e["cpu"] == 1 and e["arg1"] == vector_of(r) and int(e["time"]) >= int(r["time"])
    for e in entries)]
check(to1 and not unanswered,
      f"{len(unanswered)} of {len(to1)} IPIs to CPU 1 never handled there with their vector",
      event="INT_VECTOR_ENTRY")
# Entries and exits pair up while the workload runs (switching masksets
# patches the keys one by one, so around that they need not).
if to1:
    lo, hi = int(to1[0]["time"]), int(to1[-1]["time"]) + 20 * 1000000
    for v in {vector_of(r) for r in to1} | ({LOCAL_TIMER_VECTOR} - {None}):
        n_in = [e for e in entries if e["arg1"] == v and e["cpu"] == 1
                and lo <= int(e["time"]) <= hi]
        n_out = [e for e in exits if e["arg1"] == v and e["cpu"] == 1
                 and lo <= int(e["time"]) <= hi]
        check(n_in and abs(len(n_in) - len(n_out)) <= 1,
              f"vector {v:#x} on CPU 1: {len(n_in)} entries, {len(n_out)} exits",
              event="INT_VECTOR_EXIT")

# ---- the tick: the local APIC timer is an interrupt like any other ----
ticks = [r for r in entries if r["arg1"] == LOCAL_TIMER_VECTOR]
check(LOCAL_TIMER_VECTOR is None or {r["cpu"] for r in ticks} >= {0, 1},
      f"local timer interrupts seen on CPUs {sorted({r['cpu'] for r in ticks})}, "
      "expected on both", event="INT_VECTOR_ENTRY")
done()
