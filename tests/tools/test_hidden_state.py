"""No hidden state on the measured path (issue 33 §5): a strategy, chunk or
fault-clear model travels from the scenario down to memop as an argument or
in a request struct, never through a file-scope variable that one function
writes and another, further down, reads.

The check reads the kernel objects of measure/ and of every scenario folder
(scenarios/*/) with objdump -dr and readelf:

- the measured path is every function whose address the code hands on
  (the callbacks user_run, user_run_fault, ilv_run, smp_run, smp_rounds_run,
  pool_init and struct pz_ops call: repeats, zero_fn, k_fault, team_fn,
  fault_clear_run, memop_run, ...) and every function of those folders
  they call, directly or not; functions are told apart by file, so two
  static `repeat`s are two functions;
- a function writes a file-scope variable (.data or .bss, a static local
  included) by name ("stores") when an instruction of it stores to it, or
  through a register it loaded the address into (a copy or a pointer
  derived from it included, memset/memcpy on it too); it "hands" it when
  that address leaves: a call's argument or a member of a request; it
  "reads" it when it loads from it, by name or through such a register;
- every such (function, variable, kind) on the measured path must be in
  ALLOWED with the reason it is not a parameter in disguise. A storage's
  owner handing its address down is listed as "hands"; that does not let
  it, or anyone, store to it by name;
- so must a read on the measured path of a variable that code off the path
  stores or hands (a writer not in ALLOWED, in any object of those
  folders; an extern global by the object that defines it): a setting
  stored before the run and read by a callback in it, as run=interference's
  chase seed was (refs.c: `chase_seed = seed; user_run(..., build_chases,
  st)`), is a parameter in disguise however far down the read is. The
  option parser (lib/cmdline.c apply, objgraph.OPTION_PARSER) is such a
  writer of every variable an HZ_OPTION row of those objects points at
  (its `.dest`, found by the hz_options section's relocations): an option
  read on the measured path fails unless it is argued for here.

A callback that reaches its request by pointer (the arg its caller passes)
writes no file-scope variable at all, so it needs no entry: run=smp's,
run=numa's, run=interference's and run=vmstart's repeats do. A new
file-scope variable written on the measured path, a new writer of a listed
one, a store where only a hand-down is listed, or a setting written off the
path and read on it fails until it is argued for here or passed as an
argument. Mutation compiles the kernel's own sources with a planted write,
a new writer, refs.c's old seed and a global override set around a run
(issue 33's own example) and shows each fails.
"""

import shutil
import tempfile
import unittest

import objgraph

# Folders whose kernel objects hold measured code: measure/ and the scenarios.
FOLDERS = ("measure", "scenarios")

