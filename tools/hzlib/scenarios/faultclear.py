"""run=faultclear's host side (`faultclear`, `faultclear_run`,
`faultclear_gain`, scenarios/faultclear/records.md) in hz compare, report.html, hz plot
and make bench.

  compare  per (frame size, model, strategy): the median GB/s with the
           median's 95 % interval (older records: cv_pct); per
           faultclear_gain (frame size, strategy) the predicted
           clear_pages() gain with its interval
  page     one row per frame size and strategy: every fault_clear= model's
           median GB/s with its interval, and the predicted gain
  plot     faultclear_models[-<bytes>].png: median fault-service GB/s per
           model, clustered by strategy (each labelled with its predicted
           gain, [flagged MODELS] for noisy or steal cells), 95 % interval
           bars; one file per frame size
  bench    the lines below (make bench, tools/bench.py)

table() gives one line per (frame size, strategy): the median fault-service
GB/s of every fault_clear= model with its 95 % interval and flags
(scenarios/faultclear/records.md `faultclear`), and the predicted clear_pages() gain
(`faultclear_gain`: linux_4k / linux_batch=32M time, a prediction of
hugezero's models, the Hodges-Lehmann ratio with its interval labelled by
the coverage the record states, `gain_cover_pct`: 95 % Moses). anchors() gives the
published figures of docs/validation.md (the one place they live) and
beside() this run's figures of the same shape next to them: 1 GiB page at a
time (linux_4k) -> the series per preemption model (linux_batch=32M:
preempt=none/voluntary; extent: preempt=full/lazy) against Milan's published
figure for that model, 2 MiB hot-last against address order (linux_4k) against Genoa's,
and what is left for pre-zeroing: the clear inside a linux_batch=32M fault.
"""

import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import compare_stat, gnuplot, results, validation
from ..compare_rows import clear_ci_stat, group, sizes
from ..compare_stat import Stat, record_flags, sample_count
from ..report_html import esc, fmt, interval, row_flags, table as html_table
from ..schema import TYPES, Record, key
from .base import BenchBoot, BenchContext, Cell, Scenario

MODELS = ("extent", "linux_4k", "linux_hot_last", "linux_batch=32M")
# The published 1 GiB fault figures per preemption model (docs/validation.md):
# (label, figure before, figure after); icelake's state no model.
PUBLISHED_1G = (("preempt=full/lazy", "fault_1G_before", "fault_1G_after"),
                ("preempt=none/voluntary in 8 MiB batches", "fault_1G_vol_before",
                 "fault_1G_vol_after"))
G, M2 = 1 << 30, 2 << 20
SIZE_NAMES: Dict[Any, str] = {G: "1 GiB", M2: "2 MiB"}
# Linux's clear_page on a CPU with ERMS is clear_page_erms (REP STOSB): the
# strategy whose figures stand beside the published fault anchors.
LINUX_STRATEGY = "rep_stosb"


_num = compare_stat.num  # a number, not a bool, else None


def cells(recs: Sequence[Record]) -> Dict[Tuple[Any, Any, Any], Record]:
    """{(bytes, strategy, model): faultclear record} (the last of each)."""
    return {(r.get("bytes"), r.get("strategy"), r.get("model")): r
            for r in recs if r.get("t") == "faultclear"}


def gains(recs: Sequence[Record]) -> Dict[Tuple[Any, Any], Record]:
    """{(bytes, strategy): faultclear_gain record}."""
    return {(r.get("bytes"), r.get("strategy")): r
            for r in recs if r.get("t") == "faultclear_gain"}


def _text(r: Optional[Record], keys: Tuple[str, str, str], fmt: str) -> str:
    """"12.34 [12.10..12.50] noisy": r's keys (value, lo, hi) in fmt, the
    interval when r has one, and its flags; "-" without a value."""
    if not r or _num(r.get(keys[0])) is None:
        return "-"
    text = fmt % r[keys[0]]
    if _num(r.get(keys[1])) is not None and _num(r.get(keys[2])) is not None:
        text += " [%.2f..%.2f]" % (r[keys[1]], r[keys[2]])
    return " ".join([text] + compare_stat.record_flags(r))


def _gbps(r: Optional[Record]) -> str:
    return _text(r, ("gbps", "gbps_lo", "gbps_hi"), "%.2f")


def _pct(x: float) -> str:
    """95.0 -> "95%", 91.6 -> "91.6%"."""
    return ("%.1f" % x).rstrip("0").rstrip(".") + "%"


def cover_text(g: Optional[Record]) -> str:
    """" 95%" when the gain record states its interval's coverage, else ""."""
    cover = _num(g.get("gain_cover_pct")) if g else None
    return " " + _pct(cover) if cover is not None else ""


