"""hz plot: the PNG files are real images of a plausible size."""

import os
import re
import subprocess
import tempfile
import unittest

import hztest
from hzlib import gnuplot, plot, results
from hzlib.scenarios import faultclear, vmstart


@unittest.skipUnless(plot.terminal(), "gnuplot with a png terminal is not installed")
class Plots(unittest.TestCase):
    def test_all_three_plots_from_a_result_set(self):
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(results.load(hztest.fixture("results-a")), d)
            self.assertEqual(msgs, ["faultclear_models: no faultclear records",
                                    "vmstart_scaling: no vmstart records"])
            self.assertEqual([os.path.basename(f) for f in files],
                             ["clear_gbps.png", "thread_scaling.png", "fault_cdf.png"])
            for f in files:
                self.assertEqual(hztest.png_size(f), (1000, 600))
                self.assertGreater(os.path.getsize(f), 8000, f)

    def test_missing_records_skip_their_plot_with_a_message(self):
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(results.load(hztest.fixture("reboot-loop.log")), d)
            self.assertEqual([os.path.basename(f) for f in files], ["clear_gbps.png"])
            self.assertEqual(msgs, ["thread_scaling: no clear records with threads > 1",
                                    "fault_cdf: no fault records with service_ns",
                                    "faultclear_models: no faultclear records",
                                    "vmstart_scaling: no vmstart records"])
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
                {"t": "fault", "v": 1, "service_ns": "slow", "run": 0},
                {"t": "faultclear", "v": 1, "model": None, "gbps": 2.0, "gbps_lo": "x", "run": 0},
                {"t": "faultclear", "v": 1, "model": "extent", "gbps": False, "run": 0},
                {"t": "faultclear_gain", "v": 1, "gain": "big", "run": 0},
                {"t": "vmstart", "v": 1, "policy": None, "threads": 1, "gbps": 2.0, "run": 0},
                {"t": "vmstart", "v": 1, "policy": "none", "threads": "2", "gbps": 2.0, "run": 0},
                {"t": "vmstart", "v": 1, "policy": "none", "threads": 2, "gbps": 2.0,
                 "gbps_lo": "x", "noisy": True, "run": 0}]
        rs = results.ResultSet("odd", recs)
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(rs, d)
            self.assertEqual(sorted(os.path.basename(f) for f in files),
                             ["clear_gbps-None-None.png", "clear_gbps-__a___1_-None.png",
                              "fault_cdf.png", "faultclear_models.png", "thread_scaling.png",
                              "vmstart_scaling.png"])
            self.assertEqual(msgs, [])

    def test_faultclear_models_chart(self):
        """One file per frame size; one cluster per strategy with its
        predicted gain, one bar per model with the median's interval;
        flagged cells named."""
        recs = []
        for b, scale in ((1 << 30, 10.0), (2 << 20, 1.0)):
            for s in ("rep_stosb", "clzero"):
                for k, m in enumerate(("extent", "linux_4k", "linux_hot_last",
                                       "linux_batch=32M")):
                    g = scale * (k + 1)
                    recs.append({"t": "faultclear", "v": 1, "model": m, "strategy": s,
                                 "bytes": b, "gbps": g, "gbps_lo": g - 0.5, "gbps_hi": g + 0.25,
                                 "noisy": s == "clzero" and m == "linux_4k", "run": 0})
                recs.append({"t": "faultclear_gain", "v": 1, "strategy": s, "bytes": b,
                             "gain": 2.31 if s == "rep_stosb" else 1.5, "noisy": s == "clzero",
                             "run": 0})
        rs = results.ResultSet("fc", recs)
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as work:
            files, msgs = faultclear.plot_faultclear(rs, d, work, "test machine")
            self.assertEqual(msgs, [])
            self.assertEqual([os.path.basename(f) for f in files],
                             ["faultclear_models-1G.png", "faultclear_models-2M.png"])
            for f in files:
                self.assertEqual(hztest.png_size(f), (1000, 600))
            with open(os.path.join(work, "faultclear_models-1G.png.dat")) as f:
                lines = f.read().splitlines()
            with open(os.path.join(work, "faultclear_models-2M.png.dat")) as f:
                small = f.read().splitlines()
        self.assertEqual(lines[0], 'label "extent" x x "linux_4k" x x "linux_hot_last" x x '
                                   '"linux_batch=32M" x x')
        self.assertEqual(lines[1], '"rep_stosb gain 2.31x" 10.0 9.5 10.25 20.0 19.5 20.25 '
                                   '30.0 29.5 30.25 40.0 39.5 40.25')
        self.assertTrue(lines[2].startswith('"clzero gain 1.50x? [flagged linux_4k]" 10.0'))
        self.assertEqual(len(lines), 3)
        self.assertEqual(small[1].split()[3:5], ["1.0", "0.5"])  # its own frame size's cells

    def test_first_x_label_fits_in_the_left_margin(self):
        """The faultclear chart's first cluster label (rotated by 30 degrees,
        right-aligned at its tic) reaches 0.87 of its length left of the
        tic: the script's left margin holds it (it was cut off in
        report.html), and an unrotated label gets half its length."""
        recs = []
        for s in ("rep_stosb", "rep_stosq", "avx_nt"):
            for m in ("extent", "linux_4k", "linux_hot_last", "linux_batch=32M"):
                recs.append({"t": "faultclear", "v": 1, "model": m, "strategy": s,
                             "bytes": 2 << 20, "gbps": 10.0, "gbps_lo": 9.5, "gbps_hi": 10.5,
                             "noisy": m != "extent", "run": 0})
        rs = results.ResultSet("fc", recs)
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as work:
            files, msgs = faultclear.plot_faultclear(rs, d, work, "test machine")
            self.assertEqual(msgs, [])
            self.assertEqual(hztest.png_size(files[0]), (1000, 600))
            with open(os.path.join(work, "faultclear_models.png.gp")) as f:
                script = f.read()
        first = "rep_stosb [flagged linux_4k,linux_hot_last,linux_batch=32M]"
        self.assertIn("set xtics rotate by 30 right", script)
        margin = int(re.search(r"^set lmargin (\d+)$", script, re.M).group(1))
        self.assertGreaterEqual(margin, 0.87 * len(first))
        self.assertLess(margin, len(first))  # not the whole unrotated length
        self.assertEqual(gnuplot.left_margin("x" * 40, False), 22)
        self.assertEqual(gnuplot.left_margin("short", True), 10)

    def test_titles_fit_the_plot(self):
        """Every title line (the machine's name included, however long) is
        at most gnuplot.TITLE_COLUMNS: it ran off the right edge."""
        rs = results.load(hztest.fixture("results-verdict"))
        rs.header()["cpu"]["brand"] = "Intel(R) Xeon(R) Platinum 8480+ " * 3
        scripts = []
        real = gnuplot.run
        gnuplot.run = lambda script, work: scripts.append(script)
        try:
            with tempfile.TemporaryDirectory() as d:
                plot.plot_all(rs, d)
        finally:
            gnuplot.run = real
        titles = [re.search(r'^set title "(.*)"$', s, re.M).group(1) for s in scripts]
        self.assertEqual(len(titles), 5)
        for t in titles:
            lines = t.split("\\n")
            self.assertLessEqual(max(len(line) for line in lines), gnuplot.TITLE_COLUMNS, t)
            self.assertIn("Intel(R) Xeon(R)", t)
        wrapped = gnuplot.fit("a " * 200, 50)
        self.assertEqual(wrapped.replace("\n", " "), ("a " * 200).strip())

    def test_vmstart_scaling(self):
        recs = [{"t": "vmstart", "v": 1, "policy": p, "threads": t, "bytes": 2 << 30,
                 "gbps": g, "gbps_lo": g * 0.9, "gbps_hi": g * 1.1, "noisy": t == 2, "run": 0}
                for p, gs in (("none", (40.0, 43.0)), ("boot", (3000.0, 300.0)),
                              ("fill", (16.0, 19.0)))
                for t, g in zip((1, 2), gs)]
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(results.ResultSet("vm", recs), d)
            self.assertEqual([os.path.basename(f) for f in files], ["vmstart_scaling.png"])
            self.assertEqual(hztest.png_size(files[0]), (1000, 600))
            self.assertGreater(os.path.getsize(files[0]), 8000)
            self.assertEqual(msgs, ["clear_gbps: no single-thread clear records",
                                    "thread_scaling: no clear records with threads > 1",
                                    "fault_cdf: no fault records with service_ns",
                                    "faultclear_models: no faultclear records"])
        # a pre-zeroed policy's GB/s (older records) is a mapping rate: never plotted
        prez = [r for r in recs if r["policy"] == "boot"]
        with tempfile.TemporaryDirectory() as d:
            files, msgs = vmstart.plot_vmstart(results.ResultSet("vm", prez), d, d, "m")
            self.assertEqual((files, msgs), ([], ["vmstart_scaling: no vmstart records"]))

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
