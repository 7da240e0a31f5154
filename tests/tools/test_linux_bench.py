"""tools/linux-bench --quick: runs, exits 0, and emits well-formed records."""
import os
import pathlib
import subprocess
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from hzlib import records  # noqa: E402

BENCH = ROOT / "build" / "tools" / "linux-bench"


@unittest.skipUnless(BENCH.exists(), "build/tools/linux-bench not built (make linux-bench)")
class LinuxBenchQuick(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.proc = subprocess.run([str(BENCH), "--quick"], capture_output=True, text=True,
                                  timeout=120)
        cls.recs, cls.diags = records.extract(cls.proc.stdout)

    def test_exit_status(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)

    def test_records_well_formed(self):
        self.assertEqual(self.diags, [])
        self.assertEqual(self.recs[0]["t"], "header")
        self.assertEqual(self.recs[0]["boot"], "linux")
        self.assertEqual(self.recs[-1]["t"], "summary")
        self.assertEqual(self.recs[-1]["fail"], 0)

    def test_every_clear_verified(self):
        clears = [r for r in self.recs if r["t"] == "clear"]
        self.assertTrue(clears)
        for r in clears:
            self.assertTrue(r["verified"], r)
            self.assertEqual(r["source"], "linux")
            self.assertGreater(float(r["gbps"]), 0)
            self.assertLessEqual(r["min_ns"], r["median_ns"])
            self.assertLessEqual(r["median_ns"], r["max_ns"])

    def test_samples_in_run_order(self):
        # samples_ns: every timed repeat (hz compare and make bench compare
        # them); the sorted samples give the record's min, median and max.
        for r in (r for r in self.recs if r["t"] == "clear"):
            s = r["samples_ns"]
            self.assertEqual(len(s), r["repeats"], r)
            v = sorted(s)
            self.assertEqual((v[0], v[(len(v) - 1) // 2], v[-1]),
                             (r["min_ns"], r["median_ns"], r["max_ns"]), r)
        f = next(r for r in self.recs if r["t"] == "linux_fault")
        v = sorted(f["touch_samples_ns"])
        self.assertEqual(len(v), f["repeats"])
        self.assertEqual((v[0], v[(len(v) - 1) // 2]), (f["touch_min_ns"], f["touch_median_ns"]))

    def test_fault_touch_alone(self):
        # The faulting writes without mmap, per page, for make bench's like-with-like ratio.
        f = next(r for r in self.recs if r["t"] == "linux_fault")
        self.assertGreater(f["touch_min_ns"], 0)
        self.assertLessEqual(f["touch_min_ns"], f["touch_median_ns"])
        self.assertLessEqual(f["touch_median_ns"] * f["pages"], f["max_ns"])

    def test_microcode_in_header(self):
        h = self.recs[0]
        self.assertTrue(h["microcode"] == "unknown" or h["microcode"].startswith("0x"), h)
        self.assertTrue(h["microcode_source"])

    def test_cold_cells_beside_warm(self):
        cells = {(r["strategy"], r["chunk"], r["cache"]) for r in self.recs if r["t"] == "clear"}
        for s, c, cache in list(cells):
            self.assertIn((s, c, "cold" if cache == "warm" else "warm"), cells)

    @unittest.skipUnless(len(os.sched_getaffinity(0)) >= 2, "needs 2 CPUs")
    def test_threads(self):
        p = subprocess.run([str(BENCH), "--quick", "--threads", "2", "--strategies",
                            "rep_stosb"], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = records.extract(p.stdout)[0]
        two = [r for r in recs if r["t"] == "clear" and r["threads"] == 2]
        self.assertEqual(sorted((r["chunk"], r["cache"]) for r in two),
                         [(4096, "cold"), (4096, "warm"), (2 << 20, "cold"), (2 << 20, "warm")])
        for r in two:
            self.assertTrue(r["verified"], r)
            self.assertEqual(r["bytes"], 8 << 20)
            self.assertEqual(sorted(r["samples_ns"])[0], r["min_ns"])
            self.assertEqual(len(r["samples_ns"]), r["repeats"])
        self.assertIn({"t": "pass", "v": 1, "name": "clear.threads.rep_stosb"},
                      [{k: v for k, v in r.items() if k in ("t", "v", "name")} for r in recs
                       if r["t"] == "pass"])

    def test_bad_option_is_an_error(self):
        for bad in (["--threads", "0"], ["--threads", "x"], ["--threads", "65"]):
            p = subprocess.run([str(BENCH)] + bad, capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn("threads", p.stderr)
        n = len(os.sched_getaffinity(0))
        if n < 64:
            p = subprocess.run([str(BENCH), "--quick", "--threads", str(n + 1)],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn("CPU(s) only", p.stderr)

        p = subprocess.run([str(BENCH), "--repeats", "0"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("repeats", p.stderr + p.stdout)


if __name__ == "__main__":
    unittest.main()
