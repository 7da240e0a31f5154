"""run=vmstart's host side (`vmstart`, `vmstart_knee`, `vmstart_cost`,
`vmstart_model`, scenarios/vmstart/records.md) in hz compare, report.html, hz plot and
make bench.

  compare  one row per (policy, threads, bytes, strategy) cell: GB/s with
           the median's interval (none for a one-repeat cell); the
           vmstart_model records member by member (a model, so labelled)
  page     the cells, then knees(), costs() and models()
  plot     vmstart_scaling.png: GB/s against faulting CPUs T for none and
           each qemu row (not the pre-zeroed policies: a mapping time is no
           rate), median with its 95 % interval, log y past a 10x range
  bench    report() under a heading (make bench, tools/bench.py)

report() gives the table of the `vmstart` cells (scenarios/vmstart/records.md: policy,
T, median wall time with its 95 % interval, GB/s where the faults clear
(none and the qemu rows; none for the pre-zeroed policies, whose wall time
is a mapping time), the pre-zeroing before the faults, the hit ratio, the
faults and the qemu rows' clear calls per repeat, flags), the knees
(`vmstart_knee`, measured), each pre-zeroed policy's own costs
(`vmstart_cost`) and the qemu rows' model (`vmstart_model`): every model
line starts with MODEL and states S (in the unit vm_bytes= was written
in), T, r1, the ceiling B and where B came from. Durations go through
fmtns.fmt_ns, the kernel's rounding rule, so the console and the report
print the same figure.
"""

import os
from typing import Any, List, Sequence

from .. import gnuplot, results
from ..compare_rows import group
from ..compare_stat import Stat, record_flags, sample_count, table_ci_label
from ..compare_stat import num as _num  # a number, not a bool, else None
from ..fmtns import fmt_ns_any as _t
from ..report_html import esc, fmt, interval, row_flags
from ..report_html import table as html_table
from ..schema import VMSTART_KEY, Record, key
from .base import BenchBoot, BenchContext, Scenario

PREZEROED = ("boot", "idle")  # and every "batch=N"


def prezeroed(policy: Any) -> bool:
    """True for boot, idle and batch=N: frames zeroed before the VM."""
    return isinstance(policy, str) and (policy in PREZEROED or policy.startswith("batch"))


def _flags(r: Record) -> str:
    return " ".join(f for f, on in (("NOISY", r.get("noisy") is True),
                                    ("FAILED", r.get("verified") is False),
                                    ("ring0-emulated", r.get("emulated_ring0") is True)) if on)


def table(recs: Sequence[Record]) -> List[str]:
    """One line per vmstart cell, in record order, under a header."""
    cells = [r for r in recs if r.get("t") == "vmstart"]
    if not cells:
        return []
    out = ["%-10s %3s %30s %20s %8s %9s %7s %6s %8s" % (
        "policy", "T", "wall [%s]" % table_ci_label(cells), "GB/s [interval]", "per CPU",
        "pre-zero", "hit %", "faults", "clears")]
    for r in cells:
        wall = "%s [%s..%s]" % (_t(r.get("wall_ns")), _t(r.get("ci_lo_ns")),
                                _t(r.get("ci_hi_ns")))
        if prezeroed(r.get("policy")) or r.get("gbps") is None:
            g, pt = "-", "-"  # a mapping time, not a zeroing rate
        else:
            g = "%s [%s..%s]" % tuple(str(r.get(k, "?")) for k in ("gbps", "gbps_lo", "gbps_hi"))
            pt = str(r.get("gbps_per_thread", "?"))
        hit = r.get("hit_pct")
        calls = r.get("clear_calls_per_repeat") if r.get("path") == "qemu" else "-"
        out.append(("%-10s %3s %30s %20s %8s %9s %7s %6s %8s %s" % (
            r.get("policy"), r.get("threads"), wall, g, pt, _t(r.get("prezero_ns")),
            "-" if hit is None else hit, r.get("faults_per_repeat", "?"), calls,
            _flags(r))).rstrip())
    return out


def knees(recs: Sequence[Record]) -> List[str]:
    """One line: the knee of none and each qemu row (measured)."""
    parts = []
    for r in recs:
        if r.get("t") == "vmstart_knee" and not prezeroed(r.get("policy")):
            k = r.get("knee_threads")
            parts.append("%s %s" % (r.get("policy"), "T=%s" % k if k is not None else
                                    "none in 1..%s" % r.get("threads_max")))
    return ["knee (first T vs T-1 a plateau or below linear at the tolerance, measured): %s"
            % "; ".join(parts)] if parts else []


