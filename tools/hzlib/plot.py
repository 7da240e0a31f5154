"""hz plot: the PNG plots of a result set, drawn by gnuplot (pngcairo, else
png, gnuplot.py). Each scenario's module (tools/hzlib/scenarios/) draws
its own; plot_all() walks the registry in its order:

  clear_gbps[-<cache>-<bytes>].png  median GB/s by strategy, one bar per chunk
                                    size with the 95 % interval as error bar;
                                    a strategy with noisy/steal/not-cold cells
                                    is labelled [flagged <chunks>]
                                    (single-thread clear records; clear.py)
  thread_scaling.png                aggregate GB/s vs threads per strategy,
                                    dashed line at the highest figure seen
                                    (clear.py)
  fault_cdf.png                     CDF of fault service time per policy
                                    (fault.py)
  faultclear_models[-<bytes>].png   median fault-service GB/s per fault_clear=
                                    model, clustered by strategy (each labelled
                                    with its predicted clear_pages() gain),
                                    95 % interval bars; one file per frame size
                                    (faultclear.py)
  vmstart_scaling.png               VM start (run=vmstart): GB/s vs faulting
                                    CPUs for none and the qemu rows (not the
                                    pre-zeroed policies: a mapping time is no
                                    rate), median with its 95 % interval
                                    (vmstart.py)
  interference.png                  victim slowdown vs zeroer GB/s per
                                    strategy (interference_plot.py; silent
                                    without interference records)

Each plot is skipped, with a message, when its records are absent.
"""

import os
import tempfile

from . import results, scenarios
from .gnuplot import terminal


def plot_all(rs, outdir):
    """Draw every plot the records allow. Returns (files, messages)."""
    if not terminal():
        return [], ["plots skipped: gnuplot with a png terminal not found "
                    "(apt-get install gnuplot-nox)"]
    outdir = os.path.abspath(outdir)  # gnuplot runs in a scratch folder
    os.makedirs(outdir, exist_ok=True)
    machine = results.machine(rs)
    files, msgs = [], []
    with tempfile.TemporaryDirectory(prefix="hz-plot-") as work:
        for fn in (fn for s in scenarios.ALL for fn in s.plots):
            f, m = fn(rs, outdir, work, machine)
            files += f
            msgs += m
    return files, msgs


def draw_plots(rs, outdir):
    """plot_all(rs, outdir), its failure as a message: (files, messages)."""
    try:
        return plot_all(rs, outdir)
    except RuntimeError as e:
        return [], [str(e)]