# (unit, function, variable) -> (kinds, why): the file-scope variables a
# measured function may write, and why none is a parameter in disguise.
# kinds: "stores" (the function writes it by name, itself or through a
# pointer it just took), "hands" (it passes the address on: to a callee or
# into a request), "reads" (it loads a variable that code off the path
# writes), or several. Variables are named without GCC's ".N" suffix
# of statics. What may be here: outputs, sort scratch, facts of memory or
# the CPU, and buffers the owner hands down by pointer; nothing whose value
# picks what is measured (strategy, chunk, CPUs, seed, target, clear model).
ALLOWED = {
    # outputs of the measured code, read after it
    ("measure/fault_pool.c", "zero_fn", "clear_calls"): (
        "stores", "per-CPU count of strategy calls (fault_clear_calls): each CPU adds to its "
        "own slot; an output"),
    ("measure/fault_pool.c", "zero_fn", "clear_cyc"): (
        "stores", "per-CPU cycles inside the strategy (fault_clear_cycles); an output"),
    ("measure/prezero_run.c", "pz_run_one", "pz_sample_busy"): (
        "stores, hands", "per-sample zeroer-busy flags, an output: cleared per run and handed "
        "to k_fault in struct pz_kctx"),
    ("measure/prezero_run.c", "pz_run_one", "lat_samples"): (
        "stores, hands", "latency samples of the run just done, an output, sorted in place"),
    ("measure/smp_job.c", "smp_job_run", "steal0"): (
        "stores", "each CPU's steal count at the job's start, taken back off at its end: "
        "the job's own steal sum (an output)"),
    ("scenarios/vmstart/run.c", "repeat", "r"): (
        "hands", "run=vmstart: the result of the repeat just run (pz_run_one's output)"),
    ("scenarios/clear/cells.c", "clear_cells_factors", "series"): (
        "stores, hands, reads", "the cells' sample series, outputs of the rounds (pointers "
        "to each cell's samples, also set by clear_cells_run before them)"),
    ("scenarios/clear/race.c", "look_fn", "vd"): (
        "stores, hands", "the racing look's verdict cells, outputs"),
    ("scenarios/clear/race.c", "look_fn", "vd_of"): (
        "stores", "the racing look's map from verdict cell to cell, an output"),
    ("scenarios/clear/race.c", "look_fn", "vd_open"): (
        "hands", "the racing look's open items, outputs"),
    ("scenarios/clear/cells.c", "cell_repeat", "last_cell"): (
        "stores", "run=clear: the cell run last (the eviction's cold check); a record of "
        "what ran, not a choice"),
    # sort scratch
    ("measure/prezero_run.c", "pz_run_one", "lat_scratch"): (
        "hands", "sort scratch for the latency split"),
    ("measure/fault_pool.c", "fault_emit_kind", "a"): (
        "stores, hands", "sort scratch of the fault records' summary"),
    ("measure/fault_pool.c", "fault_emit_kind", "ns"): (
        "stores, hands", "sort scratch of the fault records' summary"),
    ("scenarios/faultclear/report.c", "gain_fn", "gain_scratch"): (
        "hands", "sort scratch of a comparison"),
    ("scenarios/numa/table.c", "numa_cell_compare", "scratch"): (
        "hands", "sort scratch of a comparison"),
    ("scenarios/clear/race.c", "look_fn", "cmp_scratch"): (
        "hands", "sort scratch of the racing look's comparison"),
    ("scenarios/clear/race.c", "control_compare", "cmp_scratch"): (
        "hands", "sort scratch of the racing look's comparison"),
    ("scenarios/clear/race.c", "look_fn", "sorted"): ("hands", "sort scratch of the racing look"),
    # facts of memory or the CPU
    ("scenarios/clear/cells.c", "repeat", "dirty_known"): (
        "stores, reads", "run=clear: which arena span is known dirty after the last "
        "check-and-dirty, a fact of memory between cells (clear_cells_run empties it first)"),
    ("scenarios/clear/cells.c", "repeat", "written"): (
        "stores, reads", "run=clear: the span the last pass wrote (the cold eviction flushes "
        "it), a fact of memory between cells (clear_cells_run empties it first)"),
    ("scenarios/clear/cells.c", "work_fn", "written"): (
        "reads", "repeat()'s span the last pass wrote, flushed by the cold eviction"),
    ("measure/time_lost.c", "tl_smi_read", "smi_state"): (
        "stores", "whether MSR_SMI_COUNT reads: probed once, a fact of the CPU"),
    ("measure/fault_clear.c", "piece", "need_resched"): (
        "stores", "cond_resched()'s flag as Linux reads it at a check point: never set (one "
        "task per CPU), a read, a branch and a clear"),
    ("measure/fault_clear.c", "fault_clear_run", "need_resched"): (
        "stores", "piece()'s cond_resched() flag, inlined"),
    # options read on the path: written once by the option parser, before any scenario runs
    ("measure/fault_pool.c", "fault_verify_zero", "verify_full"): (
        "reads", "verify= (sampled or exact): how much of a zeroed frame every fault path "
        "checks after the timed region; an option, written once by the parser before any "
        "scenario runs, the same for every cell (the records name it, fault_verify_mode)"),
    ("measure/fault_pool.c", "fault_verify_mode", "verify_full"): (
        "reads", "verify='s name for pz_run_one's record; an option, written once by the "
        "parser before any scenario runs"),
    # buffers the owner hands down by pointer
    ("measure/prezero_smp.c", "pz_team_run", "team"): (
        "stores, hands", "the team's room (every CPU's figures, 62 KiB): its owner clears it "
        "per run and hands it to the CPUs by pointer (struct team_run, pz_kctx)"),
    ("measure/prezero_core.c", "pz_run", "buf"): (
        "stores", "the FAULT events of a population being buffered for ops->populate; the "
        "runner is not re-entered"),
    ("measure/prezero_core.c", "flush_faults", "buf"): (
        "hands", "pz_run's buffer of FAULT events, handed to ops->populate"),
    ("measure/fault_pool.c", "fault_pool_setup_node", "storage"): (
        "hands", "the pool's frame table, handed to pool_init() as its argument (run=vmstart "
        "sets a pool up per repeat)"),
}


