"""The strategy x call size grid of one result set: the table under the
verdict in hz report --text (report_short.py) and on report.html.

Its cells are the single-thread clear records of the largest target, in the
cold cache state when one was measured (else the first by name). Per cell:
its median GB/s [95 % interval], and x clear_page: its speed over
rep_stosb in 4 KiB calls (Linux's clear_page) in the same cache state, the
Hodges-Lehmann ratio [Moses interval] of hz compare's rule
(compare_stat.judge), marked "~" for a tie at the tolerance and "?" when
undecided (too few samples included); three significant digits
(phrase.sig3). Strategies are ordered by their best GB/s, fastest first.

Under QEMU TCG (results.tcg) the timings are the emulator's: no cell has an
outcome; every GB/s carries TCG_MARK and every ratio "?" (undecided).
"""

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .. import compare_rows, compare_stat, phrase, results
from ..compare_stat import num

BASELINE = ("rep_stosb", 4096)  # Linux's clear_page: REP STOSB, one 4 KiB page per call
_MARK = {"faster": "", "slower": "", "tie": "~"}
TCG_MARK = "*"  # after a GB/s figure measured under TCG
TCG_SAYS = "TCG: emulator timings, no outcome"


@dataclass
class Grid:
    """cache, target bytes, call sizes (ascending), and per strategy
    (fastest first) its GB/s and x clear_page texts per call size ("" where
    not measured); has_base: a rep_stosb/4K cell to compare with; tcg: a
    TCG run (module comment)."""
    cache: str
    target: int
    chunks: List[int]
    rows: List[Tuple[str, List[str], List[str]]]
    has_base: bool
    tcg: bool = False


def _speed(r) -> float:
    return num(r.get("gbps_median")) or num(r.get("gbps")) or 0.0


def gbps_text(r) -> str:
    """'78.4 [77.2..78.5]', '78.4' without an interval."""
    g, lo, hi = (num(r.get(k)) for k in ("gbps_median", "gbps_lo", "gbps_hi"))
    g = g if g is not None else num(r.get("gbps"))
    if g is None:
        return "-"
    if None in (lo, hi):
        return phrase.sig3(g)
    return "%s [%s..%s]" % (phrase.sig3(g), phrase.sig3(lo), phrase.sig3(hi))


def ratio_text(base, r, tol_pct, tcg=False) -> str:
    """r's speed over base's: '2.62x [2.50..2.71]' with its mark (always
    "?" with tcg: no outcome), 'clear_page' for the baseline itself, '-'
    without a ratio."""
    if r is base:
        return "clear_page"
    sa, sb = compare_rows.clear_stat([base]), compare_rows.clear_stat([r])
    if not sa or not sb:
        return "-"
    j = compare_stat.judge(sa, sb, True, tol_pct)
    if j.ratio is None:
        return "-"
    return phrase.ratio_text(j.ratio, j.lo, j.hi) + ("?" if tcg else _MARK.get(j.word, "?"))


def cells(rs) -> Optional[tuple]:
    """(cache, target, {strategy: {chunk: record}}) of the grid, or None
    without single-thread clear cells."""
    recs = [r for r in rs.of_type("clear") if r.get("threads", 1) == 1
            and r.get("cache") != "first_touch" and num(r.get("bytes")) and num(r.get("chunk"))]
    if not recs:
        return None
    target = max(r["bytes"] for r in recs)
    caches = sorted({str(r.get("cache")) for r in recs if r["bytes"] == target})
    cache = "cold" if "cold" in caches else caches[0]
    out: Dict[str, Dict[int, dict]] = {}
    for r in recs:
        if r["bytes"] == target and str(r.get("cache")) == cache:
            out.setdefault(str(r.get("strategy")), {})[r["chunk"]] = r
    return cache, target, out


def ci_label(rs) -> str:
    """The label of the grid cells' intervals (compare_stat.table_ci_label
    of their repeats: "95% interval" from 6 on)."""
    c = cells(rs)
    return compare_stat.table_ci_label([r for row in c[2].values() for r in row.values()]
                                       if c else [])


def grid(rs, tol_pct=compare_stat.TOL_PCT) -> Optional[Grid]:
    """The Grid of rs (module comment), or None."""
    c = cells(rs)
    if c is None:
        return None
    cache, target, by = c
    chunks = sorted({k for row in by.values() for k in row})
    base = by.get(BASELINE[0], {}).get(BASELINE[1])
    order = sorted(by, key=lambda s: -max(_speed(r) for r in by[s].values()))
    tcg = results.tcg(rs)
    mark = TCG_MARK if tcg else ""
    rows = [(s, [gbps_text(by[s][k]) + mark if k in by[s] else "" for k in chunks],
             [ratio_text(base, by[s][k], tol_pct, tcg) if k in by[s] and base else ""
              for k in chunks])
            for s in order]
    return Grid(cache, target, chunks, rows, base is not None, tcg)
