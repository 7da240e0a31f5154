"""No hidden state on the measured path (issue 33 §5): a strategy, chunk or
fault-clear model travels from the scenario down to memop as an argument or
in a request struct, never through a file-scope variable that one function
writes and another, further down, reads.

The check reads the kernel objects of measure/ and of every scenario folder
(scenarios/*/) with objdump -dr and readelf:

- the measured path is every function whose address the code hands on
  (the callbacks user_run, user_run_fault, ilv_run, smp_run, smp_job_run,
  pool_init and struct pz_ops call: repeats, zero_fn, k_fault, team_fn,
  fault_clear_run, memop_run, ...) and every function of those folders
  they call, directly or not;
- a function writes a file-scope variable (.data or .bss, a static local
  included) when an instruction of it stores to it or takes its address
  (the address is how a callee writes it);
- every such (function, variable) pair on the measured path must be in
  ALLOWED with the reason it is not a parameter in disguise.

A new file-scope variable written on the measured path, or a new writer of
a listed one, fails until it is argued for here or passed as an argument.
A planted write (Mutation) is shown to fail.
"""

import collections
import glob
import os
import re
import shutil
import subprocess
import unittest

import hztest

# Folders whose kernel objects hold measured code: measure/ and the scenarios.
FOLDERS = ("measure", "scenarios")

# (function, variable) -> why the write is not a parameter carried down the
# measured path. Variables are named without GCC's ".N" suffix of statics.
ALLOWED = {
    # per-CPU tallies and results: outputs of the measured code, read after it
    ("zero_fn", "clear_calls"): "per-CPU count of strategy calls (fault_clear_calls), each CPU "
                                "adds to its own slot; an output",
    ("fault_clear_calls_all", "clear_calls"): "sums the per-CPU counts: reads, by address",
    ("fault_clear_calls_all", "clear_cyc"): "sums the per-CPU counts: reads, by address",
    ("pz_run_one", "pz_sample_busy"): "per-sample zeroer-busy flags, an output; cleared per "
                                      "run and handed to k_fault in struct pz_kctx",
    ("pz_run_one", "lat_samples"): "latency samples of the run just done, an output",
    ("pz_run_one", "lat_scratch"): "sort scratch for the latency split",
    ("pz_team_run", "team"): "the team's room (every CPU's figures, 62 KiB): cleared per run "
                             "and handed to the CPUs by pointer (struct team_run, pz_kctx)",
    ("pz_run", "buf"): "the FAULT events of a population being buffered for ops->populate; "
                       "the runner is not re-entered",
    ("flush_faults", "buf"): "pz_run's buffer of FAULT events, handed to ops->populate",
    ("fault_pool_setup_node", "storage"): "the pool's frame table, handed to pool_init() as "
                                          "its argument (run=vmstart sets a pool up per repeat)",
    ("piece", "need_resched"): "cond_resched()'s flag as Linux reads it at a check point: never "
                               "set (one task per CPU), a read and a branch",
    ("fault_clear_run", "need_resched"): "piece()'s cond_resched() flag, inlined",
    ("fault_emit_kind", "a"): "sort scratch of the fault records' summary",
    ("fault_emit_kind", "ns"): "sort scratch of the fault records' summary",
    ("tl_smi_read", "smi_state"): "whether MSR_SMI_COUNT reads: probed once, a fact of the CPU",
    ("gain_fn", "gain_scratch"): "sort scratch of a comparison",
    ("numa_cell_compare", "scratch"): "sort scratch of a comparison",
    ("clear_cells_factors", "series"): "the cells' sample series, outputs of the rounds",
    ("look_fn", "cmp_scratch"): "sort scratch of the racing look's comparison",
    ("control_compare", "cmp_scratch"): "sort scratch of the racing look's comparison",
    ("look_fn", "sorted"): "sort scratch of the racing look",
    ("look_fn", "vd"): "the racing look's verdict cells, outputs",
    ("look_fn", "vd_open"): "the racing look's open items, outputs",
    ("look_fn", "run"): "run=numa's result table, the cells' outputs",
    # run=clear (scenarios/clear/cells.c): what the arena holds, a fact of memory
    ("repeat", "dirty_known"): "run=clear: which arena span is known dirty after the last "
                               "check-and-dirty, a fact of memory between cells",
    ("repeat", "written"): "run=clear: the span the last pass wrote (the cold eviction flushes "
                           "it), a fact of memory between cells",
    ("repeat", "cells"): "the cells' results: the repeat finds its cell by index",
    ("repeat", "r"): "run=vmstart: the result of the repeat just run, an output",
    ("cell_repeat", "last_cell"): "run=clear: the cell run last (the eviction's cold check)",
    # SMP cells (scenarios/smp/run.c, scenarios/smp/fill.c, scenarios/numa/run.c):
    # the job is the request, filled per repeat and passed to smp_job_run()
    ("cell_repeat", "job"): "struct smp_job (per-CPU results, 73 KiB): the repeat fills the "
                            "cell's strategy, CPUs and seed in and passes it to smp_job_run() "
                            "as its argument",
    ("fill_repeat", "job"): "struct smp_job: as cell_repeat's, passed to smp_job_run()",
    ("cell_repeat", "cells"): "the cells' results: the repeat finds its cell by index",
    ("fill_repeat", "fcells"): "the cells' results: the repeat finds its cell by index",
    ("cell_repeat", "target"): "the target buffer the job clears, set up before the rounds "
                               "(its address goes into the job)",
    ("fill_repeat", "target"): "the target buffer the job clears, set up before the rounds",
    ("cell_repeat", "order"): "the CPU order of the run, set up before the rounds, copied "
                              "into the job",
    ("cell_repeat", "order_dom"): "the CPU order of the run, set up before the rounds",
    ("cell_repeat", "run"): "run=numa's result table, the cells' outputs",
    # run=interference (scenarios/interference/run.c): the run's table, shared by the
    # victim and zeroer CPUs. It holds each zeroer's request (strategy,
    # chunk, share: run.z[cpu], which zeroer_part gets by pointer) and the
    # contend flag; run_fn reaches it by name because run_once() passes
    # smp_run() no argument. Not yet a parameter passed down: the next step
    # is smp_run(&set, run_fn, &run, ...).
    ("run_fn", "run"): "run=interference's shared table, by name (see above)",
    ("victim_one", "run"): "run=interference: a victim's results into the shared table",
    ("victim_sync", "run"): "run=interference: the victims' start barrier in the shared table",
    ("zeroer_part", "run"): "run=interference: a zeroer's results into the shared table",
}


