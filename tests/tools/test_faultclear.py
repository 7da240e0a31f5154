"""tools/hzlib/scenarios/faultclear.py: make bench's run=faultclear table carries every
model's median with its interval and flags, the predicted gain with its
range, and the published anchors of docs/validation.md beside this run's
figures of the same shape."""

import pathlib
import re
import unittest

import hztest  # noqa: F401 (import paths)
from hzlib import validation
from hzlib.scenarios import faultclear

G, M2 = 1 << 30, 2 << 20


def cell(b, s, m, g, **kw):
    r = {"t": "faultclear", "model": m, "strategy": s, "bytes": b, "gbps": g,
         "gbps_lo": g - 1, "gbps_hi": g + 2, "noisy": False, "steal_high": False,
         "verified": True, "emulated_ring0": False}
    r.update(kw)
    return r


def run():
    recs = [{"t": "faultclear_run", "bytes": G, "pages": 2, "seed": 5, "rounds": 15,
             "stop": "cap", "noisy_cells": 1}]
    for m, g in zip(faultclear.MODELS, (40.0, 20.0, 8.0, 42.0)):
        recs.append(cell(G, "rep_stosb", m, g, noisy=m == "linux_hot_last",
                         median_ns=25_000_000, clear_median_ns=20_000_000))
    for m, g in zip(faultclear.MODELS, (30.0, 24.0, 12.0, 29.0)):
        recs.append(cell(M2, "rep_stosb", m, g))
    recs.append({"t": "faultclear_gain", "kind": "prediction", "strategy": "rep_stosb",
                 "bytes": G, "gain": 2.1, "gain_lo": 1.9, "gain_hi": 2.35, "noisy": False,
                 "gain_cover_pct": 95.0, "full_gain": 3.05, "full_gain_lo": 2.8,
                 "full_gain_hi": 3.3})
    recs.append({"t": "faultclear_gain", "kind": "prediction", "strategy": "rep_stosb",
                 "bytes": M2, "gain": 0.827, "gain_lo": 0.7, "gain_hi": 1.0, "noisy": True,
                 "steal_high": True, "gain_cover_pct": 95.0, "left_pct": 93.25,
                 "left_lo_pct": 90.0, "left_hi_pct": 95.5})
    return recs


