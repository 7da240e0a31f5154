"""The verdict's item lines from `verdict` records: lib/verdict_text.c in
Python (issue 29).

A `verdict` record carries its item's decision as data (docs/results.md
`verdict`): the label, the answer, the headline figure with its interval,
the main comparison with its interval and n, a reason code with its
arguments, and a template family (`form`). One table of templates,
TEMPLATES (tools/hzlib/verdict_templates.py), keyed by (form, outcome or
reason code), turns a record into one line, and an open item's reason
into at most one continuation line (the fault item's clear_pages() gain,
the trust item's SMIs too). The kernel's table is the same
(lib/verdict_templates.c): both render tests/vectors/verdict_render.txt to
the byte (tests/unit/test_verdict_text.c, tests/tools/test_verdict_text.py).
An item with words of its own (a scenario's HZ_VERDICT_ITEM `.templates`)
carries them in its record, member `templates` ({"form:key": template}):
each key is looked up there first, then in TEMPLATES, as the kernel does.

A template is text with placeholders: {name} a field as field() formats
it, {a:KEY} an argument of `args`, {x:NAME}
a figure of `figures` with its interval, {xv:NAME} without it ({ratio} is
a range across a leading set, {ratio1} the best's estimate alone); a segment
{?...?} is left out when one of its placeholders has no value. "|"
separates alternatives: the first whose lines both fit WIDTH is taken,
else the last; when the last cannot be filled, "(KEY: no value for
{NAME})" names the placeholder that stopped the first alternative to
stop on one (e.g. {ratio} of an item with no baseline), as the kernel
does. A newline starts the continuation line (an open item's open
comparison; the trust item's SMIs and TSC gaps when there were any).
Numbers are formatted in integer arithmetic from the record's decimals x
1000, as the kernel does: figures to 3 significant digits, ratios with 2
decimals below 2 and 1 above, percents with 1.

Records written before the change (no `label`) are rendered from their
fields where they hold an answer, a figure and a ratio, else their stored
text is shown, marked `(old record)` and cut to the line.
"""

from typing import Callable, Dict, List, Optional, Sequence

from .verdict_templates import TEMPLATES

Record = Dict[str, object]

WIDTH = 100  # columns of a line
LABEL = 12  # label column
INDENT = "  "


