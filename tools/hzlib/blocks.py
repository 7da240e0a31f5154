"""Block-paired ratios: two sides measured in alternating blocks.

`make bench` runs hugezero and linux-bench in alternating blocks (hugezero,
linux-bench, hugezero, linux-bench, ...), so the host's drift between the
sides is shared within a block and shows up between blocks. Each block i
gives one ratio r_i (the block's Hodges-Lehmann ratio of the two sides'
samples, tools/hzlib/decide.py compare()); the ratio of the run is the
median of the r_i and its interval the sign-test interval of that median:
[r_(j), r_(n+1-j)] of the sorted block ratios, which covers the median
block ratio with probability 1 - 2 P(Bin(n, 1/2) < j) whatever the
distribution of the r_i, as long as the blocks are independent. j is the
largest rank whose coverage is still at least COVER_X1E4; when even the
min..max (j = 1) falls short of it, the min..max is given with the coverage
it really has (3 blocks: 75 %, 4: 87.5 %, 5: 93.75 %, 6: 96.9 %).

The outcome is decide.outcome_of's at the tolerance of lib/compare.h (the
interval against [1/(1+X), 1+X]), and "too few samples" (decide.TOO_FEW)
below MIN_BLOCKS, whose min..max covers less than 90 %. Drift within one
block (one side runs after the other) stays in that block's ratio; drift
between blocks is inside the interval. docs/tools.md "make bench".
"""

from dataclasses import dataclass
from math import comb
from typing import List, Sequence, Tuple

from . import decide

COVER_X1E4 = 9500  # wanted coverage of the interval, x 10^4
MIN_BLOCKS = 5  # fewest block ratios an outcome is given from (min..max: 93.75 %)


def order(blocks: int) -> List[Tuple[str, int]]:
    """The run order of `blocks` block pairs: (side, block index), hugezero
    first in every block, so the sides alternate."""
    return [(side, i) for i in range(blocks) for side in ("hugezero", "linux")]


def coverage_x1e4(n: int, j: int) -> int:
    """Coverage x 10^4 (rounded down) of [r_(j), r_(n+1-j)] (1-based order
    statistics of n independent ratios) for their median: 1 - 2 P(Bin(n,
    1/2) < j). 0 when the rank is out of range (j < 1 or 2j > n + 1)."""
    if j < 1 or 2 * j > n + 1:
        return 0
    tail = sum(comb(n, i) for i in range(j))
    return (10000 * ((1 << n) - 2 * tail)) >> n


def rank(n: int) -> int:
    """The rank j of the interval for n block ratios: the largest j whose
    coverage is at least COVER_X1E4, else 1 (min..max); 0 when n is 0."""
    best = 1 if n else 0
    for j in range(1, (n + 1) // 2 + 1):
        if coverage_x1e4(n, j) >= COVER_X1E4:
            best = j
    return best


@dataclass(frozen=True)
class Paired:
    """The median of n block ratios (x 10^6, B/A of time per byte) with its
    sign-test interval, the interval's coverage and the outcome."""
    ratio_x1e6: int
    lo_x1e6: int
    hi_x1e6: int
    n: int
    j: int
    cover_x1e4: int
    outcome: str


def paired(ratios_x1e6: Sequence[int], tol_x100: int = decide.TOL_X100) -> Paired:
    """The paired statistic of block ratios (each x 10^6, as
    decide.compare's ratio_x1e6); no ratios gives a TOO_FEW result of 0s.
    The median of an even count is the lower middle plus half the gap,
    rounded down, as decide.compare's."""
    r = sorted(int(x) for x in ratios_x1e6)
    n = len(r)
    if not n:
        return Paired(0, 0, 0, 0, 0, 0, decide.TOO_FEW)
    lo_mid, hi_mid = r[(n - 1) // 2], r[n // 2]
    mid = lo_mid + (hi_mid - lo_mid) // 2
    j = rank(n)
    lo, hi = r[j - 1], r[n - j]
    out = decide.TOO_FEW if n < MIN_BLOCKS else decide.outcome_of(lo, hi, tol_x100)
    return Paired(mid, lo, hi, n, j, coverage_x1e4(n, j), out)


def block_ratio(base: Sequence[float], base_bytes: int, ours: Sequence[float],
                our_bytes: int) -> int:
    """One block's ratio x 10^6, ours / base of time per byte: the
    Hodges-Lehmann ratio of decide.compare (no outcome: a block has too few
    samples for one). 0 when a side has no samples."""
    if not base or not ours:
        return 0
    return decide.compare(base, base_bytes, ours, our_bytes).ratio_x1e6