def _gain(g: Optional[Record]) -> str:
    """"2.10x [1.90..2.35] 95%": the gain, its interval and the interval's
    coverage when the record states one, then its flags."""
    text = _text(g, ("gain", "gain_lo", "gain_hi"), "%.2fx")
    cover = _num(g.get("gain_cover_pct")) if g else None
    if cover is None or text == "-":
        return text
    head = text.split("]")[0] + "]" if "]" in text else text.split()[0]
    return " ".join([head, _pct(cover)] + compare_stat.record_flags(g))


def _full(g: Record) -> Record:
    """g with its preempt=full/lazy gain (linux_4k / extent) as the gain."""
    return dict(g, gain=g.get("full_gain"), gain_lo=g.get("full_gain_lo"),
                gain_hi=g.get("full_gain_hi"))


def table(recs: Sequence[Record]) -> List[str]:
    """The model table, one line per (frame size, strategy), or [] when the
    records hold no faultclear cell."""
    cs, gs = cells(recs), gains(recs)
    if not cs:
        return []
    lines = ["faultclear: median fault service GB/s (frame / median) [%s] per "
             "fault_clear= model; gain = linux_4k / linux_batch=32M time (the series under "
             "preempt=none/voluntary), full/lazy gain = linux_4k / extent time (under "
             "preempt=full/lazy), each a PREDICTION [interval] and its coverage"
             % compare_stat.table_ci_label(list(cs.values()))]
    for run in (r for r in recs if r.get("t") == "faultclear_run"):
        lines.append("  %s: %s rounds (stop: %s, seed %s), %s faults per cell and round, "
                     "%s noisy cells" % (SIZE_NAMES.get(run.get("bytes"), run.get("bytes")),
                                         run.get("rounds"), run.get("stop"), run.get("seed"),
                                         run.get("pages"), run.get("noisy_cells")))
    rows: List[Tuple[str, ...]] = [("frame", "strategy") + MODELS +
                                   ("predicted gain", "full/lazy gain")]
    keys = []
    for b, s, _ in cs:
        if (b, s) not in keys:
            keys.append((b, s))
    for b, s in keys:
        rows.append((SIZE_NAMES.get(b, str(b)), str(s)) +
                    tuple(_gbps(cs.get((b, s, m))) for m in MODELS) +
                    (_gain(gs.get((b, s))), _gain(_full(gs[(b, s)]) if (b, s) in gs else None)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    if any(c.get("emulated_ring0") for c in cs.values()):
        lines.append("  emulated ring 0: every fault's handler ran in the hypervisor's emulator, "
                     "so fixed fault costs weigh more than on hardware")
    return lines


def _pub(rows: Sequence[Record]) -> Dict[Tuple[str, str], float]:
    return {(r["anchor"], r["figure"]): r["value"] for r in rows}


def anchors(rows: Optional[Sequence[Record]] = None) -> List[str]:
    """The published fault-clearing figures, from docs/validation.md."""
    p = _pub(validation.table() if rows is None else rows)
    out = ["published (docs/validation.md):"]
    one = ["%s %.1f -> %.1f GB/s (%.2fx, %s)" % (a, p[(a, b)], p[(a, f)], p[(a, f)] / p[(a, b)],
                                                 label if a == "milan" else
                                                 "preemption model not stated")
           for label, b, f in PUBLISHED_1G for a in ("milan", "icelake")
           if (a, b) in p and (a, f) in p]
    if one:
        out.append("  1 GiB hugetlb faults, page at a time -> with clear_pages(): " +
                   "; ".join(one))
    if ("genoa", "thp_2M_hot_last") in p and ("genoa", "thp_2M_address_order") in p:
        hot, addr = p[("genoa", "thp_2M_hot_last")], p[("genoa", "thp_2M_address_order")]
        out.append("  2 MiB THP faults, genoa: hot-last %.1f vs address order %.1f GB/s (%.2fx)"
                   % (hot, addr, addr / hot))
    ext = ["%s %.1f" % (c, p[("milan", "rep_stosq_" + c)]) for c in ("4K", "2M", "1G")
           if ("milan", "rep_stosq_" + c) in p]
    if ext:
        out.append("  REP STOSQ by extent, milan: " + ", ".join(ext) + " GB/s")
    return out


def beside(recs: Sequence[Record], rows: Optional[Sequence[Record]] = None,
           strategy: str = LINUX_STRATEGY) -> List[str]:
    """This run's figures shaped like the anchors, for `strategy`."""
    cs, gs = cells(recs), gains(recs)
    p = _pub(validation.table() if rows is None else rows)
    out = []
    a, g = cs.get((G, strategy, "linux_4k")), gs.get((G, strategy))
    for model, (label, fb, fa), full in (("linux_batch=32M", PUBLISHED_1G[1], False),
                                         ("extent", PUBLISHED_1G[0], True)):
        b = cs.get((G, strategy, model))
        if not (a and b):
            continue
        pub = "published milan, %s: %.2fx" % (label, p[("milan", fa)] / p[("milan", fb)]) \
            if ("milan", fa) in p and ("milan", fb) in p else "nothing published per model"
        gain = _gain(_full(g)) if full and g else _gain(g)
        out.append("  here, 1 GiB, %s, %s: linux_4k %s -> %s %s GB/s, gain %s (%s)"
                   % (strategy, label.split(" in ")[0], _gbps(a), model, _gbps(b), gain, pub))
    for size in (G, M2):
        c, gr = cs.get((size, strategy, "linux_batch=32M")), gs.get((size, strategy))
        if gr and _num(gr.get("left_pct")) is not None and _num(gr.get("left_lo_pct")) is not None \
                and _num(gr.get("left_hi_pct")) is not None:
            out.append("  here, %s, %s: left for pre-zeroing: the clear in a linux_batch=32M "
                       "fault is %.1f%% [%.1f..%.1f] %s of its service time"
                       % (SIZE_NAMES[size], strategy, gr["left_pct"], gr["left_lo_pct"],
                          gr["left_hi_pct"], _pct(_num(gr.get("gain_cover_pct")) or 95.0)))
            continue
        if c and _num(c.get("clear_median_ns")) and _num(c.get("median_ns")):
            out.append("  here, %s, %s: left for pre-zeroing: the clear in a linux_batch=32M "
                       "fault, median %.3f ms of its %.3f ms service time (%.0f%%)"
                       % (SIZE_NAMES[size], strategy, c["clear_median_ns"] / 1e6,
                          c["median_ns"] / 1e6, 100.0 * c["clear_median_ns"] / c["median_ns"]))
    hot, addr = cs.get((M2, strategy, "linux_hot_last")), cs.get((M2, strategy, "linux_4k"))
    if hot and addr and _num(hot.get("gbps")) and _num(addr.get("gbps")):
        pub = ""
        if ("genoa", "thp_2M_hot_last") in p and ("genoa", "thp_2M_address_order") in p:
            pub = " (published genoa %.2fx)" % (p[("genoa", "thp_2M_address_order")] /
                                                p[("genoa", "thp_2M_hot_last")])
        out.append("  here, 2 MiB, %s: linux_hot_last %s vs linux_4k (address order) %s GB/s: "
                   "%.2fx%s" % (strategy, _gbps(hot), _gbps(addr), addr["gbps"] / hot["gbps"],
                                pub))
    return out


def report(recs: Sequence[Record], rows: Optional[Sequence[Record]] = None) -> List[str]:
    """table() + anchors() + beside(), or [] without faultclear records."""
    t = table(recs)
    return t + anchors(rows) + beside(recs, rows) if t else []


# faultclear rows: record type -> (identity members, (value, lo, hi) members, what)
FAULTCLEAR = {t: (TYPES[t].key, TYPES[t].values[:3], what)
              for t, what in (("faultclear", "GB/s"), ("faultclear_gain", "predicted gain"))}


def faultclear_label(t, k):
    names, _, what = FAULTCLEAR[t]
    return "%s %s %s" % (t, sizes(names, k), what)


def faultclear_rows(a, b):
    """[(label, Stat A, Stat B, higher_is_better)]: per faultclear cell on
    both sides its median GB/s with the median's 95 % interval; per
    faultclear_gain the predicted gain with its range. Records without
    intervals (older runs) keep cv_pct."""
    rows = []
    for t, (names, keys, what) in FAULTCLEAR.items():
        ga = group(a.of_type(t), lambda r: key(r, names))
        gb = group(b.of_type(t), lambda r: key(r, names))
        for k in ga:
            if k not in gb:
                continue
            pair = []
            for recs in (ga[k], gb[k]):
                st = clear_ci_stat(recs, keys)
                if not st and _num(recs[-1].get(keys[0])) is not None:
                    st = Stat(recs[-1][keys[0]], cv=_num(recs[-1].get("cv_pct")),
                              samples=sample_count(recs[-1:]), flags=record_flags(recs[-1]))
                pair.append(st)
            if all(pair):
                rows.append((faultclear_label(t, k), pair[0], pair[1], True))
    return rows


def faultclear_section(rs):
    cs, gs = cells(rs.records), gains(rs.records)
    if not cs:
        return ""
    rows = []
    for b, strat in dict.fromkeys((b, st) for b, st, _ in cs):
        recs = [cs.get((b, strat, m)) for m in MODELS]
        gain = gs.get((b, strat))
        flags = []
        for r in [r for r in recs if r] + ([gain] if gain else []):
            flags += [f for f in row_flags(r, rs) if f not in flags]
        rows.append(([results.human_size(b), strat] +
                     ["%s %s" % (fmt(r.get("gbps"), "%.2f"), interval(r.get("gbps_lo"),
                                                                      r.get("gbps_hi")))
                      if r else "-" for r in recs] +
                     ["%sx %s%s" % (fmt(gain.get("gain"), "%.2f"),
                                    interval(gain.get("gain_lo"), gain.get("gain_hi")),
                                    cover_text(gain))
                      if gain else "-"], flags))
    return ('<h2 id="faultclear">Clearing inside the fault (run=faultclear)</h2><p>Median '
            "fault-service GB/s (frame / median time) per fault_clear= model with its "
            "interval (%s); predicted gain: linux_4k / linux_batch=32M time, a prediction of "
            "these models: the Hodges-Lehmann ratio with its interval and that interval's "
            "coverage (95 %% Moses; older records: the range both intervals allow, 91.6 %%).</p>"
            % esc(compare_stat.table_ci_label(list(cs.values()))) +
            html_table(("frame", "strategy") + MODELS + ("predicted gain",), rows))


def plot_faultclear(rs, outdir, work, machine):
    """faultclear_models.png: median fault-service GB/s of every fault_clear=
    model (bars) per strategy (clusters, labelled with the predicted
    clear_pages() gain), the 95 % interval as error bar; one file per frame
    size when there are several (faultclear_models-<bytes>.png)."""
    recs = [r for r in rs.of_type("faultclear") if gnuplot.value(r) is not None]
    if not recs:
        return [], ["faultclear_models: no faultclear records"]
    sizes = []
    for r in recs:
        if results.human_size(r.get("bytes")) not in sizes:
            sizes.append(results.human_size(r.get("bytes")))
    gain = {(results.human_size(g.get("bytes")), str(g.get("strategy"))): g
            for g in rs.of_type("faultclear_gain") if gnuplot.number(g.get("gain")) is not None}
    files = []
    for size in sizes:
        models, strategies, val, flagged = [], [], {}, {}
        for r in recs:
            if results.human_size(r.get("bytes")) != size:
                continue
            m, s = str(r.get("model", "?")), str(r.get("strategy", "?"))
            if m not in models:
                models.append(m)
            if s not in strategies:
                strategies.append(s)
            val[(s, m)] = gnuplot.bar(r)  # gbps is the median's: faultclear has no gbps_median
            if compare_stat.record_flags(r):
                flagged.setdefault(s, []).append(m)
        rows = []
        for s in strategies:
            g = gain.get((size, s))
            label = s + (" gain %.2fx%s" % (g["gain"], "?" if g.get("noisy") else "")
                         if g else "")
            if s in flagged:
                label += " [flagged %s]" % ("all" if len(flagged[s]) == len(models)
                                            else ",".join(flagged[s]))
            rows.append((label, [val.get((s, m)) for m in models]))
        name = "faultclear_models.png" if len(sizes) == 1 else \
            "faultclear_models-%s.png" % re.sub(r"[^\w.-]", "_", size)
        out = os.path.join(outdir, name)
        title = ("demand faults of %s frames by fault_clear= model (run=faultclear): frame / "
                 "median service time, bar = 95%% interval\ngain = predicted clear_pages() "
                 "gain, linux_4k / linux_batch=32M (? = a side noisy); [flagged] = noisy or "
                 "steal\n%s" % (size, machine))
        gnuplot.histogram(out, title, "strategy", "model", models, rows, work)
        files.append(out)
    return files, []


def _cell(t: str) -> Cell:
    """hz compare's one-sided cells of type t: identity and label."""
    names = FAULTCLEAR[t][0]
    return (t, lambda r: key(r, names), lambda k: faultclear_label(t, k))


def bench_lines(recs: Sequence[Record], ctx: BenchContext) -> List[str]:
    """make bench's run=faultclear block: report() under a heading."""
    lines = report(recs)
    if not lines:
        return ["run=faultclear: no faultclear records (see %s)" % ctx.folder]
    return ["run=faultclear  [%s]:" % ctx.note] + ["  " + line for line in lines]


SCENARIO = Scenario(
    "faultclear", types=("faultclear", "faultclear_run", "faultclear_gain"),
    sections=(faultclear_section,), plots=(plot_faultclear,), rows=(faultclear_rows,),
    cells=tuple(_cell(t) for t in FAULTCLEAR),
    bench=BenchBoot(lambda strategy: ["run=faultclear"], "6G", False, bench_lines))
