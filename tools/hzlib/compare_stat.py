"""One side of an hz compare row (Stat) and the rule that judges a row.

The rule. When both sides carry their samples (`times`: a clear cell's
`samples_ns`, one fault's service or clear time per fault record), the row
is judged as lib/compare.h judges a comparison (tools/hzlib/decide.py) of
cells from different runs (rule "two-sample": rounds of two runs do not
pair), 0 ns samples left out as impossible and counted: B/A
of time per byte as the Hodges-Lehmann estimate, the median of all pairwise
ratios, with Moses' distribution-free interval (z = decide.Z_X1000), and
the outcome at the tolerance X (`hz compare --tolerance PCT`, default 5):
"faster" or "slower" when the whole interval lies beyond 1 +- X, "tie"
when it lies inside [1/(1+X), 1+X], "undecided" otherwise, and "too few
samples" below decide.MIN_N samples a side. The row's shown ratio is B/A of
its own value: for GB/s rows the inverse of the time ratio (interval
[1/hi, 1/lo]), for time rows the time ratio itself.

Rows without samples on both sides (records older than samples_ns, and the
statistics Hodges-Lehmann does not estimate: p99, gains, model figures,
medians of records without samples) keep the spread rule and are labelled
so (SPREAD; Judgement.rule_note() names the sides that lack samples):
first each side's statistic must rest on at least MIN_SAMPLES samples
(the repeats of a clear cell, the faults of a fault row, the record's
repeats / n / lat_n / faults member), else "too few samples":
from 6 samples on the median has a distribution-free 95 % interval
(lib/stats.h stats_median_ci95). A p99 row also needs enough faults for an
interval of its own (quantile_ci95: 368 and more). A side that does not
say how many samples it has keeps the spread rule below. Then "faster" /
"slower" only when the difference is larger than the runs' own spread:
with 95 % intervals on both sides, the intervals do not overlap; otherwise
the ranges do not overlap, or |B - A| / A > 2 x max(CV A, CV B). Else
"noise"; "n/a" when a side gives no spread at all.
"""

import math
import statistics
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from . import blocks, decide
from .schema import SAMPLE_COUNTS

P99_MIN_N = 100
MIN_SAMPLES = decide.MIN_N  # fewest samples whose median has a 95 % order-statistic interval
TOO_FEW = decide.TOO_FEW
TOL_PCT = decide.TOL_X100 / 100
SPREAD = "spread rule"  # the label of rows judged without samples


@dataclass
class Stat:
    """One side of a row: value, optional (lo, hi) range, optional CV %.

    ci: (lo, hi) is a 95 % confidence interval of the statistic, not a
    min..max range. n: records (or faults) merged into the row. samples:
    the fewest samples behind the statistic (None: the records do not say).
    few: the samples allow no 95 % interval of this statistic.
    flags: words for the records' own warnings (noisy, steal, not-cold).
    times: the samples themselves (ns, run order) when the records carry
    them, each for `nbytes` bytes; None: the records carry none (the
    spread rule judges)."""

    value: float
    lo: Optional[float] = None
    hi: Optional[float] = None
    cv: Optional[float] = None
    n: int = 1
    ci: bool = False
    flags: Sequence[str] = ()
    samples: Optional[int] = None
    few: bool = False
    times: Optional[Sequence[float]] = None
    nbytes: int = 1

    def __post_init__(self) -> None:
        self.flags = tuple(self.flags)
        if self.times is not None:
            self.times = list(self.times)


@dataclass(frozen=True)
class Judgement:
    """A row's verdict: word (faster, slower, tie, undecided, too few
    samples; spread rule: faster, slower, noise, n/a, too few samples),
    ratio B/A of the row's value with its interval (lo, hi; None without
    one), cmp (decide.Cmp, None under the spread rule) and tol_pct."""
    word: str
    ratio: Optional[float]
    lo: Optional[float] = None
    hi: Optional[float] = None
    cmp: Optional[decide.Cmp] = None
    tol_pct: float = TOL_PCT
    why: str = ""

    def verdict_text(self) -> str:
        """'tie (±5%)', 'slower', 'noise (spread rule)' for tables."""
        if self.cmp is None:
            return "%s (%s)" % (self.word, SPREAD)
        if self.word == decide.TIE:
            return "tie (±%s%%)" % ("%g" % self.tol_pct)
        return self.word

    def rule_note(self) -> str:
        """Which rule judged the row and why: 'two-sample (different runs)',
        with 'dependent B' and '1 bad A' when a side was widened or lost
        impossible samples; 'spread rule: no samples in A' when it fell
        back (module comment)."""
        if self.cmp is None:
            return "%s: %s" % (SPREAD, self.why) if self.why else SPREAD
        notes = ["dependent %s" % side for side, f in zip("AB", self.cmp.f_x1000) if f > 1000]
        notes += ["%d bad %s" % (n, side) for side, n in zip("AB", self.cmp.bad) if n]
        return "; ".join(["%s (%s)" % (self.cmp.rule, self.cmp.why)] + notes)

    def ratio_text(self) -> str:
        """'0.333 [0.320..0.350]', '1.050' (spread rule) or '-'."""
        if self.ratio is None:
            return "-"
        if self.lo is None or self.hi is None:
            return "%.3f" % self.ratio
        return "%.3f [%.3f..%.3f]" % (self.ratio, self.lo, self.hi)


