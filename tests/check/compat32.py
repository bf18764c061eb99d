"""The AArch32 program's system calls on the arm64 kernel, exactly: 29
lseek and 17 write calls with their arguments and returns, the futex
call's six arguments (the sixth in SYSCALL_ENTRY_ARG5), each number with
LKST_SYSCALL_ABI_ARM32 (3) in its high 32 bits and the AArch32 numbers
(lseek 19, write 4, futex 240), and nothing of the task under the AArch64
ABI (tests/arm64/guest/arm32/lkst_syscalls32.c); before them, the forked
child's first return, from the shell's clone."""
import os
import sys

from lkstcheck import (ARCH, EV, EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, check, done,
                       events, read_csv, read_prog, signed64)

d = sys.argv[1]
check(ARCH == "aarch64", f"compat32 runs on the arm64 guest, not {ARCH}")
pid, devnull = read_prog(os.path.join(d, "prog.txt"))
rows = [r for r in read_csv(os.path.join(d, "trace.csv")) if r["pid"] == pid]
ARM32 = 3 << 32
NR_LSEEK, NR_WRITE, NR_FUTEX = ARM32 | 19, ARM32 | 4, ARM32 | 240
EBADF, ENOSYS = 9, 38
TAG, N, W = 0x5eed0000, 29, 17
# The shell's child runs as an AArch64 task until its execve() returns
# (that exit is the first record under the AArch32 ABI); from there on
# every call is the program's.
rows.sort(key=lambda r: int(r["time"]))
# The shell forked it: the task's first record is that call's return in
# the child (ret_from_fork), 0 from clone (220) or clone3 (435), AArch64.
ARM64 = 2 << 32
check(rows and rows[0]["id"] == EV_SYSCALL_EXIT and
      rows[0]["arg1"] in (ARM64 | 220, ARM64 | 435) and rows[0]["arg2"] == 0,
      f"the task's first record is not its fork's return: {rows[:1]}")
first = next((i for i, r in enumerate(rows) if r["arg1"] >> 32 == 3), None)
check(first is not None, "no record of the task under the ARM32 ABI")
rows = rows[first or 0:]
abis = sorted({r["arg1"] >> 32 for r in rows})
check(abis == [3], f"after execve the task's system calls carry ABIs {abis}, only 3 (ARM32) wanted")
entries = events(rows, EV_SYSCALL_ENTRY)
exits = events(rows, EV_SYSCALL_EXIT)
arg5 = events(rows, EV["SYSCALL_ENTRY_ARG5"])

lseek_in = [r for r in entries if r["arg1"] == NR_LSEEK]
check(len(lseek_in) == N, f"{len(lseek_in)} lseek entries, expected {N}")
check(all(r["arg2"] == 1234 and r["arg4"] == 0 for r in lseek_in),
      "lseek entry with another fd or whence")
check(sorted(r["arg3"] for r in lseek_in) == [TAG + i for i in range(N)],
      f"lseek offsets are not TAG+0..{N - 1}")
lseek_out = [r for r in exits if r["arg1"] == NR_LSEEK]
check(len(lseek_out) == N and all(signed64(r["arg2"]) == -EBADF for r in lseek_out),
      f"{len(lseek_out)} lseek exits, {N} returning -EBADF wanted")

write_in = [r for r in entries if r["arg1"] == NR_WRITE and r["arg2"] == devnull]
check(len(write_in) == W, f"{len(write_in)} write entries to /dev/null, expected {W}")
check(sorted(r["arg4"] for r in write_in) == [777 + i for i in range(W)],
      f"write lengths are not 777..{777 + W - 1}")
write_out = sorted(signed64(r["arg2"]) for r in exits if r["arg1"] == NR_WRITE)
check(all(n in write_out for n in range(777, 777 + W)),
      f"write exits do not return 777..{777 + W - 1}")

futex_in = [r for r in entries if r["arg1"] == NR_FUTEX]
check(len(futex_in) == 1 and [futex_in[0][f"arg{i}"] for i in range(2, 7)] ==
      [0x1111, 0x7f, 0x3333, 0x4444, 0x5555], f"futex entry arguments wrong: {futex_in}")
futex_a5 = [r for r in arg5 if r["arg1"] == NR_FUTEX]
check(len(futex_a5) == 1 and futex_a5[0]["arg2"] == 0x6666,
      f"futex's ARG5 records {futex_a5}, one with 0x6666 wanted")
futex_out = [r for r in exits if r["arg1"] == NR_FUTEX]
check(len(futex_out) == 1 and signed64(futex_out[0]["arg2"]) == -ENOSYS,
      f"futex exits {futex_out}, one returning -ENOSYS wanted")

# Every call the program made (open, getpid, write of its line, the loops,
# futex, exit), entry by entry: nothing else and nothing twice.
counts = {}
for r in entries:
    counts[r["arg1"] & 0xffffffff] = counts.get(r["arg1"] & 0xffffffff, 0) + 1
check(counts == {5: 1, 20: 1, 4: W + 1, 19: N, 240: 1, 1: 1},
      f"entries by AArch32 number {counts}")
print(f"compat32: {len(entries)} entries, {len(exits)} exits, ABI ARM32")
done()
