"""gnuplot itself: which PNG terminal works here, quoting, running a script,
the common head of a plot and the clustered bar chart with error bars (the
scenarios' plots, tools/hzlib/scenarios/, draw with these; plot.py runs
them)."""

import math
import os
import shutil
import subprocess
import textwrap

_TERMINAL = None


def terminal():
    """The gnuplot PNG terminal that works here, or None (no gnuplot)."""
    global _TERMINAL
    if _TERMINAL is None:
        _TERMINAL = ""
        if shutil.which("gnuplot"):
            for term in ("pngcairo", "png"):
                p = subprocess.run(["gnuplot", "-e", "set terminal %s" % term],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if p.returncode == 0:
                    _TERMINAL = term
                    break
    return _TERMINAL or None


def quote(s):
    """A gnuplot double-quoted string (a newline becomes a line break)."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def run(script, work):
    p = subprocess.run(["gnuplot"], input=script.encode(), cwd=work,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise RuntimeError("gnuplot failed:\n" + p.stdout.decode(errors="replace"))


# Title columns that fit the plot: a 1000-pixel plot in sans 10 (about 6
# pixels a character) is about 160 columns wide, less its key; the
# 1500-pixel multiplot in sans 9 about 270.
TITLE_COLUMNS = 110
MULTIPLOT_TITLE_COLUMNS = 180


def fit(title, columns=TITLE_COLUMNS):
    """title with each of its lines wrapped to `columns`, so that it does
    not run off the plot (a machine name or -cpu model can be long)."""
    return "\n".join(w for line in str(title).split("\n")
                     for w in textwrap.wrap(line, columns, break_on_hyphens=False) or [""])


def head(out, title, xlabel, ylabel):
    """The script's first lines: the PNG terminal at 1000 x 600, the
    output, the title fitted to the plot (fit), the axis labels."""
    return ("set terminal %s size 1000,600 noenhanced font 'sans,10'\n"
            "set output %s\nset title %s\nset xlabel %s\nset ylabel %s\n"
            "set grid ytics\nset key outside right top\n"
            % (terminal(), quote(out), quote(fit(title)), quote(xlabel), quote(ylabel)))


def number(x):
    """x when it is a number (not a bool), else None."""
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def value(r):
    """A record's GB/s: its median gbps_median, else gbps, else None."""
    return number(r.get("gbps_median", r.get("gbps")))


def bar(r):
    """(value, lo, hi) of a clear record: its median and interval, else the
    value alone (no error bar)."""
    v = value(r)
    lo, hi = r.get("gbps_lo"), r.get("gbps_hi")
    if number(lo) is None or number(hi) is None:
        lo = hi = v
    return v, lo, hi


def left_margin(first_label: str, rotate: bool) -> int:
    """The left margin, in characters, that the first x label needs: rotated
    by 30 degrees and right-aligned at its tic it reaches cos 30 = 0.87 of
    its length to the left of the tic, centred half its length; 2 more for
    the y axis side, at least gnuplot's usual 10. gnuplot sizes the
    automatic margin for the y tics only, so a long first label was cut
    off at the image's edge (report.html's faultclear plot)."""
    reach = 0.87 * len(first_label) if rotate else len(first_label) / 2
    return max(10, math.ceil(reach) + 2)


def histogram(out, title, xlabel, key_title, columns, rows, work):
    """A clustered bar chart of GB/s with error bars: one cluster per row
    (label, [(value, lo, hi) or None per column]), one bar per column. The
    gnuplot script is kept beside the data (<out>.gp in work)."""
    data = os.path.join(work, os.path.basename(out) + ".dat")
    with open(data, "w") as f:
        f.write("label " + " ".join("%s x x" % quote(c) for c in columns) + "\n")
        for label, vals in rows:
            f.write(quote(label) + " " + " ".join(
                "%s %s %s" % v if v else "? ? ?" for v in vals) + "\n")
    rotate = len(rows) > 6 or len(rows) * max(len(r[0]) for r in rows) > 90
    script = (head(out, title, xlabel, "GB/s (10^9 bytes/s)") +
              "set datafile missing '?'\nset style data histograms\n"
              "set style histogram errorbars gap 1 lw 1\nset style fill solid 0.8 border -1\n"
              "set yrange [0:*]\nset key title %s\n" % quote(key_title) +
              ("set xtics rotate by 30 right\n" if rotate else "") +
              "set lmargin %d\n" % left_margin(rows[0][0], rotate) +
              "plot for [i=0:%d] %s using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):"
              "xtic(1) title columnheader(2+3*i)\n" % (len(columns) - 1, quote(data)))
    with open(os.path.join(work, os.path.basename(out) + ".gp"), "w") as f:
        f.write(script)
    run(script, work)