class Insn:
    def __init__(self, addr, mnem, ops, func):
        self.addr, self.mnem, self.ops, self.func = addr, mnem, ops, func
        self.rels = []  # (offset, type, symbol, addend)


FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
RELOC = re.compile(r"^\s*([0-9a-f]+): (R_X86_64_\S+)\s+([^+\-\s]+)([+-]0x[0-9a-f]+)?$")
SECTION = re.compile(r"^\s*\[\s*(\d+)\]\s+(\S+)\s")
CALLEE = re.compile(r"<([^>+.]+)")


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
    name)] of .data/.bss objects; funcs {(section, start): name}."""
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
            data.append((sec, int(f[1], 16), int(f[2], 0), f[7].split(".")[0]))
        elif f[3] == "FUNC":
            funcs[(sec, int(f[1], 16))] = f[7].split(".")[0]
    return data, funcs


def is_write(insn, rtype):
    """True when insn stores to the relocated address or takes it."""
    ops = insn.ops.split("#")[0].strip()
    if insn.mnem == "lea" or (rtype in ("R_X86_64_32", "R_X86_64_32S") and ops.startswith("$")):
        return True  # the address: a callee or a later store writes through it
    parts = ops.split(",")
    if len(parts) > 1:  # AT&T: the destination is last
        return "(" in parts[-1] and not insn.mnem.startswith(("cmp", "test", "push", "bt"))
    return "(" in ops and insn.mnem.startswith(("inc", "dec", "neg", "not", "set"))


def analyse(objects):
    """objects: [(listing text, symbols text)]. Returns (roots, calls,
    writes): functions whose address is taken, the calls of each function,
    and the file-scope variables each function writes."""
    parsed = [(parse_listing(lst), parse_symbols(sym)) for lst, sym in objects]
    defined = set()
    for _, (_, funcs) in parsed:
        defined |= set(funcs.values())
    roots, calls, writes = set(), collections.defaultdict(set), collections.defaultdict(set)
    for insns, (data, funcs) in parsed:
        for i, x in enumerate(insns):
            end = insns[i + 1].addr if i + 1 < len(insns) else x.addr
            direct = CALLEE.search(x.ops)
            if x.mnem.startswith(("call", "jmp")) and not x.rels and direct:
                calls[x.func].add(direct.group(1))  # a call inside the object
            for off, rtype, sym, add in x.rels:
                if rtype == "R_X86_64_PLT32" or x.mnem.startswith(("call", "jmp")):
                    calls[x.func].add(sym)
                    continue
                target = add + (end - off if rtype == "R_X86_64_PC32" else 0)
                if sym.startswith(".text"):
                    if (sym, target) in funcs:
                        roots.add(funcs[(sym, target)])
                    continue
                if sym in defined:
                    roots.add(sym)
                    continue
                if sym.startswith((".data", ".bss")):
                    names = [n for s, a, size, n in data
                             if s == sym and a <= target < a + max(size, 1)]
                else:
                    names = [n for s, a, size, n in data if n == sym]
                if names and is_write(x, rtype):
                    writes[x.func].add(names[0])
    return roots, calls, writes


def measured_path(roots, calls):
    """Every function reachable from roots through calls."""
    seen, stack = set(), sorted(roots)
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        stack += [c for c in calls.get(f, ()) if c not in seen]
    return seen


def violations(objects):
    """(function, variable) pairs written on the measured path and not
    ALLOWED, and the measured functions."""
    roots, calls, writes = analyse(objects)
    path = measured_path(roots, calls)
    bad = sorted((f, v) for f in path for v in writes.get(f, ()) if (f, v) not in ALLOWED)
    return bad, path, {(f, v) for f in path for v in writes.get(f, ())}


def kernel_objects():
    """The build/k objects of the C sources of FOLDERS (objects of deleted
    sources left in build/ are not the kernel's)."""
    out = []
    for folder in FOLDERS:
        for src in sorted(glob.glob(os.path.join(hztest.ROOT, folder, "**", "*.c"),
                                    recursive=True)):
            rel = os.path.relpath(src, hztest.ROOT)
            obj = os.path.join(hztest.ROOT, "build", "k", rel[:-2] + ".o")
            if not os.path.exists(obj):
                raise AssertionError("%s missing: run make" % obj)
            out.append(obj)
    return out


def dump(obj):
    objdump = shutil.which("objdump")
    lst = subprocess.run([objdump, "-dr", "--no-show-raw-insn", obj], check=True,
                         capture_output=True, text=True).stdout
    sym = subprocess.run(["readelf", "-sW", "-SW", obj], check=True,
                         capture_output=True, text=True).stdout
    return lst, sym


class Kernel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.objects = {o: dump(o) for o in kernel_objects()}
        cls.bad, cls.path, cls.pairs = violations(list(cls.objects.values()))

    def test_the_fault_path_is_measured(self):
        # the walk of a fault request, the clear routine's callers included
        for f in ("zero_fn", "fault_clear_run", "memop_run", "k_fault", "pz_run", "team_fn",
                  "fc_repeat"):
            self.assertIn(f, self.path)

    def test_no_file_scope_write_on_the_measured_path(self):
        self.assertEqual(self.bad, [], "file-scope variables written on the measured path: "
                         "pass them as arguments, or say why in ALLOWED")

    def test_every_allowed_write_still_happens(self):
        stale = sorted(set(ALLOWED) - self.pairs)
        self.assertEqual(stale, [], "ALLOWED entries no longer written on the measured path")

    def test_no_global_path_setting(self):
        # the model and the strategy are no pool-wide setting any more
        syms = "".join(sym for _, sym in self.objects.values())
        for name in ("clear_override", "pz_env", "fill_env"):
            self.assertNotRegex(syms, r"\s%s(\.\d+)?\n" % name)


class Mutation(unittest.TestCase):
    """A write planted in a measured function fails; the same write in a
    function off the path (an option parser) does not."""

    SYMS = ("Section Headers:\n  [ 1] .text PROGBITS\n  [ 4] .bss NOBITS\n"
            "Symbol table '.symtab':\n"
            "   1: 0000000000000000   256 OBJECT  LOCAL  DEFAULT    4 env\n"
            "   2: 0000000000000000    64 FUNC    LOCAL  DEFAULT    1 run_cell\n"
            "   3: 0000000000000040    32 FUNC    LOCAL  DEFAULT    1 fc_repeat\n"
            "   4: 0000000000000060    32 FUNC    LOCAL  DEFAULT    1 zero_opt\n"
            "   5: 0000000000000080    32 FUNC    LOCAL  DEFAULT    1 run_size\n")

    def listing(self, writer):
        body = {"run_cell": "", "zero_opt": ""}
        body[writer] = ("  10:\tmov    %rax,0x0(%rip)        # 17 <x>\n"
                        "\t\t\t13: R_X86_64_PC32\t.bss+0xcc\n")
        return ("0000000000000000 <run_cell>:\n" + body["run_cell"] +
                "  30:\tret\n"
                "0000000000000040 <fc_repeat>:\n"
                "  40:\tcall   45 <fc_repeat+0x5>\n"
                "\t\t\t41: R_X86_64_PLT32\trun_cell-0x4\n"
                "  45:\tret\n"
                "0000000000000060 <zero_opt>:\n" + body["zero_opt"] +
                "  70:\tret\n"
                "0000000000000080 <run_size>:\n"
                "  80:\tmov    $0x0,%esi\n"
                "\t\t\t81: R_X86_64_32\t.text+0x40\n"
                "  85:\tret\n")

    def test_planted_write_fails(self):
        bad, path, _ = violations([(self.listing("run_cell"), self.SYMS)])
        self.assertIn("run_cell", path)  # fc_repeat's address is taken; it calls run_cell
        self.assertEqual(bad, [("run_cell", "env")])

    def test_write_off_the_path_passes(self):
        bad, path, _ = violations([(self.listing("zero_opt"), self.SYMS)])
        self.assertNotIn("zero_opt", path)
        self.assertEqual(bad, [])


if __name__ == "__main__":
    unittest.main()