def violations(objects, allowed):
    """(unit, function, variable, kind) written on the measured path (every
    function reachable from a root), or read there when code off the path
    writes it, and not in allowed (as ALLOWED); the measured functions; and
    every such use found."""
    g = objgraph.Graph(objects)
    path = g.reach(g.roots)

    def use(f, var, kind):
        return tuple(f.split(":", 1)) + (var.split(":", 1)[1], kind)

    def listed(w):
        return w[3] in allowed.get(w[:3], ("",))[0].split(", ")

    set_off = {v for f in set(g.uses) - path for v, k in g.uses[f]
               if k != "reads" and not listed(use(f, v, k))}
    found = {use(f, v, k) for f in path for v, k in g.uses[f]
             if k != "reads" or v in set_off}
    return sorted(w for w in found if not listed(w)), path, found


class Kernel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.objects = objgraph.kernel_dumps(FOLDERS)
        cls.bad, cls.path, cls.found = violations(list(cls.objects.values()), ALLOWED)

    def test_the_fault_path_is_measured(self):
        # the walk of a fault request, the clear routine's callers included
        for f in ("measure/fault_pool.c:zero_fn", "measure/fault_clear.c:fault_clear_run",
                  "measure/memop.c:memop_run", "measure/prezero_run.c:k_fault",
                  "measure/prezero_core.c:pz_run", "measure/prezero_smp.c:team_fn",
                  "scenarios/faultclear/run.c:fc_repeat", "scenarios/smp/run.c:cell_repeat",
                  "scenarios/numa/run.c:look_fn", "scenarios/interference/run.c:run_fn"):
            self.assertIn(f, self.path)

    def test_no_file_scope_write_on_the_measured_path(self):
        self.assertEqual(self.bad, [], "file-scope variables written on the measured path: "
                         "pass them as arguments, or say why in ALLOWED")

    def test_every_allowed_write_still_happens(self):
        listed = sorted(k + (kind,) for k, v in ALLOWED.items() for kind in v[0].split(", "))
        stale = [w for w in listed if w not in self.found]
        self.assertEqual(stale, [], "ALLOWED entries no longer written on the measured path")

    def test_no_global_path_setting(self):
        # the model and the strategy are no pool-wide setting any more
        syms = "".join(sym for _, _, sym in self.objects.values())
        for name in ("clear_override", "pz_env", "fill_env"):
            self.assertNotRegex(syms, r"\s%s(\.\d+)?\n" % name)


