"""Timers: the VT bell timer armed, cancelled, re-armed and expired by
KDMKTONE (timer wheel), and hrtimers: an absolute clock_nanosleep (exact
expiry), an ITIMER_REAL that fires and one that is cancelled."""
import os
import re
import sys

from lkstcheck import (EV, REPO, check, covers, done, events, read_csv, read_kallsyms,
                       read_prog_keyed)

covers("TIMER_ADD", "TIMER_EXPIRE_ENTRY", "TIMER_EXPIRE_EXIT", "TIMER_CANCEL",
       "HRTIMER_START", "HRTIMER_EXPIRE_ENTRY", "HRTIMER_EXPIRE_EXIT", "HRTIMER_CANCEL")

HRTIMER_MODE_ABS, HRTIMER_MODE_REL = 0, 1
CLOCK_MONOTONIC = 1
MS = 1000000


def kernel_hz():
    """CONFIG_HZ of the kernel the guest ran (tick length of the wheel)."""
    kbuild = os.environ.get("KBUILD_DIR", os.path.join(REPO, "build/linux-6.12"))
    with open(os.path.join(kbuild, ".config")) as f:
        m = re.search(r"^CONFIG_HZ=(\d+)$", f.read(), re.M)
    return int(m.group(1))


d = sys.argv[1]
rows = sorted(read_csv(os.path.join(d, "trace.csv")), key=lambda r: int(r["time"]))
syms = read_kallsyms(os.path.join(d, "kallsyms.txt"))
prog = read_prog_keyed(os.path.join(d, "prog.txt"))
for key in ("tone", "nanosleep", "itimer", "itimer-cancel"):
    check(key in prog, f"prog.txt has no '{key}' line")


def ev(name):
    return events(rows, EV[name])