def costs(recs: Sequence[Record]) -> List[str]:
    """Each pre-zeroed policy's own costs (measured): no GB/s."""
    out = []
    for r in recs:
        if r.get("t") != "vmstart_cost":
            continue
        out.append("%s: its own costs: pre-zeroing before the VM start %s on %s CPU (%s of CPU), "
                   "then mapping during it %s [%s..%s] at T=%s, %s %% of the faults pre-zeroed "
                   "(measured)" % (
                       r.get("policy"), _t(r.get("prezero_ns")), r.get("prezero_cpus", "?"),
                       _t(r.get("prezero_cpu_ns")), _t(r.get("map_ns")),
                       _t(r.get("map_ci_lo_ns")), _t(r.get("map_ci_hi_ns")), r.get("threads"),
                       r.get("hit_pct", "?")))
    return out


def size_text(nbytes: Any, decimal: bool) -> str:
    """S as the kernel prints it (lib/vmmodel.h vm_size_text): TB or GB for
    a decimal size, TiB or GiB for a binary one, up to three decimals
    rounded half up, trailing zeros dropped ("2 TB", "2.199 TB")."""
    if _num(nbytes) is None or nbytes < 0:
        return "?"
    t, g = (10 ** 12, 10 ** 9) if decimal else (1 << 40, 1 << 30)
    unit = t if nbytes >= t else g
    name = ("TB" if unit == t else "GB") if decimal else ("TiB" if unit == t else "GiB")
    v = nbytes // unit * 1000 + (nbytes % unit * 1000 + unit // 2) // unit
    digits = 3
    while digits and v % 10 == 0 and v >= 10:
        v //= 10
        digits -= 1
    num = "%d.%0*d" % (v // 10 ** digits, digits, v % 10 ** digits) if digits else "%d" % v
    return "%s %s" % (num, name)


def _size(r: Record) -> str:
    text = r.get("vm_bytes_text")
    if not isinstance(text, str):
        return "?"
    return "%s (vm_bytes=%s)" % (size_text(r.get("vm_bytes"), not text.endswith("iB")), text)


def models(recs: Sequence[Record]) -> List[str]:
    """The qemu rows' model, labelled MODEL, with T, S, r1, B and B's source.
    Records from before the qemu rows (no ceiling_source) are not models of
    this kind: they are named as old and not extrapolated again."""
    out = []
    for r in recs:
        if r.get("t") != "vmstart_model":
            continue
        if "ceiling_source" not in r:
            out.append("MODEL %s: a record of the older 2 TiB model (no ceiling): not shown"
                       % r.get("policy"))
            continue
        src = r.get("ceiling_source")
        b = ("unknown" if src == "unknown" else "%s GB/s (%s)" % (
            r.get("ceiling_gbps"), "measured plateau" if src == "measured"
            else "bw_ceiling= option"))
        t = _t(r.get("model_ns")) if _num(r.get("model_ns")) is not None else "none"
        how = (" (a lower bound from per-thread scaling; no upper bound without B)"
               if r.get("lower_bound") is True else " (B sets it)" if r.get("capped") is True
               else " (T x r1 sets it)")
        if src == "option":  # the user's B: a model that decides nothing
            how += "; model (B given): it decides nothing"
        out.append("MODEL %s (fault_clear=%s): t = S / min(T x r1, B), S = %s, T = %s, r1 = %s "
                   "GB/s (T=1), B = %s, plateau test %s: t %s %s%s; seed thread's claim: > %s "
                   "for 2 TB with 16 threads" % (
                       r.get("policy"), r.get("fault_clear"), _size(r), r.get("threads"),
                       r.get("per_thread_gbps"), b, r.get("plateau") or "not made",
                       ">=" if r.get("lower_bound") is True else "=", t, how,
                       _t(r.get("claim_min_ns"))))
    return out


def report(recs: Sequence[Record]) -> List[str]:
    """table() + knees() + costs() + models(): the lines make bench prints."""
    return table(recs) + knees(recs) + costs(recs) + models(recs)


def vmstart_label(k):
    return "vmstart policy=%s threads=%s bytes=%s %s GB/s" % (
        k[0], k[1], results.human_size(k[2]), k[3])


def _vmstart_stat(r):
    """Stat of a vmstart cell: its GB/s and median interval, or None."""
    v, lo, hi = _num(r.get("gbps")), _num(r.get("gbps_lo")), _num(r.get("gbps_hi"))
    if v is None:
        return None
    flags = record_flags(r)  # noisy, and unverified when a check of the cell failed
    n = sample_count([r])
    if None in (lo, hi) or r.get("repeats") == 1:
        return Stat(v, cv=_num(r.get("cv_pct")), flags=flags, samples=n)
    return Stat(v, lo, hi, _num(r.get("cv_pct")), ci=True, flags=flags, samples=n)


def vmstart_rows(a, b):
    """[(label, Stat A, Stat B, True)] for matching vmstart cells (the last
    record of a cell on each side)."""
    ga = group(a.of_type("vmstart"), lambda r: key(r, VMSTART_KEY))
    gb = group(b.of_type("vmstart"), lambda r: key(r, VMSTART_KEY))
    rows = []
    for k in ga:
        sa, sb = _vmstart_stat(ga[k][-1]), _vmstart_stat(gb[k][-1]) if k in gb else None
        if sa and sb:
            rows.append((vmstart_label(k), sa, sb, True))
    return rows


def _ns_interval(r):
    """A wall-time record's ci_lo_ns..ci_hi_ns by the kernel's rounding rule."""
    return "%s..%s" % (_t(r.get("ci_lo_ns")), _t(r.get("ci_hi_ns")))


def vmstart_section(rs):
    cells = rs.of_type("vmstart")
    if not cells:
        return ""
    rows = [([r.get("policy"), r.get("path"), r.get("strategy"), r.get("threads"),
              "%s x %s" % (r.get("pages"), results.human_size(r.get("frame_bytes"))),
              _t(r.get("wall_ns")), _ns_interval(r), fmt(r.get("cv_pct"), "%.2f"),
              # GB/s as the console prints it: the record's three decimals
              "-" if prezeroed(r.get("policy")) else fmt(r.get("gbps"), "%.3f"),
              "-" if prezeroed(r.get("policy"))
              else interval(r.get("gbps_lo"), r.get("gbps_hi"), "%.3f"),
              _t(r.get("prezero_ns")), fmt(r.get("hit_pct"))], row_flags(r, rs))
            for r in cells]
    # the knees and costs (measured) and the qemu rows' model, every line of it marked MODEL
    lines = knees(rs.records) + costs(rs.records) + models(rs.records)
    return ('<h2 id="vmstart">VM start (run=vmstart)</h2><p>Median wall time of S = frames x '
            "size under each policy with T CPUs faulting (qemu rows: policy none with "
            "fault_clear=linux_4k and linux_batch=32M, QEMU's touch-every-page start), with its "
            "interval (%s). GB/s only where the faults clear: the pre-zeroed policies map frames "
            "zeroed before, so their row has their own costs instead.</p>"
            % table_ci_label(cells) +
            html_table(("policy", "path", "strategy", "T", "frames", "wall", "interval", "CV %",
                        "GB/s", "GB/s interval", "pre-zero", "hit %"), rows,
                       numeric=tuple(range(3, 12))) +
            "<p>%s</p>" % "<br>".join(esc(line) for line in lines))


def plot_vmstart(rs, outdir, work, machine):
    # GB/s only where the faults clear (none, the qemu rows; older records'
    # fill): a pre-zeroed policy's wall time maps frames, it is no rate
    recs = [r for r in rs.of_type("vmstart") if isinstance(r.get("threads"), int)
            and gnuplot.value(r) is not None and not prezeroed(r.get("policy"))]
    if not recs:
        return [], ["vmstart_scaling: no vmstart records"]
    series = {}
    for r in recs:
        series.setdefault(str(r.get("policy", "?")), {})[r["threads"]] = gnuplot.bar(r)
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


def bench_lines(recs: Sequence[Record], ctx: BenchContext) -> List[str]:
    """make bench's run=vmstart block: report() under a heading."""
    lines = report(recs)
    if not lines:
        return ["run=vmstart: no vmstart records (see %s)" % ctx.folder]
    return (["run=vmstart, %d CPUs, zero=%s  [%s]:" % (ctx.cpus, ctx.strategy, ctx.note)]
            + ["  " + line for line in lines])


SCENARIO = Scenario(
    "vmstart", types=("vmstart", "vmstart_knee", "vmstart_cost", "vmstart_model"),
    sections=(vmstart_section,), plots=(plot_vmstart,), rows=(vmstart_rows,),
    generic=("vmstart_model",), cells=(("vmstart", lambda r: key(r, VMSTART_KEY), vmstart_label),),
    bench=BenchBoot(lambda strategy: ["run=vmstart", "zero=" + strategy], "8G", True, bench_lines))
