"""The comparison rule of lib/compare.h, in Python, integer for integer.

B/A of time per byte: the Hodges-Lehmann estimate (median of all pairwise
ratios) with Moses' distribution-free interval (Mann-Whitney ranks,
large-sample rank k = floor(mn/2 - z sqrt(mn(m+n+1)/12)), at least 1), and
the outcome at a tolerance X: faster (hi < 1/(1+X)), slower (lo > 1+X), tie
(inside [1/(1+X), 1+X]), undecided, or too few samples (< MIN_N a side).
Fixed point x 10^6 and the same integer steps as the C, so both give the
same numbers on tests/vectors/compare.txt (tests/tools/test_decide.py,
tests/unit/test_compare.c). docs/validation.md explains the rule.
"""

import math
from dataclasses import dataclass
from typing import List, Sequence

MIN_N = 6
TOL_X100 = 500
Z_X1000 = 2361
ONE = 1000000
MAX_N = 128
GIB = 1 << 30
FASTER, SLOWER, TIE, UNDECIDED, TOO_FEW = "faster", "slower", "tie", "undecided", "too few samples"

# lib/compare.c z_bonferroni[]: Phi^-1(1 - 0.0091129 / r) x 1000 rounded up
# (r >= 2); r = 1 is Z_X1000, Pocock's constant for 4 looks.
Z_BONFERRONI = (2361, 2608, 2744, 2837, 2908, 2964, 3012, 3052, 3087, 3118, 3146, 3172, 3195,
                3216, 3236, 3254, 3271, 3288, 3303, 3317, 3331, 3344, 3356, 3368, 3379, 3390,
                3400, 3410, 3420, 3429, 3438, 3446)


@dataclass(frozen=True)
class Cmp:
    """One comparison: B/A ratio x 10^6, its interval, and the outcome."""
    ratio_x1e6: int
    lo_x1e6: int
    hi_x1e6: int
    na: int
    nb: int
    k: int
    z_x1000: int
    tol_x100: int
    outcome: str

    @property
    def ratio(self) -> float:
        return self.ratio_x1e6 / ONE

    @property
    def lo(self) -> float:
        return self.lo_x1e6 / ONE

    @property
    def hi(self) -> float:
        return self.hi_x1e6 / ONE

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
    return min(q, (1 << 64) - 1)


def moses_k(na: int, nb: int, z_x1000: int = Z_X1000) -> int:
    pairs = na * nb
    if not pairs:
        return 1
    zsd = math.isqrt(z_x1000 * z_x1000 * pairs * (na + nb + 1) // 12)
    half = pairs * 500
    k = (half - zsd) // 1000 if half > zsd else 0
    return max(k, 1)


def outcome_of(lo: int, hi: int, tol_x100: int = TOL_X100) -> str:
    up, one = ONE * (10000 + tol_x100), ONE * 10000
    if hi * (10000 + tol_x100) < one:
        return FASTER
    if lo * 10000 > up:
        return SLOWER
    if lo * (10000 + tol_x100) >= one and hi * 10000 <= up:
        return TIE
    return UNDECIDED


def compare(a: Sequence[float], abytes: int, b: Sequence[float], bbytes: int,
            z_x1000: int = Z_X1000, tol_x100: int = TOL_X100) -> Cmp:
    """B against A; samples are integer ns (floats are rounded)."""
    ns_a = [int(round(x)) for x in list(a)[:MAX_N]]
    ns_b = [int(round(x)) for x in list(b)[:MAX_N]]
    na, nb = len(ns_a), len(ns_b)
    k = moses_k(na, nb, z_x1000)
    if not na or not nb:
        return Cmp(0, 0, 0, na, nb, k, z_x1000, tol_x100, TOO_FEW)
    ga = [scale(x, GIB, abytes or 1) for x in ns_a]
    gb = [scale(x, GIB, bbytes or 1) for x in ns_b]
    r: List[int] = sorted(scale(y, ONE, x) if x else (1 << 64) - 1 for x in ga for y in gb)
    pairs = na * nb
    lo_mid, hi_mid = r[pairs // 2 - 1], r[pairs // 2]
    mid = hi_mid if pairs % 2 else lo_mid + (hi_mid - lo_mid) // 2
    lo, hi = r[k - 1], r[pairs - k]
    out = TOO_FEW if na < MIN_N or nb < MIN_N else outcome_of(lo, hi, tol_x100)
    return Cmp(mid, lo, hi, na, nb, k, z_x1000, tol_x100, out)


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
