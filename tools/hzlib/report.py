"""hz report: one self-contained HTML page per result set (issue 13).

report.html opens with the answers: the verdict block as the console prints
it (verdict_text.block_lines from the `verdict` records, docs/results.md),
with what each answer rests on (record fields, the `compare` records in
phrase.py's sentence, the cells) collapsed in a <details>; then the
strategy x call size table (clear_grid.py), the plots (plot.py's gnuplot
PNGs, embedded as data: URIs), the key tables (clear cells, faults,
pre-zero policies, SMP scaling and fill, checks) and the machine and
configuration facts (the header, tsc and measure records, meta.json),
collapsed. The
page loads nothing from elsewhere, so it opens from a mail attachment or a
LAVA artefact store, and it prints to PDF (@media print: no backgrounds
needed, tables wrap instead of overflowing).

Every table row whose figure cannot be read at face value says so in its
flags column, in words (report_html.row_flags). The tables are the
scenarios' (tools/hzlib/scenarios/, each row's `sections` in the
registry's order), then the checks; the side-by-side page of two result
sets is report_pair.py.
"""

import json
import os
import tempfile
from typing import List

from . import phrase, results, scenarios, verdict_merge, verdict_text
from .plot import draw_plots
from .report_html import esc, figure, kv_table, page, row_flags, table, tcg
from .scenarios import clear_grid


def verdicts(rs):
    """{run: {item: record}} of the `verdict` records, in record order (the
    items' order, HZ_VERDICT_ITEM in lib/verdict.h)."""
    out = {}
    for r in rs.of_type("verdict"):
        out.setdefault(r.get("run", 0), {})[str(r.get("item"))] = r
    return out


def merged_verdict(rs):
    """[(run, record)], one per verdict item in the last run's order: the
    item from the last run that measured it (reason other than NOT_IN_RUN),
    else the last run's. make answers boots twice, each boot part of the
    suite: this gives both; a reboot loop repeats one command: its last
    run."""
    by_run = verdicts(rs)
    if not by_run:
        return []
    runs = sorted(by_run)
    out = []
    for item, last in by_run[runs[-1]].items():
        r = next((by_run[run][item] for run in reversed(runs) if item in by_run[run] and
                  by_run[run][item].get("reason") != "NOT_IN_RUN"), last)
        out.append((r.get("run", 0), r))
    return out


def merged_lines(rs):
    """[(run, record, lines)] of merged_verdict(), each item with its console
    lines (verdict_text.item_lines); the trust item's lines speak for every
    run that supplied another item (verdict_merge.trust_lines: what can't
    be trusted in any of them), its run that run, or over several the last
    (each fact then names its own boots)."""
    picked = merged_verdict(rs)
    runs = sorted({run for run, r in picked if not verdict_text.run_facts(r)})
    trust = [(r.get("run", 0), r) for r in rs.of_type("verdict")
             if verdict_text.run_facts(r) and (r.get("run", 0) in runs or not runs)]
    last = max((run for run, _ in picked), default=0)
    out = []
    for run, r in picked:
        if verdict_text.run_facts(r) and trust:
            lines = verdict_merge.trust_lines([(str(n), t) for n, t in trust])
            run = trust[0][0] if len({n for n, _ in trust}) == 1 else last
            out.append((run, r, lines))
        else:
            out.append((run, r, verdict_text.item_lines(r)))
    return out


def merged_block(rs) -> List[str]:
    """merged_lines() as the console prints a block (verdict_text's header
    and item lines), the header naming every run= list it drew on in run
    order (verdict_merge.header), an item from a run other than the last
    marked with its boot ("[boot 0]" on its line, or on a line of its own
    past verdict_text.WIDTH, the 100 columns of a verdict line)."""
    picked = merged_lines(rs)
    if not picked:
        return []
    last = max(run for run, _, _ in picked)
    out = [verdict_merge.header([(str(run), r) for run, r, _ in sorted(
        picked, key=lambda p: p[0])], marked=True)]
    for run, r, lines in picked:
        mark = verdict_merge.mark("", [str(run)])  # " [boot 0]"
        if run != last and len(lines[0] + mark) <= verdict_text.WIDTH:
            lines[0] += mark
        elif run != last:
            lines.append(verdict_text.INDENT + " " * (verdict_text.LABEL + 1) + mark.strip())
        out += lines
    return out