def _binom_cdf(k, n, q):
    """P(B <= k) for B ~ Binomial(n, q) (exact, math.comb)."""
    return sum(math.comb(n, i) * q ** i * (1 - q) ** (n - i) for i in range(0, k + 1))


def quantile_ci95(n, q):
    """0-based indices (lo, hi) into n ascending samples whose values hold the
    q-quantile with probability >= 95 %, 2.5 % at most in each tail (the
    order-statistic interval: [x_(r), x_(s)] misses it when fewer than r or
    at least s samples lie below it, B ~ Binomial(n, q)); None when even the
    whole sample falls short (the median below 6 samples, p99 below 368).
    For q = 1/2 these are lib/stats.h stats_median_ci95()'s ranks."""
    r = 0  # largest rank r with P(B <= r - 1) <= 2.5 %
    while r < n and _binom_cdf(r, n, q) <= 0.025:
        r += 1
    s = n + 1  # smallest rank s with P(B >= s) <= 2.5 %
    while s > 1 and 1 - _binom_cdf(s - 2, n, q) <= 0.025:
        s -= 1
    return (r - 1, s - 1) if 1 <= r <= s <= n else None


def median_ci_label(n: int) -> str:
    """The label of the median's interval from n samples (lib/fmt.h
    fmt_ci_label, tests/vectors/ci_label.txt): "95% interval" when even
    min..max of n samples covers 95 % (n >= 6: then quantile_ci95 finds
    one), else min..max with what it covers (blocks.coverage_x1e4 of rank
    1: 1 - 2^(1 - n), rounded down), trailing zeros dropped: "min..max,
    50%" for n = 2."""
    cover = blocks.coverage_x1e4(min(max(n, 0), 64), 1)  # the same from 6 on: a cap
    if cover >= blocks.COVER_X1E4:
        return "95% interval"
    pct = "%d.%02d" % divmod(cover, 100)
    return "min..max, %s%%" % pct.rstrip("0").rstrip(".")


def table_ci_label(recs) -> str:
    """The label of a table's median intervals: median_ci_label of the
    fewest samples any of recs has (sample_count); "interval" when one does
    not say how many."""
    n = sample_count(recs)
    return "interval" if n is None else median_ci_label(int(n))


def moses_label(rounds) -> str:
    """The label of Moses' interval of a comparison of `rounds` samples a
    side: its 95 % needs decide.MIN_N of them (lib/compare.h CMP_MIN_N)."""
    if isinstance(rounds, int) and rounds >= decide.MIN_N:
        return "95% Moses interval"
    return "Moses interval, 95%% only from %d rounds" % decide.MIN_N


def num(x):
    """x when it is a number (not a bool), else None."""
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def sample_count(recs):
    """The fewest samples any of recs says it has, or None."""
    counts = []
    for r in recs:
        c = next((num(r.get(k)) for k in SAMPLE_COUNTS if num(r.get(k)) is not None), None)
        if c is None:
            return None
        counts.append(c)
    return min(counts) if counts else None


def record_flags(r):
    """The warnings a clear-like record carries (scenarios/clear/records.md `clear`)."""
    return [f for f, on in (("noisy", r.get("noisy") is True),
                            ("steal", r.get("steal_high") is True),
                            ("not-cold", r.get("cache_verified") is False),
                            ("unverified", r.get("verified") is False)) if on]


