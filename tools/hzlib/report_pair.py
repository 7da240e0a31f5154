"""hz report A B: two result sets side by side on one self-contained page.

For a lab comparing two machines, or one machine under two firmware
settings: the two verdict blocks (as the console prints them), hz compare's table (compare.table:
the same rows, each comparison in phrase.py's one form with its
Hodges-Lehmann interval and verdict word: faster, slower, tie at +-X,
undecided, too few samples; rows without samples say "spread rule"), the plots of each set in pairs,
and the machine and configuration facts with the differing ones marked.
The page is built from report.py's and report_html.py's pieces.
"""

import os
import re
import tempfile

from . import compare, compare_stat, decide, plot, report, report_html, results


def default_path(a_path, b_path):
    """./report-<A>-vs-<B>.html from the two folder (or file) names."""
    def name(p):
        base = os.path.basename(os.path.normpath(p))
        return re.sub(r"[^\w.-]", "_", os.path.splitext(base)[0] if os.path.isfile(p) else base)
    return "report-%s-vs-%s.html" % (name(a_path), name(b_path))


def _sides_table(a, b):
    rows = []
    for side, rs in (("A", a), ("B", b)):
        summ = rs.of_type("summary")
        rows.append(([side, rs.name, results.machine(rs), results.config(rs),
                      summ[-1].get("status_name", "?") if summ else "no summary"],
                     ["TCG"] if report_html.tcg(rs) else []))
    return report_html.table(("side", "results", "machine", "config", "status"), rows)


def verdict_section(a, b):
    """Each side's verdict block as the console prints it
    (report.merged_block: several boots' items in one), A above B."""
    out = ['<h2 id="verdict">Verdicts, A then B</h2>']
    for side, rs in (("A", a), ("B", b)):
        block = report.merged_block(rs)
        if not block:
            out.append('<p class="banner">No verdict for %s (%s): it has no <code>verdict</code> '
                       "records.</p>" % (side, report_html.esc(rs.name)))
            continue
        out.append('<h3>%s: %s</h3><pre class="answers">%s</pre>' % (
            side, report_html.esc(rs.name), report_html.esc("\n".join(block))))
    return "".join(out)


def compare_section(a, b):
    rows = compare.table(a, b)
    head = ('<h2 id="compare">Measurements (hz compare)</h2><p>%s: "faster"/"slower" only when '
            "the whole interval lies beyond the tolerance, \"tie\" when it lies inside it, "
            '"undecided" otherwise; "too few samples" below %d a side. Rows that say %s '
            "lack samples on a side and keep the older rule: faster/slower only where the "
            'runs\' own intervals do not overlap, else "noise". Flags say which side carries '
            "them.</p>" % (report_html.esc(compare.rule_text()), decide.MIN_N,
                           compare_stat.SPREAD))
    if not rows:
        return head + "<p>No matching clear, fault or prezero records on both sides.</p>"
    extra = " ".join("TCG(%s)" % s for s, rs in (("A", a), ("B", b)) if report_html.tcg(rs))
    out = []
    for label, va, vb, said, flags in rows:
        words = [w for w in (flags + " " + extra).split() if w]
        out.append(([label, va, vb, said], words))
    return head + report_html.table(compare.TABLE_HEAD[:4], out, numeric=(1, 2))


def _fact_map(rs):
    out = {}
    for title, t, drop in report.FACT_SOURCES:
        recs = rs.of_type(t)
        if recs:
            out.update(("%s: %s" % (t, k), v) for k, v in report.fact_pairs(recs[0], drop))
    out.update(("meta.json: %s" % k, v) for k, v in report.fact_pairs(rs.meta, ("qemu_argv",)))
    return out


def facts_section(a, b):
    fa, fb = _fact_map(a), _fact_map(b)
    keys = list(fa) + [k for k in fb if k not in fa]
    rows = [([k, fa.get(k, "-"), fb.get(k, "-")],
             ["differs"] if str(fa.get(k)) != str(fb.get(k)) else []) for k in keys]
    return ('<h2 id="facts">Machine and configuration</h2>'
            "<p>Rows that differ between A and B are marked <b>differs</b>.</p>"
            + report_html.table(("fact", "A", "B"), rows))


def plots_section(pa, pb):
    by_name = {}
    for side, files in ((0, pa), (1, pb)):
        for f in files:
            by_name.setdefault(os.path.basename(f), [None, None])[side] = f
    out = ['<h2 id="plots">Plots (A left, B right)</h2>']
    for name, (fa, fb) in by_name.items():
        out.append('<div class="pair">%s%s</div>' % tuple(
            report_html.figure(f) if f else "<figure><figcaption>%s: none on this side"
            "</figcaption></figure>" % report_html.esc(name) for f in (fa, fb)))
    return "".join(out) if by_name else out[0] + "<p>No plots.</p>"


def write(a, b, path):
    """Write the A-vs-B page to path; returns the plot messages."""
    msgs = []
    with tempfile.TemporaryDirectory(prefix="hz-report-") as d:
        files = []
        for side, rs in (("a", a), ("b", b)):
            f, m = plot.draw_plots(rs, os.path.join(d, side))
            files.append(f)
            msgs += m if not f else []
        body = ["<h1>hugezero report: A vs B</h1>", _sides_table(a, b),
                report.banners(a, "A: "), report.banners(b, "B: "),
                verdict_section(a, b), compare_section(a, b), plots_section(*files),
                facts_section(a, b)]
        text = report_html.page("hugezero: %s vs %s" % (a.name, b.name),
                                "\n".join(x for x in body if x))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return msgs