def item_order(items):
    """The items of verdicts()' {item: record} in record order."""
    return list(items)


def item_text(r) -> str:
    """A verdict record's line (verdict_text: the kernel's renderer), without
    its label."""
    return verdict_text.item_text(r)


def _field_text(v):
    if isinstance(v, list):
        return ", ".join(json.dumps(x) if isinstance(x, dict) else str(x) for x in v)
    return json.dumps(v) if isinstance(v, (dict, bool)) or v is None else str(v)


def behind(rs, run, items):
    """What each answer of one run rests on, collapsed: per item its record
    fields, the comparisons it made (`compare` records, phrase.py's
    sentence) and the cells it used."""
    out = ["<details class=\"behind\"><summary>What each answer rests on: the verdict "
           "records' fields, every comparison and the cells used</summary>"]
    compares = [c for c in rs.of_type("compare") if c.get("run", 0) == run]
    for item in item_order(items):
        r = items[item]
        out.append("<h4>%s</h4>" % esc(r.get("label") or item))
        out.append(kv_table([(k, _field_text(v)) for k, v in r.items()
                             if k not in ("t", "v", "run", "cells")]))
        said = [phrase.of_compare_record(c) for c in compares if c.get("item") == item]
        if said:
            out.append("<ul class=\"cmp\">%s</ul>" % "".join("<li>%s</li>" % esc(t)
                                                             for t in said))
        if isinstance(r.get("cells"), list) and r["cells"]:
            out.append('<p class="cells">cells: %s</p>' % esc(", ".join(map(str, r["cells"]))))
    return "".join(out) + "</details>"


def verdict_section(rs):
    """The answers: each run's verdict block as the console prints it
    (verdict_text.block_lines), then what they rest on, collapsed."""
    by_run = verdicts(rs)
    out = ['<h2 id="verdict">Verdict: how this machine should zero memory</h2>']
    if not by_run:
        out.append('<p class="banner">No verdict: this result set has no <code>verdict</code> '
                   "records (a run made before the kernel printed one, or a run that stopped "
                   "before its end). The figures below are not summarised.</p>")
        return "".join(out)
    for run in sorted(by_run):
        if len(by_run) > 1:
            out.append("<h3>run %s</h3>" % esc(run))
        recs = [r for r in rs.of_type("verdict") if r.get("run", 0) == run]
        out.append('<pre class="answers">%s</pre>' % esc("\n".join(
            verdict_text.block_lines(recs))))
        out.append(behind(rs, run, by_run[run]))
    return "".join(out)


def grid_section(rs):
    """The strategy x call size table (clear_grid.py)."""
    g = clear_grid.grid(rs)
    if g is None:
        return ""
    by = clear_grid.cells(rs)[2]
    ci = clear_grid.ci_label(rs)
    head = ["strategy"] + [results.human_size(c) for c in g.chunks]
    rows = []
    for s, gb, xr in g.rows:
        flags = []
        for r in by[s].values():  # the row's flags: each of its cells'
            flags += [f for f in row_flags(r, rs) if f not in flags]
        rows.append(([s] + ["%s\n%s" % (gb[i], xr[i]) if gb[i] else ""
                            for i in range(len(g.chunks))], flags))
    return ('<h2 id="grid">Clear: strategy x call size</h2><p>One CPU, %s target, %s cache: '
            "each cell's median GB/s [%s] and, below it, x clear_page: its speed "
            "over %s in 4 KiB calls (Linux's clear_page) in the same cache state, the "
            "Hodges-Lehmann ratio [Moses interval]; ~ a tie at the tolerance, ? undecided. "
            "A row's flags are those of any of its cells.%s</p>"
            % (esc(results.human_size(g.target)), esc(g.cache), esc(ci), clear_grid.BASELINE[0],
               " <b>%s</b>: every GB/s is marked %s and every ratio ?." % (
                   clear_grid.TCG_SAYS, clear_grid.TCG_MARK) if g.tcg else "")
            + table(head, rows, numeric=tuple(range(1, len(head))), cls="grid"))