def x1000(v: object) -> Optional[int]:
    """A record decimal as an int x 1000 (None for null, a bool or text)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return int(round(v * 1000))


def _fixed(v: int, d: int) -> str:
    """v x 1000 (v >= 0) with d decimals (0..3), rounded half up."""
    div = 10 ** (3 - d)
    q = v // div + (1 if div > 1 and v % div >= div // 2 else 0)
    return "%d.%0*d" % (q // 10 ** d, d, q % 10 ** d) if d else "%d" % q


def sig3(v: int) -> str:
    """v x 1000 to 3 significant digits: 0.530, 3.39, 35.7, 123, 1234."""
    if v < 0:
        return "-" + sig3(-v)
    return _fixed(v, 3 if v < 1000 else 2 if v < 9995 else 1 if v < 99950 else 0)


def ratio_digits(v: int) -> int:
    """Decimals of a ratio x 1000: 2 below 2 (a tie is read there), else 1,
    else none from 100."""
    return 2 if v < 1995 else 1 if v < 99950 else 0


def size(b: int) -> str:
    """lib/fmt.h fmt_size: the largest binary unit that divides b."""
    u, units = -1, "KMGT"
    while b >= 1024 and b % 1024 == 0 and u < 3:
        b //= 1024
        u += 1
    return "%d%s" % (b, units[u]) if u >= 0 else "%d" % b


def _lost(rec: Record) -> Optional[str]:
    """The trust record's time lost (`smi`, `smi_cells`, `gap_cells`,
    `gap_max_ns`, `gap_max_cell`) as lib/verdict_text.c lost_text() says it;
    None when there was none (or the record predates the fields)."""
    def n(key: str) -> int:
        v = rec.get(key)
        return v if isinstance(v, int) and not isinstance(v, bool) else 0

    parts = []
    if n("smi"):
        parts.append("SMIs %d in %d cell%s" % (n("smi"), n("smi_cells"),
                                               "" if n("smi_cells") == 1 else "s"))
    if n("gap_cells"):
        ns, cell = n("gap_max_ns"), rec.get("gap_max_cell") or ""
        secs = ns >= 1000000000
        parts.append("gaps > 10 ms in %d cell%s (longest %s %s, %s)" % (
            n("gap_cells"), "" if n("gap_cells") == 1 else "s",
            sig3(ns // 1000000 if secs else ns // 1000), "s" if secs else "ms",
            cell))
    return ", ".join(parts) or None


def _pct1(v: int) -> str:
    """A signed share x 10 (0.1 % units) as "+3.1"."""
    return "%s%d.%d" % ("+" if v >= 0 else "-", abs(v) // 10, abs(v) % 10)


def tolerance(rec: Record) -> str:
    """The record's tolerance (`tol_pct`) as the header prints it: "5%",
    "2.50%"; "?" without one."""
    t = x1000(rec.get("tol_pct"))
    if t is None:
        return "?"
    return "%d%%" % (t // 1000) if t % 1000 == 0 else "%s%%" % _fixed(t, 2)


def _figures(rec: Record) -> List[Record]:
    figs = rec.get("figures")
    return [f for f in figs if isinstance(f, dict)] if isinstance(figs, list) else []


def _figure(rec: Record, name: str) -> Optional[Record]:
    for f in _figures(rec):
        if isinstance(f, dict) and f.get("name") == name and x1000(f.get("value")) is not None:
            return f
    return None


def _fig_value(f: Record) -> str:
    v = x1000(f.get("value")) or 0
    if f.get("unit") == "x":
        return _fixed(v, ratio_digits(v)) + "x"
    if f.get("unit") == "%":
        return _fixed(v, 1) + "%"
    return sig3(v) + " " + str(f.get("unit") or "")


def _fig_ci(f: Record) -> Optional[str]:
    lo, hi, v = x1000(f.get("lo")), x1000(f.get("hi")), x1000(f.get("value")) or 0
    if lo is None or hi is None:
        return None
    if f.get("unit") == "x":
        d = ratio_digits(v)
        return "[%s..%s]" % (_fixed(lo, d), _fixed(hi, d))
    if f.get("unit") == "%":
        return "[%s..%s]" % (_fixed(lo, 1), _fixed(hi, 1))
    return "[%s..%s]" % (sig3(lo), sig3(hi))


def _others(rec: Record) -> Optional[str]:
    """The non-temporal item's other call sizes: "2M 3.5x, 4K 1.5x"."""
    parts = ["%s %s" % (f.get("chunk"), _fig_value(f)) for f in _figures(rec)
             if f.get("name") == "nt_speedup"]
    return ", ".join(parts) or None


