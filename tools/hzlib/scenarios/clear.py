"""run=clear's host side: the clear cells (`clear`, `clear_run`,
`clear_samples`, scenarios/clear/records.md; run=smp's multi-CPU cells are `clear`
records too) in hz compare, report.html, hz report --text --full and hz
plot (the strategy x call size grid of the short report and the page is
clear_grid.py).

  compare  one row per (strategy, chunk, bytes, cache, threads) on both
           sides: GB/s, clear_stat (gbps_median with its
           interval and samples_ns)
  page     one table per (cache, target size, threads), fastest first
  --full   the Key table: the single-thread cells of the largest target,
           per strategy its fastest call size and its 4 KiB calls, median
           GB/s [95 % interval] and x clear_page, the ratio over rep_stosb
           in 4 KiB calls in the same cache state (Hodges-Lehmann ratio
           with its Moses interval and outcome at +-5 %, compare_stat.judge;
           records without samples: the ratio of medians, "(medians)");
           under TCG no outcome (clear_grid.py's marks)
  plots    clear_gbps[-<cache>-<bytes>].png (median GB/s by strategy, one
           bar per chunk, the 95 % interval as error bar, [flagged <chunks>]
           for noisy, steal or not-cold cells) and thread_scaling.png
           (aggregate GB/s against threads, a dashed line at the peak)
"""

import os
import re
from typing import List

from .. import compare_stat, gnuplot, results, schema
from ..compare_rows import clear_stat, group, sizes
from ..compare_stat import num
from ..plaintext import WIDTH, wrap
from ..report_html import esc, fmt, interval, row_flags, table
from ..schema import CLEAR_KEY, key
from . import clear_grid
from .base import Scenario

BASELINE = clear_grid.BASELINE
ROW = "  %-5s %-16s %-17s %-18s %s"  # cache, cell, GB/s [lo..hi], ratio [lo..hi], outcome


def clear_label(k):
    return "clear %s %s GB/s" % (k[0], sizes(CLEAR_KEY[1:], k[1:]))


def clear_rows(a, b):
    """[(label, Stat A, Stat B, higher_is_better)] for matching clear records."""
    ga = group(a.of_type("clear"), lambda r: key(r, CLEAR_KEY))
    gb = group(b.of_type("clear"), lambda r: key(r, CLEAR_KEY))
    rows = []
    for k in ga:
        if k in gb:
            sa, sb = clear_stat(ga[k]), clear_stat(gb[k])
            if sa and sb:
                rows.append((clear_label(k), sa, sb, True))
    return rows


def _section_rows(recs, rs):
    rows = []
    for r in sorted(recs, key=lambda r: -(num(r.get("gbps_median", r.get("gbps"))) or 0)):
        rows.append(([r.get("strategy"), results.human_size(r.get("chunk")), r.get("repeats"),
                      fmt(r.get("gbps_median", r.get("gbps")), "%.2f"),
                      interval(r.get("gbps_lo"), r.get("gbps_hi")),
                      fmt(r.get("cv_pct"), "%.2f"), fmt(r.get("steal_pct"), "%.2f"),
                      fmt(r.get("cold_ratio"), "%.1f")], row_flags(r, rs)))
    return rows


def clear_section(rs):
    recs = rs.of_type("clear")
    if not recs:
        return ""
    out = ['<h2 id="clear">Clear cells</h2><p>Median GB/s (10<sup>9</sup> B/s) with the '
           "median's interval, fastest first; CV of the repeat times; steal: share of the "
           "cell's time the host ran something else; cold ratio: cold/warm probe time "
           "(below 1.3 the target was not cold).</p>"]
    for run in rs.of_type("clear_run"):
        out.append("<p>%d cells interleaved over %d rounds (stopped: %s), %d noisy, "
                   "eviction %s, seed %s.</p>" % (
                       run.get("cells", 0), run.get("rounds", 0), esc(run.get("stop")),
                       run.get("noisy_cells", 0), esc(run.get("evict")), esc(run.get("seed"))))
    groups = {}
    for r in recs:
        groups.setdefault((str(r.get("cache")),) + schema.key(r, ("bytes", "threads")),
                          []).append(r)
    for (cache, nbytes, threads) in sorted(groups, key=lambda k: (k[0], -(num(k[1]) or 0),
                                                                  num(k[2]) or 0)):
        out.append("<h3>%s, %s target, %s thread(s)</h3>" % (
            esc(cache), esc(results.human_size(nbytes)), esc(threads)))
        out.append(table(("strategy", "chunk", "repeats", "GB/s",
                          compare_stat.table_ci_label(groups[(cache, nbytes, threads)]), "CV %",
                          "steal %", "cold ratio"),
                         _section_rows(groups[(cache, nbytes, threads)], rs),
                         numeric=(2, 3, 4, 5, 6, 7)))
    return "".join(out)


