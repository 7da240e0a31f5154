"""Every printed comparison says B, the ratio of B over A, then A, and a word
that agrees with its ratio (tools/hzlib/phrase.py, issue 29).

The fixture sweep prints, for every ordered pair of fixture result sets
(each against itself too), hz compare's table, hz report --text A B and the
A-vs-B page's table; and, for the kernel's `compare` records, hz report
--text --full and the page's collapsed details. It parses each sentence
back (phrase.PATTERN), recomputes the ratio from the records (each row's
two statistics: the samples' Hodges-Lehmann ratio through decide.compare,
else B's value over A's) and checks the names, the ratio and the word."""

import html
import itertools
import math
import os
import re
import unittest

import hztest
from hzlib import (compare, decide, phrase, report, report_pair, report_short,
                   report_text, results)

FIXTURES = ("results-a", "results-b", "results-kvm-a", "results-kvm-b", "results-verdict",
            "results-tcg-faultclear", "clean.log", "grub-noise.log", "reboot-loop.log", "seq.log",
            "sol-split.log")


def parse_all(text):
    """Every comparison sentence in text, parsed."""
    return [m.groupdict() for m in phrase.PATTERN.finditer(text)]


def close(printed, value):
    """printed (three significant digits) is value rounded."""
    return math.isclose(float(printed), value, rel_tol=6e-3, abs_tol=6e-4)


class Phrase(unittest.TestCase):
    def test_three_significant_digits(self):
        self.assertEqual([phrase.sig3(x) for x in (0.3333, 0.05, 1.434115, 9.996, 35.66, 128.4,
                                                   1234.5)],
                         ["0.333", "0.0500", "1.43", "10.0", "35.7", "128", "1234"])

    def test_the_faultclear_line(self):
        """The line the issue found read backwards, as it prints now: the
        kernel's compare record of the fault item's clear_pages() gain
        (scenarios/fault/verdict.c: B/A = linux_4k / linux_batch)."""
        c = {"t": "compare", "item": "fault", "a": "faultclear/linux_batch=32M/rep_stosb/1G",
             "b": "faultclear/linux_4k/rep_stosb/1G", "ratio": 1.434115, "lo": 1.352881,
             "hi": 1.521007, "outcome": "slower", "tol_pct": 5.0, "z": 1.96, "na": 20, "nb": 20}
        self.assertEqual(phrase.of_compare_record(c),
                         "faultclear/linux_4k/rep_stosb/1G takes 1.43x [1.35..1.52] the time of "
                         "faultclear/linux_batch=32M/rep_stosb/1G (slower), n=20/20")

    def test_direction(self):
        self.assertEqual(phrase.direction(1.43), "slower")
        self.assertEqual(phrase.direction(0.7), "faster")
        self.assertEqual(phrase.direction(1.43, "GB/s"), "faster")
        self.assertEqual(phrase.direction(0.7, "GB/s"), "slower")
        self.assertEqual(phrase.direction(1.0, "GB/s"), "")

    def test_no_ratio(self):
        self.assertEqual(phrase.comparison("B", "A", None, word="noise, spread rule"),
                         "B against A: no ratio (noise, spread rule)")


