#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""liblkst's man3 pages, one per public function, from the public headers.

Usage: gen-man3.py OUTDIR VERSION HEADER...
       gen-man3.py --list HEADER...
       gen-man3.py --check HEADER...

The headers are the one source of the text: each function a header
declares (a prototype at the start of a line, or a static inline
definition) is documented by the kernel-doc comment right above it, or
above the group of declarations it opens (no blank line between them):

    /**
     * lkst_log_load() - load and validate a log file
     * @path: the file; "-" is standard input
     * @err: the message, when it fails
     *
     * What it does, in paragraphs.
     *
     * Return: a new log, or NULL with @err set.
     * Errors: errno values, when it sets any (optional).
     * Example: (optional) indented code, kept as it is, or the path of
     *          a program of utils/examples, relative to the header.
     */

A group's comment names every function of the group on its first line
("lkst_parse_u64(), lkst_parse_u32() - ...") and documents the arguments
of all of them.  In the text, @arg is an argument (italic), name() a
function (bold; it goes to SEE ALSO too) and %NAME a constant (bold).

Each function gets OUTDIR/NAME.3: NAME (the group's names and the
summary), SYNOPSIS (the #include and the group's prototypes),
DESCRIPTION (the text and one entry per argument), RETURN VALUE, ERRORS
(the Errors: text; a function that takes a struct lkst_err says how its
message reports a failure), EXAMPLE (when there is one) and SEE ALSO
(the functions the text names, then the others of its family).  The
text may be the summary alone; a function without such a comment, or
one that leaves an argument or the return value (of a function that
returns one) undocumented, gets a stub page without those sections,
which tests/host/test_manpages.sh refuses, and a warning as it is
written.  --check prints each such problem, and a documented argument
that no prototype has, and exits 1 if there is any.  Pages of functions no
header declares any more are removed, so that OUTDIR holds exactly one
page per function (tests/host/test_lib.sh checks them against the
library's exported functions).  --list prints the function names and the
header each is in, writing nothing.
"""
import os
import re
import sys

DECL = re.compile(r'^(?:(?:static inline |extern )?[A-Za-z_][\w \*]*?\b)?(lkst_\w+)\s*\(')
DOC_HEAD = re.compile(r'^((?:lkst_\w+\(\)(?:,\s*)?)+)\s+-\s+(.*)$')
SECTION = re.compile(r'^(Return|Returns|Errors|Example):\s?(.*)$')


def comment_text(lines):
    """The text of a /* ... */ block, without its frame (indentation kept
    after the ' * ')."""
    out = []
    for ln in lines:
        ln = ln.rstrip()
        ln = re.sub(r'^\s*/\*+\s?', '', ln)
        ln = re.sub(r'\s*\*+/$', '', ln)
        ln = re.sub(r'^\s*\*(?: |(?=\t)|$)', '', ln)
        out.append(ln)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


class Doc:
    """A kernel-doc comment: names, summary, arguments, sections."""

    def __init__(self, names, summary):
        self.names = names
        self.summary = summary
        self.args = {}		# name -> text
        self.arg_order = []
        self.desc = []		# lines, '' between paragraphs
        self.ret = []
        self.errors = []
        self.example = []


def parse_doc(text):
    """A Doc of comment lines that open with "name() - summary", or None."""
    if not text:
        return None
    m = DOC_HEAD.match(text[0].strip())
    if not m:
        return None
    names = re.findall(r'(lkst_\w+)\(\)', m.group(1))
    doc = Doc(names, m.group(2).strip())
    i = 1
    cur = None
    # The arguments: "@name: text", continued on lines up to a blank one.
    while i < len(text) and text[i].strip():
        ln = text[i].strip()
        a = re.match(r'^@(\w+|\.\.\.):\s*(.*)$', ln)
        if a:
            cur = a.group(1)
            doc.args[cur] = a.group(2)
            doc.arg_order.append(cur)
        elif cur:
            doc.args[cur] += ' ' + ln
        else:
            doc.desc.append(ln)	# no argument: the text starts at once
        i += 1
    target = doc.desc
    for ln in text[i:]:
        s = SECTION.match(ln.strip()) if target is not doc.example or not ln.startswith(' ') else None
        if s:
            target = {'Return': doc.ret, 'Returns': doc.ret, 'Errors': doc.errors,
                      'Example': doc.example}[s.group(1)]
            if s.group(2):
                target.append(s.group(2))
            continue
        target.append(ln if target is doc.example else ln.strip())
    for part in (doc.desc, doc.ret, doc.errors, doc.example):
        while part and not part[0].strip():
            part.pop(0)
        while part and not part[-1].strip():
            part.pop()
    return doc


def params(proto):
    """The argument names of a prototype, in order."""
    inner = proto[proto.index('(') + 1:proto.rindex(')')]
    out, depth, cur = [], 0, ''
    for c in inner:
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        if c == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += c
    out.append(cur)
    names = []
    for p in out:
        p = p.strip()
        if p in ('void', '', '...'):
            if p == '...':
                names.append('...')
            continue
        fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', p)
        if fp:
            names.append(fp.group(1))
            continue
        p = re.sub(r'\[[^\]]*\]', '', p).strip()
        names.append(re.findall(r'\w+', p)[-1])
    return names


def returns_void(proto):
    head = proto[:proto.index('(')]
    head = re.sub(r'\b(static|inline|extern)\b', '', head)
    return re.sub(r'\blkst_\w+\s*$', '', head).strip() == 'void'


def parse(path):
    """[(name, prototype, Doc or None, [prototypes of its group])] of a header."""
    src = open(path).read().split('\n')
    found = []
    doc = None		# the kernel-doc comment above the current group
    group = None	# the current group's prototypes
    i = 0
    depth = 0		# braces of struct bodies and inline functions
    while i < len(src):
        line = src[i]
        if depth == 0 and line.lstrip().startswith('/*'):
            block = [line]
            while '*/' not in block[-1]:
                i += 1
                block.append(src[i])
            doc = parse_doc(comment_text(block)) if line.startswith('/**') else None
            group = None
            i += 1
            continue
        if not line.strip():
            if depth == 0:
                doc = None
                group = None
            i += 1
            continue
        m = DECL.match(line) if depth == 0 and not line.startswith('typedef') else None
        if m:
            proto = [line]
            # The return type on a line of its own, before the name.
            if line.startswith('lkst_') and i and src[i - 1].strip() and \
                    not src[i - 1].rstrip().endswith((';', '*/', '}')):
                proto.insert(0, src[i - 1])
            while not re.search(r'[;{]\s*$', proto[-1]) and i + 1 < len(src):
                i += 1
                proto.append(src[i])
            text = ' '.join(p.strip() for p in proto)
            text = re.sub(r'\s*\{\s*$', ';', text)
            text = re.sub(r'\s+', ' ', text).replace('( ', '(')
            text = re.sub(r'\s*__attribute__\s*\(\(.*\)\)\s*;$', ';', text)
            text = re.sub(r'\bstatic inline ', '', text)
            if group is None:
                group = []
            group.append(text)
            d = doc if doc and m.group(1) in doc.names else None
            found.append((m.group(1), text, d, group))
            if proto[-1].rstrip().endswith('{'):
                depth = 1
            i += 1
            continue
        if line.startswith('#') or line.startswith('extern "C"') or \
                (line.strip() == '}' and depth == 0):
            i += 1		# the C++ guard's braces are no scope
            continue
        if depth == 0:
            doc = None	# a struct or a variable ends the group
            group = None
        depth += line.count('{') - line.count('}')
        depth = max(depth, 0)
        i += 1
    return found


def problems(name, proto, doc):
    """What a function's documentation lacks, as messages."""
    if doc is None:
        return ['%s: no kernel-doc comment ("/** %s() - ...")' % (name, name)]
    out = []
    ps = params(proto)
    for p in ps:
        if p not in doc.args or not doc.args[p].strip():
            out.append('%s: argument %s is not documented' % (name, p))
    if not doc.ret and not returns_void(proto):
        out.append('%s: no "Return:"' % name)
    return out


def stale(doc, protos):
    """Documented arguments no prototype of the group has."""
    have = set()
    for p in protos:
        have.update(params(p))
    return [a for a in doc.arg_order if a not in have]


def esc(s):
    s = s.replace('\\', '\\e').replace('-', '\\-')
    if s.startswith(('.', "'")):
        s = '\\&' + s
    return s


def markup(s):
    """Escaped text with @arg italic, name() and %CONST bold."""
    s = esc(s)
    s = re.sub(r'@(\w+)', r'\\fI\1\\fP', s)
    s = re.sub(r'\b([A-Za-z_]\w*)\(\)', r'\\fB\1\\fP()', s)
    s = re.sub(r'%([A-Z_][A-Z0-9_]*)', r'\\fB\1\\fP', s)
    if s.startswith(('.', "'")):
        s = '\\&' + s
    return s


def paragraphs(lines):
    """roff of text lines, '' between paragraphs."""
    out, para = [], []
    for ln in lines + ['']:
        if ln.strip():
            para.append(markup(ln.strip()))
        elif para:
            if out:
                out.append('.PP')
            out.extend(para)
            para = []
    return out


def capital(s):
    """s with a capital first letter, unless it starts with a name
    ("lkst_x(): ...", "@arg", "argN") that must be spelled as it is."""
    if re.match(r'[a-z]+(?=[\s,;:.]|$)', s):
        return s[:1].upper() + s[1:]
    return s


def synopsis(proto, width=78):
    """roff lines of a prototype, its arguments wrapped under the first."""
    head, rest = proto.split('(', 1)
    parts = re.split(r'(?<=,) ', rest)
    lines, cur = [], head + '(' + parts[0]
    for part in parts[1:]:
        if len(cur) + 1 + len(part) > width:
            lines.append(cur)
            cur = ' ' * (len(head) + 1) + part
        else:
            cur += ' ' + part
    lines.append(cur)
    out = ['.B %s' % esc(lines[0])]
    for ln in lines[1:]:
        out.append('.B "%s"' % esc(ln))
    return out


def mentioned(doc):
    text = ' '.join([doc.summary] + doc.desc + doc.ret + doc.errors +
                    list(doc.args.values()))
    seen = []
    for n in re.findall(r'\b([a-z_]\w*)\(\)', text):
        if n not in seen:
            seen.append(n)
    return seen


ERR_TEXT = ('On failure @err->msg holds a one-line message saying what is wrong '
            'and what to do (with the text of strerror(3) when a system call '
            'failed).  The library sets no errno value of its own: errno after '
            'a failure is unspecified.')


def example_lines(doc, hdir):
    """The example: its lines, or, when it names a file of the examples
    ("Example: examples/lkst_count.c", relative to the header), that
    file's, without its license line: a program the tests build."""
    ex = doc.example
    if len(ex) == 1 and re.match(r'^\S+\.(c|cc)$', ex[0].strip()):
        path = os.path.join(hdir, ex[0].strip())
        lines = open(path).read().rstrip('\n').split('\n')
        return [l for l in lines if 'SPDX-License-Identifier' not in l]
    return ex


def page(name, proto, doc, group, header, version, family, known, hdir='.'):
    ok = doc is not None and not problems(name, proto, doc)
    names = doc.names if doc else [name]
    summary = doc.summary if doc else 'liblkst function (undocumented)'
    out = ['.\\" Generated by utils/gen-man3.py from %s: edit the header.' % header,
           '.TH %s 3 "" "liblkst %s" "liblkst Manual"' % (name.upper(), version),
           '.nh',
           '.ad l',
           '.SH NAME',
           '%s \\- %s' % (', '.join(esc(n) for n in names), esc(summary)),
           '.SH SYNOPSIS',
           '.nf',
           '.B #include <lkst.h>',
           '.PP']
    for p in (group if ok else [proto]):
        out += synopsis(p)
    out += ['.fi',
            '.PP',
            'Compile and link with',
            '.IR "pkg-config --cflags --libs liblkst" .',
            '.SH DESCRIPTION']
    if not ok:
        out += ['Not documented: see', '.IR %s .' % header]
    else:
        desc = doc.desc or [capital(doc.summary) + '.']
        out += paragraphs(desc)
        have = []
        for p in group:
            for a in params(p):
                if a not in have:
                    have.append(a)
        args = [a for a in doc.arg_order if a in have] + \
            [a for a in have if a not in doc.arg_order]
        if args:
            out.append('.PP')
            out.append('The arguments:')
            for a in args:
                out += ['.TP', '.I %s' % esc(a)]
                out += paragraphs([doc.args.get(a, '')])
        out.append('.SH RETURN VALUE')
        if doc.ret:
            out += paragraphs([capital(doc.ret[0])] + doc.ret[1:])
        elif len(group) > 1:
            out.append('These functions return no value.')
        else:
            out.append('.BR %s ()' % esc(name))
            out.append('returns no value.')
        errs = list(doc.errors)
        if any('struct lkst_err' in p for p in group) and \
                any('err' in params(p) for p in group):
            errs += ([''] if errs else []) + [ERR_TEXT]
        if errs:
            out.append('.SH ERRORS')
            out += paragraphs(errs)
        example = example_lines(doc, hdir) if doc.example else []
        if example:
            out += ['.SH EXAMPLE', '.PP', '.EX']
            ind = min(len(l) - len(l.lstrip()) for l in example if l.strip())
            for l in example:
                l = esc(l[ind:]) if l.strip() else ''
                out.append(l if l else '')
            out.append('.EE')
    out.append('.SH SEE ALSO')
    refs = []
    if doc:
        for n in mentioned(doc):
            if n not in names and n in known and n not in refs:
                refs.append(n)
    for o in family:
        if o not in names and o not in refs and len(refs) < 12:
            refs.append(o)
    lines = ['.BR %s (3)' % esc(r) for r in refs]
    lines.append('.BR pkg\\-config (1)')
    out.append(',\n'.join(lines))
    text = '\n'.join(out) + '\n'
    # An empty line in roff is a blank output line and a warning with -ww:
    # the example's empty lines become a zero-width no-op.
    return re.sub(r'\n(?=\n)', '\n\\\\&', text)


def main(argv):
    if len(argv) >= 2 and argv[1] in ('--list', '--check'):
        bad = 0
        for h in argv[2:]:
            decls = parse(h)
            for name, proto, doc, group in decls:
                if argv[1] == '--list':
                    print(name, os.path.basename(h))
                    continue
                for p in problems(name, proto, doc):
                    print('%s: %s' % (os.path.basename(h), p))
                    bad += 1
                if doc and name == doc.names[0]:
                    for a in stale(doc, group):
                        print('%s: %s: @%s is no argument' % (os.path.basename(h), name, a))
                        bad += 1
                    gnames = [d[0] for d in decls if d[3] is group]
                    for n in doc.names:
                        if n not in gnames:
                            print('%s: %s: the comment names %s, not declared below it'
                                  % (os.path.basename(h), name, n))
                            bad += 1
        return 1 if bad else 0
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 1
    outdir, version, headers = argv[1], argv[2], argv[3:]
    os.makedirs(outdir, exist_ok=True)
    all_decls = [(h, parse(h)) for h in headers]
    known = set(d[0] for _, ds in all_decls for d in ds)
    pages = {}
    for h, decls in all_decls:
        names = [d[0] for d in decls]
        for name, proto, doc, group in decls:
            if name in pages:
                continue
            # SEE ALSO: the functions of its family (lkst_trace_*, ...).
            fam = '_'.join(name.split('_')[:2]) + '_'
            others = [n for n in names if n != name and n.startswith(fam)]
            pages[name] = page(name, proto, doc, group, os.path.basename(h), version,
                               others, known, os.path.dirname(h) or '.')
            # Said at once, so that a new function's author need not wait
            # for the test to learn its page is a stub.
            for p in problems(name, proto, doc):
                sys.stderr.write('gen-man3.py: %s: %s (a stub page)\n'
                                 % (os.path.basename(h), p))
    for f in os.listdir(outdir):
        if f.endswith('.3') and f[:-2] not in pages:
            os.unlink(os.path.join(outdir, f))
    for name, text in pages.items():
        p = os.path.join(outdir, name + '.3')
        old = open(p).read() if os.path.exists(p) else None
        if old != text:
            with open(p, 'w') as f:
                f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