def cell_name(r):
    return "%s/%s" % (r.get("strategy"), results.human_size(r.get("chunk")))


def key_table(rs, tol_pct=compare_stat.TOL_PCT) -> List[str]:
    cells = [r for r in rs.of_type("clear") if r.get("threads", 1) == 1
             and r.get("cache") != "first_touch" and num(r.get("bytes"))]
    if not cells:
        return ["Key table", "  no single-thread clear cells"]
    target = max(r["bytes"] for r in cells)
    cells = [r for r in cells if r["bytes"] == target]
    out = ["Key table: clear, one CPU, %s target: each strategy's fastest call size"
           % results.human_size(target),
           "  and its 4K calls. x clear_page: GB/s over %s/4K (Linux clear_page) in"
           % BASELINE[0],
           "  the same cache state, Hodges-Lehmann ratio [95%% Moses interval], +-%g%%"
           % tol_pct]
    tcg = results.tcg(rs)
    if tcg:  # the emulator's timings: no outcome (clear_grid.py)
        out.append("  %s: GB/s marked %s, every ratio ?"
                   % (clear_grid.TCG_SAYS, clear_grid.TCG_MARK))
    head = ROW % ("cache", "strategy/chunk", "GB/s [interval]", "x clear_page", "outcome")
    out.append(head.rstrip())
    left = []
    for cache in sorted({str(r.get("cache")) for r in cells}):
        mine = [r for r in cells if str(r.get("cache")) == cache]
        base = next((r for r in mine if (r.get("strategy"), r.get("chunk")) == BASELINE), None)
        if base is None:
            left.append("%d %s" % (len(mine), cache))
            continue
        for r in _key_cells(mine):
            g = num(r.get("gbps_median"))
            lo, hi = num(r.get("gbps_lo")), num(r.get("gbps_hi"))
            fig = "-" if g is None else "%.1f" % g if None in (lo, hi) else \
                "%.1f [%.1f..%.1f]" % (g, lo, hi)
            ratio, outcome = "-", "no baseline"
            if base is r:
                ratio, outcome = "1.00x", "baseline"
            elif base is not None:
                sa = clear_stat([base])
                sb = clear_stat([r])
                if sa and sb:
                    j = compare_stat.judge(sa, sb, True, tol_pct)
                    ratio = ("%.2fx [%.2f..%.2f]" % (j.ratio, j.lo, j.hi)
                             if j.ratio is not None and j.lo is not None and j.hi is not None
                             else "%.2fx (medians)" % j.ratio if j.ratio else "-")
                    outcome = j.verdict_text().replace(" (%s)" % compare_stat.SPREAD, "")
                    if tcg:
                        ratio, outcome = ratio + "?", "none (TCG)"
            if tcg and fig != "-":
                fig += clear_grid.TCG_MARK
            out.append((ROW % (cache, cell_name(r), fig, ratio, outcome)).rstrip())
            flags = [f for f in compare_stat.record_flags(r) if f != "noisy"]
            if flags and len(out[-1]) + 2 + len(" ".join(flags)) <= WIDTH:
                out[-1] += "  " + " ".join(flags)
            elif flags:
                out.append(" " * 8 + "flags: " + " ".join(flags))
    if left:
        out += wrap("not shown: %s cells (no %s/4K cell to compare with)"
                    % (", ".join(left), BASELINE[0]), "    ", "  ")
    return out


def _key_cells(cells):
    """Per strategy its fastest call size and its 4 KiB calls (Linux's
    clear_page size), fastest first."""
    def speed(r):
        return num(r.get("gbps_median")) or 0
    keep = []
    for s in dict.fromkeys(r.get("strategy") for r in cells):
        mine = [r for r in cells if r.get("strategy") == s]
        keep.append(max(mine, key=speed))
        keep += [r for r in mine if r.get("chunk") == BASELINE[1] and r is not keep[-1]]
    return sorted(keep, key=lambda r: -speed(r))


def _single_thread(r):
    th = r.get("threads", 1)
    return not isinstance(th, int) or th <= 1


