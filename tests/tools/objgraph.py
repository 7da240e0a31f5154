"""The call graph and file-scope writes of kernel objects, read from
objdump -dr and readelf (tests/tools/test_hidden_state.py: no hidden state
on the measured path; test_fault_walk.py: the walk of a fault request that
docs/hacking.md names).

Graph(objects) takes (unit, listing, symbols) per object: unit the C
source (its functions are "unit:name"), listing `objdump -dr
--no-show-raw-insn`, symbols `readelf -sW -SW -rW` (its relocations: the
option parser, OPTION_PARSER, stores every variable an HZ_OPTION row of
the objects points at); kernel_dumps() gives them for build/k. The kernel
is built -mcmodel=small without PIC: addresses are R_X86_64_32/32S
immediates and displacements, or RIP-relative.
"""

import collections
import glob
import os
import re
import shlex
import shutil
import subprocess

import hztest


class Insn:
    def __init__(self, addr, mnem, ops, func):
        if mnem in PREFIXES and ops:  # "lock cmpxchg ...", "rep stos ...": the instruction
            mnem, _, ops = ops.partition(" ")
        self.addr, self.mnem, self.ops, self.func = addr, mnem, ops.split("#")[0].strip(), func
        self.rels = []  # (offset, type, symbol, addend)


PREFIXES = ("lock", "rep", "repz", "repnz", "notrack", "bnd", "data16")
FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
RELOC = re.compile(r"^\s*([0-9a-f]+): (R_X86_64_\S+)\s+([^+\-\s]+)([+-]0x[0-9a-f]+)?$")
SECTION = re.compile(r"^\s*\[\s*(\d+)\]\s+(\S+)\s")
CALLEE = re.compile(r"<([^>+.]+)")
REG = re.compile(r"%([a-z0-9]+)")
ARG_REGS = {"rdi", "rsi", "rdx", "rcx", "r8", "r9"}
CALLER_SAVED = ARG_REGS | {"rax", "r10", "r11"}
COPIERS = ("memset", "memcpy", "memmove")  # a call that writes its first argument's memory
# The option parser (lib/cmdline.c's apply, off the measured path): it writes
# every HZ_OPTION row's `.dest` through the option table.
OPTION_PARSER = "lib/cmdline.c:apply"
NO_WRITE = ("cmp", "test", "bt", "push", "ucomi", "comi")


def reg64(name):
    """%esi, %si, %sil, %r8d ... -> the 64-bit register's name."""
    for full in ("rax", "rbx", "rcx", "rdx"):
        if name in (full, "e" + full[1:], full[1:], full[1] + "l"):
            return full
    for full in ("rsi", "rdi", "rbp", "rsp"):
        if name in (full, "e" + full[1:], full[1:], full[1:] + "l"):
            return full
    return re.sub(r"^(r\d+)[dwb]$", r"\1", name)