class EveryPrintedComparison(unittest.TestCase):
    """The sweep of the module comment; it counts what it checked."""

    checked = 0

    @classmethod
    def setUpClass(cls):
        cls.sets = {n: results.load(hztest.fixture(n)) for n in FIXTURES}

    def check(self, said, b, a, ratio, lo, hi, what):
        """One parsed sentence against the ratio recomputed from the records."""
        self.assertEqual((said["b"], said["a"], said["what"]), (b, a, what), said)
        self.assertTrue(close(said["ratio"], ratio), (said, ratio))
        if lo is not None and said["lo"] is not None:
            self.assertTrue(close(said["lo"], lo) and close(said["hi"], hi), (said, lo, hi))
        word = said["word"].split(",")[0].split(" at ")[0]
        if word in ("faster", "slower"):
            self.assertEqual(word, phrase.direction(float(said["ratio"]), what), said)
            if said["lo"] is not None:  # a decided interval lies on the word's side of 1
                self.assertEqual({phrase.direction(float(said["lo"]), what),
                                  phrase.direction(float(said["hi"]), what)}, {word}, said)
        type(self).checked += 1

    def recomputed(self, sa, sb, higher_is_better):
        """(ratio, lo, hi) of B over A from the two statistics: the
        samples' Hodges-Lehmann ratio of time (inverted for a quantity
        where more is better), else B's value over A's."""
        if sa.times and sb.times:
            c = decide.compare(sa.times, sa.nbytes, sb.times, sb.nbytes, decide.Z_X1000,
                               decide.TOL_X100)
            if higher_is_better:
                return 1 / c.ratio, 1 / c.hi, 1 / c.lo
            return c.ratio, c.lo, c.hi
        return (sb.value / sa.value if sa.value else None), None, None

    def test_hz_compare_the_report_and_the_page(self):
        seen = 0
        for (na, a), (nb, b) in itertools.product(self.sets.items(), repeat=2):
            rows = compare.all_rows(a, b)
            lines, _ = compare.compare(a, b)
            page = html.unescape(report_pair.compare_section(a, b))
            for label, sa, sb, hib in rows:
                ratio, lo, hi = self.recomputed(sa, sb, hib)
                what = compare.quantity(label, hib)
                line = next(ln for ln in lines if ln.startswith(label + " ")
                            or ln.startswith(label + "  ") or ln.startswith(label + " (n="))
                for said in parse_all(line):
                    if ratio is None:
                        self.fail("a sentence without a ratio to print: %s" % line)
                    self.check(said, "B", "A", ratio, lo, hi, what)
                if ratio is None:
                    self.assertIn("B against A: no ratio (", line)
                cell = re.search(r"<td>%s(?: \(n=\d+/\d+\))?</td>.*?<td>(B [^<]*)</td>"
                                 % re.escape(label), page)
                self.assertIsNotNone(cell, (na, nb, label))
                for said in parse_all(cell.group(1)):
                    self.check(said, "B", "A", ratio, lo, hi, what)
                seen += 1
            short = report_short.pair_text(a, b).replace("\n    ", " ")  # unwrapped
            for said in parse_all(short):
                self.assertEqual((said["b"], said["a"]), ("B", "A"))
                word = said["word"].split(",")[0]
                if word in ("faster", "slower"):
                    self.assertEqual(word, phrase.direction(float(said["ratio"]), said["what"]))
                type(self).checked += 1
        self.assertGreater(seen, 500)

    def test_the_kernels_compare_records(self):
        """hz report --text --full and the page's details print each
        `compare` record of the run: every outcome, in both directions."""
        rs = self.sets["results-verdict"]
        recs = []
        for i, (ratio, lo, hi, outcome) in enumerate((
                (0.31, 0.28, 0.35, "faster"), (1.434115, 1.352881, 1.521007, "slower"),
                (1.01, 0.97, 1.04, "tie"), (1.02, 0.90, 1.13, "undecided"),
                (2.0, 0.108, 37.129, "too few samples"))):
            recs.append({"t": "compare", "v": 1, "run": 0, "item": "clear_1g",
                         "a": "clear/rep_stosb/4K/cold/1G", "b": "clear/cell%d/2M/cold/1G" % i,
                         "ratio": ratio, "lo": lo, "hi": hi, "outcome": outcome,
                         "tol_pct": 5.0, "z": 2.361, "na": 10, "nb": 18})
        with_cmp = results.ResultSet("c", rs.records + recs, rs.meta)
        full = report_text.text(with_cmp).replace("\n      ", " ")
        page = html.unescape(report.single(with_cmp, []))
        for text in (full, page):
            said = parse_all(text)
            self.assertEqual(len(said), len(recs))
            for s, c in zip(said, recs):
                self.assertTrue(s["word"].startswith(c["outcome"]), s)
                self.check(s, c["b"], c["a"], c["ratio"], c["lo"], c["hi"], phrase.TIME)

    @classmethod
    def tearDownClass(cls):
        print("\n%s: %d printed comparisons checked" % (os.path.basename(__file__), cls.checked))


if __name__ == "__main__":
    unittest.main()
