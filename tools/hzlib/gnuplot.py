"""gnuplot itself: which PNG terminal works here, quoting, running a script,
the common head of a plot (hzlib/plot.py and hzlib/plot_interference.py
draw with these)."""

import shutil
import subprocess

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


def head(out, title, xlabel, ylabel):
    return ("set terminal %s size 1000,600 noenhanced font 'sans,10'\n"
            "set output %s\nset title %s\nset xlabel %s\nset ylabel %s\n"
            "set grid ytics\nset key outside right top\n"
            % (terminal(), quote(out), quote(title), quote(xlabel), quote(ylabel)))