def checks_section(rs):
    summ = rs.of_type("summary")
    s = summ[-1] if summ else {}
    bad = [r for r in rs.records if r.get("t") in ("fail", "skip", "crash", "config")]
    out = ['<h2 id="checks">Checks</h2><p>%s</p>' % (
        "status %s: %s pass, %s fail, %s skip" % tuple(
            esc(s.get(k, "?")) for k in ("status_name", "pass", "fail", "skip"))
        if s else "<b>no summary record: the run did not finish</b>")]
    if bad:
        out.append(table(("result", "check", "reason"),
                         [([r["t"], r.get("name", ""), r.get("reason", r.get("text", ""))],
                           [r["t"]] if r["t"] != "skip" else []) for r in bad]))
    return "".join(out)


def fact_pairs(rec, drop=()):
    """(name, text) of a record's members, `features` folded into two lines."""
    pairs = []
    for k, v in rec.items():
        if k in drop:
            continue
        if k == "features" and isinstance(v, dict):
            pairs.append(("features present", " ".join(n for n, on in v.items() if on is True)))
            pairs.append(("features absent", " ".join(n for n, on in v.items() if on is False)))
        else:
            pairs += sorted(results.flatten({k: v}, "", {}).items()) if isinstance(v, dict) \
                else list(results.flatten({k: v}, "", {}).items())
    return pairs


FACT_SOURCES = (("header record", "header", ("t", "v", "run")),
                ("TSC (tsc record)", "tsc", ("t", "v", "run")),
                ("where bulk work ran (measure record)", "measure", ("t", "v", "run")),
                ("CPUs (smp record)", "smp", ("t", "v", "run")))


def facts_section(rs):
    out = ['<h2 id="facts">Machine and configuration</h2><details><summary>the header, tsc, '
           "measure and smp records and meta.json, field by field</summary>"]
    for title, t, drop in FACT_SOURCES:
        recs = rs.of_type(t)
        if recs:
            out.append("<h3>%s</h3>%s" % (esc(title), kv_table(fact_pairs(recs[0], drop))))
    if rs.meta:
        out.append("<h3>how the run was made (meta.json)</h3>%s"
                   % kv_table(fact_pairs(rs.meta, ("qemu_argv",))))
    else:
        out.append("<p>No meta.json (records from a capture, not from hz run).</p>")
    return "".join(out) + "</details>"


def banners(rs, prefix=""):
    """Warnings for the top of the page (prefix: "A: " on the pair page)."""
    out = []
    if tcg(rs):
        out.append("QEMU TCG: no figure on this page is a hardware timing (every row says TCG).")
    if rs.stream_warning():
        out.append(rs.stream_warning())
    summ = rs.of_type("summary")
    if not summ:
        out.append("No summary record: the run did not finish; what follows is partial.")
    elif summ[-1].get("status") != 0:
        out.append("Run status %s." % summ[-1].get("status_name", summ[-1].get("status")))
    return "".join('<p class="banner">%s</p>' % esc(prefix + b) for b in out)


def single(rs, pngs, plot_msgs=()):
    """The HTML page of one result set; pngs: plot files to embed."""
    body = ["<h1>hugezero report</h1><p class=\"sub\">%s</p><p class=\"sub\">%s</p>"
            "<p class=\"sub\">results: %s</p>" % (esc(results.machine(rs)),
                                                  esc(results.config(rs)), esc(rs.name)),
            banners(rs), verdict_section(rs), grid_section(rs), '<h2 id="plots">Plots</h2>']
    body += [figure(p) for p in sorted(pngs, key=os.path.basename)] or ["<p>No plots.</p>"]
    body += ["<p>%s</p>" % esc(m) for m in plot_msgs]
    body += [section(rs) for s in scenarios.ALL for section in s.sections]
    body += [checks_section(rs), facts_section(rs)]
    return page("hugezero report: %s" % results.machine(rs), "\n".join(b for b in body if b))


def write(rs, path, pngs=None):
    """Write rs's report to path. pngs: plot files already drawn (hz run);
    None draws them into a scratch folder first. Returns plot messages."""
    if pngs is not None:
        text, msgs = single(rs, pngs), []
    else:
        with tempfile.TemporaryDirectory(prefix="hz-report-") as d:
            pngs, msgs = draw_plots(rs, d)
            msgs = [m for m in msgs if not pngs or "no " not in m]  # as hz run: only real news
            text = single(rs, pngs, msgs)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return msgs