def field(rec: Record, name: str) -> Optional[str]:
    """The text of one placeholder, None when the record has no value."""
    args = rec.get("args") if isinstance(rec.get("args"), dict) else {}
    assert isinstance(args, dict)
    if name.startswith("a:"):
        v = args.get(name[2:])
        return None if v is None or isinstance(v, bool) else str(v)
    if name.startswith("x:") or name.startswith("xv:"):
        f = _figure(rec, name.split(":", 1)[1])
        if f is None:
            return None
        ci = _fig_ci(f)
        return _fig_value(f) + (" " + ci if ci and name.startswith("x:") else "")
    fig, lo, hi = x1000(rec.get("figure")), x1000(rec.get("lo")), x1000(rec.get("hi"))
    r, rlo, rhi = x1000(rec.get("ratio")), x1000(rec.get("ratio_lo")), x1000(rec.get("ratio_hi"))
    rmin, rmax = x1000(rec.get("ratio_min")), x1000(rec.get("ratio_max"))
    unit = rec.get("unit")
    if name == "answer":
        return None if rec.get("answer") is None else str(rec["answer"])
    if name == "fig":
        return None if fig is None or not unit else "%s %s" % (sig3(fig), unit)
    if name == "ci":
        return None if lo is None or hi is None or lo == hi else "[%s..%s]" % (sig3(lo), sig3(hi))
    if name == "bfig":
        b = x1000(rec.get("baseline_figure"))
        return None if b is None or not unit else "%s %s" % (sig3(b), unit)
    if name == "base":
        return None if rec.get("baseline") is None else str(rec["baseline"])
    if name == "ratio":
        if r is None:
            return None
        d = ratio_digits(r)
        if rmin is not None and rmax is not None and rmin != rmax:
            return "%s-%sx" % (_fixed(rmin, d), _fixed(rmax, d))
        return _fixed(r, d) + "x"
    if name == "ratio1":
        return None if r is None else _fixed(r, ratio_digits(r)) + "x"
    if name == "rci":
        if r is None or rlo is None or rhi is None:
            return None
        d = ratio_digits(r)
        return "[%s..%s]" % (_fixed(rlo, d), _fixed(rhi, d))
    if name == "cost":
        return None if r is None else _pct1(r - 1000) + "%"
    if name == "costci":
        if rlo is None or rhi is None:
            return None
        return "[%s..%s]" % (_pct1(rlo - 1000), _pct1(rhi - 1000))
    if name == "n":
        na, nb = rec.get("n_min"), rec.get("n_max")
        if not isinstance(na, int) or not isinstance(nb, int):
            return None
        return "n=%d" % na if na == nb else "n=%d..%d" % (na, nb)
    if name == "tol":
        return tolerance(rec)
    if name == "more":
        lead = rec.get("leaders")
        return "%d" % (len(lead) - 1) if isinstance(lead, list) and len(lead) > 1 else None
    if name == "setw":
        return {"tie": "tied", "not separated": "not separated"}.get(str(rec.get("set")))
    if name == "runs":
        by = rec.get("measured_by")
        return " or ".join("run=%s" % s for s in by) if isinstance(by, list) and by else None
    if name == "others":
        return _others(rec)
    if name == "hv":
        if rec.get("tcg") is True:
            return "TCG"
        return str(rec.get("hypervisor") or "bare metal")
    if name == "tsc":
        return "invariant" if rec.get("tsc_invariant") is True else "NOT invariant"
    if name == "ring0":
        return "emulated" if rec.get("emulated_ring0") is True else "native"
    if name == "lost":
        return _lost(rec)
    if name in ("backing", "left_out", "cells"):
        v = rec.get({"left_out": "left_out_cells", "cells": "cells_seen"}.get(name, name))
        return None if v is None or isinstance(v, bool) else str(v)
    if name == "steal":
        s = x1000(rec.get("steal_pct"))
        if s is not None:
            return _fixed(s, 2) + "%"
        return "unknown (%s)" % (rec.get("steal_why") or "not measured")
    return None


def expand(tpl: str, get: Callable[[str], Optional[str]]) -> Optional[str]:
    """tpl with its placeholders filled by get(name); None when a required
    one has no value (inside {?...?}: that segment is dropped). The
    answers block (answers_text.py) fills its own templates with it."""
    out, i = [], 0
    while i < len(tpl):
        if tpl.startswith("{?", i):
            j = tpl.index("?}", i)
            seg = expand(tpl[i + 2:j], get)
            out.append(seg or "")
            i = j + 2
        elif tpl[i] == "{":
            j = tpl.index("}", i)
            v = get(tpl[i + 1:j])
            if v is None:
                return None
            out.append(v)
            i = j + 1
        else:
            out.append(tpl[i])
            i += 1
    return "".join(out)


def template(rec: Record, key: str) -> Optional[str]:
    """The template of row `key` ("form:key"): the record's own rows
    (member `templates`) first, then TEMPLATES; None in neither."""
    own = rec.get("templates")
    tpl = own.get(key) if isinstance(own, dict) else None
    return tpl if isinstance(tpl, str) else TEMPLATES.get(key)


def template_key(rec: Record) -> str:
    """The record's row (see TEMPLATES and template())."""
    form, reason = rec.get("form"), rec.get("reason")
    if reason:
        key = "%s:%s" % (form, reason)
        return key if template(rec, key) is not None else "*:%s" % reason
    key = "%s:%s" % (form, rec.get("outcome"))
    return key if template(rec, key) is not None else "%s:none" % form


