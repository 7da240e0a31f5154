"""hz compare's judgement of one row: clear cells' median intervals, the
Hodges-Lehmann ratio of the samples and its Moses interval, --tolerance;
the label of a median's interval (tests/vectors/ci_label.txt, which
tests/unit/test_stats.c reads too)."""

import os
import subprocess
import unittest

import hztest
from hzlib import compare, compare_stat as cs, results
from hzlib.scenarios import clear, fault


def _cell(median, lo, hi, cv, **extra):
    r = {"t": "clear", "v": 1, "strategy": "movnti", "chunk": 4096, "bytes": 1 << 30,
         "cache": "cold", "threads": 1, "gbps": hi, "gbps_median": median, "gbps_lo": lo,
         "gbps_hi": hi, "cv_pct": cv, "min_ns": int((1 << 30) / hi),
         "max_ns": int((1 << 30) / lo * 1.5), "noisy": False, "run": 0}
    r.update(extra)
    return r


class MedianIntervals(unittest.TestCase):
    """Records with gbps_lo/gbps_hi: the intervals alone decide the verdict."""

    def verdict(self, ra, rb):
        rows = clear.clear_rows(results.ResultSet("a", [ra]), results.ResultSet("b", [rb]))
        self.assertEqual(len(rows), 1)
        _, sa, sb, hib = rows[0]
        return sa, sb, cs.verdict(sa, sb, hib)

    def test_overlapping_intervals_are_noise_despite_small_cv(self):
        # +5 % with cv 0.5 %: the old rule (shift > 2 x cv) would say faster.
        sa, sb, v = self.verdict(_cell(10.0, 9.7, 10.4, 0.5), _cell(10.5, 10.3, 10.8, 0.5))
        self.assertEqual(v, "noise")
        self.assertTrue(sa.ci and sb.ci)
        self.assertEqual((sa.lo, sa.hi), (9.7, 10.4))

    def test_separated_intervals_decide(self):
        self.assertEqual(self.verdict(_cell(10.0, 9.9, 10.1, 3.0),
                                      _cell(10.4, 10.2, 10.6, 3.0))[2], "faster")
        self.assertEqual(self.verdict(_cell(10.0, 9.9, 10.1, 0.1),
                                      _cell(9.0, 8.8, 9.2, 0.1))[2], "slower")

    def test_one_side_without_interval_falls_back(self):
        old = _cell(10.0, 9.9, 10.1, 0.1)
        del old["gbps_lo"], old["gbps_hi"]
        sa, sb, v = self.verdict(old, _cell(10.5, 10.3, 10.8, 0.1))
        self.assertFalse(sa.ci)
        self.assertEqual(v, "faster")  # old records: +5 % > 2 x 0.1 % cv

    def test_one_sample_cells_have_no_verdict(self):
        # first_touch is one sample: min = max and cv 0 say nothing of spread,
        # so a 0.5 % difference between two runs must not read as "faster".
        # The kernel writes such a record with a point "interval" (ci_pct 0).
        one = [dict(_cell(v, v, v, 0.0), repeats=1, ci_pct=0.0, min_ns=52218414,
                    max_ns=52218414) for v in (20.563, 20.671)]
        self.assertEqual(self.verdict(*one)[2], "too few samples")

    def test_few_repeats_get_no_verdict(self):
        self.assertEqual(self.verdict(_cell(10.0, 9.9, 10.1, 0.1, repeats=5),
                                      _cell(20.0, 19.9, 20.1, 0.1, repeats=10))[2],
                         "too few samples")
        self.assertEqual(self.verdict(_cell(10.0, 9.9, 10.1, 0.1, repeats=6),
                                      _cell(20.0, 19.9, 20.1, 0.1, repeats=10))[2], "faster")

    def test_flags_are_shown_per_side(self):
        a = results.ResultSet("a", [_cell(10.0, 9.7, 10.4, 12.0, noisy=True, steal_high=True)])
        b = results.ResultSet("b", [_cell(10.1, 9.8, 10.4, 1.0, steal_high=True,
                                          cache_verified=False)])
        lines, n = compare.compare(a, b)
        self.assertEqual(n, 1)
        row = [ln for ln in lines if ln.startswith("clear movnti")][0]
        self.assertIn("noise", row)
        self.assertTrue(row.endswith("noisy(A) steal(A,B) not-cold(B)"), row)


GIB = 1 << 30