def operands(ops):
    """AT&T operands, split at the commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in ops:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and not depth:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def regs(operand):
    return {reg64(r) for r in REG.findall(operand)} - {"rip"}


def is_store(insn):
    """True when insn writes its memory operand (the last operand in AT&T)."""
    ops = operands(insn.ops)
    if not ops or "(" not in ops[-1] or insn.mnem.startswith(NO_WRITE):
        return False
    return len(ops) > 1 or insn.mnem.startswith(("inc", "dec", "neg", "not", "set", "stos"))


def follow(insns, i, reg):
    """What the code after insns[i], which loaded a variable's address into
    reg, does with it: {"stores"} when it writes through it (or a copy, or a
    pointer derived from it) in this function, {"hands"} when the address
    leaves (a call's argument, a store of the value), {"reads"} when it
    loads through it, any of them, or none. A straight scan to the
    register's next definition."""
    tracked, kinds, func = {reg}, set(), insns[i].func
    for y in insns[i + 1:]:
        if y.func != func or y.mnem.startswith("ret") or not tracked:
            break
        ops = operands(y.ops)
        if y.mnem.startswith(("call", "jmp")) and (y.rels or not CALLEE.search(y.ops)):
            callee = y.rels[0][2] if y.rels else ""
            if "rdi" in tracked and callee in COPIERS:
                kinds.add("stores")
            elif "rsi" in tracked and callee in COPIERS[1:]:
                kinds.add("reads")
            elif tracked & ARG_REGS:
                kinds.add("hands")
            tracked -= CALLER_SAVED
            if y.mnem.startswith("jmp"):
                break
            continue
        if y.mnem.startswith("stos") and "rdi" in tracked:
            kinds.add("stores")
            continue
        if not ops:
            continue
        dest, srcs = ops[-1], ops[:-1]
        through = [o for o in ops if "(" in o and regs(o[o.index("("):]) & tracked]
        store_only = through == [dest] and y.mnem.startswith("mov")
        if through and not store_only and not y.mnem.startswith("lea"):
            kinds.add("reads")  # a load (or a read-modify-write) through the address
        if "(" in dest and regs(dest[dest.index("("):]) & tracked and is_store(y):
            kinds.add("stores")
            continue
        value = any("(" not in s and regs(s) & tracked for s in srcs)
        derived = y.mnem.startswith("lea") and srcs and regs(srcs[0]) & tracked
        if "(" in dest:
            if value:
                kinds.add("hands")  # the address itself stored: a request struct's member
            continue
        d = regs(dest)
        if value or derived:
            tracked |= d
        elif d & tracked and not y.mnem.startswith(NO_WRITE):
            if not (y.mnem.startswith(("add", "sub")) and srcs and srcs[0].startswith("$")):
                tracked -= d
    return kinds


def parse_listing(text):
    """objdump -dr text -> instructions with their relocations."""
    insns, func = [], None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            func = m.group(1).split(".")[0]  # GCC's clones (.constprop.0, .part.0) are theirs
            continue
        m = RELOC.match(line)
        if m and insns:
            add = m.group(4) or "+0x0"
            insns[-1].rels.append((int(m.group(1), 16), m.group(2), m.group(3),
                                   int(add[1:], 16) * (-1 if add[0] == "-" else 1)))
            continue
        m = INSN.match(line)
        if m and func:
            insns.append(Insn(int(m.group(1), 16), m.group(2), m.group(3), func))
    return insns


def parse_symbols(text):
    """readelf -sW -SW text -> (data, funcs): data [(section, start, size,
    name, global)] of .data/.bss objects; funcs {(section, start): (name,
    global)}."""
    secs = {}
    data, funcs = [], {}
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            secs[m.group(1)] = m.group(2)
            continue
        f = line.split()
        if len(f) < 8 or not f[6].isdigit():
            continue
        sec = secs.get(f[6], "")
        if f[3] == "OBJECT" and sec.startswith((".data", ".bss")):
            data.append((sec, int(f[1], 16), int(f[2], 0), f[7].split(".")[0], f[4] == "GLOBAL"))
        elif f[3] == "FUNC":
            funcs[(sec, int(f[1], 16))] = (f[7].split(".")[0], f[4] == "GLOBAL")
    return data, funcs


def parse_options(text):
    """readelf -rW text -> [(symbol, addend)] of the relocations of the
    hz_options section (lib/cmdline.h HZ_OPTION rows): the storage each row
    points at, its `.dest` among them (its strings and parse hooks are in
    .rodata and .text)."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("Relocation section"):
            inside = "'.relahz_options'" in line
            continue
        f = line.split()
        if inside and len(f) == 7 and f[2].startswith("R_X86_64_") and f[5] == "+":
            out.append((f[4], int(f[6], 16)))
    return out


def access(insn, rtype, nth):
    """What insn does with the variable its nth relocation (of type rtype)
    names: "address" (it loads the address, into a register or memory),
    "stores" or "reads"."""
    ops = operands(insn.ops)
    if insn.mnem.startswith("lea"):
        return "address"
    if rtype in ("R_X86_64_32", "R_X86_64_32S") and ops and ops[0].startswith("$"):
        mem = [o for o in ops if "(" in o]  # the relocation is the immediate, or the
        if not mem or not mem[0].startswith("0x0(") or nth == 1:  # displacement (first)
            return "address"
    return "stores" if is_store(insn) else "reads"


class Graph:
    """The analysed objects: funcs (every function they define), calls[f]
    (functions f calls), hands[f] (functions whose address f takes:
    callbacks it hands on), uses[f] {(variable, "stores", "hands" or
    "reads")}, roots (every function whose address is taken). Functions
    are "unit:name" (unit: the source file), so two static functions of one
    name in two files stay apart; a callee outside the objects keeps its
    bare name. So are file-scope variables: a static by its own unit, a
    global by the unit of the objects that defines it (an extern use too)."""

    def __init__(self, objects):
        parsed = [(unit, parse_listing(lst), parse_symbols(sym), parse_options(sym))
                  for unit, lst, sym in objects]
        self.glob, self.gdata = {}, {}
        for unit, _, (data, funcs), _ in parsed:
            self.glob.update({n: "%s:%s" % (unit, n) for n, g in funcs.values() if g})
            self.gdata.update({d[3]: "%s:%s" % (unit, d[3]) for d in data if d[4]})
        self.funcs = {"%s:%s" % (unit, n) for unit, _, (_, funcs), _ in parsed
                      for n, _ in funcs.values()}
        self.roots, self.calls = set(), collections.defaultdict(set)
        self.hands, self.uses = collections.defaultdict(set), collections.defaultdict(set)
        for unit, insns, (data, funcs), options in parsed:
            self._object(unit, insns, data, funcs, options)

    def name(self, unit, local, n):
        return "%s:%s" % (unit, n) if n in local else self.glob.get(n, n)

    def _object(self, unit, insns, data, funcs, options):
        local = {n for n, _ in funcs.values()} | {x.func for x in insns}
        for i, x in enumerate(insns):
            f = self.name(unit, local, x.func)
            end = insns[i + 1].addr if i + 1 < len(insns) else x.addr
            direct = CALLEE.search(x.ops)
            if x.mnem.startswith(("call", "jmp")) and not x.rels and direct:
                self.calls[f].add(self.name(unit, local, direct.group(1)))
            for nth, (off, rtype, sym, add) in enumerate(x.rels):
                if rtype == "R_X86_64_PLT32" or x.mnem.startswith(("call", "jmp")):
                    self.calls[f].add(self.name(unit, local, sym))
                    continue
                target = add + (end - off if rtype == "R_X86_64_PC32" else 0)
                fn = funcs[(sym, target)][0] if (sym, target) in funcs else sym
                if sym.startswith(".text") or fn in local or fn in self.glob:
                    if fn in local or fn in self.glob:  # a function's address: handed on
                        g = self.name(unit, local, fn)
                        self.roots.add(g)
                        self.hands[f].add(g)
                    continue
                var = self.variable(unit, data, sym, target)
                if not var:
                    continue
                kind = access(x, rtype, nth)
                if kind == "address":
                    dest = operands(x.ops)[-1]
                    into = regs(dest) if "(" not in dest and not x.mnem.startswith("push") else ()
                    kinds = follow(insns, i, next(iter(into))) if into else {"hands"}
                else:
                    kinds = {kind}
                self.uses[f] |= {(var, k) for k in kinds}
        for sym, target in options:
            var = self.variable(unit, data, sym, target)
            if var:
                self.uses[OPTION_PARSER].add((var, "stores"))

    def variable(self, unit, data, sym, target):
        """The file-scope variable ("unit:name") a relocation against sym
        plus target names in unit's object (data: its .data/.bss objects),
        or None."""
        if sym.startswith((".data", ".bss")):
            names = [(n, g) for s, a, size, n, g in data
                     if s == sym and a <= target < a + max(size, 1)]
        else:
            names = [(n, g) for s, a, size, n, g in data if n == sym]
            names = names or ([(sym, True)] if sym in self.gdata else [])
        if not names:
            return None
        n, g = names[0]
        return self.gdata[n] if g else "%s:%s" % (unit, n)

    def reach(self, starts):
        """Every function reachable from starts through calls."""
        seen, stack = set(), sorted(starts)
        while stack:
            f = stack.pop()
            if f in seen:
                continue
            seen.add(f)
            stack += [c for c in self.calls.get(f, ()) if c not in seen]
        return seen


def kernel_objects(folders):
    """(unit, object) of the C sources of folders, built in build/k
    (objects of deleted sources left in build/ are not the kernel's)."""
    out = []
    for folder in folders:
        for src in sorted(glob.glob(os.path.join(hztest.ROOT, folder, "**", "*.c"),
                                    recursive=True)):
            rel = os.path.relpath(src, hztest.ROOT)
            obj = os.path.join(hztest.ROOT, "build", "k", rel[:-2] + ".o")
            if not os.path.exists(obj):
                raise AssertionError("%s missing: run make" % obj)
            out.append((rel, obj))
    return out


def dump(obj):
    objdump = shutil.which("objdump")
    lst = subprocess.run([objdump, "-dr", "--no-show-raw-insn", obj], check=True,
                         capture_output=True, text=True).stdout
    sym = subprocess.run(["readelf", "-sW", "-SW", "-rW", obj], check=True,
                         capture_output=True, text=True).stdout
    return lst, sym


def kernel_dumps(folders):
    """{unit: (unit, listing, symbols)} of the objects of folders."""
    return {unit: (unit,) + dump(obj) for unit, obj in kernel_objects(folders)}


def compile_mutant(unit, edits, tmp):
    """unit (a kernel C source) with each (old, new) of edits replaced,
    compiled as the build compiles it (make -n's command line) into tmp:
    (unit, listing, symbols) of the object."""
    src = os.path.join(hztest.ROOT, unit)
    with open(src) as f:
        text = f.read()
    for old, new in edits:
        if text.count(old) != 1:
            raise AssertionError("%s: the mutation's anchor %r is not there once" % (unit, old))
        text = text.replace(old, new)
    obj = os.path.join("build", "k", unit[:-2] + ".o")
    cmd = subprocess.run(["make", "-s", "-n", "-W", unit, obj], cwd=hztest.ROOT, check=True,
                         capture_output=True, text=True).stdout
    line = next(ln for ln in cmd.splitlines() if " -c %s -o " % unit in ln)
    mutant, out = os.path.join(tmp, os.path.basename(unit)), os.path.join(tmp, "m.o")
    with open(mutant, "w") as f:
        f.write(text)
    argv = [a for a in shlex.split(line) if a not in ("-MMD", "-MP", "-Werror")]
    argv[argv.index(unit)] = mutant
    argv[argv.index(obj)] = out
    subprocess.run(argv, cwd=hztest.ROOT, check=True, capture_output=True)
    return (unit,) + dump(out)