def run_facts(rec: Record) -> bool:
    """True for the record that carries the run's facts and the trust
    figures (`cells_seen`, ...): its item's HZ_VERDICT_ITEM row says
    `.facts` (the engine's trust item), whatever its key."""
    return "cells_seen" in rec


def label(rec: Record) -> str:
    """The item's label: the record's own (an old record's item key)."""
    return str(rec.get("label") or rec.get("item") or "?")


def _label(rec: Record) -> str:
    return INDENT + "%-*s " % (LABEL, label(rec))


def _cut(line: str) -> str:
    return line if len(line) <= WIDTH else line[:WIDTH - 3] + "..."


def _old_lines(rec: Record) -> List[str]:
    """A record from before the change: its answer and headline figure when
    it has them (nothing more: its ratios' meaning changed), else its stored
    text; marked either way."""
    answer, fig, ci = (field(rec, k) for k in ("answer", "fig", "ci"))
    if rec.get("decided") is True and answer and fig:
        return [_cut(_label(rec) + "%s %s%s (old record)" % (answer, fig, " " + ci if ci else ""))]
    text = rec.get("text") if rec.get("decided") is True else rec.get("reason") or rec.get("text")
    return [_cut(_label(rec) + "(old record) " + str(text or "no text"))]


def item_lines(rec: Record, get: Optional[Callable[[str], Optional[str]]] = None) -> List[str]:
    """The 1-2 console lines of one `verdict` record (label, answer and
    figure, the deciding comparison; an open item's reason may go on one
    continuation line). get: each placeholder's text in place of the
    record's (_field), for a trust item merged across boots
    (verdict_merge.py)."""
    if "label" not in rec:
        return _old_lines(rec)
    key, body, miss = template_key(rec), None, []  # miss: placeholders found empty
    tpl, value = template(rec, key), get or (lambda name: field(rec, name))

    def noted(name: str) -> Optional[str]:
        v = value(name)
        if v is None:
            miss.append(name)
        return v

    lacked = None  # what stopped the first alternative that stopped
    for alt in tpl.split("|") if tpl is not None else []:
        body = expand(alt, noted)
        lacked = lacked or (miss[-1] if body is None else None)
        first, _, cont = (body or "").partition("\n")
        if body is not None and len(_label(rec) + first) <= WIDTH and \
                len(INDENT + " " * (LABEL + 1) + cont) <= WIDTH:
            break
    if body is None and lacked is not None:  # a row none of whose alternatives could be filled
        body = "(%s: no value for {%s})" % (key, lacked)
    elif body is None:
        body = "(no template for %s)" % key
    first, _, cont = body.partition("\n")
    lines = [_label(rec) + first]
    if cont:
        lines.append(INDENT + " " * (LABEL + 1) + cont)
    return lines


def item_text(rec: Record) -> str:
    """item_lines() without the label column, one string ("; " before a
    continuation line): for tables that give the label a column of its own."""
    return "; ".join(line[len(INDENT) + LABEL + 1:] for line in item_lines(rec))


def run_text(rec: Record) -> str:
    """The run= value a `verdict` record's run was given (`run_text`; older
    records: `profile`, "list" for a list)."""
    return str(rec.get("run_text") or rec.get("profile") or "?")


def header(rec: Record, run: Optional[str] = None, tol: Optional[str] = None) -> str:
    """The block's first line, from any of the run's `verdict` records: the
    run= value as given (run_text(); `run` is the run's index that
    hzlib.records adds) and its tolerance. run, tol: their texts in place of
    the record's (a block merged across boots, verdict_merge.py)."""
    return "== verdict (run=%s; Hodges-Lehmann ratio intervals, tolerance +-%s)" % (
        run_text(rec) if run is None else run, tolerance(rec) if tol is None else tol)


def block_lines(records: Sequence[Record]) -> List[str]:
    """The console block of a run: the header, then every `verdict`
    record's lines in record order (other record types are skipped)."""
    recs = [r for r in records if r.get("t", "verdict") == "verdict"]
    if not recs:
        return []
    out = [header(recs[0])]  # every record of a run carries run_text and tol_pct
    for r in recs:
        out += item_lines(r)
    return out
