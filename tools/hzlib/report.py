"""hz report: one self-contained HTML page per result set (issue 13).

report.html opens with the verdict (the kernel's `verdict` records: how this
machine should zero memory, docs/results.md), then the plots (plot.py's
gnuplot PNGs, embedded as data: URIs), the key tables (clear cells, faults,
pre-zero policies, SMP scaling and fill, checks) and the machine and
configuration facts (the header, tsc and measure records, meta.json). The
page loads nothing from elsewhere, so it opens from a mail attachment or a
LAVA artefact store, and it prints to PDF (@media print: no backgrounds
needed, tables wrap instead of overflowing).

Every table row whose figure cannot be read at face value says so in its
flags column, in words (report_html.row_flags). The tables are
report_tables.py; the side-by-side page of two result sets is
report_pair.py.
"""

import json
import os
import tempfile

from . import report_tables, results, verdict_text
from .report_html import draw_plots, esc, figure, fmt, interval, kv_table, num, page, tcg

# verdict members shown in the figure columns; the rest of a trust record is listed.
_VERDICT_MEMBERS = {"t", "v", "run", "item", "decided", "text", "answer", "figure", "unit",
                    "lo", "hi", "baseline", "baseline_figure", "ratio", "cells", "reason",
                    "model", "profile"}


def verdicts(rs):
    """{run: {item: record}} of the `verdict` records, in record order (the
    kernel's item table)."""
    out = {}
    for r in rs.of_type("verdict"):
        out.setdefault(r.get("run", 0), {})[str(r.get("item"))] = r
    return out


def item_order(items):
    """The items of verdicts()' {item: record} in record order."""
    return list(items)


def item_text(r) -> str:
    """A verdict record's line (verdict_text: the kernel's renderer), without
    its label."""
    return verdict_text.item_text(r)


def verdict_cell(r):
    """The HTML of one verdict record: its sentence, or NOT DECIDED and why."""
    body = esc(item_text(r))
    if r.get("decided") is True and r.get("model") is True:
        body += " <i>(model: extrapolated, not measured at 16 threads)</i>"
    extra = ["%s: %s" % (k, ", ".join(map(str, v)) if isinstance(v, list) else
                         json.dumps(v) if isinstance(v, (dict, bool)) or v is None else v)
             for k, v in r.items() if k not in _VERDICT_MEMBERS]
    if extra:
        body += '<div class="cells">%s</div>' % esc("; ".join(extra))
    if isinstance(r.get("cells"), list) and r["cells"]:
        body += '<div class="cells">from %s</div>' % esc(", ".join(map(str, r["cells"])))
    return body


def verdict_figure(r):
    """'86.7 GB/s [80.4..86.9]; 2.95x rep_stosb/4K (29.4)' or ''."""
    if r.get("decided") is not True or num(r.get("figure")) is None:
        return ""
    parts = [fmt(r["figure"], "%.4g"), str(r.get("unit") or "")]
    if num(r.get("lo")) is not None and num(r.get("hi")) is not None:
        parts.append(interval(r["lo"], r["hi"], "%.4g"))
    text = " ".join(p for p in parts if p)
    if r.get("baseline") is not None:
        text += "; %sx %s (%s)" % (fmt(r.get("ratio"), "%.3g"), r["baseline"],
                                   fmt(r.get("baseline_figure"), "%.4g"))
    return text


def verdict_section(rs):
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
        profiles = sorted({str(r["profile"]) for r in by_run[run].values() if r.get("profile")})
        out.append("<p>From the cells of %s; every item is decided by a Hodges-Lehmann ratio "
                   "interval against the run's tolerance (docs/validation.md), never by a "
                   "cell's spread.</p>" % esc(", ".join("run=" + p for p in profiles)
                                              or "this run"))
        out.append('<table class="verdict"><tbody>')
        for item in item_order(by_run[run]):
            r = by_run[run][item]
            cls = "" if r.get("decided") is True else ' class="undecided"'
            out.append("<tr><th>%s</th><td%s>%s</td><td class=\"n\">%s</td></tr>"
                       % (esc(verdict_text.label(r)), cls, verdict_cell(r),
                          esc(verdict_figure(r))))
        out.append("</tbody></table>")
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
    out = ['<h2 id="facts">Machine and configuration</h2>']
    for title, t, drop in FACT_SOURCES:
        recs = rs.of_type(t)
        if recs:
            out.append("<h3>%s</h3>%s" % (esc(title), kv_table(fact_pairs(recs[0], drop))))
    if rs.meta:
        out.append("<h3>how the run was made (meta.json)</h3>%s"
                   % kv_table(fact_pairs(rs.meta, ("qemu_argv",))))
    else:
        out.append("<p>No meta.json (records from a capture, not from hz run).</p>")
    return "".join(out)


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
            banners(rs), verdict_section(rs), '<h2 id="plots">Plots</h2>']
    body += [figure(p) for p in sorted(pngs, key=os.path.basename)] or ["<p>No plots.</p>"]
    body += ["<p>%s</p>" % esc(m) for m in plot_msgs]
    body += [section(rs) for section in report_tables.SECTIONS] + [facts_section(rs)]
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