def plot_clear(rs, outdir, work, machine):
    recs = [r for r in rs.of_type("clear") if _single_thread(r) and gnuplot.value(r) is not None]
    if not recs:
        return [], ["clear_gbps: no single-thread clear records"]
    groups = {}
    for r in recs:
        groups.setdefault((str(r.get("cache")), results.human_size(r.get("bytes"))), []).append(r)
    files = []
    for (cache, nbytes), grp in groups.items():
        strategies, chunks, val, noisy = [], [], {}, {}
        for r in grp:
            s, c = str(r.get("strategy", "?")), results.human_size(r.get("chunk", "?"))
            if s not in strategies:
                strategies.append(s)
            if c not in chunks:
                chunks.append(c)
            val[(s, c)] = gnuplot.bar(r)
            if any(f in ("noisy", "steal", "not-cold") for f in compare_stat.record_flags(r)):
                noisy.setdefault(s, []).append(c)
        name = "clear_gbps.png" if len(groups) == 1 else "clear_gbps-%s-%s.png" % (
            re.sub(r"[^\w.-]", "_", cache), re.sub(r"[^\w.-]", "_", nbytes))
        rows = [(s + (" [flagged %s]" % ",".join(noisy[s]) if s in noisy else ""),
                 [val.get((s, c)) for c in chunks]) for s in strategies]
        out = os.path.join(outdir, name)
        title = ("clear bandwidth by strategy and chunk size (cache=%s, %s per measurement)\n"
                 "median, bar = its 95%% interval; [flagged] = noisy, steal or not cold; %s"
                 % (cache, nbytes, machine))
        gnuplot.histogram(out, title, "strategy", "chunk", chunks, rows, work)
        files.append(out)
    return files, []


def plot_threads(rs, outdir, work, machine):
    recs = [r for r in rs.of_type("clear")
            if isinstance(r.get("threads"), int) and gnuplot.value(r) is not None]
    if not any(r["threads"] > 1 for r in recs):
        return [], ["thread_scaling: no clear records with threads > 1"]
    series = {}
    for r in recs:
        if r["threads"] == 1 and not any(o["threads"] > 1 and o.get("bytes") == r.get("bytes")
                                         for o in recs):
            continue  # a single-thread run of another size (e.g. run=clear's in-cache target)
        key = (str(r.get("strategy", "?")), results.human_size(r.get("chunk", "?")),
               str(r.get("cache")))
        series.setdefault(key, {}).setdefault(r["threads"], []).append(gnuplot.value(r))
    series = {k: v for k, v in series.items() if any(t > 1 for t in v)}
    peaks = [r.get("gbps") for r in rs.of_type("smp_peak")
             if isinstance(r.get("gbps"), (int, float))]
    peak = peaks[-1] if peaks else max(gnuplot.value(r) for r in recs if r["threads"] > 1)
    plots = []
    for i, ((strat, chunk, cache), pts) in enumerate(sorted(series.items())):
        data = os.path.join(work, "threads%d.dat" % i)
        with open(data, "w") as f:
            for t in sorted(pts):
                f.write("%d %s\n" % (t, sorted(pts[t])[len(pts[t]) // 2]))
        label = "%s %s" % (strat, chunk) + (" cache=%s" % cache if cache != "None" else "")
        plots.append("%s using 1:2 with linespoints lw 2 title %s"
                     % (gnuplot.quote(data), gnuplot.quote(label)))
    plots.append("%s with lines dt 2 lc rgb 'black' title %s"
                 % (peak, gnuplot.quote("peak %.3f GB/s" % peak)))
    counts = sorted({t for pts in series.values() for t in pts})
    out = os.path.join(outdir, "thread_scaling.png")
    gnuplot.run(gnuplot.head(out, "thread scaling\n%s" % machine, "threads",
                             "aggregate GB/s (10^9 bytes/s)") +
                "set yrange [0:*]\nset xrange [%g:%g]\nset xtics (%s)\nplot "
                % (counts[0] - 0.5, counts[-1] + 0.5, ", ".join(str(t) for t in counts))
                + ", ".join(plots) + "\n", work)
    return [out], []


BEST_CACHE = "cold"  # the fleet's best clear: one cache state, like for like


def best_clear(rs):
    """hz compare's fleet column: the best single-CPU GB/s (gbps_median) of
    the verified, cold, not too_few clear cells."""
    gbps = [r.get("gbps_median", r.get("gbps")) for r in rs.of_type("clear")
            if r.get("threads") == 1 and r.get("verified") is True
            and r.get("cache") == BEST_CACHE and r.get("too_few") is not True
            and num(r.get("gbps_median", r.get("gbps"))) is not None]
    return "%.3f" % max(gbps) if gbps else "-"


SCENARIO = Scenario(
    "clear", types=("clear", "clear_run", "clear_samples"), sections=(clear_section,),
    text=(key_table,), plots=(plot_clear, plot_threads), rows=(clear_rows,),
    cells=(("clear", lambda r: key(r, CLEAR_KEY), clear_label),),
    fleet=(("best clear GB/s (1 CPU, %s, verified, not too_few)" % BEST_CACHE, best_clear),))
