"""The comparison rule of lib/compare.h in Python, integer for integer.

B/A of time per byte, from one of two statistics (docs/validation.md "How a
comparison is decided"):
the Hodges-Lehmann estimate (median of all pairwise ratios) with Moses'
interval (Mann-Whitney ranks). When A and B come from one interleaved run
and the run's round factors are known (round_factors(): each round's shared
factor, the median over the round's cells of each sample / its cell's
median), every sample is first divided by its round's factor: drift and
host-wide phases are removed, a cell's own noise is not doubled (the
randomized complete block design; rule ROUNDS, else TWO_SAMPLE with why).
Serial dependence (the lag-1 autocorrelation of ranks in round order above
its one-sided 5 % null band, z = 1.645 / sqrt(n)) inflates the rank
statistic's variance by f = (1 + r1) / (1 - r1) (r1 at most 0.9) on the
side that shows it, so the interval widens to its effective n.
Impossible samples (0 ns, or faster than MAX_BYTES_PER_NS per CPU) are
left out and counted. The outcome at a tolerance X: faster (hi < 1/(1+X)),
slower (lo > 1+X), tie (inside [1/(1+X), 1+X]), undecided, or too few
samples (< MIN_N good samples a side, or pairs). Fixed point x 10^6 and the
same integer steps as the C, checked on tests/vectors/compare.txt by
tests/tools/test_decide.py and tests/unit/test_compare.c.
"""

import math
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

MIN_N = 6
TOL_X100 = 500
Z_X1000 = 2361
Z_DEP_X1000 = 1645   # one-sided 5 %: the null band of r1 and of the rank correlation
R1_MAX_X1000 = 900   # the largest lag-1 autocorrelation used for f (f <= 19)
MAX_BYTES_PER_NS = 1000  # 1 TB/s per CPU: no clear is faster (docs/validation.md)
BURST_MIN = 3        # the shortest run of slow samples named a burst
ONE = 1000000
MAX_N = 128
U64 = (1 << 64) - 1
FASTER, SLOWER, TIE, UNDECIDED, TOO_FEW = "faster", "slower", "tie", "undecided", "too few samples"
FACTOR_MIN_CELLS = 4  # fewest cells in a round whose median is its shared factor
# the statistic (Cmp.rule) and why it was chosen (Cmp.why): lib/compare.h
# cmp_rule_name() and cmp_why_name(), same words
ROUNDS, TWO_SAMPLE, PAIRED = "rounds removed", "two-sample", "paired"
SAME_RUN, APART, NO_FACTORS = "same run", "different runs", "no round factors"

# lib/compare.c z_bonferroni[]: Phi^-1(1 - 0.0091129 / r) x 1000 rounded up
# (r >= 2); r = 1 is Z_X1000, Pocock's constant for 4 looks.
Z_BONFERRONI = (2361, 2608, 2744, 2837, 2908, 2964, 3012, 3052, 3087, 3118, 3146, 3172, 3195,
                3216, 3236, 3254, 3271, 3288, 3303, 3317, 3331, 3344, 3356, 3368, 3379, 3390,
                3400, 3410, 3420, 3429, 3438, 3446)


@dataclass(frozen=True)
class Cmp:
    """One comparison: B/A ratio x 10^6, its interval, the outcome, the
    statistic used and why, each side's lag-1 rank autocorrelation (x 1000)
    and variance factor (x 1000, 1000: independent) and the samples left
    out as impossible."""
    ratio_x1e6: int
    lo_x1e6: int
    hi_x1e6: int
    na: int
    nb: int
    k: int
    z_x1000: int
    tol_x100: int
    outcome: str
    rule: str = TWO_SAMPLE
    why: str = APART
    r1_x1000: Tuple[int, int] = (0, 0)
    f_x1000: Tuple[int, int] = (1000, 1000)
    bad: Tuple[int, int] = (0, 0)

    @property
    def ratio(self) -> float:
        return self.ratio_x1e6 / ONE

    @property
    def lo(self) -> float:
        return self.lo_x1e6 / ONE

    @property
    def hi(self) -> float:
        return self.hi_x1e6 / ONE

    @property
    def dependent(self) -> bool:
        return self.f_x1000 != (1000, 1000)

    def text(self) -> str:
        """'slower 1.234x [1.100..1.400] (n=10/10)' for tables."""
        return "%s %.3fx [%.3f..%.3f] (n=%d/%d)" % (self.outcome, self.ratio, self.lo, self.hi,
                                                    self.na, self.nb)


