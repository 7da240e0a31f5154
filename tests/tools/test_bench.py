"""make bench: the fault pair compares like with like, the faulting access
on both sides (hugezero access_ns, Linux touch_samples_ns / touch_median_ns
without mmap), never the handler time or mmap + touch; the best cell is
the large target's; P1, P2 and P4 come from alternating hugezero /
linux-bench blocks, decided from the block ratios (tools/hzlib/blocks.py,
benchpair.py), so that drift between the sides lies inside the interval."""

import importlib.util
import os
import pathlib
import unittest

import hztest
from hzlib import benchpair, blocks, decide

spec = importlib.util.spec_from_file_location("bench",
                                              os.path.join(hztest.ROOT, "tools", "bench.py"))
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

GIB = 1 << 30


def fault(access, service, emulated=True, size=GIB, prezeroed=False):
    return {"t": "fault", "bytes": size, "service_ns": service, "access_ns": access,
            "emulated_ring0": emulated, "prezeroed": prezeroed}


LINUX = {"t": "linux_fault", "page_bytes": GIB, "pages": 1, "repeats": 5, "min_ns": 90_000_000,
         "median_ns": 130_000_000, "mmap_ns": 20_000, "touch_min_ns": 88_000_000,
         "touch_median_ns": 120_000_000}


class FaultPair(unittest.TestCase):
    def test_access_median_against_linux_touch_median(self):
        faults = [fault(40, 30), fault(10, 5), fault(30, 20), fault(20, 15),
                  fault(999, 1, size=2 << 20)]  # a 2 MiB fault is not compared
        self.assertEqual(bench.fault_pair(faults, LINUX), (20, 4, 120_000_000, True))

    def test_prezeroed_faults_are_left_out(self):
        # run=fault times pre-zeroed faults beside the zeroing ones; Linux's
        # hugetlb fault always clears, so only the zeroing faults compare
        faults = [fault(40, 30), fault(30, 20), fault(20, 15)] + \
            [fault(1, 1, prezeroed=True) for _ in range(5)]
        self.assertEqual(bench.fault_pair(faults, LINUX), (30, 3, 120_000_000, True))

    def test_not_emulated_and_faults_without_access_time(self):
        faults = [fault(7, 5, emulated=False), fault(None, 5, emulated=False)]
        self.assertEqual(bench.fault_pair(faults, LINUX), (7, 1, 120_000_000, False))

    def test_missing_statistic_gives_no_ratio(self):
        old_linux = {k: v for k, v in LINUX.items() if not k.startswith("touch_")}
        self.assertIsNone(bench.fault_pair([fault(1, 1)], old_linux))
        self.assertIsNone(bench.fault_pair([fault(1, 1)], dict(LINUX, page_bytes=2 << 20)))
        self.assertIsNone(bench.fault_pair([dict(fault(1, 1), access_ns=None)], LINUX))
        self.assertIsNone(bench.fault_pair([fault(1, 1)], None))


# ten repeats of a 1 GiB clear, jitter +-2 % and one slow burst
BASE = [44700000, 45200000, 44100000, 45900000, 44900000, 58000000, 44400000, 45500000,
        44800000, 45100000]


def drifted(block, shift, gap=1.0):
    """Five samples of one side in `block`: BASE rotated by shift, the host
    6 % slower every block (30 % by the sixth), times gap."""
    v = BASE[shift % 10:] + BASE[:shift % 10]
    return [round(x * (1 + 0.06 * block) * gap) for x in v[:5]]


def cell(ns, **kw):
    return dict({"t": "clear", "strategy": "rep_stosb", "chunk": 2 << 20, "bytes": GIB,
                 "cache": "cold", "threads": 1, "verified": True, "samples_ns": list(ns)}, **kw)


