"""make bench's ratios: P1 and P2 as Hodges-Lehmann ratios with intervals
from the samples; the fault ratio compares like with like, the faulting
access on both sides (hugezero access_ns, Linux touch_samples_ns /
touch_median_ns without mmap), never the handler time or mmap + touch."""

import importlib.util
import os
import unittest

import hztest

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


def cell(ns, source):
    return {"t": "clear", "strategy": "rep_stosb", "chunk": GIB, "bytes": GIB, "cache": "cold",
            "threads": 1, "verified": True, "samples_ns": list(ns), "source": source,
            "gbps_median": round(GIB / sorted(ns)[(len(ns) - 1) // 2], 3)}


class HodgesLehmannRatios(unittest.TestCase):
    def test_p1_best_clear(self):
        lx = cell(BASE, "linux")
        r = bench.p1(cell([x * 2 // 3 for x in BASE], "hugezero"), lx)  # 1.5x the GB/s
        ratio, lo, hi, outcome, n_hz, n_lx = r
        self.assertEqual((round(ratio, 3), outcome, n_hz, n_lx), (1.5, "faster", 10, 10))
        self.assertTrue(1.4 < lo < 1.5 < hi < 1.6, (lo, hi))
        self.assertEqual(bench.ratio_text("P1 best clear", r, "hugezero / Linux GB/s", ">= 1.0"),
                         "P1 best clear (hugezero / Linux GB/s): 1.50 [1.47..1.53] hugezero "
                         "faster (Hodges-Lehmann, n=10/10; target >= 1.0)")
        same = bench.p1(cell(BASE, "hugezero"), lx)
        self.assertEqual((same[0], same[3]), (1.0, "tie"))
        self.assertIn(" tie (±5%) ", bench.ratio_text("P1", same, "x", "y"))
        few = bench.p1(cell(BASE[:5], "hugezero"), lx)
        self.assertEqual(few[3:], ("too few samples", 5, 10))
        # older records without samples_ns: no Hodges-Lehmann ratio
        self.assertIsNone(bench.p1({"bytes": GIB}, lx))

    def test_p4_all_thread_like_with_like(self):
        lx = dict(cell(BASE, "linux"), threads=2, strategy="avx_nt")
        hz = [dict(cell([x * 10 // 9 for x in BASE], "hugezero"), threads=2, strategy="avx_nt"),
              dict(cell([x // 2 for x in BASE], "hugezero"), threads=1, strategy="avx_nt"),
              dict(cell([x // 3 for x in BASE], "hugezero"), threads=2, strategy="clzero"),
              {"t": "smp_scale", "threads": 2, "start_skew_pct": 0.4},
              {"t": "smp_scale", "threads": 2, "start_skew_pct": 3.0},
              {"t": "smp_scale", "threads": 2, "start_skew_pct": 0.6},
              {"t": "smp_scale", "threads": 1, "start_skew_pct": 0.0}]
        ratio, lo, hi, outcome, n_hz, n_lx = bench.p4(hz, lx)
        self.assertAlmostEqual(ratio, 0.9, 2)  # the 2-thread avx_nt cell, not the others
        self.assertEqual((outcome, n_hz, n_lx), ("slower", 10, 10))
        self.assertEqual(bench.start_skew(hz, 2), 0.6)
        self.assertIsNone(bench.start_skew(hz, 4))
        self.assertIsNone(bench.p4(hz, dict(lx, strategy="movnti")))
        self.assertIsNone(bench.p4(hz, None))

    def test_p2_fault_against_hugetlb_touch(self):
        faults = [fault(40_000_000 + i * 100_000, 1) for i in range(8)] + \
            [fault(1, 1, prezeroed=True) for _ in range(8)] + [fault(5, 1, size=2 << 20)]
        lx = dict(LINUX, touch_samples_ns=[100_000_000 + i * 200_000 for i in range(10)])
        ratio, lo, hi, outcome, n_hz, n_lx = bench.p2(faults, lx)
        self.assertEqual((outcome, n_hz, n_lx), ("faster", 8, 10))  # pre-zeroed, 2 MiB left out
        self.assertTrue(lo < ratio < hi < 0.45, (ratio, lo, hi))
        self.assertAlmostEqual(ratio, 40.35 / 100.9, 2)
        self.assertIsNone(bench.p2(faults, LINUX))  # linux-bench before touch_samples_ns
        self.assertIsNone(bench.p2(faults, dict(lx, page_bytes=2 << 20)))
        self.assertIsNone(bench.p2(faults, None))


class Layers(unittest.TestCase):
    def test_linux_one_layer_above(self):
        self.assertIn("one virtualization layer above hugezero: under hypervisor KVMKVMKVM",
                      bench.layers_note({"hypervisor": "KVMKVMKVM"}))
        self.assertIn("bare metal", bench.layers_note({"hypervisor": ""}))


if __name__ == "__main__":
    unittest.main()
