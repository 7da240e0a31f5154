"""hz plot: the PNG files are real images of a plausible size."""

import os
import struct
import subprocess
import tempfile
import unittest

import hztest
from hzlib import plot, results

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from the IHDR chunk, which must come first (PNG spec §11.2.2)."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != PNG_MAGIC or head[12:16] != b"IHDR":
        raise AssertionError("%s is not a PNG" % path)
    return struct.unpack(">II", head[16:24])


@unittest.skipUnless(plot.terminal(), "gnuplot with a png terminal is not installed")
class Plots(unittest.TestCase):
    def test_all_three_plots_from_a_result_set(self):
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(results.load(hztest.fixture("results-a")), d)
            self.assertEqual(msgs, [])
            self.assertEqual([os.path.basename(f) for f in files],
                             ["clear_gbps.png", "thread_scaling.png", "fault_cdf.png"])
            for f in files:
                self.assertEqual(png_size(f), (1000, 600))
                self.assertGreater(os.path.getsize(f), 8000, f)

    def test_missing_records_skip_their_plot_with_a_message(self):
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(results.load(hztest.fixture("reboot-loop.log")), d)
            self.assertEqual([os.path.basename(f) for f in files], ["clear_gbps.png"])
            self.assertEqual(msgs, ["thread_scaling: no clear records with threads > 1",
                                    "fault_cdf: no fault records with service_ns"])
            self.assertEqual(os.listdir(d), ["clear_gbps.png"])

    def test_several_caches_give_one_plot_each(self):
        rs = results.load(hztest.fixture("results-a"))
        extra = [dict(r, cache="cold") for r in rs.of_type("clear") if r["threads"] == 1]
        rs.records = rs.records + extra
        with tempfile.TemporaryDirectory() as d:
            files, _ = plot.plot_all(rs, d)
            self.assertEqual(sorted(os.path.basename(f) for f in files),
                             ["clear_gbps-cold-1G.png", "clear_gbps-warm-1G.png",
                              "fault_cdf.png", "thread_scaling.png"])

    def test_odd_member_types_do_not_crash(self):
        recs = [{"t": "clear", "v": 1, "strategy": "x", "chunk": "weird", "cache": {"a": 1},
                 "bytes": None, "gbps": 1.5, "threads": 1, "run": 0},
                {"t": "clear", "v": 1, "strategy": 7, "gbps_median": 2, "cache": None, "run": 0},
                {"t": "clear", "v": 1, "strategy": "x", "gbps": 3.0, "threads": 2, "run": 0},
                {"t": "clear", "v": 1, "strategy": "x", "gbps": True, "threads": 4, "run": 0},
                {"t": "fault", "v": 1, "policy": ["p"], "service_ns": 10, "run": 0},
                {"t": "fault", "v": 1, "service_ns": "slow", "run": 0}]
        rs = results.ResultSet("odd", recs)
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(rs, d)
            self.assertEqual(sorted(os.path.basename(f) for f in files),
                             ["clear_gbps-None-None.png", "clear_gbps-__a___1_-None.png",
                              "fault_cdf.png", "thread_scaling.png"])
            self.assertEqual(msgs, [])

    def test_plot_command_writes_beside_the_records_or_to_o(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([hztest.HZ, "plot", hztest.fixture("clean.log"), "-o", d],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sorted(os.listdir(d)),
                             ["clear_gbps.png", "fault_cdf.png", "thread_scaling.png"])
            self.assertEqual(len(p.stdout.decode().splitlines()), 3)

    def test_no_plottable_records_exits_1(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([hztest.HZ, "plot", hztest.fixture("malformed.log"), "-o", d],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
            self.assertEqual(p.returncode, 1)
            self.assertIn(b"hz: plot: clear_gbps: no single-thread clear records", p.stderr)
            self.assertEqual(os.listdir(d), [])


if __name__ == "__main__":
    unittest.main()
