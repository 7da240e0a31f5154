"""hzlib - host-side tools for hugezero (Python 3 standard library only).

Modules, in data-path order:
  records   pull `@hz {json}` records out of a noisy serial capture
  results   results folders: records.jsonl, summary.csv, meta.json, loading
  qemu      QEMU command lines for the boot paths, per-run GRUB images
  probe     which accelerator and -cpu model boot on this host (cached)
  hugepages host huge page pools and hugetlbfs mounts (guest RAM, bench)
  runner    boot once under a timeout, stream the console, map the exit status
  compare   side-by-side comparison of two result sets (compare_rows: which
            records pair up; compare_stat: the Hodges-Lehmann rule, decide)
  plot      PNG plots through gnuplot
  report    report.html: verdict, plots, tables, machine facts on one page
            (report_html: page and flags, scenarios/: each scenario's tables,
            report_pair: two result sets side by side, report_text: the
            plain-text reply, hz report --text)
  lava      LAVA job definitions (lab/lava/) and LAVA job logs back to results
  cli       the `hz` command (tools/hz)

Record format and exit statuses: docs/results.md. Command reference:
docs/tools.md.
"""

import os

# The source tree: tools/hzlib/__init__.py -> tools/hzlib -> tools -> root.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
