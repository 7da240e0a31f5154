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
before an undecided one, then the later boot. Nothing is recomputed: the
lines are the kernel's renderer's (verdict_text.py), the block the console
prints, with the boot each item came from after it, and one trust line
for every boot that supplied an item (verdict_merge.py).
"""

import textwrap
from typing import Dict, List, Sequence, Tuple

from . import verdict_merge, verdict_text

Record = Dict[str, object]
Boot = Tuple[str, Sequence[Record]]  # (its name, e.g. "faultclear"; its records)


def pick(boots: Sequence[Boot]) -> Dict[str, Tuple[str, Record]]:
    """{item: (boot name, verdict record)}: for each item the record that
    answers it (see the module text); an item no boot measured keeps the
    last boot's "not measured" record. The trust item (the record with the
    run's facts, verdict_text.run_facts) is left out: each boot has its own
    (lines())."""
    best: Dict[str, Tuple[Tuple[int, int, int, int, int], str, Record]] = {}
    for order, (name, recs) in enumerate(boots):
        for r in recs:
            if r.get("t") != "verdict" or verdict_text.run_facts(r):
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
    """The merged verdict in the console's item lines (verdict_text): its
    header, each item's lines in record order, the trust line of every
    boot that supplied an item (verdict_merge: what can't be trusted in
    any of them), and which boot each item came from."""
    items = pick(boots)
    if not items:
        return ["verdict: no verdict records in any boot"]
    shown = {name for name, _ in items.values()}
    trust = [(name, r) for name, recs in boots if name in shown
             for r in recs if r.get("t") == "verdict" and verdict_text.run_facts(r)]
    head = dict(trust)  # each boot's header facts: its trust record's, else an item's
    for name, r in items.values():
        head.setdefault(name, r)
    heads = [(name, head[name]) for name, _ in boots if name in head]
    out = [verdict_merge.header(heads, marked=False).replace(
        "== verdict (", "== verdict of make bench (", 1)]
    for name, r in items.values():
        out += verdict_text.item_lines(r)
    out += verdict_merge.trust_lines(trust)
    came = ", ".join("%s %s" % (verdict_text.label(r), name) for name, r in items.values())
    return out + _wrap("  from: " + came)


def _wrap(text: str) -> List[str]:
    return textwrap.wrap(text, verdict_text.WIDTH, subsequent_indent="        ")
