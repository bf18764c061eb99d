"""Process-trace assertions shared by the demo and scenario (a)."""
from lkstcheck import (EV_CONTEXTSWITCH, EV_WAKEUP, TASK_INTERRUPTIBLE,
                       TASK_RUNNING, check, events)


def check_process_trace(rows, roles):
    switches = events(rows, EV_CONTEXTSWITCH)
    wakeups = events(rows, EV_WAKEUP)
    check(len(switches) > 50, f"only {len(switches)} context switches")
    check(len(wakeups) > 20, f"only {len(wakeups)} wakeups")
    for r in switches:
        if not check(r["pid"] == r["arg1"],
                     f"switch record pid {r['pid']} is not prev pid {r['arg1']}"):
            break

    for role, pid in roles.items():
        ins = [r for r in switches if r["arg2"] == pid]
        outs = [r for r in switches if r["arg1"] == pid]
        check(ins, f"{role} ({pid}) never switched in")
        check(outs, f"{role} ({pid}) never switched out")
        woken = [r for r in wakeups if r["arg1"] == pid]
        if role.startswith(("lkw-sleep", "lkw-reader")):
            blocked = [r for r in outs if r["arg3"] & TASK_INTERRUPTIBLE]
            check(blocked, f"{role} ({pid}) never left the CPU sleeping")
            from_sleep = [w for w in woken if w["arg2"] & TASK_INTERRUPTIBLE]
            check(len(from_sleep) >= 3,
                  f"{role} ({pid}) woken from TASK_INTERRUPTIBLE {len(from_sleep)} times")
            check(all(w["arg2"] != TASK_RUNNING for w in woken),
                  f"{role} ({pid}) recorded as woken while running")
        if role.startswith("lkw-spin"):
            # A spinner only gets preempted; exit and the odd page fault
            # after fork may still put it to sleep once or twice.
            preempted = sum(r["arg3"] == TASK_RUNNING for r in outs)
            check(preempted >= 3 and preempted >= 0.8 * (len(outs) - 1),
                  f"{role} ({pid}) preempted {preempted} of {len(outs)} times")


def check_comm_names(decoded_rows, roles):
    """The next comm argument names each workload process."""
    names = {}
    for r in events(decoded_rows, EV_CONTEXTSWITCH):
        names.setdefault(int(r["arg2"]), set()).add(r["arg5"])
    for role, pid in roles.items():
        if role == "lkw-writer":
            continue  # renamed itself after being switched in as the parent
        check(role in names.get(pid, set()),
              f"{role} ({pid}) switched in under names {names.get(pid)}")
