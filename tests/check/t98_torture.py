"""Torture: every cycle ran, CPU 1 went offline and online in each, the
handler was called, and after tracing stopped every record each CPU wrote
is held in the saved log or counted as overwritten (written == held +
overwritten), as the kernel's own counters also said in the guest.  Booted
with pseudo-NMIs (make torture ARCH=arm64), the PMU's NMIs fired all along
and hooks ran in NMI context."""
import os
import sys

from lkstcheck import check, done, read_facts, read_log, read_log_cpus

d = sys.argv[1]
facts = read_facts(os.path.join(d, "hardening.txt"))
want = facts.get("torture_cycles_requested")
check(want is not None and want > 0, "no requested cycle count in hardening.txt")
check(facts.get("torture_exit") == 0, f"lkst_torture exited {facts.get('torture_exit')}")
check(facts.get("torture_cycles") == want,
      f"torture_cycles {facts.get('torture_cycles')}, {want} requested")
check(facts.get("hotplug_cycles") == want,
      f"hotplug_cycles {facts.get('hotplug_cycles')}, one per cycle wanted")
check(facts.get("handler_calls", 0) > 0, "the trigger handler was never called")

# Booted with pseudo-NMIs (arm64): the PMU's sampling NMIs fired all along,
# and hooks ran in NMI context (context level 3) in the RALL window the
# scenario saved in nmi.log while they still fired.
if facts.get("pseudo_nmi"):
    check(facts.get("perf_exit") == 0 and facts.get("perf_cpus", 0) > 0,
          f"lkst_perfnmi exited {facts.get('perf_exit')} with {facts.get('perf_cpus')} counters")
    check(facts.get("perf_overflows", 0) > 0, "the PMU counters never overflowed")
    _header, sections = read_log(os.path.join(d, "nmi.log"))
    nmi = sum(1 for s in sections for r in s["recs"] if r[4] == 3)
    print(f"nmi_records {nmi} (perf_overflows {facts.get('perf_overflows')})")
    check(nmi > 0, "no record written in NMI context while the PMU's NMIs fired")

cpus = read_log_cpus(os.path.join(d, "after.log"))
check(sorted(cpus) == [0, 1], f"after.log holds CPUs {sorted(cpus)}, not 0 and 1")
unaccounted = 0
for cpu, c in sorted(cpus.items()):
    diff = c["written"] - c["records"] - c["overwritten"]
    unaccounted += abs(diff)
    print(f"cpu{cpu}: written {c['written']} held {c['records']} "
          f"overwritten {c['overwritten']} dropped {c['dropped']} -> {diff:+d}")
    check(c["written"] > 0, f"cpu{cpu} wrote nothing")
    # Nothing was being written: every number taken was committed.
    check(c["seq_end"] == c["written"],
          f"cpu{cpu}: sequence numbers end at {c['seq_end']}, written {c['written']}")
    check(c["records"] + c["lost"] == c["seq_end"] - c["seq_start"],
          f"cpu{cpu}: {c['records']} records + {c['lost']} lost != "
          f"[{c['seq_start']}, {c['seq_end']})")
print(f"records_unaccounted {unaccounted}")
check(unaccounted == 0, f"{unaccounted} records neither held nor counted as overwritten")
check(facts.get("records_unaccounted") == unaccounted,
      f"the guest counted {facts.get('records_unaccounted')} unaccounted, the log {unaccounted}")
done()
