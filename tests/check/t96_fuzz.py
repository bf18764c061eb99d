"""The ioctl fuzzer made the calls asked for while CPU 1 went offline and
online, got only documented answers and restored the tracer (it exited 0);
the kernel console is scanned for reports by the harness."""
import os
import sys

from lkstcheck import check, done

d = sys.argv[1]
facts = {}
with open(os.path.join(d, "hardening.txt")) as f:
    for line in f:
        key, value = line.split()
        facts[key] = float(value) if "." in value else int(value)
want = facts.get("fuzz_calls_requested")
check(want is not None and want > 0, "no requested call count in hardening.txt")
check(facts.get("fuzz_exit") == 0, f"lkst_fuzz exited {facts.get('fuzz_exit')}")
check(facts.get("fuzz_calls") == want, f"fuzz_calls {facts.get('fuzz_calls')}, {want} requested")
# Its hotplug thread took CPU 1 offline and back meanwhile (on arm64 too:
# HOTPLUG_CPU in configs/arm64.config).
check(facts.get("hotplug_cycles", 0) > 0, "CPU 1 never went offline during the run")
check(facts.get("unexpected_answers") == 0,
      f"{facts.get('unexpected_answers')} answers outside the ABI")
print(f"fuzz_calls {facts.get('fuzz_calls')} in {facts.get('fuzz_seconds')} s "
      f"({facts.get('fuzz_rate')} calls/s), {facts.get('hotplug_cycles')} hotplug cycles")
if want and want < 1000000:
    print(f"note: {want} calls, fewer than the 1000000 of a full run")
done()