class Synthetic(unittest.TestCase):
    """The rule on hand-made listings: a write planted in a measured
    function fails, the same write off the path (an option parser) does
    not unless a measured function reads the variable (an HZ_OPTION row's
    .dest is such a variable), a store through a
    register that holds the variable's address is a store, and handing the
    address to a callee is not one."""

    SYMS = ("Section Headers:\n  [ 1] .text PROGBITS\n  [ 4] .bss NOBITS\n"
            "Symbol table '.symtab':\n"
            "   1: 0000000000000000   256 OBJECT  LOCAL  DEFAULT    4 env\n"
            "   2: 0000000000000000    64 FUNC    LOCAL  DEFAULT    1 run_cell\n"
            "   3: 0000000000000040    32 FUNC    LOCAL  DEFAULT    1 fc_repeat\n"
            "   4: 0000000000000060    32 FUNC    LOCAL  DEFAULT    1 zero_opt\n"
            "   5: 0000000000000080    32 FUNC    LOCAL  DEFAULT    1 run_size\n")
    STORE = ("  10:\tmov    %rax,0x0(%rip)        # 17 <x>\n"
             "\t\t\t13: R_X86_64_PC32\t.bss-0x4\n")
    THROUGH = ("  10:\tmov    $0x0,%edx\n"
               "\t\t\t11: R_X86_64_32\t.bss+0x10\n"
               "  15:\tmov    %rdx,%rbx\n"
               "  18:\tmovq   $0x1,0x8(%rbx,%rcx,8)\n")
    READ = ("  10:\tmov    0x0(%rip),%rax        # 17 <x>\n"
            "\t\t\t13: R_X86_64_PC32\t.bss-0x4\n")
    HANDS = ("  10:\tmov    $0x0,%edi\n"
             "\t\t\t11: R_X86_64_32\t.bss\n"
             "  15:\tcall   1a <run_cell+0x1a>\n"
             "\t\t\t16: R_X86_64_PLT32\tsmp_job_run-0x4\n"
             "  1a:\tmov    %rax,%rdi\n"
             "  1d:\tmovq   $0x1,(%rdi)\n")

    def listing(self, run_cell="", zero_opt=""):
        body = {"run_cell": run_cell, "zero_opt": zero_opt}
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

    # an HZ_OPTION row whose .dest is env (.bss + 8: inside it), and the
    # same address in a section that is no option table
    RELOCS = ("Relocation section '%s' at offset 0x100 contains 2 entries:\n"
              "    Offset             Info             Type               Symbol's Value  "
              "Symbol's Name + Addend\n"
              "0000000000000000  0000000d00000001 R_X86_64_64            0000000000000000 "
              ".rodata.str1.1 + 0\n"
              "0000000000000010  0000000300000001 R_X86_64_64            0000000000000000 "
              ".bss + 8\n")

    def check(self, allowed=None, relocs="", **code):
        return violations([("x.c", self.listing(**code), self.SYMS + relocs)], allowed or {})

    def test_planted_write_fails(self):
        bad, path, _ = self.check(run_cell=self.STORE)
        self.assertIn("x.c:run_cell", path)  # fc_repeat's address is taken; it calls run_cell
        self.assertEqual(bad, [("x.c", "run_cell", "env", "stores")])

    def test_write_off_the_path_passes(self):
        bad, path, _ = self.check(zero_opt=self.STORE)
        self.assertNotIn("x.c:zero_opt", path)
        self.assertEqual(bad, [])

    def test_read_of_a_setting_stored_off_the_path_fails(self):
        bad, _, _ = self.check(run_cell=self.READ, zero_opt=self.STORE)
        self.assertEqual(bad, [("x.c", "run_cell", "env", "reads")])
        self.assertEqual(self.check(run_cell=self.READ)[0], [])  # nothing writes it
        allowed = {("x.c", "zero_opt", "env"): ("stores", "a reset, argued for")}
        self.assertEqual(self.check(allowed, run_cell=self.READ, zero_opt=self.STORE)[0], [])

    def test_read_of_an_option_fails(self):
        bad, _, _ = self.check(relocs=self.RELOCS % ".relahz_options", run_cell=self.READ)
        self.assertEqual(bad, [("x.c", "run_cell", "env", "reads")])
        self.assertEqual(self.check(relocs=self.RELOCS % ".rela.debug_info",
                                    run_cell=self.READ)[0], [])
        allowed = {("x.c", "run_cell", "env"): ("reads", "an option, argued for")}
        self.assertEqual(self.check(allowed, relocs=self.RELOCS % ".relahz_options",
                                    run_cell=self.READ)[0], [])

    def test_store_through_a_register_is_a_store(self):
        bad, _, _ = self.check(run_cell=self.THROUGH)
        self.assertEqual(bad, [("x.c", "run_cell", "env", "stores")])

    def test_handing_the_address_down_is_no_store(self):
        bad, _, _ = self.check(run_cell=self.HANDS)
        self.assertEqual(bad, [("x.c", "run_cell", "env", "hands")])
        allowed = {("x.c", "run_cell", "env"): ("hands", "the job, handed to smp_job_run")}
        self.assertEqual(self.check(allowed, run_cell=self.HANDS)[0], [])
        # a hand-down allowed does not allow a store by name
        self.assertEqual(self.check(allowed, run_cell=self.STORE)[0],
                         [("x.c", "run_cell", "env", "stores")])


