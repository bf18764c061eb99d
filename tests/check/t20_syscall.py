"""(b) Exactly the program's lseek and write calls, arguments and returns,
and all six arguments of one futex call (the sixth in SYSCALL_ENTRY_ARG5)."""
import os
import sys

from lkstcheck import (EBADF, EV, EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, NR_LSEEK,
                       NR_WRITE, check, covers, done, events, read_csv, read_prog,
                       signed64, sysnr)

covers("SYSCALL_ENTRY", "SYSCALL_EXIT", "SYSCALL_ENTRY_ARG5")
d = sys.argv[1]
pid, devnull = read_prog(os.path.join(d, "prog.txt"))
rows = [r for r in read_csv(os.path.join(d, "trace.csv")) if r["pid"] == pid]
entries = events(rows, EV_SYSCALL_ENTRY)
exits = events(rows, EV_SYSCALL_EXIT)
tag = 0x5eed0000

lseek_in = [r for r in entries if r["arg1"] == NR_LSEEK]
check(len(lseek_in) == 37, f"{len(lseek_in)} lseek entries, expected 37")
check(all(r["arg2"] == 1234 and r["arg4"] == 0 for r in lseek_in),
      "lseek entry with other fd or whence")
check(sorted(r["arg3"] for r in lseek_in) == [tag + i for i in range(37)],
      "lseek offsets are not TAG+0..36")
lseek_out = [r for r in exits if r["arg1"] == NR_LSEEK]
check(len(lseek_out) == 37, f"{len(lseek_out)} lseek exits, expected 37")
check(all(signed64(r["arg2"]) == -EBADF for r in lseek_out),
      "lseek exit not -EBADF")

write_in = [r for r in entries if r["arg1"] == NR_WRITE and r["arg2"] == devnull]
check(len(write_in) == 23, f"{len(write_in)} write entries to /dev/null, expected 23")
check(sorted(r["arg4"] for r in write_in) == [777 + i for i in range(23)],
      "write lengths are not 777..799")
write_ret = sorted(signed64(r["arg2"]) for r in exits if r["arg1"] == NR_WRITE)
check(all(n in write_ret for n in range(777, 800)),
      "write exits do not return 777..799")

# The futex call: nr 202, arguments 0x1111, 0x7f, 0x3333, 0x4444, 0x5555 in
# the entry, 0x6666 in the ARG5 record right after it, -ENOSYS at exit.
NR_FUTEX, ENOSYS = sysnr(202, 98), 38
arg5 = events(rows, EV["SYSCALL_ENTRY_ARG5"])
futex_in = [r for r in entries if r["arg1"] == NR_FUTEX and r["arg2"] == 0x1111]
check(len(futex_in) == 1 and [futex_in[0][f"arg{i}"] for i in range(3, 7)] ==
      [0x7f, 0x3333, 0x4444, 0x5555], f"futex entry arguments wrong: {futex_in}",
      event="SYSCALL_ENTRY")
futex_a5 = [r for r in arg5 if r["arg1"] == NR_FUTEX and r["arg2"] == 0x6666]
check(len(futex_a5) == 1, f"{len(futex_a5)} ARG5 records with futex's 0x6666, expected 1",
      event="SYSCALL_ENTRY_ARG5")
futex_out = [r for r in exits if r["arg1"] == NR_FUTEX and signed64(r["arg2"]) == -ENOSYS]
check(len(futex_out) >= 1, "no futex exit returning -ENOSYS", event="SYSCALL_EXIT")
# Each lseek entry's ARG5 record follows it, with the same number.
ordered = sorted(rows, key=lambda r: int(r["time"]))
lseek_arg5 = [ordered[i + 1]["id"] == EV["SYSCALL_ENTRY_ARG5"] and ordered[i + 1]["arg1"] == NR_LSEEK
              for i, r in enumerate(ordered[:-1])
              if r["id"] == EV_SYSCALL_ENTRY and r["arg1"] == NR_LSEEK]
check(len(lseek_arg5) == 37 and all(lseek_arg5),
      "an lseek entry is not followed by its SYSCALL_ENTRY_ARG5 record",
      event="SYSCALL_ENTRY_ARG5")

# Each entry is followed by its exit before the next entry of the task.
sequence = [(r["id"], r["arg1"]) for r in sorted(rows, key=lambda r: int(r["time"]))
            if r["id"] in (EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT)
            and r["arg1"] in (NR_LSEEK, NR_WRITE)]
pairs_ok = all(sequence[i][0] == EV_SYSCALL_ENTRY and
               sequence[i + 1] == (EV_SYSCALL_EXIT, sequence[i][1])
               for i in range(0, len(sequence) - 1, 2))
check(pairs_ok and len(sequence) % 2 == 0, "entries and exits do not pair up in order")
done()
