"""PNG plots of a result set, drawn by gnuplot (pngcairo, else png).

  clear_gbps[-<cache>-<bytes>].png  median GB/s by strategy, one bar per chunk
                                    size with the 95 % interval as error bar;
                                    a strategy with noisy/steal/not-cold cells
                                    is labelled [flagged <chunks>]
                                    (single-thread clear records)
  thread_scaling.png                aggregate GB/s vs threads per strategy,
                                    dashed line at the highest figure seen
  fault_cdf.png                     CDF of fault service time per policy
  faultclear_models[-<bytes>].png   median fault-service GB/s per fault_clear=
                                    model, clustered by strategy (each labelled
                                    with its predicted clear_pages() gain),
                                    95 % interval bars; one file per frame size
  vmstart_scaling.png               VM start (run=vmstart): GB/s vs faulting
                                    CPUs for none and the qemu rows (not the
                                    pre-zeroed policies: a mapping time is no
                                    rate), median with its 95 % interval
  interference.png                  victim slowdown vs zeroer GB/s per
                                    strategy (hzlib/scenarios/interference_plot.py;
                                    silent without interference records)

Each plot is skipped, with a message, when its records are absent.
"""

import math
import os
import re
import tempfile

from . import compare_stat, gnuplot, results
from .gnuplot import terminal
from .scenarios import vmstart
from .scenarios.interference_plot import plot_interference