class Table(unittest.TestCase):
    def test_rows_hold_medians_intervals_flags_and_gain(self):
        lines = faultclear.table(run())
        self.assertIn("PREDICTION", lines[0])
        self.assertEqual(lines[1].split(), "1 GiB: 15 rounds (stop: cap, seed 5), 2 faults "
                         "per cell and round, 1 noisy cells".split())
        head, one, two = lines[2].split(), lines[3], lines[4]
        self.assertEqual(head, ["frame", "strategy", "extent", "linux_4k", "linux_hot_last",
                                "linux_batch=32M", "predicted", "gain", "full/lazy", "gain"])
        self.assertEqual(one.split(), ["1", "GiB", "rep_stosb", "40.00", "[39.00..42.00]",
                                       "20.00", "[19.00..22.00]", "8.00", "[7.00..10.00]",
                                       "noisy", "42.00", "[41.00..44.00]", "2.10x",
                                       "[1.90..2.35]", "95%", "3.05x", "[2.80..3.30]", "95%"])
        self.assertTrue(two.split()[-6:] == ["0.83x", "[0.70..1.00]", "95%", "noisy", "steal",
                                             "-"], two)
        self.assertIn("preempt=full/lazy", lines[0])
        self.assertIn("[interval] and its coverage", lines[0])
        old = dict(run()[-1], gain_cover_pct=91.6)  # the former range of two median intervals
        self.assertEqual(faultclear._gain(old).split()[2], "91.6%")
        self.assertEqual(len(lines), 5)  # no emulated-ring0 note: no record says so

    def test_interval_label_from_the_samples(self):
        # faultclear_rounds defaults to 5: min..max, which covers 93.75 %
        self.assertIn("[interval] per fault_clear= model", faultclear.table(run())[0])
        for n, label in ((5, "[min..max, 93.75%]"), (10, "[95% interval]")):
            recs = [dict(r, n=n) if r["t"] == "faultclear" else r for r in run()]
            self.assertIn("(frame / median) %s per" % label, faultclear.table(recs)[0])

    def test_missing_cells_and_emulated_ring0(self):
        recs = [cell(G, "clzero", "extent", 10.0, gbps_lo=None, emulated_ring0=True)]
        lines = faultclear.table(recs)
        self.assertEqual(lines[2].split()[:4], ["1", "GiB", "clzero", "10.00"])
        self.assertEqual(lines[2].split()[4:], ["-", "-", "-", "-", "-"])
        self.assertIn("emulated ring 0", lines[3])
        self.assertEqual(faultclear.report([{"t": "clear"}]), [])

    def test_anchors_come_from_docs_validation(self):
        lines = faultclear.anchors()
        self.assertIn("milan 17.3 -> 42.2 GB/s (2.44x, preempt=full/lazy); icelake 8.0 -> "
                      "11.3 GB/s (1.41x, preemption model not stated); milan 17.1 -> 18.0 GB/s "
                      "(1.05x, preempt=none/voluntary in 8 MiB batches)", lines[1])
        self.assertIn("genoa: hot-last 11.8 vs address order 23.6 GB/s (2.00x)", lines[2])
        self.assertIn("milan: 4K 13.7, 2M 15.1, 1G 38.1 GB/s", lines[3])
        rows = [r for r in validation.table() if r["anchor"] != "genoa"]
        self.assertEqual(len(faultclear.anchors(rows)), 3)  # no Genoa line without its rows

    def test_beside_sets_the_same_shapes_side_by_side(self):
        lines = faultclear.beside(run())
        self.assertIn("1 GiB, rep_stosb, preempt=none/voluntary: linux_4k 20.00 [19.00..22.00] "
                      "-> linux_batch=32M 42.00 [41.00..44.00] GB/s, gain 2.10x [1.90..2.35] 95% "
                      "(published milan, preempt=none/voluntary in 8 MiB batches: 1.05x)",
                      lines[0])
        # the published 2.44x stands beside the same model: the whole folio in one extent
        self.assertIn("1 GiB, rep_stosb, preempt=full/lazy: linux_4k 20.00 [19.00..22.00] -> "
                      "extent 40.00 [39.00..42.00] GB/s, gain 3.05x [2.80..3.30] 95% "
                      "(published milan, preempt=full/lazy: 2.44x)", lines.pop(1))
        self.assertIn("left for pre-zeroing: the clear in a linux_batch=32M fault, median "
                      "20.000 ms of its 25.000 ms service time (80%)", lines[1])
        # the kernel's own figure with its interval when the gain record has it
        self.assertIn("2 MiB, rep_stosb: left for pre-zeroing: the clear in a linux_batch=32M "
                      "fault is 93.2% [90.0..95.5] 95% of its service time", lines[2])
        self.assertIn("linux_hot_last 12.00 [11.00..14.00] vs linux_4k (address order) 24.00 "
                      "[23.00..26.00] GB/s: 2.00x (published genoa 2.00x)", lines[3])
        self.assertEqual(len(lines), 4)
        self.assertEqual(faultclear.beside(run(), strategy="rep_stosq"), [])


class KernelAnchors(unittest.TestCase):
    def test_kernel_prints_the_documented_figures(self):
        """scenarios/faultclear/run.c prints the anchors after its table (it
        cannot read docs/validation.md): every figure it prints is one of
        the table's."""
        src = (pathlib.Path(hztest.ROOT) / "scenarios" / "faultclear" / "run.c").read_text()
        printed = re.findall(r'"faultclear: published.*?\\n"\);', src, re.S)
        self.assertEqual(len(printed), 2)
        nums = {float(x) for p in printed for x in re.findall(r"(\d+\.\d+) (?:->|GB/s|vs)", p)}
        nums |= {float(x) for p in printed for x in re.findall(r"extent (\d+\.\d+)", p)}
        nums |= {float(x) for p in printed for x in re.findall(r"4 KiB (\d+\.\d+)", p)}
        pub = {r["value"] for r in validation.table()}
        self.assertEqual(nums - pub, set())
        self.assertEqual(pub - nums, set())


if __name__ == "__main__":
    unittest.main()
