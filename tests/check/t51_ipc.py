"""IPC events: every call lkst_ipc makes, with its ids, sizes, types,
priorities, addresses and results (including the failures it provokes)."""
import errno
import os
import sys
from collections import Counter

from lkstcheck import EV, check, covers, done, signed64
from scenario_facts import read_facts, rows_since_mark

covers("IPC_MSGSND", "IPC_MSGRCV", "IPC_SEMOP", "IPC_SHMAT", "IPC_SHMDT",
       "IPC_PIPE_READ", "IPC_PIPE_WRITE", "IPC_FUTEX_WAIT", "IPC_FUTEX_WAKE",
       "IPC_MQ_SEND", "IPC_MQ_RECEIVE", "IPC_UNIX_SEND", "IPC_UNIX_RECV")
d = sys.argv[1]
prog = read_facts(os.path.join(d, "prog.txt"))
check("done" in prog, "lkst_ipc did not finish")
pid = int(prog["pid"])
rows = rows_since_mark(d, "t51_ipc")

IPC_NOWAIT = 0o4000
SHM_RDONLY = 0o10000
BITSET_ANY = 0xffffffff


def calls(name, nargs, match=None, who=pid):
    """Signed argument tuples of NAME's records from pid WHO (any pid if
    None), optionally only those where match(args) holds."""
    out = []
    for r in rows:
        if r["id"] != EV[name] or (who is not None and r["pid"] != who):
            continue
        args = tuple(signed64(r[f"arg{i}"]) for i in range(1, nargs + 1))
        if match is None or match(args):
            out.append(args)
    return Counter(out)


def expect(name, got, want):
    check(got == Counter(want),
          f"{name}: got {sorted(got.elements())}, expected {sorted(want)}",
          event=name)


msqid = int(prog["msqid"])
expect("IPC_MSGSND", calls("IPC_MSGSND", 5, lambda a: a[0] == msqid),
       [(msqid, 7, 111, 0, 0), (msqid, 8, 222, 0, 0), (msqid, 9, 333, 0, 0),
        (msqid, 0, 10, -errno.EINVAL, 0)])
expect("IPC_MSGRCV", calls("IPC_MSGRCV", 5, lambda a: a[0] == msqid),
       [(msqid, 8, 1000, 222, 0), (msqid, 0, 1000, 111, 0),
        (msqid, -9, 1000, 333, 0), (msqid, 5, 1000, -errno.ENOMSG, IPC_NOWAIT)])

semid = int(prog["semid"])
expect("IPC_SEMOP", calls("IPC_SEMOP", 6, lambda a: a[0] == semid),
       [(semid, 2, 3, 5, 0, 0), (semid, 1, 3, -2, 0, IPC_NOWAIT),
        (semid, 1, 2, -1, -errno.EAGAIN, IPC_NOWAIT)])

shmid = int(prog["shmid"])
rw, ro = int(prog["shmaddr"], 16), int(prog["shmaddr_ro"], 16)
expect("IPC_SHMAT", calls("IPC_SHMAT", 5),
       [(shmid, rw, 0, 0, 0), (shmid, ro, 0, SHM_RDONLY, 0),
        (shmid, 0, -errno.EINVAL, 0, 0)])
expect("IPC_SHMDT", calls("IPC_SHMDT", 2),
       [(rw, 0), (ro, 0), (rw, -errno.EINVAL)])

ino = int(prog["pipe_ino"])
expect("IPC_PIPE_WRITE", calls("IPC_PIPE_WRITE", 3, lambda a: a[2] == ino),
       [(100, 100, ino), (2000, 2000, ino), (4096, 4096, ino)])
expect("IPC_PIPE_READ", calls("IPC_PIPE_READ", 3, lambda a: a[2] == ino),
       [(50, 50, ino), (8000, 6146, ino), (300, -errno.EAGAIN, ino)])

uaddr = int(prog["futex_addr"], 16)
waiter = int(prog["futex_waiter"])
check(prog.get("futex_woken") == "1", "the futex wake did not wake the waiter",
      event="IPC_FUTEX_WAKE")
expect("IPC_FUTEX_WAIT", calls("IPC_FUTEX_WAIT", 4, lambda a: a[0] == uaddr),
       [(uaddr, 12345, -errno.EAGAIN, BITSET_ANY)])
expect("IPC_FUTEX_WAIT",
       calls("IPC_FUTEX_WAIT", 4, lambda a: a[0] == uaddr, who=waiter),
       [(uaddr, 0, 0, BITSET_ANY)])
expect("IPC_FUTEX_WAKE", calls("IPC_FUTEX_WAKE", 4, lambda a: a[0] == uaddr),
       [(uaddr, 5, 1, BITSET_ANY)])

mqd = int(prog["mqd"])
expect("IPC_MQ_SEND", calls("IPC_MQ_SEND", 4, lambda a: a[0] == mqd),
       [(mqd, 100, 3, 0), (mqd, 200, 7, 0), (mqd, 300, 1, 0),
        (mqd, 10, 40000, -errno.EINVAL)])
expect("IPC_MQ_RECEIVE", calls("IPC_MQ_RECEIVE", 4, lambda a: a[0] == mqd),
       [(mqd, 512, 7, 200), (mqd, 600, 3, 100), (mqd, 512, 1, 300),
        (mqd, 100, 0, -errno.EMSGSIZE)])

# Socket types: 1 stream, 2 dgram, 5 seqpacket.  Each record names its
# socket's inode and its peer's (none for a datagram socket), so that the
# two ends of a conversation pair up.
client = int(prog["unix_client"])
ino = {key: tuple(map(int, prog[key].split()))
       for key in ("unix_pair_1", "unix_pair_2", "unix_pair_5", "unix_empty",
                   "unix_connected")}
(s0, s1), (d0, d1), (q0, q1) = ino["unix_pair_1"], ino["unix_pair_2"], ino["unix_pair_5"]
e0, e1 = ino["unix_empty"]
cli, srv = ino["unix_connected"]
expect("IPC_UNIX_SEND", calls("IPC_UNIX_SEND", 5),
       [(123, 123, 1, s0, s1), (77, 77, 2, d0, 0), (55, 55, 5, q0, q1),
        (1, 1, 1, srv, cli), (1, 1, 1, srv, cli)])
expect("IPC_UNIX_SEND", calls("IPC_UNIX_SEND", 5, who=client),
       [(321, 321, 1, cli, srv)])
expect("IPC_UNIX_RECV", calls("IPC_UNIX_RECV", 5),
       [(8192, 123, 1, s1, s0), (8192, 77, 2, d1, 0), (8192, 55, 5, q1, q0),
        (999, -errno.EAGAIN, 1, e0, e1), (4000, 321, 1, srv, cli)])
expect("IPC_UNIX_RECV", calls("IPC_UNIX_RECV", 5, who=client),
       [(1, 1, 1, cli, srv), (1, 1, 1, cli, srv)])
done()
