"""The `interference` records (docs/results.md) as the few lines `make bench`
prints: per zeroer and rate, the zeroer's achieved GB/s and the slowdown of
every victim, and which strategy cost the victims least unthrottled and at
1 % (the `spin` control, a busy sibling CPU without stores, is shown, not
ranked: strategies are read against it). The mean slowdown over the
victims is a ranking aid, not a measurement (victims differ in how much a
zeroer can hurt them); the records keep each figure with its interval.
"""

from typing import Any, Dict, List, Sequence, Tuple

from .schema import Record

RATES = (100, 25, 10, 1)


def _cells(recs: Sequence[Record]) -> Dict[Tuple[Any, Any], List[Record]]:
    cells: Dict[Tuple[Any, Any], List[Record]] = {}
    for r in recs:
        if r.get("t") == "interference" and r.get("zeroer") not in (None, "none"):
            cells.setdefault((r["zeroer"], r.get("rate_pct")), []).append(r)
    return cells


def summary(recs: Sequence[Record]) -> List[str]:
    """Lines for the bench summary: the table, or without cells only the
    scenario's skip reasons; [] when it left no record at all."""
    cells = _cells(recs)
    skips = [r for r in recs if r.get("t") == "skip" and str(r.get("name", "")).startswith(
        "interference")]
    if not cells:  # e.g. one CPU: only the skip says why
        return ["  skip %s: %s" % (r.get("name"), r.get("reason")) for r in skips]
    lines = ["interference (victim slowdown % vs alone, median; '~' noisy; zeroer GB/s all "
             "zeroer CPUs):"]
    victims = [r["victim"] for r in next(iter(cells.values()))]
    lines.append("  %-13s %4s %8s  %s" % ("zeroer", "rate", "GB/s",
                                          " ".join("%15s" % v for v in victims)))
    mean = {}
    for (zeroer, rate), rs in sorted(cells.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        by = {r["victim"]: r for r in rs}
        slows = [by[v]["slowdown_pct"] for v in victims if v in by]
        mean[(zeroer, rate)] = sum(slows) / len(slows)
        lines.append("  %-13s %3d%% %8.3f  %s" % (
            zeroer, rate, rs[0].get("zeroer_gbps", 0),
            " ".join("%14.1f%s" % (by[v]["slowdown_pct"], "~" if by[v].get("noisy") else " ")
                     if v in by else "%15s" % "-" for v in victims)))
    for rate in (100, 1):
        at = {z: m for (z, r), m in mean.items() if r == rate and z != "spin"}
        if at:
            best = min(at, key=lambda z: at[z])
            lines.append("  least mean slowdown at %d%%: %s (%.1f %%; worst %s %.1f %%)"
                         % (rate, best, at[best], max(at, key=lambda z: at[z]), max(at.values())))
    lines += ["  skip %s: %s" % (r.get("name"), r.get("reason")) for r in skips]
    return lines
