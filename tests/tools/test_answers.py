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
        trust = {"t": "verdict", "item": "trust", "text": "KVM, ...", "measured": True}
        out = answers.lines([("clear", [v("clear_1g", "clear a 1G page: x"), trust]),
                             ("vmstart", [v("vmstart", "the ceiling B is open", decided=False,
                                            reason="not decided: the ceiling B is open"),
                                          trust])])
        self.assertEqual(out[0], "verdict, each item from the boot that measured it:")
        self.assertEqual(out[1], "  1 GiB page:         [clear] clear a 1G page: x")
        self.assertEqual(out[2], "  VM start:           [vmstart] not decided: the ceiling B is "
                                 "open")
        self.assertEqual(out[3:], ["  trust:              [clear] KVM, ...",
                                   "  trust:              [vmstart] KVM, ..."])
        self.assertEqual(answers.lines([("x", [{"t": "clear"}])]),
                         ["verdict: no verdict records in any boot"])


if __name__ == "__main__":
    unittest.main()
