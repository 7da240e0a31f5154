"""HTML building blocks of hz report's pages (report.py, report_pair.py).

The page skeleton (string.Template) with its CSS: plain black on white,
tables that wrap long values instead of overflowing, and an @media print
block for A4 PDFs (rows and figures not split across pages, table heads
repeated). table() gives every row whose figure cannot be read at face
value a flags column in words and the flagged class; row_flags() says which
words: noisy, steal, not-cold (cache_verified:false), unverified, TCG (no
hardware timing), clock (TSC not reliable), ring0-emulated (a CPL-0 path
timed in the hypervisor's emulator), above-peak, 1-sample. PNGs are
embedded as data: URIs, so a page needs nothing else. ms() and us() give
nanoseconds as milliseconds and microseconds.
"""

import base64
import html
import os
import string

from . import compare_stat
from .results import tcg

CSS = """
body { font: 14px/1.4 sans-serif; color: #111; background: #fff; max-width: 1180px;
       margin: 1em auto; padding: 0 1em; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.2em; margin: 1.4em 0 .4em;
     border-bottom: 1px solid #999; } h3 { font-size: 1em; margin: 1em 0 .3em; }
p.sub { margin: 0; color: #444; }
table { border-collapse: collapse; width: 100%; font-size: 12px; margin: .3em 0 .8em; }
th, td { border: 1px solid #bbb; padding: 2px 5px; text-align: left; vertical-align: top;
         overflow-wrap: anywhere; }
th { background: #eee; overflow-wrap: normal; }
table.kv th { width: 16em; white-space: nowrap; }
td.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.flags { font-weight: bold; color: #8a3b00; }
tr.flagged td { background: #fff4d6; }
tr.flagged td:first-child { border-left: 4px solid #c77700; }
.banner { border: 2px solid #b00; padding: .4em .6em; margin: .6em 0; font-weight: bold; }
.cells { color: #555; font-size: 11px; }
pre.answers { font-size: 13px; line-height: 1.35; background: #f6f6f6; padding: .5em .7em;
              border: 1px solid #ccc; overflow-x: auto; margin: .4em 0; }
details { margin: .3em 0 .8em; } details > summary { cursor: pointer; color: #333; }
details h4 { margin: .8em 0 .2em; font-size: 1em; }
table.grid td { white-space: pre-line; }
figure { margin: .6em 0 1em; } figure img { max-width: 100%; height: auto; border: 1px solid #ccc; }
figcaption { font-size: 12px; color: #444; }
.pair { display: flex; gap: 8px; } .pair figure { flex: 1; min-width: 0; }
@page { size: A4; margin: 12mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  table { font-size: 8pt; } tr, figure, .banner { break-inside: avoid; }
  thead { display: table-header-group; } h2, h3 { break-after: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""

PAGE = string.Template("""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="generator" content="hugezero tools/hz report">
<title>$title</title>
<style>$css</style>
</head><body>
$body
</body></html>
""")


def esc(x):
    return html.escape("" if x is None else str(x))


def page(title, body):
    """A whole HTML document: the title, the CSS above, body (HTML text)."""
    return PAGE.substitute(title=esc(title), css=CSS, body=body)


def num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def fmt(v, spec="%.3g"):
    """A figure as text: numbers by spec, null as "-", other values as they are."""
    if v is None:
        return "-"
    return spec % v if num(v) is not None and isinstance(v, float) else str(v)


def ms(ns, spec="%.2f"):
    """Nanoseconds as milliseconds text ("-" for none)."""
    return fmt(ns / 1e6 if num(ns) is not None else None, spec)


def us(ns):
    """Nanoseconds as microseconds text, one decimal ("-" for none)."""
    return fmt(ns / 1e3 if num(ns) is not None else None, "%.1f")


def interval(lo, hi, spec="%.2f"):
    return "[%s..%s]" % (spec % lo, spec % hi) if num(lo) is not None and num(hi) is not None \
        else "-"


def table(head, rows, numeric=(), cls=""):
    """An HTML table. rows: (cells, flags) pairs; a row with flags gets them in
    a last "flags" column and the flagged class. numeric: the column indices
    set right-aligned."""
    out = ['<table%s><thead><tr>' % (' class="%s"' % cls if cls else "")]
    out += ["<th>%s</th>" % esc(h) for h in list(head) + ["flags"]]
    out.append("</tr></thead><tbody>")
    for cells, flags in rows:
        out.append('<tr class="flagged">' if flags else "<tr>")
        out += ['<td class="n">%s</td>' % esc(c) if i in numeric else "<td>%s</td>" % esc(c)
                for i, c in enumerate(cells)]
        out.append('<td class="flags">%s</td></tr>' % esc(" ".join(flags)))
    out.append("</tbody></table>")
    return "".join(out)


def kv_table(pairs):
    """A two-column table of (name, value) text pairs."""
    return '<table class="kv">%s</table>' % "".join(
        "<tr><th>%s</th><td>%s</td></tr>" % (esc(k), esc(v)) for k, v in pairs)


def row_flags(r, rs):
    """The words that say why a record's figure cannot be read at face value."""
    f = compare_stat.record_flags(r)
    for word, on in (("above-peak", r.get("above_peak") is True),
                     ("ring0-emulated", r.get("emulated_ring0") is True),
                     ("1-sample", r.get("repeats") == 1)):
        if on:
            f.append(word)
    if tcg(rs):
        f.append("TCG")
    elif r.get("clock_reliable") is False or any(t.get("reliable") is False
                                                 for t in rs.of_type("tsc")):
        f.append("clock")
    return f


def embed_png(path):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    return '<img src="data:image/png;base64,%s" alt="%s">' % (data, esc(os.path.basename(path)))


def figure(path):
    return "<figure>%s<figcaption>%s</figcaption></figure>" % (embed_png(path),
                                                               esc(os.path.basename(path)))
