#!/usr/bin/env python3
"""Make utils/lkst_sysnames_gen.h from the kernel's own tables: system call
names (arch/x86/entry/syscalls/syscall_64.tbl and syscall_32.tbl), errno
names (include/uapi/asm-generic/errno-base.h, errno.h and the kernel's
internal 512.. codes in include/linux/errno.h) and the flag bits of the few
arguments lkbuf print decodes (O_* of open, PROT_* and MAP_* of mmap).

x86-64 numbers are the 'common' and '64' rows.  An x32 call reaches the
kernel as a native number with __X32_SYSCALL_BIT set and indexes the x32
table (the 'common' and 'x32' rows), as do_syscall_x32() does: those get
names of their own, shown as "x32:name".

The header is committed, so that the tools build without a kernel tree;
`make sysnames` rewrites it and `make test` fails while it is stale.

usage: gen-sysnames.py [--check] [--header=FILE] [KSRC]
KSRC is the kernel tree (default build/linux-6.12), FILE the header
(default utils/lkst_sysnames_gen.h).  With --check, exits 1 (printing a
diff) when the header is not what the tree makes.
"""
import difflib
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO, "utils", "lkst_sysnames_gen.h")

# Flag sets: (enum suffix in lkst_sysnames.h, headers, entries).  An entry is
# a name, or (name, mask) for a value of a multi-bit field; a name whose value
# covers several bits (O_SYNC) comes before the bits it covers.
FLAGSETS = [
    ("OPEN", ["include/uapi/asm-generic/fcntl.h"],
     [("O_RDONLY", "O_ACCMODE"), ("O_WRONLY", "O_ACCMODE"), ("O_RDWR", "O_ACCMODE"),
      "O_CREAT", "O_EXCL", "O_NOCTTY", "O_TRUNC", "O_APPEND", "O_NONBLOCK",
      "O_SYNC", "O_DSYNC", "FASYNC", "O_DIRECT", "O_LARGEFILE", "O_TMPFILE",
      "O_DIRECTORY", "O_NOFOLLOW", "O_NOATIME", "O_CLOEXEC", "O_PATH"]),
    ("PROT", ["include/uapi/asm-generic/mman-common.h"],
     [("PROT_NONE", "~0"), "PROT_READ", "PROT_WRITE", "PROT_EXEC", "PROT_SEM",
      "PROT_GROWSDOWN", "PROT_GROWSUP"]),
    ("MAP", ["include/uapi/linux/mman.h", "include/uapi/asm-generic/mman-common.h",
             "include/uapi/asm-generic/mman.h", "arch/x86/include/uapi/asm/mman.h"],
     [("MAP_SHARED", "MAP_TYPE"), ("MAP_PRIVATE", "MAP_TYPE"),
      ("MAP_SHARED_VALIDATE", "MAP_TYPE"), "MAP_FIXED", "MAP_ANONYMOUS",
      "MAP_32BIT", "MAP_ABOVE4G", "MAP_GROWSDOWN", "MAP_DENYWRITE",
      "MAP_EXECUTABLE", "MAP_LOCKED", "MAP_NORESERVE", "MAP_POPULATE",
      "MAP_NONBLOCK", "MAP_STACK", "MAP_HUGETLB", "MAP_SYNC",
      "MAP_FIXED_NOREPLACE"]),
]

# The decoded arguments: ABI -> {call: {argument index: (name, flag set)}}.
# ia32's "mmap" is old_mmap (one pointer to its arguments): mmap2 instead.
OPEN = {1: ("flags", "OPEN")}
OPENAT = {2: ("flags", "OPEN")}
MMAP = {2: ("prot", "PROT"), 3: ("flags", "MAP")}
MPROTECT = {2: ("prot", "PROT")}
DECODED = {
    "NATIVE": {"open": OPEN, "openat": OPENAT, "mmap": MMAP, "mprotect": MPROTECT,
               "pkey_mprotect": MPROTECT},
    "IA32": {"open": OPEN, "openat": OPENAT, "mmap2": MMAP, "mprotect": MPROTECT,
             "pkey_mprotect": MPROTECT},
}


def read(ksrc, path):
    try:
        with open(os.path.join(ksrc, path)) as f:
            return f.read()
    except OSError as e:
        sys.exit(f"gen-sysnames: {e.filename}: {e.strerror}; give the kernel tree "
                 "(make kernel-tree makes build/linux-6.12)")


def syscall_table(ksrc, path, abis):
    """{number: name} of the rows whose ABI is in abis."""
    calls = {}
    for line in read(ksrc, path).splitlines():
        f = line.split("#", 1)[0].split()
        if len(f) >= 3 and f[1] in abis:
            nr = int(f[0])
            if nr in calls:
                sys.exit(f"gen-sysnames: {path}: number {nr} twice")
            calls[nr] = f[2]
    if not calls:
        sys.exit(f"gen-sysnames: {path}: no system calls of ABI {'/'.join(abis)}")
    return calls


DEFINE = re.compile(r"^#define[ \t]+(\w+)[ \t]+(.*?)[ \t]*(?:/\*.*)?$", re.M)


