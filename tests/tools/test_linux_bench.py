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

    def test_bad_option_is_an_error(self):
        p = subprocess.run([str(BENCH), "--repeats", "0"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("repeats", p.stderr + p.stdout)


if __name__ == "__main__":
    unittest.main()