def _number(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def _value(r):
    return _number(r.get("gbps_median", r.get("gbps")))


def _single_thread(r):
    th = r.get("threads", 1)
    return not isinstance(th, int) or th <= 1


def plot_clear(rs, outdir, work, machine):
    recs = [r for r in rs.of_type("clear") if _single_thread(r) and _value(r) is not None]
    if not recs:
        return [], ["clear_gbps: no single-thread clear records"]
    groups = {}
    for r in recs:
        groups.setdefault((str(r.get("cache")), results.human_size(r.get("bytes"))), []).append(r)
    files = []
    for (cache, nbytes), grp in groups.items():
        strategies, chunks, val, noisy = [], [], {}, {}
        for r in grp:
            s, c = str(r.get("strategy", "?")), results.human_size(r.get("chunk", "?"))
            if s not in strategies:
                strategies.append(s)
            if c not in chunks:
                chunks.append(c)
            val[(s, c)] = _bar(r)
            if any(f in ("noisy", "steal", "not-cold") for f in compare_stat.record_flags(r)):
                noisy.setdefault(s, []).append(c)
        name = "clear_gbps.png" if len(groups) == 1 else "clear_gbps-%s-%s.png" % (
            re.sub(r"[^\w.-]", "_", cache), re.sub(r"[^\w.-]", "_", nbytes))
        rows = [(s + (" [flagged %s]" % ",".join(noisy[s]) if s in noisy else ""),
                 [val.get((s, c)) for c in chunks]) for s in strategies]
        out = os.path.join(outdir, name)
        title = ("clear bandwidth by strategy and chunk size (cache=%s, %s per measurement)\n"
                 "median, bar = its 95%% interval; [flagged] = noisy, steal or not cold; %s"
                 % (cache, nbytes, machine))
        _histogram(out, title, "strategy", "chunk", chunks, rows, work)
        files.append(out)
    return files, []


def _left_margin(first_label: str, rotate: bool) -> int:
    """The left margin, in characters, that the first x label needs: rotated
    by 30 degrees and right-aligned at its tic it reaches cos 30 = 0.87 of
    its length to the left of the tic, centred half its length; 2 more for
    the y axis side, at least gnuplot's usual 10. gnuplot sizes the
    automatic margin for the y tics only, so a long first label was cut
    off at the image's edge (report.html's faultclear plot)."""
    reach = 0.87 * len(first_label) if rotate else len(first_label) / 2
    return max(10, math.ceil(reach) + 2)


def _histogram(out, title, xlabel, key_title, columns, rows, work):
    """A clustered bar chart of GB/s with error bars: one cluster per row
    (label, [(value, lo, hi) or None per column]), one bar per column. The
    gnuplot script is kept beside the data (<out>.gp in work)."""
    data = os.path.join(work, os.path.basename(out) + ".dat")
    with open(data, "w") as f:
        f.write("label " + " ".join("%s x x" % gnuplot.quote(c) for c in columns) + "\n")
        for label, vals in rows:
            f.write(gnuplot.quote(label) + " " + " ".join(
                "%s %s %s" % v if v else "? ? ?" for v in vals) + "\n")
    rotate = len(rows) > 6 or len(rows) * max(len(r[0]) for r in rows) > 90
    script = (gnuplot.head(out, title, xlabel, "GB/s (10^9 bytes/s)") +
              "set datafile missing '?'\nset style data histograms\n"
              "set style histogram errorbars gap 1 lw 1\nset style fill solid 0.8 border -1\n"
              "set yrange [0:*]\nset key title %s\n" % gnuplot.quote(key_title) +
              ("set xtics rotate by 30 right\n" if rotate else "") +
              "set lmargin %d\n" % _left_margin(rows[0][0], rotate) +
              "plot for [i=0:%d] %s using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):"
              "xtic(1) title columnheader(2+3*i)\n" % (len(columns) - 1, gnuplot.quote(data)))
    with open(os.path.join(work, os.path.basename(out) + ".gp"), "w") as f:
        f.write(script)
    gnuplot.run(script, work)


def plot_faultclear(rs, outdir, work, machine):
    """faultclear_models.png: median fault-service GB/s of every fault_clear=
    model (bars) per strategy (clusters, labelled with the predicted
    clear_pages() gain), the 95 % interval as error bar; one file per frame
    size when there are several (faultclear_models-<bytes>.png)."""
    recs = [r for r in rs.of_type("faultclear") if _value(r) is not None]
    if not recs:
        return [], ["faultclear_models: no faultclear records"]
    sizes = []
    for r in recs:
        if results.human_size(r.get("bytes")) not in sizes:
            sizes.append(results.human_size(r.get("bytes")))
    gain = {(results.human_size(g.get("bytes")), str(g.get("strategy"))): g
            for g in rs.of_type("faultclear_gain") if _number(g.get("gain")) is not None}
    files = []
    for size in sizes:
        models, strategies, val, flagged = [], [], {}, {}
        for r in recs:
            if results.human_size(r.get("bytes")) != size:
                continue
            m, s = str(r.get("model", "?")), str(r.get("strategy", "?"))
            if m not in models:
                models.append(m)
            if s not in strategies:
                strategies.append(s)
            val[(s, m)] = _bar(r)  # gbps is the median's: faultclear has no gbps_median
            if compare_stat.record_flags(r):
                flagged.setdefault(s, []).append(m)
        rows = []
        for s in strategies:
            g = gain.get((size, s))
            label = s + (" gain %.2fx%s" % (g["gain"], "?" if g.get("noisy") else "")
                         if g else "")
            if s in flagged:
                label += " [flagged %s]" % ("all" if len(flagged[s]) == len(models)
                                            else ",".join(flagged[s]))
            rows.append((label, [val.get((s, m)) for m in models]))
        name = "faultclear_models.png" if len(sizes) == 1 else \
            "faultclear_models-%s.png" % re.sub(r"[^\w.-]", "_", size)
        out = os.path.join(outdir, name)
        title = ("demand faults of %s frames by fault_clear= model (run=faultclear): frame / "
                 "median service time, bar = 95%% interval\ngain = predicted clear_pages() "
                 "gain, linux_4k / linux_batch=32M (? = a side noisy); [flagged] = noisy or "
                 "steal\n%s" % (size, machine))
        _histogram(out, title, "strategy", "model", models, rows, work)
        files.append(out)
    return files, []


def _bar(r):
    """(value, lo, hi) of a clear record: its median and interval, else the
    value alone (no error bar)."""
    v = _value(r)
    lo, hi = r.get("gbps_lo"), r.get("gbps_hi")
    if _number(lo) is None or _number(hi) is None:
        lo = hi = v
    return v, lo, hi


def plot_threads(rs, outdir, work, machine):
    recs = [r for r in rs.of_type("clear")
            if isinstance(r.get("threads"), int) and _value(r) is not None]
    if not any(r["threads"] > 1 for r in recs):
        return [], ["thread_scaling: no clear records with threads > 1"]
    series = {}
    for r in recs:
        if r["threads"] == 1 and not any(o["threads"] > 1 and o.get("bytes") == r.get("bytes")
                                         for o in recs):
            continue  # a single-thread run of another size (e.g. run=clear's in-cache target)
        key = (str(r.get("strategy", "?")), results.human_size(r.get("chunk", "?")),
               str(r.get("cache")))
        series.setdefault(key, {}).setdefault(r["threads"], []).append(_value(r))
    series = {k: v for k, v in series.items() if any(t > 1 for t in v)}
    peaks = [r.get("gbps") for r in rs.of_type("smp_peak")
             if isinstance(r.get("gbps"), (int, float))]
    peak = peaks[-1] if peaks else max(_value(r) for r in recs if r["threads"] > 1)
    plots = []
    for i, ((strat, chunk, cache), pts) in enumerate(sorted(series.items())):
        data = os.path.join(work, "threads%d.dat" % i)
        with open(data, "w") as f:
            for t in sorted(pts):
                f.write("%d %s\n" % (t, sorted(pts[t])[len(pts[t]) // 2]))
        label = "%s %s" % (strat, chunk) + (" cache=%s" % cache if cache != "None" else "")
        plots.append("%s using 1:2 with linespoints lw 2 title %s"
                     % (gnuplot.quote(data), gnuplot.quote(label)))
    plots.append("%s with lines dt 2 lc rgb 'black' title %s"
                 % (peak, gnuplot.quote("peak %.3f GB/s" % peak)))
    counts = sorted({t for pts in series.values() for t in pts})
    out = os.path.join(outdir, "thread_scaling.png")
    gnuplot.run(gnuplot.head(out, "thread scaling\n%s" % machine, "threads",
                             "aggregate GB/s (10^9 bytes/s)") +
                "set yrange [0:*]\nset xrange [%g:%g]\nset xtics (%s)\nplot "
                % (counts[0] - 0.5, counts[-1] + 0.5, ", ".join(str(t) for t in counts))
                + ", ".join(plots) + "\n", work)
    return [out], []


def plot_faults(rs, outdir, work, machine):
    faults = [r for r in rs.of_type("fault") if isinstance(r.get("service_ns"), (int, float))
              and not isinstance(r.get("service_ns"), bool)]
    sizes = {r.get("bytes") for r in faults}
    by_policy = {}
    for r in faults:  # one line per policy, per page size when there are several
        name = str(r.get("policy", "?"))
        if len(sizes) > 1:
            name += " " + results.human_size(r.get("bytes"))
        by_policy.setdefault(name, []).append(r["service_ns"])
    if not by_policy:
        return [], ["fault_cdf: no fault records with service_ns"]
    plots, lo, hi = [], None, None
    for i, (pol, vals) in enumerate(sorted(by_policy.items())):
        vals.sort()
        lo = vals[0] if lo is None else min(lo, vals[0])
        hi = vals[-1] if hi is None else max(hi, vals[-1])
        data = os.path.join(work, "fault%d.dat" % i)
        with open(data, "w") as f:
            f.write("%s 0\n" % (vals[0] / 1000))
            for n, v in enumerate(vals, 1):
                f.write("%s %s\n" % (v / 1000, n / len(vals)))
        plots.append("%s using 1:2 with steps lw 2 title %s"
                     % (gnuplot.quote(data), gnuplot.quote("%s (%d faults)" % (pol, len(vals)))))
    logx = "set logscale x\n" if lo and hi / lo > 10 else ""
    out = os.path.join(outdir, "fault_cdf.png")
    gnuplot.run(gnuplot.head(out, "fault service time CDF by pre-zero policy\n%s" % machine,
                             "fault service time (microseconds)", "fraction of faults") +
                logx + "set yrange [0:1]\nset key inside right bottom\nplot " +
                ", ".join(plots) + "\n", work)
    return [out], []


def plot_vmstart(rs, outdir, work, machine):
    # GB/s only where the faults clear (none, the qemu rows; older records'
    # fill): a pre-zeroed policy's wall time maps frames, it is no rate
    recs = [r for r in rs.of_type("vmstart") if isinstance(r.get("threads"), int)
            and _value(r) is not None and not vmstart.prezeroed(r.get("policy"))]
    if not recs:
        return [], ["vmstart_scaling: no vmstart records"]
    series = {}
    for r in recs:
        series.setdefault(str(r.get("policy", "?")), {})[r["threads"]] = _bar(r)
    plots = []
    for i, (pol, pts) in enumerate(sorted(series.items())):
        data = os.path.join(work, "vmstart%d.dat" % i)
        with open(data, "w") as f:
            for t in sorted(pts):
                f.write("%d %s %s %s\n" % ((t,) + pts[t]))
        noisy = any(r.get("noisy") is True for r in recs if r.get("policy") == pol)
        plots.append("%s using 1:2:3:4 with yerrorlines lw 2 title %s" % (
            gnuplot.quote(data), gnuplot.quote(pol + (" [noisy]" if noisy else ""))))
    vals = [v for pts in series.values() for p in pts.values() for v in p if v]
    logy = "set logscale y\n" if vals and max(vals) / min(vals) > 10 else "set yrange [0:*]\n"
    counts = sorted({t for pts in series.values() for t in pts})
    size = results.human_size(recs[0].get("bytes"))
    out = os.path.join(outdir, "vmstart_scaling.png")
    title = ("VM start: %s faulted in by T CPUs, each fault clearing, median and 95%% "
             "interval\npre-zeroed policies (mapping only) not plotted: see vmstart_cost; %s"
             % (size, machine))
    gnuplot.run(gnuplot.head(out, title,
                             "faulting CPUs T", "GB/s (10^9 bytes/s)") +
                logy + "set xrange [%g:%g]\nset xtics (%s)\nplot "
                % (counts[0] - 0.5, counts[-1] + 0.5, ", ".join(str(t) for t in counts))
                + ", ".join(plots) + "\n", work)
    return [out], []


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
        for fn in (plot_clear, plot_threads, plot_faults, plot_faultclear, plot_vmstart,
                   plot_interference):
            f, m = fn(rs, outdir, work, machine)
            files += f
            msgs += m
    return files, msgs
