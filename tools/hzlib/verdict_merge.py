"""A verdict merged across boots (make bench, make answers' two boots under
TCG, hz report of a result set with several runs): its header and its
trust line speak for EVERY boot that supplied a shown item, never the last
one alone.

Each boot's kernel prints its own trust item (verdict_text.run_facts: the
hypervisor or TCG, the TSC, ring 0, the guest RAM's backing, steal, cells
left out, SMIs and TSC gaps; docs/results.md `verdict`). Over several:
  - a fact the boots agree on is said once, as one boot's line says it;
    one they differ on gives each value with the boots it held in:
    "RAM 4k [boot 0], hugetlbfs-2M [boot 1]", "TCG [boot 0], KVM [boot 1]";
  - steal, where the boots differ: each unknown one with its boots, and the
    highest known share with its boot: "steal up to 3.10% [boot 0]";
  - counts are summed (cells out "1/8", SMIs and their cells, cells with
    TSC gaps); the longest gap is the longest of any boot, its cell marked
    with its boot;
  - the header names every boot's run= value (marked with its boot where
    asked) and the tolerance once, or each one where the boots differ.
With one boot, or the same record twice (it counts once), the lines are
that boot's to the byte. A line no alternative of the row fits in
WIDTH takes the fullest alternative, wrapped after a comma (a shorter one
would leave a fact out). The words are MERGED's (verdict_templates.py).
"""

import re
from typing import Dict, List, Optional, Sequence, Tuple

from . import verdict_text
from .verdict_templates import MERGED

Record = Dict[str, object]
Boot = Tuple[str, Record]  # (the boot's name in "[boot NAME]", one of its verdict records)

FACTS = ("hv", "tsc", "ring0", "backing")  # the trust row's placeholders said per boot
SUMS = ("left_out_cells", "cells_seen")  # summed over boots; none when a boot lacks one
LOST = ("smi", "smi_cells", "gap_cells")  # summed over boots, 0 where a record predates them


def mark(value: str, names: Sequence[str]) -> str:
    """value with the boots it held in: "4k [boot 0, 2]" (MERGED "boot")."""
    words = {"value": value, "boots": MERGED["list"].join(names)}
    return verdict_text.expand(MERGED["boot"], words.get) or value


def _marked(texts: Sequence[Tuple[str, Optional[str]]]) -> str:
    """Each distinct text of [(boot, text)] with its boots, in boot order."""
    by: Dict[str, List[str]] = {}
    for name, text in texts:
        by.setdefault("?" if text is None else text, []).append(name)
    return MERGED["list"].join(mark(t, names) for t, names in by.items())


def each(texts: Sequence[Tuple[str, Optional[str]]]) -> Optional[str]:
    """One fact over [(boot, its text)]: the text when every boot's is the
    same (None: no boot has it), else each value marked with its boots."""
    if len({t for _, t in texts}) == 1:
        return texts[0][1]
    return _marked(texts)


def _distinct(boots: Sequence[Boot]) -> List[Boot]:
    """boots less a record given again (the same boot twice counts once)."""
    out: List[Boot] = []
    for name, r in boots:
        if all(r != seen for _, seen in out):
            out.append((name, r))
    return out


def _steal(boots: Sequence[Boot]) -> Optional[str]:
    """The steal placeholder: each() when the boots agree or at most one
    measured it; else the unknown ones marked, and the highest share
    (MERGED "most") marked with the boots that had it."""
    texts = [(name, verdict_text.field(r, "steal")) for name, r in boots]
    known = [(name, verdict_text.x1000(r.get("steal_pct"))) for name, r in boots]
    shares = [v for _, v in known if v is not None]
    if len({t for _, t in texts}) == 1 or len(shares) <= 1:
        return each(texts)
    top = max(shares)
    most = next(r for (_, v), (_, r) in zip(known, boots) if v == top)
    words = {"value": verdict_text.field(most, "steal")}
    worst = mark(verdict_text.expand(MERGED["most"], words.get) or "?",
                 [name for name, v in known if v == top])
    unknown = [(name, t) for (name, t), (_, v) in zip(texts, known) if v is None]
    return MERGED["list"].join(([_marked(unknown)] if unknown else []) + [worst])


def _counts(boots: Sequence[Boot]) -> Record:
    """The last boot's record with SUMS and LOST summed over every boot and
    the longest TSC gap of any, its cell marked with its boot."""
    def count(r: Record, key: str) -> Optional[int]:
        v = r.get(key, None if key in SUMS else 0)
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    out = dict(boots[-1][1])
    for key in SUMS + LOST:
        vals = [count(r, key) for _, r in boots]
        out[key] = None if None in vals else sum(v for v in vals if v is not None)
    gaps = [(count(r, "gap_max_ns") or 0, name, r) for name, r in boots if count(r, "gap_cells")]
    if gaps:
        ns, name, r = max(gaps, key=lambda g: g[0])
        out["gap_max_ns"], out["gap_max_cell"] = ns, mark(str(r.get("gap_max_cell") or ""), [name])
    return out


def trust_lines(boots: Sequence[Boot], width: int = verdict_text.WIDTH) -> List[str]:
    """The trust item's console lines over boots [(name, its trust record)]
    (see the module text), wrapped to `width` columns when none of its
    row's alternatives fits; [] without one. Records from before issue 29
    (no `label`) give each boot's own lines, the first marked."""
    boots = _distinct(boots)
    if len(boots) <= 1:
        return verdict_text.item_lines(boots[0][1]) if boots else []
    if any("label" not in r for _, r in boots):
        return [mark(line, [name]) if i == 0 else line for name, r in boots
                for i, line in enumerate(verdict_text.item_lines(r))]
    merged = _counts(boots)
    facts = {key: each([(name, verdict_text.field(r, key)) for name, r in boots])
             for key in FACTS}
    facts["steal"] = _steal(boots)

    def get(key: str) -> Optional[str]:
        return facts[key] if key in facts else verdict_text.field(merged, key)
    lines = verdict_text.item_lines(merged, get)
    if all(len(x) <= width for x in lines):
        return lines
    # no alternative fits: the fullest one (a shorter one leaves a fact
    # out), its lines wrapped after a comma outside the boots' brackets
    key = verdict_text.template_key(merged)
    full = str(verdict_text.template(merged, key)).split("|")[0]
    pad = verdict_text.INDENT + " " * (verdict_text.LABEL + 1)
    out: List[str] = []
    for line in verdict_text.item_lines(dict(merged, templates={key: full}), get):
        head, *rest = re.split(r"(?<=,) (?![^\[]*\])", line[len(pad):])
        out.append(line[:len(pad)] + head)
        for part in rest:
            if len(out[-1] + " " + part) <= width:
                out[-1] += " " + part
            else:
                out.append(pad + part)
    return out


def header(boots: Sequence[Boot], marked: bool) -> str:
    """The merged block's first line from one verdict record of each boot
    that supplied an item, in boot order: one boot's header when there is
    one; else every boot's run= value (MERGED "runs"), each marked with its
    boot when `marked` (hz report's runs are numbers; make bench names its
    boots by scenario already), and the tolerance once, or each() marked."""
    firsts: Dict[str, Record] = {}
    for name, r in _distinct(boots):
        firsts.setdefault(name, r)
    if len(firsts) == 1:
        return verdict_text.header(next(iter(firsts.values())))
    runs = MERGED["runs"].join(mark(verdict_text.run_text(r), [name]) if marked
                               else verdict_text.run_text(r) for name, r in firsts.items())
    tol = each([(name, verdict_text.tolerance(r)) for name, r in firsts.items()])
    return verdict_text.header(boots[-1][1], runs, tol)