def percentile(sorted_vals, pct):
    """Nearest-rank percentile of an ascending list."""
    k = max(1, -(-pct * len(sorted_vals) // 100))
    return sorted_vals[min(k, len(sorted_vals)) - 1]


def dist_stat(vals, pick, q, times=None, nbytes=1):
    """Stat of the q-quantile (pick) of samples: its 95 % order-statistic
    interval when they allow one, else the interquartile range (shown, never
    judged: too few samples). times: the samples for the Hodges-Lehmann
    rule (a median row), None for a statistic it does not estimate."""
    vals = sorted(vals)
    mean = statistics.fmean(vals)
    cv = statistics.stdev(vals) / mean * 100 if mean and len(vals) > 1 else None
    ci = quantile_ci95(len(vals), q)
    if ci:
        return Stat(pick(vals), vals[ci[0]], vals[ci[1]], cv, len(vals), ci=True,
                    samples=len(vals), times=times, nbytes=nbytes)
    return Stat(pick(vals), percentile(vals, 25), percentile(vals, 75), cv, len(vals),
                samples=len(vals), few=True, times=times, nbytes=nbytes)


def spread_verdict(sa, sb, higher_is_better):
    """"faster", "slower", "noise", "n/a" or TOO_FEW by the spread rule
    (module comment)."""
    if any(st.few or (st.samples is not None and st.samples < MIN_SAMPLES) for st in (sa, sb)):
        return TOO_FEW
    if sa.value == sb.value:
        return "noise"
    if sa.ci and sb.ci:  # median intervals: they alone decide
        if not (sa.hi < sb.lo or sb.hi < sa.lo):
            return "noise"
        better = sb.value > sa.value if higher_is_better else sb.value < sa.value
        return "faster" if better else "slower"
    spread_known = False
    separated = False
    if None not in (sa.lo, sa.hi, sb.lo, sb.hi):
        spread_known = True
        separated = sa.hi < sb.lo or sb.hi < sa.lo
    cvs = [c for c in (sa.cv, sb.cv) if c is not None]
    if cvs and sa.value:
        spread_known = True
        separated = separated or abs(sb.value - sa.value) / abs(sa.value) * 100 > 2 * max(cvs)
    if not spread_known:
        return "n/a"
    if not separated:
        return "noise"
    better = sb.value > sa.value if higher_is_better else sb.value < sa.value
    return "faster" if better else "slower"


def _invert(c: decide.Cmp) -> Tuple[float, float, float]:
    """(ratio, lo, hi) of B/A speed from a B/A time comparison."""
    def inv(x):
        return 1 / x if x else math.inf
    return inv(c.ratio), inv(c.hi), inv(c.lo)


def tol_x100(pct: float) -> int:
    """The tolerance in percent x 100, as decide.compare takes it."""
    return int(round(pct * 100))


def judge(sa: Stat, sb: Stat, higher_is_better: bool, tol_pct: float = TOL_PCT) -> Judgement:
    """The row's Judgement: Hodges-Lehmann when both sides have samples,
    else the spread rule (module comment)."""
    if sa.times is not None and sb.times is not None:
        c = decide.compare(sa.times, sa.nbytes, sb.times, sb.nbytes, decide.Z_X1000,
                           tol_x100(tol_pct))
        if not c.na or not c.nb:  # an empty list (a one-sample cell): no ratio of samples
            return Judgement(c.outcome, sb.value / sa.value if sa.value else None, cmp=c,
                             tol_pct=tol_pct)
        if c.outcome == decide.TOO_FEW:  # fewer samples than the rule needs: no interval
            return Judgement(c.outcome, _invert(c)[0] if higher_is_better else c.ratio,
                             cmp=c, tol_pct=tol_pct)
        if higher_is_better:
            return Judgement(c.outcome, *_invert(c), cmp=c, tol_pct=tol_pct)
        return Judgement(c.outcome, c.ratio, c.lo, c.hi, c, tol_pct)
    ratio = sb.value / sa.value if sa.value else None
    why = "no samples in %s" % " and ".join(
        side for side, st in (("A", sa), ("B", sb)) if st.times is None)
    zero = [side for side, st in (("A", sa), ("B", sb)) if st.value == 0]
    word = ("zero in %s" % " and ".join(zero) if zero
            else spread_verdict(sa, sb, higher_is_better))  # a zero is no sample count
    return Judgement(word, ratio, tol_pct=tol_pct, why=why)


def verdict(sa: Stat, sb: Stat, higher_is_better: bool, tol_pct: float = TOL_PCT) -> str:
    """The verdict word of judge()."""
    return judge(sa, sb, higher_is_better, tol_pct).word


def flags_text(sa, sb):
    """'noisy(A) steal(A,B)': each flag with the sides that carry it."""
    words = []
    for f in list(sa.flags) + [f for f in sb.flags if f not in sa.flags]:
        sides = [n for n, st in (("A", sa), ("B", sb)) if f in st.flags]
        words.append("%s(%s)" % (f, ",".join(sides)))
    return " ".join(words)


def times_of(recs: Sequence[dict], member: str = "samples_ns"):
    """Every sample of recs' `member` lists in order (at most decide.MAX_N;
    [] when the lists are empty), or None when one of recs lacks the list
    or holds something other than numbers of at least 0 (a 0 ns sample is
    kept: decide.compare leaves it out as impossible and counts it)."""
    out = []
    for r in recs:
        v = r.get(member)
        if not isinstance(v, list) or not all(num(x) is not None and x >= 0 for x in v):
            return None
        out += v
    return out[:decide.MAX_N] if recs else None
