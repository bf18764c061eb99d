"""lkst against each peer in make bench (tools/bench/report.py calls it):
instructions per event of lkst (twins) and of ftrace, perf (drained and
--overwrite) and libbpf (bpfrec) on the same twin tracepoints, their ratio,
and each peer's overhead, events, bytes per event and lost events
(tests/scenarios/peers.inc).  For a peer's RESULT line the FTRACE_ENTRIES,
FTRACE_OVERRUN and FTRACE_BYTES columns hold that peer's records, lost
records and bytes.  LTTng's status is OUT/lttng.txt (tools/bench/lttng.sh)."""
import os

PEERS = [("ftrace-twins", "ftrace"), ("perf-twins", "perf"),
         ("perf-ow-twins", "perf --overwrite"), ("libbpf-twins", "libbpf")]


def per_event(cells, wl, config, clock="icount"):
    """(instructions per recorded event, events per operation) of a
    configuration against the patched kernel with nothing traced."""
    base = cells.get((clock, "lkst", "none", wl))
    cell = cells.get((clock, "lkst", config, wl))
    if not base or not cell:
        return None, None
    per_op = cell.lkst_per_op if config.startswith("lkst-") else cell.ftrace_per_op
    if not per_op:
        return None, per_op
    return (cell.median - base.median) / per_op, per_op


def ratios(cells, workloads, clock="icount"):
    """{peer config: {workload: lkst instructions per event / the peer's}}."""
    r = {}
    for config, _ in PEERS:
        r[config] = {}
        for wl in workloads:
            lk, _ = per_event(cells, wl, "lkst-twins", clock)
            pe, _ = per_event(cells, wl, config, clock)
            r[config][wl] = lk / pe if lk is not None and pe else None
    return r


def lttng_status(out):
    path = os.path.join(out, "lttng.txt")
    if not os.path.exists(path):
        return "not tried (no lttng.txt)"
    return open(path).read().strip() or "not tried (empty lttng.txt)"


def report(w, cells, workloads, fmt, verdict, out):
    """Appends the section to a report through w(line)."""
    r = ratios(cells, workloads)
    w("")
    w("## lkst vs each peer (icount): instructions per event on the same events")
    w("")
    w("lkst records the twin events; each peer records their upstream tracepoints "
      "(tests/scenarios/twins.inc) in one guest run of the patched kernel. A peer's figure "
      "is its run's instructions per operation, less the same kernel's with nothing traced, "
      "per event it recorded; a ratio below 1 means lkst costs less per event. perf and "
      "libbpf include their consumers (on the other CPU), which drain while the workload runs.")
    w("")
    w("| workload | lkst instr/event | " +
      " | ".join(f"{name} instr/event | lkst / {name}" for _, name in PEERS) + " |")
    w("| --- | --- |" + " --- | --- |" * len(PEERS))
    for wl in workloads:
        lk, _ = per_event(cells, wl, "lkst-twins")
        cols = []
        for config, _ in PEERS:
            pe, _ = per_event(cells, wl, config)
            cols += [fmt(pe, ".0f"), fmt(r[config][wl], ".2f")]
        w(f"| {wl} | {fmt(lk, '.0f')} | " + " | ".join(cols) + " |")
    w("")
    for config, name in PEERS:
        w(f"lkst below {name} per event: {verdict(r[config].values(), lambda x: x < 1)}.")
    w("")
    w("| workload | peer | overhead | events/op | bytes/event | events lost (sum of repetitions) |")
    w("| --- | --- | --- | --- | --- | --- |")
    for wl in workloads:
        base = cells.get(("icount", "lkst", "none", wl))
        for config, name in PEERS[1:]:
            cell = cells.get(("icount", "lkst", config, wl))
            if not cell:
                continue
            over = (cell.median / base.median - 1) * 100 if base else None
            w(f"| {wl} | {name} | {fmt(over, '+.1f', '%')} | {fmt(cell.ftrace_per_op, '.2f')} | "
              f"{fmt(cell.ftrace_bytes_per_event, '.1f')} | {sum(cell.overrun)} |")
    w("")
    w("perf's bytes are its file's data section per sample (the synthesized records of the "
      "processes running included; not the header, which holds the events' formats and a copy "
      "of /proc/kallsyms); libbpf's are the 48-byte records bpfrec writes. "
      "perf --overwrite loses nothing it can count: what its ring overwrote is not reported.")
    w("")
    w(f"LTTng: {lttng_status(out)}")
    return r
