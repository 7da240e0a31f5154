"""hz plot and hz report (reference: docs/tools.md), beside cli.py."""

import os
import sys

from . import (cli_answers, compare, plot, report, report_pair, report_short, report_text,
               results)


def print_diags(diags):
    for d in diags:
        print(d, file=sys.stderr)


def load_all(paths):
    """The result sets at paths (their diagnostics printed), or None after
    printing why one cannot be read."""
    try:
        sets = [results.load(p) for p in paths]
    except (OSError, ValueError) as e:
        print("hz: %s" % e, file=sys.stderr)
        return None
    print_diags([d for rs in sets for d in rs.diags + rs.stream_problems])
    for rs in sets:
        if rs.stream_warning():
            print("hz: " + rs.stream_warning(), file=sys.stderr)
    return sets


def cmd_plot(a):
    try:
        rs = results.load(a.path)
    except (OSError, ValueError) as e:
        print("hz: %s" % e, file=sys.stderr)
        return 2
    print_diags(rs.diags)
    out = a.out or (a.path if os.path.isdir(a.path) else os.path.dirname(a.path) or ".")
    try:
        files, msgs = plot.plot_all(rs, out)
    except RuntimeError as e:
        print("hz: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("hz: plot: cannot write into %s: %s" % (out, e.strerror or e), file=sys.stderr)
        return 2
    for m in msgs:
        print("hz: plot: %s" % m, file=sys.stderr)
    for f in files:
        print(f)
    return 0 if files else 1


def cmd_report(a):
    if len(a.paths) > 2:
        print("hz: report takes one or two result sets (for more: hz compare A B C...)",
              file=sys.stderr)
        return 2
    if a.full and not a.text:
        print("hz: report --full goes with --text", file=sys.stderr)
        return 2
    sets = load_all(a.paths)
    if sets is None:
        return 2
    if a.text:
        return _write_text(text_of(sets, a.full), a.out)
    if len(sets) == 1:
        p = a.paths[0]
        out = a.out or os.path.join(p if os.path.isdir(p) else os.path.dirname(p) or ".",
                                    "report.html")
    else:
        out = a.out or report_pair.default_path(*a.paths)
    if os.path.isdir(out):
        print("hz: report: -o %s is a folder; give the HTML file to write" % out, file=sys.stderr)
        return 2
    try:
        msgs = (report.write(sets[0], out) if len(sets) == 1 else
                report_pair.write(sets[0], sets[1], out))
    except OSError as e:
        print("hz: report: cannot write %s: %s" % (out, e.strerror or e), file=sys.stderr)
        return 2
    for m in msgs:
        print("hz: plot: %s" % m, file=sys.stderr)
    print(out)
    return 0


def _write_text(text, out):
    """hz report --text: to stdout, or to the file out."""
    if not out:
        sys.stdout.write(text)
        return 0
    try:
        with open(out, "w", encoding="ascii") as f:
            f.write(text)
    except OSError as e:
        print("hz: report: cannot write %s: %s" % (out, e.strerror or e), file=sys.stderr)
        return 2
    print(out)
    return 0


def text_of(sets, full):
    """hz report --text of one result set or of A B, short or --full; one
    set whose records hold the thread's three answers (make answers) gets
    their block at its top."""
    if len(sets) == 1:
        rs = sets[0]
        block = cli_answers.block_of(rs.records, rs.meta)
        top = "\n".join(block) + "\n\n" if block else ""
        return top + (report_text.text(rs) if full else report_short.text(rs))
    if full:
        return "\n".join(compare.compare(*sets)[0]) + "\n"
    return report_short.pair_text(*sets)