def _sampled(ns, strategy="rep_stosb", chunk=4096, cache="cold", **extra):
    """A clear record as the kernel prints it now: samples_ns in run order,
    median and interval members consistent with them."""
    v = sorted(ns)
    med = v[(len(v) - 1) // 2]
    r = {"t": "clear", "v": 1, "strategy": strategy, "chunk": chunk, "bytes": GIB,
         "cache": cache, "threads": 1, "repeats": len(ns), "min_ns": v[0], "median_ns": med,
         "max_ns": v[-1], "gbps": round(GIB / v[0], 3), "gbps_median": round(GIB / med, 3),
         "gbps_lo": round(GIB / v[-2 if len(v) > 1 else 0], 3),
         "gbps_hi": round(GIB / v[min(1, len(v) - 1)], 3), "cv_pct": 1.0,
         "verified": True, "samples_ns": list(ns), "run": 0}
    r.update(extra)
    return r


# ten repeats of a 1 GiB clear at ~24 GB/s with +-2 % jitter and one slow burst
BASE = [44700000, 45200000, 44100000, 45900000, 44900000, 58000000, 44400000, 45500000,
        44800000, 45100000]


class HodgesLehmann(unittest.TestCase):
    """Records with samples_ns: the Hodges-Lehmann ratio and Moses interval
    decide (compare_stat.judge), at the tolerance."""

    def judge(self, ra, rb, tol=5.0):
        rows = clear.clear_rows(results.ResultSet("a", [ra]), results.ResultSet("b", [rb]))
        self.assertEqual(len(rows), 1)
        _, sa, sb, hib = rows[0]
        return cs.judge(sa, sb, hib, tol)

    def test_identical_pair_is_a_tie(self):
        j = self.judge(_sampled(BASE), _sampled(BASE))
        self.assertEqual((j.word, j.verdict_text()), ("tie", "tie (±5%)"))
        self.assertEqual(j.ratio_text()[:5], "1.000")
        self.assertEqual((j.cmp.ratio_x1e6, j.cmp.na, j.cmp.nb), (1000000, 10, 10))
        self.assertTrue(1 / 1.05 <= j.lo < 1 < j.hi <= 1.05, (j.lo, j.hi))

    def test_three_times_slower(self):
        j = self.judge(_sampled(BASE), _sampled([3 * x for x in BASE]))
        self.assertEqual(j.word, "slower")
        self.assertEqual(j.cmp.ratio_x1e6, 3000000)  # B/A of time per byte
        self.assertEqual(round(j.ratio, 3), 0.333)  # B/A of GB/s, the row's value
        self.assertTrue(j.hi < 1 / 1.05)
        j = self.judge(_sampled([3 * x for x in BASE]), _sampled(BASE))
        self.assertEqual((j.word, round(j.ratio, 3)), ("faster", 3.0))

    def test_tolerance_decides_tie_or_slower(self):
        # 5 % slower, time ratio [1.025..1.076]: it straddles 1.05, undecided
        # at +-5 %; inside 1.10, a tie at +-10 %.
        b = [int(x * 1.05) for x in BASE]
        j = self.judge(_sampled(BASE), _sampled(b))
        self.assertEqual((j.word, j.cmp.lo_x1e6, j.cmp.hi_x1e6), ("undecided", 1027124, 1073385))
        j = self.judge(_sampled(BASE), _sampled(b), tol=10)
        self.assertEqual((j.word, j.verdict_text()), ("tie", "tie (±10%)"))
        # 8 % slower, [1.054..1.107]: slower at +-5 %, undecided at +-10 %.
        b = [int(x * 1.08) for x in BASE]
        self.assertEqual(self.judge(_sampled(BASE), _sampled(b)).word, "slower")
        self.assertEqual(self.judge(_sampled(BASE), _sampled(b), tol=10).word, "undecided")

    def test_few_samples(self):
        j = self.judge(_sampled(BASE[:5]), _sampled([3 * x for x in BASE]))
        self.assertEqual(j.word, "too few samples")
        self.assertEqual(j.ratio_text(), "0.333")  # too few samples: no interval
        self.assertEqual(self.judge(_sampled(BASE[:6]), _sampled([3 * x for x in BASE])).word,
                         "slower")
        one = _sampled([45000000], cache="first_touch", samples_ns=[])
        j = self.judge(one, dict(one, gbps_median=20.0))
        self.assertEqual((j.word, j.ratio_text(), j.verdict_text()),
                         ("too few samples", "0.838", "too few samples"))

    def test_old_record_falls_back_to_the_spread_rule(self):
        old = _sampled(BASE)
        del old["samples_ns"]
        j = self.judge(old, _sampled([3 * x for x in BASE]))
        self.assertIsNone(j.cmp)
        self.assertEqual((j.word, j.verdict_text()), ("slower", "slower (spread rule)"))
        self.assertEqual(j.ratio_text(), "0.333")
        self.assertEqual(j.rule_note(), "spread rule: no samples in A")

    def test_zero_sample_is_left_out_and_said(self):
        # issue 30: a 0 ns sample is impossible; the row keeps the sample
        # rule, leaves the zero out and says so
        ra = _sampled(BASE)
        ra["samples_ns"] = [0] + ra["samples_ns"][1:]
        j = self.judge(ra, _sampled([3 * x for x in BASE]))
        self.assertIsNotNone(j.cmp)
        self.assertEqual((j.word, j.cmp.na, j.cmp.bad), ("slower", 9, (1, 0)))
        self.assertEqual(j.rule_note(), "two-sample (different runs); 1 bad A")

    def test_fault_times_are_samples(self):
        def side(ns):
            return results.ResultSet("s", [{"t": "fault", "v": 1, "policy": "none",
                                            "bytes": GIB, "service_ns": v, "clear_ns": v - 1000}
                                           for v in ns])
        fa = [16300000 + 10000 * i for i in range(8)]
        rows = {label: cs.judge(sa, sb, hib) for label, sa, sb, hib in
                fault.fault_rows(side(fa), side([x // 3 for x in fa]))}
        j = rows["fault self-test policy=none bytes=1G median service_ns"]
        self.assertEqual((j.word, j.ratio_text()), ("faster", "0.333 [0.332..0.335]"))
        self.assertEqual((j.cmp.na, j.cmp.nb), (8, 8))
        self.assertEqual(rows["fault self-test policy=none bytes=1G median clear_ns"].word,
                         "faster")

    def test_table_lists_one_sided_cells(self):
        a = results.ResultSet("a", [_sampled(BASE), _sampled(BASE, strategy="clzero")])
        b = results.ResultSet("b", [_sampled([3 * x for x in BASE]),
                                    _sampled(BASE, chunk=2 << 20)])
        lines, n = compare.compare(a, b)
        self.assertEqual(n, 1)
        row = [ln for ln in lines if ln.startswith("clear rep_stosb chunk=4K")][0]
        self.assertTrue(row.endswith("23.914  7.971  B gives 0.333x [0.326..0.341] the GB/s of A "
                                     "(slower)"), row)
        self.assertEqual(lines[-2:], [
            "only in A: clear clzero chunk=4K bytes=1G cache=cold threads=1 GB/s",
            "only in B: clear rep_stosb chunk=2M bytes=1G cache=cold threads=1 GB/s"])
        self.assertIn("tolerance ±5%", lines[6])
        lines, _ = compare.compare(a, results.ResultSet("b", [_sampled(BASE)]), tol_pct=2.5)
        self.assertIn("tolerance ±2.5%", lines[6])
        self.assertTrue(lines[9].endswith("(tie at ±2.5%)") or lines[9].endswith("(undecided)"),
                        lines[9])


class CompareTolerance(unittest.TestCase):
    def hz(self, *args):
        p = subprocess.run([hztest.HZ, "compare"] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        return p.returncode, p.stdout.decode().splitlines(), p.stderr.decode()

    def test_kvm_runs(self):
        # Two real run=clear runs under KVM on a loaded host (steal ~45 %):
        # every cell has samples_ns.
        a, b = hztest.fixture("results-kvm-a"), hztest.fixture("results-kvm-b")
        rc, out, _ = self.hz(a, b)
        self.assertEqual(rc, 0)
        first = [ln for ln in out if "cache=first_touch" in ln]  # one sample, samples_ns []
        self.assertTrue(first[0].endswith("  B gives 0.246x the GB/s of A (too few samples)"),
                        first)
        rc, out, _ = self.hz(a, a)
        body = [ln for ln in out if ln.startswith("clear ") and "first_touch" not in ln]
        self.assertEqual(len(body), 4)
        for ln in body:
            self.assertRegex(ln, r" B gives 1\.00x \[0\.[0-9]+\.\.1\.[0-9]+\] the GB/s of A "
                                 r"\((tie at ±5%|undecided)\)", ln)
        rc, out, _ = self.hz("--tolerance", "50", a, a)
        self.assertEqual([ln.count(" (tie at ±50%)") for ln in out if ln.startswith("clear ")
                          and "first_touch" not in ln], [1] * 4)

    def test_bad_tolerance(self):
        for bad in ("0", "-5", "x", "101"):
            rc, _, err = self.hz("--tolerance", bad, hztest.fixture("results-a"),
                                 hztest.fixture("results-b"))
            self.assertEqual(rc, 2, bad)
            self.assertIn("--tolerance", err)


class IntervalLabel(unittest.TestCase):
    def test_vectors(self) -> None:
        n = 0
        with open(os.path.join(hztest.ROOT, "tests", "vectors", "ci_label.txt")) as f:
            for line in f:
                if not line.startswith("#"):
                    count, want = line.rstrip("\n").split("\t")
                    self.assertEqual(cs.median_ci_label(int(count)), want, count)
                    n += 1
        self.assertGreaterEqual(n, 10)
        self.assertEqual(cs.median_ci_label(2), "min..max, 50%")
        self.assertEqual(cs.median_ci_label(10), "95% interval")


if __name__ == "__main__":
    unittest.main()
