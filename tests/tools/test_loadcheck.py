"""The loaded-host check (tools/hzlib/loadcheck.py, hz run --load / --load-check)."""

import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import hztest
from hzlib import loadcheck

ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")


def clear(strategy, repeats=10, **flags):
    r = {"t": "clear", "strategy": strategy, "chunk": 4096, "bytes": 1 << 30, "cache": "cold",
         "threads": 1, "repeats": repeats, "noisy": False}
    r.update(flags)
    return r


class Cells(unittest.TestCase):
    def test_silent_cells_are_named(self):
        recs = [clear("rep_stosb", noisy=True), clear("clzero", steal_high=True),
                clear("avx512_nt"), clear("rep_stosq", repeats=1),  # first_touch: left out
                {"t": "smp_fill", "strategy": "rep_stosb", "threads": 2, "noisy": False,
                 "steal_high": True},
                {"t": "summary", "steal_pct": 14.71, "steal_method": "kvm_steal_time"}]
        cells = loadcheck.flagged_cells(recs)
        self.assertEqual([f for _, f in cells], [["noisy"], ["steal"], [], ["steal"]])
        lines, silent = loadcheck.report(recs, 2)
        self.assertEqual(silent, 1)
        self.assertEqual(lines[0], "load check: 2 busy thread(s) beside the guest; steal 14.71% "
                                   "(kvm_steal_time)")
        self.assertEqual(lines[1], "load check: 4 timed cell(s): 1 noisy, 2 with steal above 1%, "
                                   "1 silent")
        self.assertEqual(lines[2], "load check: SILENT (no noisy or steal flag under load): "
                                   "clear avx512_nt chunk=4096 bytes=1073741824 cold threads=1")

    def test_smp_scale_counts_once(self):
        # an smp cell has a clear record (threads=N) and an smp_scale record
        recs = [clear("movnti", threads=2, steal_high=True),
                {"t": "smp_scale", "strategy": "movnti", "threads": 2, "noisy": False}]
        self.assertEqual(loadcheck.flagged_cells(recs), [(
            "clear movnti chunk=4096 bytes=1073741824 cold threads=2", ["steal"])])

    def test_no_cells_is_a_failure(self):
        lines, silent = loadcheck.report([{"t": "summary"}], 2)
        self.assertEqual(silent, 1)
        self.assertIn("no timed cells", lines[-1])


class HostLoad(unittest.TestCase):
    def test_sample_and_shares(self):
        with tempfile.TemporaryDirectory() as d:
            la, st = os.path.join(d, "loadavg"), os.path.join(d, "stat")
            with open(la, "w") as f:
                f.write("2.50 1.00 0.50 3/100 42\n")
            with open(st, "w") as f:
                f.write("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n")
            a = loadcheck.host_sample(la, st)
            self.assertEqual(a["loadavg_1m"], 2.5)
            self.assertEqual(a["cpu"]["idle"], 800)
            with open(st, "w") as f:  # +300 user, +100 steal, +600 idle
                f.write("cpu  400 0 50 1400 50 0 0 100 0 0\n")
            b = loadcheck.host_sample(la, st)
        self.assertEqual(loadcheck.host_load(a, b), {
            "loadavg_1m_start": 2.5, "loadavg_1m_end": 2.5, "busy_pct": 40.0, "steal_pct": 10.0})
        self.assertIsNone(loadcheck.host_load({}, b))
        self.assertEqual(loadcheck.host_sample("/nonexistent", "/nonexistent"), {})

    def test_busy_load_runs_and_is_killed(self):
        with loadcheck.BusyLoad(2) as load:
            procs = list(load.procs)
            time.sleep(0.2)
            self.assertEqual([p.poll() for p in procs], [None, None])  # still spinning
        self.assertTrue(all(p.poll() is not None for p in procs))
        with self.assertRaises(RuntimeError):
            with loadcheck.BusyLoad(1) as load:
                procs = list(load.procs)
                raise RuntimeError("run failed")
        self.assertIsNotNone(procs[0].poll())  # killed on the way out too


@unittest.skipUnless(os.path.exists(ELF), "build/hugezero.elf missing (run make)")
@unittest.skipUnless(shutil.which("qemu-system-x86_64"), "qemu-system-x86_64 not installed")
class LoadCheckRun(unittest.TestCase):
    def test_tcg_run_with_load(self):
        with tempfile.TemporaryDirectory() as base:
            p = subprocess.run([hztest.HZ, "run", "--accel", "tcg", "-m", "256M", "--timeout",
                                "120", "--load", "1", "--load-check", "-q", "--results", base,
                                "--", "run=clear", "strategies=rep_stosb", "chunks=4K",
                                "repeats=2", "clear_bytes=1M"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
            out = p.stdout.decode().splitlines()
            folder = os.path.join(base, os.listdir(base)[0])
            with open(os.path.join(folder, "meta.json")) as f:
                meta = json.load(f)
            with open(os.path.join(folder, "load-check.txt")) as f:
                text = f.read()
        self.assertEqual(meta["busy_threads"], 1)
        self.assertGreater(meta["host_load"]["busy_pct"], 0)
        self.assertIn("load check: 1 busy thread(s) beside the guest", text)
        silent = text.count("SILENT")
        # exit 1 exactly when the kernel passed but a cell was silent
        self.assertEqual(p.returncode, 1 if silent else 0, p.stderr.decode())
        self.assertIn("load check: 3 timed cell(s)", text)  # cold 1M, warm and cold small
        self.assertTrue(any(line.startswith("hz: load check:") for line in out))


if __name__ == "__main__":
    unittest.main()
