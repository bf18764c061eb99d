#!/usr/bin/env python3
"""Count lkst hook sites in a built kernel: every LKST_HOOK*() that the
compiler emitted is one jump-table entry whose key lies in
lkst_event_keys[] (inlined copies count once each, as they are separate
NOPs to patch).  Reads the ELF vmlinux directly.

usage: count-hooks.py VMLINUX [--min N] [--list]
Prints "hook sites: N in vmlinux for E events" (and with --list, each site
as event, function); exits 1 when N is below --min.
"""
import bisect
import struct
import sys

from lkst_table import read_table


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    shdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = shdrs[shstrndx]
    def name(off):
        start = strtab[4] + off
        return data[start:data.index(b"\0", start)].decode()
    return {name(s[0]): s for s in shdrs}, shdrs


def symbols(data, secs, shdrs):
    symtab = secs[".symtab"]
    strtab = shdrs[symtab[6]]
    out = []
    for off in range(symtab[4], symtab[4] + symtab[5], 24):
        st_name, st_info, _other, _shndx, value, size = struct.unpack_from("<IBBHQQ", data, off)
        start = strtab[4] + st_name
        out.append((data[start:data.index(b"\0", start)].decode(), st_info & 0xf, value, size))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1 and not (len(args) == 2 and "--min" in sys.argv):
        sys.exit(__doc__)
    minimum = int(sys.argv[sys.argv.index("--min") + 1]) if "--min" in sys.argv else 0
    with open(args[0], "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{args[0]}: not a 64-bit ELF file")
    secs, shdrs = sections(data)
    if ".symtab" not in secs:
        sys.exit(f"{args[0]}: no .symtab (stripped?)")
    syms = symbols(data, secs, shdrs)
    bounds = {s[0]: s[2] for s in syms if s[0] in ("__start___jump_table", "__stop___jump_table")}
    if len(bounds) != 2:
        sys.exit(f"{args[0]}: no jump table (CONFIG_JUMP_LABEL off?)")
    jt_start, jt_end = bounds["__start___jump_table"], bounds["__stop___jump_table"]
    # The linker script puts the table inside a data section: find its file offset.
    holder = [s for s in shdrs if s[1] != 8 and s[3] <= jt_start and jt_end <= s[3] + s[5]]
    if not holder:
        sys.exit(f"{args[0]}: the jump table lies in no section with file contents")
    jt_off = holder[0][4] + jt_start - holder[0][3]
    keys = [s for s in syms if s[0] == "lkst_event_keys"]
    if not keys:
        sys.exit(f"{args[0]}: no lkst_event_keys symbol: not an lkst kernel")
    keys_addr, keys_size = keys[0][2], keys[0][3]
    key_size = keys_size // 256
    funcs = sorted((s[2], s[0]) for s in syms if s[1] == 2 and s[2])
    starts = [a for a, _ in funcs]
    names = {e["id"]: e["name"] for e in read_table()[1]}

    per_event, sites = {}, []
    for off in range(0, jt_end - jt_start, 16):
        code, _target, key = struct.unpack_from("<iiq", data, jt_off + off)
        entry = jt_start + off
        key_addr = (entry + 8 + key) & ~3
        if not keys_addr <= key_addr < keys_addr + keys_size:
            continue
        event = (key_addr - keys_addr) // key_size
        code_addr = entry + code
        i = bisect.bisect_right(starts, code_addr) - 1
        fn = funcs[i][1] if i >= 0 else "?"
        name = names.get(event, f"0x{event:02x}")
        per_event[name] = per_event.get(name, 0) + 1
        sites.append((event, name, fn))
    if "--list" in sys.argv:
        for event, name, fn in sorted(sites):
            print(f"0x{event:02x} {name:28} {fn}")
        print()
        for name, n in sorted(per_event.items(), key=lambda kv: -kv[1]):
            print(f"{n:4} {name}")
    unhooked = sorted(set(names.values()) - set(per_event))
    print(f"hook sites: {len(sites)} in vmlinux for {len(per_event)} events"
          + (f" (no site in vmlinux: {' '.join(unhooked)})" if unhooked else ""))
    sys.exit(1 if len(sites) < minimum else 0)


main()
