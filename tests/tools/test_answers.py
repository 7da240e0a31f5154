"""tools/hzlib/answers.py: make bench's verdict across boots takes each item
from the boot that measured it, by the documented order of preference."""

import unittest

import hztest  # noqa: F401  (puts tools/ on sys.path)
from hzlib import answers


def v(item, text, measured=True, decided=True, figures=(), reason=None, by=(), ran=()):
    return {"t": "verdict", "item": item, "text": text, "measured": measured,
            "decided": decided, "figures": list(figures), "reason": reason,
            "measured_by": list(by), "scenarios": list(ran)}


NOT_FAULT = v("fault", "not measured: run=fault or run=faultclear measures it", False, False)
NOT_IDLE = v("idle", "not measured: run=clear measures it", False, False)


class Pick(unittest.TestCase):
    def test_each_item_from_the_boot_that_measured_it(self):
        boots = [("clear", [v("clear_1g", "clear a 1G page: ..."), NOT_FAULT,
                            v("idle", "a background zeroer needs 35 ms per GiB",
                              by=("interference", "clear"), ran=("clear",))]),
                 ("fault", [v("fault", "a 1G fault takes 40 ms ...", figures=["left_pct"]),
                            NOT_IDLE]),
                 ("faultclear", [v("fault", "a 2M fault ... clear_pages() gain 2.1x",
                                   figures=["left_pct", "faultclear_gain"]), NOT_IDLE]),
                 ("interference", [v("idle", "not decided: neighbour cost open", decided=False,
                                     reason="rep_stosb at 25% vs alone: undecided",
                                     by=("interference", "clear"), ran=("interference",)),
                                   NOT_FAULT])]
        got = answers.pick(boots)
        self.assertEqual(got["clear_1g"][0], "clear")
        # two boots measured the fault item, both decided: the one with more figures
        self.assertEqual(got["fault"][0], "faultclear")
        # the idle item's first scenario (interference: the neighbour cost) before run=clear's
        # decided CPU-per-GiB answer
        self.assertEqual(got["idle"][0], "interference")

    def test_later_boot_wins_a_full_tie_and_not_measured_is_kept_when_alone(self):
        boots = [("a", [v("vmstart", "first"), NOT_IDLE]), ("b", [v("vmstart", "second")])]
        got = answers.pick(boots)
        self.assertEqual(got["vmstart"], ("b", boots[1][1][0]))
        self.assertEqual(got["idle"][1]["measured"], False)

    def test_lines(self):
        """The console's item lines (verdict_text), labels from the records."""
        trust = {"t": "verdict", "item": "trust", "label": "trust", "form": "trust",
                 "decided": True, "hypervisor": "KVM", "tsc_invariant": True,
                 "emulated_ring0": False, "backing": "4k", "steal_pct": 0.5, "tol_pct": 5.0,
                 "left_out_cells": 0, "cells_seen": 9, "profile": "clear"}
        c1g = dict(v("clear_1g", None), label="clear 1 GiB", form="clear", outcome="faster",
                   answer="clzero/2M", figure=35.7, unit="GB/s", lo=34.0, hi=37.8,
                   baseline="rep_stosb/4K", ratio=3.39, ratio_min=3.39, ratio_max=3.39,
                   ratio_lo=2.97, ratio_hi=3.81, set="winner")
        vm = dict(v("vmstart", None, decided=False), label="VM start", form="vmstart",
                  reason="NOT_IN_RUN", measured_by=["vmstart"])
        out = answers.lines([("clear", [c1g, vm, trust]), ("fault", [vm, trust])])
        self.assertEqual(out, [
            "== verdict of make bench (run=clear; Hodges-Lehmann ratio intervals, tolerance +-5%)",
            "  clear 1 GiB  clzero/2M 35.7 GB/s [34.0..37.8]: 3.4x [3.0..3.8] faster than Linux "
            "clear_page",
            "  VM start     not measured (run=vmstart)",
            "  trust        KVM, TSC invariant, ring 0 native, RAM 4k, steal 0.50%, 0/9 cells out",
            "  from: clear 1 GiB clear, VM start fault"])
        self.assertTrue(all(len(x) <= 100 for x in out))
        self.assertEqual(answers.lines([("x", [{"t": "clear"}])]),
                         ["verdict: no verdict records in any boot"])


if __name__ == "__main__":
    unittest.main()