class Mutation(unittest.TestCase):
    """The kernel's own sources, mutated and compiled as the build does:
    a planted write of a request setting by name in a measured callback
    fails, and so do a new writer of a variable ALLOWED lists for another
    function, run=interference's chase seed as refs.c had it, and a global
    strategy override that run=vmstart sets around its rounds and zero_fn
    reads."""

    @classmethod
    def setUpClass(cls):
        cls.objects = objgraph.kernel_dumps(FOLDERS)
        cls.tmp = tempfile.mkdtemp(prefix="hz-mutant-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def mutated(self, edits):
        """edits: {unit: [(old, new), ...]}."""
        objects = dict(self.objects)
        for unit, pairs in edits.items():
            objects[unit] = objgraph.compile_mutant(unit, pairs, self.tmp)
        return violations(list(objects.values()), ALLOWED)[0]

    def test_planted_write_fails(self):
        # run=smp's repeat picks its CPUs from the file's order[] by name again
        unit = "scenarios/smp/run.c"
        bad = self.mutated({unit: [("    const struct scale_ctx *x = arg;\n",
                                    "    const struct scale_ctx *x = arg;\n"
                                    "    order[0] = (unsigned)i;\n")]})
        self.assertEqual(bad, [(unit, "cell_repeat", "order", "stores")])

    def test_new_writer_fails(self):
        # ALLOWED lets zero_fn add to clear_calls; fault_emit_kind may not
        unit = "measure/fault_pool.c"
        self.assertIn((unit, "zero_fn", "clear_calls"), ALLOWED)
        bad = self.mutated({unit: [("    size_t n = 0, na = 0;\n",
                                    "    size_t n = 0, na = 0;\n    clear_calls[1] = 0;\n")]})
        self.assertEqual(bad, [(unit, "fault_emit_kind", "clear_calls", "stores")])

    def test_seed_through_file_scope_fails(self):
        # refs.c as it was: the seed stored beside user_run, build_chases reads it
        unit = "scenarios/interference/refs.c"
        bad = self.mutated({unit: [
            ("static struct smp_target vbuf;\n",
             "static struct smp_target vbuf;\nstatic uint64_t chase_seed;\n"),
            ("st->chase_seed + i);", "chase_seed + i);"),
            ("    st->chase_seed = seed;\n", "    chase_seed = seed;\n")]})
        self.assertEqual(bad, [(unit, "build_chases", "chase_seed", "reads")])

    def test_option_read_in_a_callback_fails(self):
        # run=smp's repeat reads the smp_start_lead_us= option's variable again
        unit = "measure/smp_job.c"
        self.assertIn((unit + ":lead_us", "stores"),
                      objgraph.Graph([self.objects[unit]]).uses[objgraph.OPTION_PARSER])
        bad = self.mutated({unit: [
            ("    smp_barrier_init(&j->bar, j->n);\n",
             "    smp_barrier_init(&j->bar, j->n);\n"
             "    j->lead_cyc = mul_div_u64(lead_us, tsc_info()->hz, 1000000);\n")]})
        self.assertEqual(bad, [(unit, "smp_job_run", "lead_us", "reads")])

    def test_global_override_set_around_a_run_fails(self):
        # issue 33's example: vmstart_run (off the path) sets a strategy override
        # around ilv_run, zero_fn (on the fault path) reads it by name
        pool, vm = "measure/fault_pool.c", "scenarios/vmstart/run.c"
        decl = "const struct clear_strategy *fault_pool_zero_override;\n"
        fn = "static void zero_fn(void *ctx, void *dst, size_t bytes, uint64_t hint)\n{\n"
        bad = self.mutated({
            pool: [(fn, "extern " + decl + decl + fn),
                   (".s = env->zero};", ".s = fault_pool_zero_override ?: env->zero};")],
            vm: [("static void vmstart_run(void)\n{\n",
                  "extern " + decl + "static void vmstart_run(void)\n{\n"),
                 ("    if (ilv_run(&ir, &done) == ILV_ABORT)\n",
                  "    fault_pool_zero_override = clear_find(\"rep_stosq\");\n"
                  "    int ab = ilv_run(&ir, &done) == ILV_ABORT;\n"
                  "    fault_pool_zero_override = 0;\n    if (ab)\n")]})
        self.assertEqual(bad, [(pool, "zero_fn", "fault_pool_zero_override", "reads")])


if __name__ == "__main__":
    unittest.main()
