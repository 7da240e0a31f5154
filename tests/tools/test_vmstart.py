"""tools/hzlib/scenarios/vmstart.py: make bench's run=vmstart lines carry every cell's
median wall time with its interval and flags (by the kernel's rounding rule,
tools/hzlib/fmtns.py), no GB/s for the pre-zeroed policies, the knees, each
pre-zeroed policy's own costs, and the qemu rows' model stating S, T, r1, B
and where B came from, labelled MODEL beside the seed thread's claim."""

import unittest

import hztest  # noqa: F401 (import paths)
from hzlib.scenarios import vmstart


def cell(policy, t, g, **kw):
    r = {"t": "vmstart", "policy": policy, "path": "fault", "threads": t,
         "wall_ns": 25_080_000_000, "ci_lo_ns": 49_000_000, "ci_hi_ns": 52_500_000, "gbps": g,
         "gbps_lo": g - 1, "gbps_hi": g + 1, "gbps_per_thread": round(g / t, 3),
         "prezero_ns": 0, "hit_pct": 0.0, "faults_per_repeat": 8, "clear_calls_per_repeat": 0,
         "noisy": False, "verified": True, "emulated_ring0": True}
    r.update(kw)
    return r


def model(policy, fc, src, **kw):
    r = {"t": "vmstart_model", "kind": "model", "policy": policy, "fault_clear": fc,
         "vm_bytes_text": "2TB", "vm_bytes": 2 * 10 ** 12, "threads": 16,
         "per_thread_gbps": 3.5, "ceiling_source": src, "ceiling_gbps": None,
         "plateau": "faster", "model_ns": 35_714_285_714, "lower_bound": src == "unknown",
         "capped": False, "claim_min_ns": 40_000_000_000}
    r.update(kw)
    return r


RECS = [cell("none", 1, 40.0), cell("none", 2, 43.0, noisy=True),
        cell("boot", 2, 3000.0, prezero_ns=48_996_752_647, hit_pct=100.0),
        cell("qemu_4k", 2, 19.0, path="qemu", clear_calls_per_repeat=4096, verified=False),
        {"t": "vmstart_knee", "policy": "none", "threads_max": 2, "knee_threads": 2},
        {"t": "vmstart_knee", "policy": "qemu_4k", "threads_max": 2, "knee_threads": None},
        {"t": "vmstart_knee", "policy": "boot", "threads_max": 2, "knee_threads": 2},
        {"t": "vmstart_cost", "policy": "batch=8", "threads": 2, "prezero_ns": 348_419_101,
         "prezero_cpu_ns": 348_419_101, "prezero_cpus": 1, "map_ns": 32_077_301,
         "map_ci_lo_ns": 31_000_000, "map_ci_hi_ns": 33_000_000, "hit_pct": 25.0},
        model("qemu_4k", "linux_4k", "unknown"),
        model("qemu_batch", "linux_batch=32M", "measured", ceiling_gbps=20.0, plateau="tie",
              model_ns=100_000_000_000, capped=True),
        model("qemu_4k", "linux_4k", "option", ceiling_gbps=204.8, vm_bytes_text="2TiB",
              vm_bytes=2 << 40,
              model_ns=39_270_000_000)]


class VmstartReport(unittest.TestCase):
    def test_table(self):
        lines = vmstart.table(RECS)
        self.assertEqual(len(lines), 5)
        # 25.08 s prints as the kernel prints it (fmt_ns): 25.1 s, not 25.0
        self.assertEqual(lines[1].split(), ["none", "1", "25.1", "s", "[49.0", "ms..52.5", "ms]",
                                            "40.0", "[39.0..41.0]", "40.0", "0", "ns", "0.0",
                                            "8", "-", "ring0-emulated"])
        self.assertTrue(lines[2].endswith("NOISY ring0-emulated"))
        boot = lines[3].split()
        self.assertEqual(boot[7:9], ["-", "-"])  # a pre-zeroed row: no GB/s, its record's aside
        self.assertNotIn("3000.0", lines[3])
        self.assertEqual(boot[9:11], ["49.0", "s"])
        self.assertEqual(lines[4].split()[-3:], ["4096", "FAILED", "ring0-emulated"])  # clears
        self.assertEqual(vmstart.table([{"t": "prezero"}]), [])

    def test_interval_label_from_the_repeats(self):
        # the header promises what the fewest repeats give: 95 % from 6 on
        self.assertIn(" wall [interval] ", vmstart.table(RECS)[0])  # the records do not say
        for n, label in ((2, "wall [min..max, 50%]"), (10, "wall [95% interval]")):
            recs = [dict(r, repeats=n) for r in RECS]
            recs[0]["repeats"] = 12
            self.assertIn(" %s " % label, vmstart.table(recs)[0])

    def test_knees_leave_out_the_prezeroed(self):
        self.assertEqual(vmstart.knees(RECS), [
            "knee (first T vs T-1 a plateau or below linear at the tolerance, measured): none "
            "T=2; qemu_4k none in 1..2"])

    def test_costs(self):
        self.assertEqual(vmstart.costs(RECS), [
            "batch=8: its own costs: pre-zeroing before the VM start 348 ms on 1 CPU (348 ms of "
            "CPU), then mapping during it 32.1 ms [31.0 ms..33.0 ms] at T=2, 25.0 % of the faults "
            "pre-zeroed (measured)"])

    def test_models_state_inputs_and_ceiling(self):
        lines = vmstart.models(RECS + [{"t": "vmstart_model", "policy": "none"}])
        self.assertEqual(lines[0], "MODEL qemu_4k (fault_clear=linux_4k): t = S / min(T x r1, B), "
                                   "S = 2 TB (vm_bytes=2TB), T = 16, r1 = 3.5 GB/s (T=1), B = "
                                   "unknown, plateau "
                                   "test faster: t >= 35.7 s (a lower bound from per-thread "
                                   "scaling; no upper bound without B); seed thread's claim: > "
                                   "40.0 s for 2 TB with 16 threads")
        self.assertIn("B = 20.0 GB/s (measured plateau), plateau test tie: t = 100 s (B sets "
                      "it)", lines[1])
        self.assertIn("S = 2 TiB (vm_bytes=2TiB)", lines[2])  # TiB beside TiB
        self.assertIn("B = 204.8 GB/s (bw_ceiling= option)", lines[2])
        self.assertIn("t = 39.3 s (T x r1 sets it); model (B given): it decides nothing", lines[2])
        self.assertNotIn("B given", lines[1])
        self.assertEqual(lines[3], "MODEL none: a record of the older 2 TiB model (no ceiling): "
                                   "not shown")
        self.assertEqual(len(vmstart.report(RECS)), 5 + 1 + 1 + 3)

    def test_size_text_is_the_kernels(self):
        # the values of tests/unit/test_vmmodel.c test_size
        self.assertEqual([vmstart.size_text(b, d) for b, d in (
            (2 * 10 ** 12, True), (2 << 40, True), (2 << 40, False), (15 * 10 ** 11, True),
            (5 * 10 ** 11, True), (64 << 30, False))],
            ["2 TB", "2.199 TB", "2 TiB", "1.5 TB", "500 GB", "64 GiB"])
        self.assertEqual(vmstart.size_text(None, True), "?")

    def test_prezeroed(self):
        self.assertEqual([vmstart.prezeroed(p) for p in ("boot", "idle", "batch=6", "none",
                                                         "qemu_4k", None)],
                         [True, True, True, False, False, False])


if __name__ == "__main__":
    unittest.main()
