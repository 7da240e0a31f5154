"""tools/hzlib/vmstart.py: make bench's run=vmstart lines carry every cell's
median wall time with its interval and flags, each policy's knee, and the
2 TiB model, every model line labelled MODEL beside the seed thread's claim."""

import unittest

import hztest  # noqa: F401 (import paths)
from hzlib import vmstart


def cell(policy, t, g, **kw):
    r = {"t": "vmstart", "policy": policy, "threads": t, "wall_ns": 50_000_000,
         "ci_lo_ns": 49_000_000, "ci_hi_ns": 52_500_000, "gbps": g, "gbps_lo": g - 1,
         "gbps_hi": g + 1, "gbps_per_thread": round(g / t, 3), "prezero_ns": 0,
         "hit_pct": 0.0, "noisy": False, "verified": True, "emulated_ring0": True}
    r.update(kw)
    return r


RECS = [cell("none", 1, 40.0), cell("none", 2, 43.0, noisy=True),
        cell("fill", 2, 19.0, hit_pct=None, emulated_ring0=False, verified=False),
        {"t": "vmstart_knee", "policy": "none", "threads_max": 2, "knee_threads": 2},
        {"t": "vmstart_knee", "policy": "fill", "threads_max": 2, "knee_threads": None},
        {"t": "vmstart_model", "kind": "model", "policy": "none", "per_thread_gbps": 40.0,
         "peak_gbps": 43.0, "peak_threads": 2, "qemu_threads": 16, "qemu_ns": 51_140_000_000,
         "all_threads": 2, "all_ns": 51_140_000_000, "claim_min_ns": 40_000_000_000,
         "claim_threads": 16, "seed_threads": 2, "seed_measured": False,
         "seed_ns": 1_590_000_000},
        {"t": "vmstart_model", "kind": "model", "policy": "boot", "per_thread_gbps": 3000.0,
         "peak_gbps": 3000.0, "peak_threads": 1, "qemu_threads": 16, "qemu_ns": 733_000_000,
         "all_threads": 2, "all_ns": 733_000_000, "claim_min_ns": 40_000_000_000,
         "claim_threads": 16, "seed_threads": 2, "seed_measured": True, "seed_ns": 216_000_000,
         "prezero_gbps": 44.881, "prezero_model_ns": 48_996_752_647}]


class VmstartReport(unittest.TestCase):
    def test_table(self):
        lines = vmstart.table(RECS)
        self.assertEqual(len(lines), 4)
        self.assertEqual(lines[1].split(), ["none", "1", "50.000", "[49.000..52.500]", "40.0",
                                            "[39.0..41.0]", "40.0", "0.000", "0.0",
                                            "ring0-emulated"])
        self.assertTrue(lines[2].endswith("NOISY ring0-emulated"))
        self.assertEqual(lines[3].split()[-3:], ["0.000", "-", "FAILED"])  # fill: no hit ratio
        self.assertEqual(vmstart.table([{"t": "prezero"}]), [])

    def test_knees(self):
        self.assertEqual(vmstart.knees(RECS), [
            "knee (first T adding < 10 %, measured): none T=2; fill none in 1..2"])

    def test_models_are_labelled_and_beside_the_claim(self):
        lines = vmstart.models(RECS)
        self.assertEqual(lines[0], "MODEL none: 2 TiB / min(T x 40.0 GB/s [T=1], 43.0 GB/s "
                                   "[peak, T=2]): T=16 51.1 s, T=2 (all) 51.1 s; seed thread's "
                                   "claim: > 40.0 s for 2 TB with 16 threads")
        self.assertEqual(lines[1], "  seed's VM none 64 x 1 GiB at T=2: 1.6 s "
                                   "(MODEL: scaled from the measured S)")
        self.assertTrue(lines[2].startswith("MODEL boot:"))
        self.assertEqual(lines[3], "  seed's VM boot 64 x 1 GiB at T=2: 216.0 ms (measured)")
        self.assertEqual(lines[4], "  MODEL boot: its clearing before the VM, 2 TiB at 44.881 "
                                   "GB/s on one CPU: 49.0 s")
        self.assertEqual(len(lines), 5)
        self.assertEqual(len(vmstart.report(RECS)), 4 + 1 + 5)


if __name__ == "__main__":
    unittest.main()