def z_bonferroni_x1000(rivals: int) -> int:
    return Z_BONFERRONI[min(max(rivals, 1), 32) - 1]


def scale(x: int, mul: int, div: int) -> int:
    """x * mul / div rounded to nearest, halves up (lib/stats.h stats_scale)."""
    if not div:
        return 0
    q, r = divmod(x * mul, div)
    if r >= div - r:
        q += 1
    return min(q, U64)


def ratio_x1e6(a: int, abytes: int, b: int, bbytes: int) -> int:
    """(b / bbytes) / (a / abytes) x 10^6, rounded to nearest (lib/compare.h
    cmp_ratio_x1e6): exact while both products fit 107 bits, else both are
    shifted right alike; UINT64_MAX past 2^64."""
    num, den = b * (abytes or 1), a * (bbytes or 1)
    s = max(num.bit_length(), den.bit_length()) - 107
    if s > 0:
        num, den = num >> s, den >> s
    return scale(num, ONE, den) if den else U64


def moses_k(na: int, nb: int, z_x1000: int = Z_X1000, fa: int = 1000, fb: int = 1000) -> int:
    """Moses rank for na x nb pairs; fa, fb (x 1000) inflate each side's
    share of Var(U) = na nb (nb fa + na fb + 1) / 12."""
    pairs = na * nb
    if not pairs:
        return 1
    zsd = math.isqrt(z_x1000 * z_x1000 * pairs * (nb * fa + na * fb + 1000) // 12000)
    half = pairs * 500
    return max((half - zsd) // 1000 if half > zsd else 0, 1)


def signed_rank_k(n: int, z_x1000: int = Z_X1000, f: int = 1000) -> int:
    """Wilcoxon signed-rank rank of n(n+1)/2 Walsh averages, Var(W) = f n
    (n + 1) (2n + 1) / 24 (Hollander, Wolfe & Chicken §3.2)."""
    if not n:
        return 1
    zsd = math.isqrt(z_x1000 * z_x1000 * f * n * (n + 1) * (2 * n + 1) // 24000)
    half = n * (n + 1) // 2 * 500
    return max((half - zsd) // 1000 if half > zsd else 0, 1)


def outcome_of(lo: int, hi: int, tol_x100: int = TOL_X100) -> str:
    up, one = ONE * (10000 + tol_x100), ONE * 10000
    if hi * (10000 + tol_x100) < one:
        return FASTER
    if lo * 10000 > up:
        return SLOWER
    if lo * (10000 + tol_x100) >= one and hi * 10000 <= up:
        return TIE
    return UNDECIDED


def centred_ranks(v: Sequence[int]) -> List[int]:
    """2 x midrank - (n + 1) of each value (ties share their midrank)."""
    order = sorted(range(len(v)), key=lambda i: v[i])
    c = [0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for t in range(i, j + 1):
            c[order[t]] = (i + 1) + (j + 1) - (len(v) + 1)
        i = j + 1
    return c


def lag1(v: Sequence[int]) -> Tuple[int, int]:
    """(r1 x 1000 rounded toward zero, f x 1000): the lag-1 autocorrelation
    of v's ranks in order, and the variance factor (1 + r1) / (1 - r1),
    r1 at most R1_MAX, when r1 sqrt(n) > 1.645 (else 1000)."""
    c = centred_ranks(v)
    s = sum(x * x for x in c)
    if not s:
        return 0, 1000
    cc = sum(c[i] * c[i + 1] for i in range(len(c) - 1))
    r1 = abs(cc) * 1000 // s * (1 if cc >= 0 else -1)
    if cc <= 0 or cc * cc * len(c) * 1000000 <= Z_DEP_X1000 * Z_DEP_X1000 * s * s:
        return r1, 1000
    cc = min(cc, s * R1_MAX_X1000 // 1000)
    return r1, 1000 * (s + cc) // (s - cc)


def bad_sample(ns: int, nbytes: int, cpus: int) -> bool:
    """0 ns, or (cpus known) faster than MAX_BYTES_PER_NS per CPU."""
    return ns == 0 or (cpus > 0 and nbytes > ns * MAX_BYTES_PER_NS * cpus)


def _mid(r: List[int]) -> int:
    n = len(r)
    return r[n // 2] if n % 2 else r[n // 2 - 1] + (r[n // 2] - r[n // 2 - 1]) // 2


def round_factors(cells: Sequence[Sequence[int]]) -> List[int]:
    """Each round's shared factor x 10^6 (lib/interleave.h
    ilv_round_factors): cells[c][i] is cell c's time in round i + 1 (cells
    that stopped early are shorter; 0 ns counts as missing). For every cell
    its median m (lower middle); a round's factor is the median (mean of
    the two middles, rounded down, for an even count) of x 10^6 / m over
    the round's cells, or 10^6 when fewer than FACTOR_MIN_CELLS cells ran
    it."""
    srt = [sorted(x for x in c if x) for c in cells]
    meds = [m[(len(m) - 1) // 2] if m else 0 for m in srt]
    out = []
    for r in range(max((len(c) for c in cells), default=0)):
        e = sorted(scale(c[r], ONE, m) for c, m in zip(cells, meds) if r < len(c) and c[r] and m)
        out.append(_mid(e) if len(e) >= FACTOR_MIN_CELLS else ONE)
    return out


def compare(a: Sequence[float], abytes: int, b: Sequence[float], bbytes: int,
            z_x1000: int = Z_X1000, tol_x100: int = TOL_X100,
            factors: Optional[Sequence[int]] = None, cpus_a: int = 0, cpus_b: int = 0,
            why: str = APART) -> Cmp:
    """B against A; samples are integer ns (floats are rounded), sample i
    from round i + 1 of its run. factors: the run's round factors (x 10^6,
    round_factors()) when A and B come from one interleaved run: each sample
    is divided by its round's factor first (rule ROUNDS, why SAME_RUN);
    None: TWO_SAMPLE, for the reason `why` (APART, NO_FACTORS). cpus_x: the
    CPUs that cleared the bytes (0: unknown, only 0 ns is impossible)."""
    ia = [int(round(x)) for x in list(a)[:MAX_N]]
    ib = [int(round(x)) for x in list(b)[:MAX_N]]
    pa = [(i, x) for i, x in enumerate(ia) if not bad_sample(x, abytes, cpus_a)]
    pb = [(i, x) for i, x in enumerate(ib) if not bad_sample(x, bbytes, cpus_b)]
    bad = (len(ia) - len(pa), len(ib) - len(pb))
    rule = TWO_SAMPLE if factors is None else ROUNDS
    why = why if factors is None else SAME_RUN
    f = list(factors or [])

    def adj(v: List[Tuple[int, int]]) -> List[int]:
        return [scale(x, ONE, f[i]) if i < len(f) and f[i] else x for i, x in v]
    ga, gb = adj(pa), adj(pb)
    na, nb = len(ga), len(gb)
    (r1a, fa), (r1b, fb) = lag1(ga), lag1(gb)
    k = moses_k(na, nb, z_x1000, fa, fb)
    if not na or not nb:
        return Cmp(0, 0, 0, na, nb, k, z_x1000, tol_x100, TOO_FEW, rule, why, (r1a, r1b),
                   (fa, fb), bad)
    r = sorted(ratio_x1e6(x, abytes, y, bbytes) for x in ga for y in gb)
    lo, hi = r[k - 1], r[len(r) - k]
    out = TOO_FEW if na < MIN_N or nb < MIN_N else outcome_of(lo, hi, tol_x100)
    return Cmp(_mid(r), lo, hi, na, nb, k, z_x1000, tol_x100, out, rule, why, (r1a, r1b),
               (fa, fb), bad)


def one_sample(d: Sequence[int], z_x1000: int = Z_X1000, tol_x100: int = TOL_X100) -> Cmp:
    """The paired interval of ratios d (x 10^6, in time order, e.g. the
    block ratios of tools/bench.py): the Hodges-Lehmann estimate (median of
    the n(n+1)/2 Walsh averages, geometric on ratios: isqrt(d_i d_j)) with
    the Wilcoxon signed-rank interval, widened by d's own lag-1 dependence
    as compare() widens a side. na = nb = n; too few below MIN_N."""
    d = [int(x) for x in d]
    n = len(d)
    r1, f = lag1(d)
    k = signed_rank_k(n, z_x1000, f)
    if not n:
        return Cmp(0, 0, 0, 0, 0, k, z_x1000, tol_x100, TOO_FEW, PAIRED, APART)
    w = sorted(math.isqrt(d[i] * d[j]) for i in range(n) for j in range(i, n))
    lo, hi = w[k - 1], w[len(w) - k]
    out = TOO_FEW if n < MIN_N else outcome_of(lo, hi, tol_x100)
    return Cmp(_mid(w), lo, hi, n, n, k, z_x1000, tol_x100, out, PAIRED, APART, (r1, r1),
               (f, f))


def burst(samples: Sequence[int], tol_x100: int = TOL_X100) -> Optional[Tuple[int, int, int]]:
    """The longest run of consecutive samples above q1 x (1 + X) (q1 the
    lower quartile v[(n-1)//4] of the sorted samples: a burst may cover
    more than half of them and move the median), the first of equal runs,
    as (start index, length, x1000 = the run's median / q1, rounded to
    nearest), when it is BURST_MIN long or more; else None (lib/stats.h
    stats_burst)."""
    v = [int(x) for x in samples]
    if not v:
        return None
    med = sorted(v)[(len(v) - 1) // 4]
    best, start, run = (0, 0), 0, 0
    for i, x in enumerate(v):
        if x * 10000 > med * (10000 + tol_x100):
            start, run = (i, 1) if not run else (start, run + 1)
            if run > best[1]:
                best = (start, run)
        else:
            run = 0
    if best[1] < BURST_MIN:
        return None
    seg = sorted(v[best[0]:best[0] + best[1]])
    return best[0], best[1], scale(seg[(len(seg) - 1) // 2], 1000, med)


def tukey(samples: Sequence[int]) -> dict:
    """Tukey outlier counts as lib/stats.c counts them (q1 = v[j], q3 =
    v[n-1-j], j = (n-1)//4; mild beyond 1.5 IQR, severe beyond 3 IQR)."""
    v = sorted(samples)
    out = {"lo_mild": 0, "lo_severe": 0, "hi_mild": 0, "hi_severe": 0}
    if not v:
        return out
    j = (len(v) - 1) // 4
    q1, q3 = v[j], v[len(v) - 1 - j]
    iqr = q3 - q1
    for x in v:
        if x > q3 and 2 * (x - q3) > 3 * iqr:
            out["hi_severe" if x - q3 > 3 * iqr else "hi_mild"] += 1
        elif x < q1 and 2 * (q1 - x) > 3 * iqr:
            out["lo_severe" if q1 - x > 3 * iqr else "lo_mild"] += 1
    return out