# ---- timer wheel: kd_mksound_timer ----
if "tone" in prog:
    pid, ms = prog["tone"]["pid"], prog["tone"]["ms"]
    timer, fn = syms.get("kd_mksound_timer"), syms.get("kd_nosound")
    check(timer and fn, "kallsyms.txt lacks kd_mksound_timer or kd_nosound")
    ticks = -(-ms * kernel_hz() // 1000)     # msecs_to_jiffies rounds up
    adds = [r for r in ev("TIMER_ADD") if r["arg1"] == timer]
    check(len(adds) == 2 and all(r["pid"] == pid and r["arg2"] == fn for r in adds),
          f"{len(adds)} TIMER_ADD of kd_mksound_timer by pid {pid}, expected 2 with kd_nosound",
          event="TIMER_ADD")
    check(all(r["arg3"] - r["arg4"] in (ticks, ticks - 1) for r in adds),
          f"TIMER_ADD expires - now is not {ticks} jiffies ({ms} ms)", event="TIMER_ADD")
    cancels = [r for r in ev("TIMER_CANCEL") if r["arg1"] == timer]
    check(len(cancels) == 1 and cancels[0]["pid"] == pid and cancels[0]["arg2"] == fn,
          f"{len(cancels)} TIMER_CANCEL of kd_mksound_timer, expected 1 by pid {pid}",
          event="TIMER_CANCEL")
    if len(adds) == 2 and len(cancels) == 1:
        check(int(adds[0]["time"]) <= int(cancels[0]["time"]) <= int(adds[1]["time"])
              and cancels[0]["arg3"] == adds[0]["arg3"],
              "the cancel is not of the first timer, between the two adds", event="TIMER_CANCEL")
    fires = [r for r in ev("TIMER_EXPIRE_ENTRY") if r["arg1"] == timer]
    check(len(fires) == 1 and fires[0]["arg2"] == fn,
          f"{len(fires)} TIMER_EXPIRE_ENTRY of kd_mksound_timer, expected 1 calling kd_nosound",
          event="TIMER_EXPIRE_ENTRY")
    if fires and len(adds) == 2:
        f = fires[0]
        check(f["arg3"] >= adds[1]["arg3"] and int(f["time"]) > int(adds[1]["time"]),
              f"expired at jiffies {f['arg3']} before its expiry {adds[1]['arg3']}",
              event="TIMER_EXPIRE_ENTRY")
        late_ms = (int(f["time"]) - int(adds[1]["time"])) / MS
        check(ms * 0.9 <= late_ms <= ms + 1000,
              f"expired {late_ms:.1f} ms after the add, armed for {ms} ms",
              event="TIMER_EXPIRE_ENTRY")
        check(f["context"] == "softirq", f"expiry ran in {f['context']} context",
              event="TIMER_EXPIRE_ENTRY")
    outs = [r for r in ev("TIMER_EXPIRE_EXIT") if r["arg1"] == timer]
    check(len(outs) == 1 and outs[0]["arg2"] == fn and fires and
          outs[0]["cpu"] == fires[0]["cpu"] and int(outs[0]["time"]) >= int(fires[0]["time"]),
          "no TIMER_EXPIRE_EXIT of kd_nosound after its entry", event="TIMER_EXPIRE_EXIT")

# ---- hrtimers ----
wakeup, real_fn = syms.get("hrtimer_wakeup"), syms.get("it_real_fn")
check(wakeup and real_fn, "kallsyms.txt lacks hrtimer_wakeup or it_real_fn")
starts = [r for r in ev("HRTIMER_START") if r["context"] == "task"]
if "nanosleep" in prog:
    ns = prog["nanosleep"]
    mine = [r for r in starts if r["pid"] == ns["pid"] and r["arg2"] == wakeup]
    check(len(mine) >= 1, f"no HRTIMER_START of hrtimer_wakeup by pid {ns['pid']}",
          event="HRTIMER_START")
    exact = [r for r in mine if r["arg3"] == ns["target"]]
    check(len(exact) == 1, f"no nanosleep HRTIMER_START with soft expiry {ns['target']}",
          event="HRTIMER_START")
    if exact:
        s = exact[0]
        check(s["arg4"] == HRTIMER_MODE_ABS and s["arg6"] == CLOCK_MONOTONIC,
              f"nanosleep hrtimer mode {s['arg4']:#x} clock {s['arg6']}, expected ABS, MONOTONIC",
              event="HRTIMER_START")
        check(s["arg5"] >= s["arg3"] and s["arg5"] - s["arg3"] <= 50000,
              f"hard expiry {s['arg5']} not within the 50 us slack of {s['arg3']}",
              event="HRTIMER_START")
        fire = [r for r in ev("HRTIMER_EXPIRE_ENTRY")
                if r["arg1"] == s["arg1"] and r["arg2"] == wakeup
                and int(r["time"]) > int(s["time"])]
        check(fire and fire[0]["arg3"] >= s["arg3"],
              "the nanosleep hrtimer did not expire at or after its soft expiry",
              event="HRTIMER_EXPIRE_ENTRY")
        if fire:
            check(fire[0]["context"] == "irq" and int(fire[0]["time"]) >= s["arg3"] - MS,
                  f"nanosleep expiry in {fire[0]['context']} context or before the target",
                  event="HRTIMER_EXPIRE_ENTRY")
            out = [r for r in ev("HRTIMER_EXPIRE_EXIT")
                   if r["arg1"] == s["arg1"] and r["cpu"] == fire[0]["cpu"]
                   and int(r["time"]) >= int(fire[0]["time"])]
            check(out and out[0]["arg2"] == wakeup and out[0]["arg3"] == 0,
                  "no HRTIMER_EXPIRE_EXIT of hrtimer_wakeup (no restart)",
                  event="HRTIMER_EXPIRE_EXIT")
if "itimer" in prog:
    it = prog["itimer"]
    mine = [r for r in starts if r["pid"] == it["pid"] and r["arg2"] == real_fn
            and it["before"] <= int(r["time"]) <= it["after"]]
    check(len(mine) == 1, f"{len(mine)} HRTIMER_START of it_real_fn in setitimer, expected 1",
          event="HRTIMER_START")
    if mine:
        s = mine[0]
        check(it["before"] + it["value"] <= s["arg3"] <= it["after"] + it["value"]
              and s["arg4"] == HRTIMER_MODE_REL,
              f"ITIMER_REAL expiry {s['arg3']} not 'now' + {it['value']} ns or mode not REL",
              event="HRTIMER_START")
        fire = [r for r in ev("HRTIMER_EXPIRE_ENTRY")
                if r["arg1"] == s["arg1"] and r["arg2"] == real_fn and int(r["time"]) > it["after"]]
        check(fire and fire[0]["arg3"] >= s["arg3"], "the ITIMER_REAL never expired",
              event="HRTIMER_EXPIRE_ENTRY")
if "itimer-cancel" in prog:
    pid = prog["itimer-cancel"]["pid"]
    # The kernel cancels its own timers too, in whatever task runs.
    cancels = [r for r in ev("HRTIMER_CANCEL") if r["pid"] == pid and r["context"] == "task"
               and r["arg2"] == real_fn]
    check(len(cancels) == 1,
          f"{len(cancels)} HRTIMER_CANCEL of it_real_fn by pid {pid}, expected 1",
          event="HRTIMER_CANCEL")
    if cancels and "itimer" in prog:
        armed = [r for r in starts if r["pid"] == pid and r["arg1"] == cancels[0]["arg1"]
                 and int(r["time"]) < int(cancels[0]["time"]) and r["arg4"] == HRTIMER_MODE_REL]
        check(armed and armed[-1]["arg3"] - int(armed[-1]["time"]) > 9000 * MS,
              "the cancelled hrtimer is not the 10 s ITIMER_REAL", event="HRTIMER_CANCEL")
done()
