"""Network events: lkst_net's UDP datagrams over lo, handed to the
loopback driver and received back, with lengths, protocol, ifindex,
result and device name."""
import os
import struct
import sys

from lkstcheck import EV, check, covers, done, signed64
from scenario_facts import read_facts, rows_since_mark

covers("NET_XMIT", "NET_RECEIVE")
d = sys.argv[1]
prog = read_facts(os.path.join(d, "prog.txt"))
check("done" in prog, "lkst_net did not finish")
pid, ifindex = int(prog["pid"]), int(prog["ifindex"])
rows = rows_since_mark(d, "t53_net")

SIZES = [100, 555, 1234, 3000]     # must match tests/guest/lkst_net.c
ETH_P_IP = 0x0800
ETH_HLEN, IP_UDP_HLEN = 14, 20 + 8
PACKET_HOST = 0


def devname(r):
    raw = struct.pack("<QQ", r["arg5"], r["arg6"])
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


def ordered(name):
    return sorted((r for r in rows if r["id"] == EV[name]), key=lambda r: int(r["time"]))


# On the way out the skb still carries lo's Ethernet header.
xmit = [r for r in ordered("NET_XMIT") if r["arg2"] == ETH_P_IP]
got = [(r["arg1"], r["arg3"], signed64(r["arg4"]), devname(r)) for r in xmit]
want = [(n + IP_UDP_HLEN + ETH_HLEN, ifindex, 0, "lo") for n in SIZES]
check(got == want, f"IPv4 transmissions {got}, expected {want}", event="NET_XMIT")
check(all(r["pid"] == pid for r in xmit), "an IPv4 transmission not from lkst_net",
      event="NET_XMIT")

# On the way in eth_type_trans() has pulled it.
recv = [r for r in ordered("NET_RECEIVE") if r["arg2"] == ETH_P_IP]
got = [(r["arg1"], r["arg3"], r["arg4"], devname(r)) for r in recv]
want = [(n + IP_UDP_HLEN, ifindex, PACKET_HOST, "lo") for n in SIZES]
check(got == want, f"IPv4 receptions {got}, expected {want}", event="NET_RECEIVE")
check(all(int(x["time"]) < int(r["time"]) for x, r in zip(xmit, recv)),
      "a packet received before it was sent", event="NET_RECEIVE")

# The decoded print names the device.
decoded = [r for r in rows_since_mark(d, "t53_net", "decoded.csv")
           if r["id"] in (EV["NET_XMIT"], EV["NET_RECEIVE"])]
check(decoded and all(r["arg5"] == "lo" for r in decoded),
      "lkbuf print does not decode the device name as lo")
done()
