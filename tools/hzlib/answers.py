"""The verdict of several boots as one (make bench): each item from the boot
that measured it.

`make bench` boots hugezero once per scenario (run=clear, run=fault,
run=faultclear, run=policies, run=vmstart, run=interference). Each boot's
kernel decides every verdict item from its own cells and says "not
measured: run=X measures it" for the others (docs/results.md `verdict`,
member `measured`). This module picks, for every item, the record of the
boot that measured it, so the thread's three answers (the fault and the
clear_pages() gain, VM start, the background zeroer) stand together. When
more than one boot measured an item: the record with more figures beside
its main one (`figures`: the run=faultclear boot's fault item carries the
clear_pages() gain), then the one from the scenario the item names first
(`measured_by`: the idle item's is run=interference, whose answer is the
neighbour cost; run=clear's only the CPU per GiB), then a decided one
before an undecided one, then the later boot. Nothing is recomputed:
every text is the kernel's.
"""

from typing import Dict, List, Sequence, Tuple

from . import report

Record = Dict[str, object]
Boot = Tuple[str, Sequence[Record]]  # (its name, e.g. "faultclear"; its records)


def pick(boots: Sequence[Boot]) -> Dict[str, Tuple[str, Record]]:
    """{item: (boot name, verdict record)}: for each item the record that
    answers it (see the module text); an item no boot measured keeps the
    last boot's "not measured" record. The trust item is left out: each
    boot has its own (pick_trust)."""
    best: Dict[str, Tuple[Tuple[int, int, int, int, int], str, Record]] = {}
    for order, (name, recs) in enumerate(boots):
        for r in recs:
            if r.get("t") != "verdict" or r.get("item") == "trust":
                continue
            figures, by, ran = r.get("figures"), r.get("measured_by"), r.get("scenarios")
            by = by if isinstance(by, list) else []
            ran = ran if isinstance(ran, list) else []
            primary = -min((by.index(s) for s in ran if s in by), default=len(by))
            rank = (1 if r.get("measured") is not False else 0,
                    len(figures) if isinstance(figures, list) else 0, primary,
                    1 if r.get("decided") is True else 0, order)
            item = str(r.get("item"))
            if item not in best or rank >= best[item][0]:
                best[item] = (rank, name, r)
    return {item: (name, r) for item, (_, name, r) in best.items()}


def lines(boots: Sequence[Boot]) -> List[str]:
    """The merged verdict as text lines: a title, then per item (in the
    contract's order) its label, the boot it came from and the kernel's
    text (or "not decided: " and its reason), and each boot's trust line."""
    items = pick(boots)
    if not items:
        return ["verdict: no verdict records in any boot"]
    labels = dict(report.ITEMS)
    out = ["verdict, each item from the boot that measured it:"]
    for item in report.item_order(items):
        name, r = items[item]
        out.append("  %-19s [%s] %s" % (labels.get(item, item) + ":", name, report.item_text(r)))
    for name, recs in boots:
        for r in recs:
            if r.get("t") == "verdict" and r.get("item") == "trust":
                out.append("  %-19s [%s] %s" % ("trust:", name, r.get("text")))
    return out