def defines(ksrc, paths):
    """{name: value} of the #defines the headers make numbers of."""
    raw = {}
    for path in paths:
        for name, expr in DEFINE.findall(read(ksrc, path)):
            raw.setdefault(name, expr)
    values = {}

    def value(name, depth=0):
        if name in values:
            return values[name]
        expr = raw.get(name)
        if expr is None or depth > 8:
            return None
        # Octal as C writes it, then the names it is made of.
        py = re.sub(r"\b0([0-7]+)\b", r"0o\1", expr).replace("ULL", "").replace("UL", "")
        for ref in set(re.findall(r"\b[A-Za-z_]\w*\b", py)):
            v = value(ref, depth + 1)
            if v is None:
                return None
            py = re.sub(rf"\b{ref}\b", str(v), py)
        if not re.fullmatch(r"[0-9xXa-fA-Fo |()<~-]*", py):
            return None
        values[name] = eval(py)  # digits and | ( ) << ~ only, checked above
        return values[name]

    return value


def errno_names(ksrc):
    """{number: name}, the first name of each number (EWOULDBLOCK is EAGAIN)."""
    names = {}
    for path in ("include/uapi/asm-generic/errno-base.h", "include/uapi/asm-generic/errno.h",
                 "include/linux/errno.h"):
        for name, expr in DEFINE.findall(read(ksrc, path)):
            if re.fullmatch(r"E[A-Z0-9_]+", name) and re.fullmatch(r"\d+", expr):
                names.setdefault(int(expr), name)
    if names.get(2) != "ENOENT" or names.get(512) != "ERESTARTSYS":
        sys.exit("gen-sysnames: errno headers not as expected (no ENOENT 2 or ERESTARTSYS 512)")
    return names


def c_array(decl, entries):
    out = [f"static const char *const {decl}[] = {{"]
    out += [f'\t[{k}] = "{v}",' for k, v in sorted(entries.items())]
    return out + ["};", ""]


def generate(ksrc):
    tbl = "arch/x86/entry/syscalls/"
    x86_64 = syscall_table(ksrc, tbl + "syscall_64.tbl", ("common", "64"))
    x32 = syscall_table(ksrc, tbl + "syscall_64.tbl", ("common", "x32"))
    ia32 = syscall_table(ksrc, tbl + "syscall_32.tbl", ("i386",))
    m = re.search(r"^#define\s+__X32_SYSCALL_BIT\s+(0x[0-9a-fA-F]+)",
                  read(ksrc, "arch/x86/include/uapi/asm/unistd.h"), re.M)
    if not m:
        sys.exit("gen-sysnames: no __X32_SYSCALL_BIT in arch/x86/include/uapi/asm/unistd.h")
    errnos = errno_names(ksrc)
    user = {k: v for k, v in errnos.items() if k < 512}
    kernel = {k - 512: v for k, v in errnos.items() if k >= 512}

    out = ["/* SPDX-License-Identifier: LGPL-2.1-or-later */",
           "/*",
           " * Generated by tools/build/gen-sysnames.py (make sysnames) from the",
           " * kernel's syscall_64.tbl, syscall_32.tbl, errno and uapi headers:",
           " * do not edit.  Included by lkst_sysnames.c only.",
           " */",
           "",
           "_Static_assert(LKST_X32_SYSCALL_BIT == " + m.group(1) + ",",
           '\t       "lkst_sysnames.h: LKST_X32_SYSCALL_BIT is not __X32_SYSCALL_BIT");',
           "#define LKST_ERRNO_KERNEL_BASE\t512",
           ""]
    out += c_array("lkst_syscalls_x86_64", x86_64)
    out += c_array("lkst_syscalls_x32", x32)
    out += c_array("lkst_syscalls_ia32", ia32)
    out += c_array("lkst_errnos", user)
    out += c_array("lkst_errnos_kernel", kernel)

    for set_name, headers, entries in FLAGSETS:
        value = defines(ksrc, headers)
        out.append(f"static const struct lkst_flag_name lkst_flags_{set_name.lower()}[] = {{")
        for e in entries:
            name, mask = e if isinstance(e, tuple) else (e, e)
            v = value(name)
            m = -1 if mask == "~0" else value(mask)
            if v is None or m is None:
                sys.exit(f"gen-sysnames: no value for {name} (or {mask}) in {', '.join(headers)}")
            m &= (1 << 64) - 1
            out.append(f'\t{{ {m:#x}ull, {v:#x}, "{name}" }},')
        out += ["\t{ 0, 0, NULL }", "};", ""]

    out.append("static const struct lkst_syscall_flags lkst_syscall_flags[] = {")
    tables = {"NATIVE": x86_64, "IA32": ia32}
    for abi, calls in DECODED.items():
        by_name = {v: k for k, v in tables[abi].items()}
        for call, args in calls.items():
            if call not in by_name:
                sys.exit(f"gen-sysnames: no {abi} system call {call}")
            for arg, (name, fset) in sorted(args.items()):
                out.append(f'\t{{ LKST_SYSCALL_ABI_{abi}, {by_name[call]}, {arg}, '
                           f'"{name}", LKST_FLAGS_{fset} }},\t/* {call} */')
    out += ["};", ""]
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    out = OUT
    for a in [a for a in args if a.startswith("--header=")]:
        out = a[len("--header="):]
        args.remove(a)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.exit(__doc__)
    ksrc = args[0] if args else os.path.join(REPO, "build", "linux-6.12")
    new = generate(ksrc)
    try:
        with open(out) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    if check:
        if new != old:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), out, "generated"))
            print(f"gen-sysnames: {out} is stale: make sysnames", file=sys.stderr)
            sys.exit(1)
        return
    if new != old:
        with open(out, "w") as f:
            f.write(new)
        print(f"  GEN     {os.path.relpath(out, REPO)}")


main()