class Order(unittest.TestCase):
    def test_sides_alternate_hugezero_first(self):
        self.assertEqual(blocks.order(3), [("hugezero", 0), ("linux", 0), ("hugezero", 1),
                                           ("linux", 1), ("hugezero", 2), ("linux", 2)])
        self.assertEqual(blocks.order(0), [])

    def test_bench_runs_the_blocks_in_that_order(self):
        calls = []

        def hz_run(outdir, args, mem, smp=1):
            calls.append(("hz", outdir.name, args[0], smp))
            return [{"t": "clear", "block": outdir.name}], {"accel": "kvm"}

        def linux_bench(outfile, args):
            calls.append(("lx", outfile.name, args[-1]))
            return [{"t": "linux", "block": outfile.name}]
        saved = bench.hz_run, bench.linux_bench
        bench.hz_run, bench.linux_bench = hz_run, linux_bench
        try:
            done = bench.run_blocks(pathlib.Path("/nonexistent"), cell(BASE),
                                    cell(BASE), cell(BASE, threads=2), False, 2)
        finally:
            bench.hz_run, bench.linux_bench = saved
        self.assertEqual(len(done), bench.BLOCKS)
        self.assertGreaterEqual(bench.BLOCKS, 3)
        want = []
        for i in range(bench.BLOCKS):
            want += [("hz", "block%d" % i, "run=clear,smp", 2),
                     ("lx", "linux-block%d.log" % i, "2")]
        self.assertEqual(calls, want)
        # each block pairs a hugezero boot with the linux-bench run after it
        self.assertEqual([(hz[0]["block"], lx[0]["block"]) for hz, _, lx in done],
                         [("block%d" % i, "linux-block%d.log" % i) for i in range(bench.BLOCKS)])


class Coverage(unittest.TestCase):
    def test_sign_test_coverage(self):
        # 1 - 2 P(Bin(n, 1/2) < j), x 10^4 rounded down
        self.assertEqual([blocks.coverage_x1e4(n, 1) for n in range(1, 9)],
                         [0, 5000, 7500, 8750, 9375, 9687, 9843, 9921])
        self.assertEqual(blocks.coverage_x1e4(8, 2), 9296)  # 1 - 2 * 9/256
        self.assertEqual(blocks.coverage_x1e4(9, 2), 9609)  # 1 - 2 * 10/512
        self.assertEqual((blocks.coverage_x1e4(5, 0), blocks.coverage_x1e4(5, 4)), (0, 0))

    def test_rank_is_the_widest_still_95(self):
        self.assertEqual([blocks.rank(n) for n in range(13)],
                         [0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3])


class Paired(unittest.TestCase):
    def test_median_and_interval_of_block_ratios(self):
        p = blocks.paired([1100000, 900000, 1000000, 1050000, 980000, 1020000])
        self.assertEqual((p.ratio_x1e6, p.lo_x1e6, p.hi_x1e6, p.n, p.j, p.cover_x1e4),
                         (1010000, 900000, 1100000, 6, 1, 9687))
        self.assertEqual(p.outcome, "undecided")
        p = blocks.paired([1000000 + 1000 * i for i in range(12)])
        self.assertEqual((p.ratio_x1e6, p.lo_x1e6, p.hi_x1e6, p.j), (1005500, 1002000, 1009000, 3))
        self.assertEqual(p.outcome, "tie")
        self.assertEqual(blocks.paired([]).outcome, decide.TOO_FEW)

    def test_few_blocks_give_no_outcome(self):
        p = blocks.paired([700000, 710000, 720000, 705000])  # 0.7x, but 87.5 %
        self.assertEqual((p.lo_x1e6, p.hi_x1e6, p.cover_x1e4, p.outcome),
                         (700000, 720000, 8750, decide.TOO_FEW))
        self.assertEqual(blocks.paired([700000, 710000, 720000, 705000, 715000]).outcome,
                         decide.FASTER)

    def test_drift_between_sides(self):
        # equal speeds on a host that gets 30 % slower over the run
        ratios = [blocks.block_ratio(drifted(i, 3 * i + 5), GIB, drifted(i, 3 * i), GIB)
                  for i in range(6)]
        self.assertEqual(ratios, [993407, 1015625, 991150, 995546, 995565, 1006637])
        p = blocks.paired(ratios)
        self.assertEqual((p.ratio_x1e6, p.lo_x1e6, p.hi_x1e6, p.outcome),
                         (995555, 991150, 1015625, decide.TIE))
        # the unpaired design (hugezero first, Linux later, once each): a false "faster"
        old = decide.compare([round(x * 1.3) for x in BASE], GIB, BASE, GIB)
        self.assertEqual((old.ratio_x1e6, old.outcome), (769231, decide.FASTER))
        # a real 10 % gap under the same drift: paired decides it, pooling can't
        ratios = [blocks.block_ratio(drifted(i, 3 * i + 5), GIB, drifted(i, 3 * i, 0.9), GIB)
                  for i in range(6)]
        p = blocks.paired(ratios)
        self.assertEqual((p.ratio_x1e6, p.lo_x1e6, p.hi_x1e6, p.outcome),
                         (896000, 892035, 914063, decide.FASTER))
        pooled = decide.compare([x for i in range(6) for x in drifted(i, 3 * i + 5)], GIB,
                                [x for i in range(6) for x in drifted(i, 3 * i, 0.9)], GIB)
        self.assertEqual(pooled.outcome, decide.UNDECIDED)


