"""gnuplot itself: which PNG terminal works here, quoting, running a script,
the common head of a plot (hzlib/plot.py and hzlib/scenarios/interference_plot.py
draw with these)."""

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