class BlockCells(unittest.TestCase):
    def test_p1_p4_p2_of_one_block(self):
        hz_best = cell(BASE, strategy="avx_nt", bytes=64 << 20)
        lx_best = cell(BASE, strategy="clzero", chunk=32 << 20)
        lx_all = cell(BASE, strategy="movq_unroll", threads=2)
        hz = [cell([x // 2 for x in BASE[:5]], strategy="avx_nt", bytes=64 << 20),
              cell([x // 3 for x in BASE[:5]], strategy="rep_stosb", bytes=64 << 20),
              cell([x * 2 for x in BASE[:5]], strategy="movq_unroll", threads=2,
                   cache="warm", chunk=4096),
              fault(40_000_000, 1), fault(42_000_000, 1), fault(1, 1, prezeroed=True)]
        lx = [cell(BASE[:5], strategy="clzero", chunk=32 << 20),
              cell(BASE[:5], strategy="movq_unroll", threads=2),
              cell([1] * 5, strategy="movq_unroll"),
              dict(LINUX, touch_samples_ns=[100_000_000] * 5)]
        # hugezero clears 64 MiB in half the time Linux clears 1 GiB: 8x the time per byte
        self.assertEqual(benchpair.p1_block(hz, lx, hz_best, lx_best), 8000000)
        self.assertEqual(benchpair.p4_block(hz, lx, lx_all), 2000000)
        self.assertEqual(benchpair.p2_block(hz, lx), 410000)
        self.assertEqual(benchpair.p2_block(hz, lx[:3]), 0)  # no linux_fault
        self.assertEqual(benchpair.p1_block(hz[1:], lx, hz_best, lx_best), 0)
        self.assertEqual(benchpair.decide_blocks([0, 1000000, 0]).n, 1)

    def test_p4_cell_is_one_hugezero_ran(self):
        hz = [cell(BASE, strategy="movnti", bytes=64 << 20),
              dict(cell(BASE, strategy="avx_nt"), verified=False)]
        lx = [dict(cell(BASE, strategy="clzero"), gbps_median=30.0),
              dict(cell(BASE, strategy="avx512_nt", threads=2), gbps_median=60.0),
              dict(cell(BASE, strategy="avx_nt", threads=2), gbps_median=50.0),
              dict(cell(BASE, strategy="movnti", threads=2), gbps_median=40.0)]
        seen = []

        def run_blocks(out, hz_best, lx_best, lx_all, fault, threads):
            seen.append((hz_best["strategy"], lx_best["strategy"], lx_all["strategy"], fault))
            return [([], {}, [])]
        saved, bench.run_blocks = bench.run_blocks, run_blocks
        out = []
        try:
            bench.ratios(pathlib.Path("/nonexistent"), out.append, hz, hz[0], [], lx, 2)
        finally:
            bench.run_blocks = saved
        # avx512_nt and avx_nt are faster on Linux, but hugezero verified neither
        self.assertEqual(seen, [("movnti", "clzero", "movnti", False)])
        self.assertIn("P4 all-thread clear (hugezero / Linux GB/s, 2 threads): not computed",
                      "\n".join(out))

    def test_block_options(self):
        hz_best = cell(BASE, strategy="avx_nt", chunk=2 << 20)
        lx_all = cell(BASE, strategy="movq_unroll", threads=2, chunk=4096)
        self.assertEqual(benchpair.hz_args(hz_best, lx_all, True, 5), [
            "run=clear,smp,fault", "strategies=avx_nt", "chunks=2048K", "repeats=5",
            "max_rounds=5", "smp_strategies=movq_unroll", "smp_chunk=4K", "smp_fill=none",
            "smp_repeats=5", "smp_max_rounds=5", "fault_pages=4", "fault_rounds=5",
            "zero=avx_nt"])
        self.assertEqual(benchpair.hz_args(hz_best, None, False, 3)[:2],
                         ["run=clear", "strategies=avx_nt"])
        self.assertEqual(benchpair.lx_args(cell(BASE, strategy="clzero"), lx_all, 5, 2),
                         ["--strategies", "clzero,movq_unroll", "--chunks", "4K,2048K",
                          "--repeats", "5", "--threads", "2"])
        self.assertEqual(benchpair.lx_args(cell(BASE), None, 5, 2),
                         ["--strategies", "rep_stosb", "--chunks", "2048K", "--repeats", "5"])


class Lines(unittest.TestCase):
    def test_the_line_names_its_blocks_and_coverage(self):
        cases = [
            ([896000, 892035, 914063, 894066, 895991, 905973], "P1 best clear",
             "hugezero / Linux GB/s", ">= 1.0", True,
             "P1 best clear (hugezero / Linux GB/s): 1.12 [1.09..1.12] hugezero faster (±5%; "
             "median of 6 block ratios, min..max, 96.9% coverage; target >= 1.0)"),
            ([1000000, 1001000, 1002000], "P2 1 GiB fault", "hugezero / Linux time", "<= 0.45",
             False, "P2 1 GiB fault (hugezero / Linux time): 1.00 [1.00..1.00] too few samples "
             "(±5%; median of 3 block ratios, min..max, 75.0% coverage; target <= 0.45)")]
        for ratios, name, what, target, speed, want in cases:
            self.assertEqual(benchpair.ratio_text(name, blocks.paired(ratios), what, target,
                                                  speed), want)
        p = blocks.paired([896000, 892035, 914063, 894066, 895991, 905973])
        self.assertIn(": 1.12 [1.09..1.12] no outcome (TCG: emulator timings) (±5%; median of 6",
                      benchpair.ratio_text("P1", p, "x", "y", True, tcg=True))
        p = blocks.paired([1000000 + 1000 * i for i in range(12)])
        self.assertIn("median of 12 block ratios, ranks 3..10, 96.1% coverage",
                      benchpair.ratio_text("P4", p, "x", "y", True))
        out = []
        bench.ratio_line(out.append, "P4 all-thread clear", "x", "y", True, [0, 0], "note")
        self.assertEqual(out, ["P4 all-thread clear (x): not computed (no block gave both "
                               "sides' samples)  [note]"])


class BestClear(unittest.TestCase):
    def test_large_target_is_the_most_bytes(self):
        def row(strategy, nbytes, g, cache="cold"):
            return {"t": "clear", "strategy": strategy, "bytes": nbytes, "cache": cache,
                    "threads": 1, "verified": True, "gbps_median": g}
        small = row("avx_nt", 1 << 20, 9.0)  # the half-LLC target: faster, never the best
        tcg = [row("rep_stosb", 64 << 20, 0.08), row("movq_unroll", 64 << 20, 1.02), small,
               row("mov_loop", 64 << 20, 5.0, "first_touch")]
        self.assertEqual(bench.best_clear(tcg)["strategy"], "movq_unroll")  # 64 MiB under TCG
        kvm = [row("rep_stosb", GIB, 30.0), row("avx_nt", GIB, 35.0), small,
               dict(row("clzero", GIB, 40.0), verified=False)]
        self.assertEqual(bench.best_clear(kvm)["strategy"], "avx_nt")
        self.assertIsNone(bench.best_clear(kvm, threads=2))


class Layers(unittest.TestCase):
    def test_linux_one_layer_above(self):
        self.assertIn("one virtualization layer above hugezero: under hypervisor KVMKVMKVM",
                      bench.layers_note({"hypervisor": "KVMKVMKVM"}))
        self.assertIn("bare metal", bench.layers_note({"hypervisor": ""}))


if __name__ == "__main__":
    unittest.main()
