"""run=fault's host side: the demand faults (`fault` records, one per
fault, scenarios/fault/records.md; run=policies' workloads fault too, each a row of
its own by `workload`) in hz compare, report.html and hz plot.

  compare  per (workload, policy, page size) on both sides: the median
           and, with P99_MIN_N faults a side, the 99th percentile of
           service_ns and the median clear_ns, each fault one sample
           (compare_rows' module comment)
  page     one row per (scenario, policy, page size): faults, pre-zeroed,
           median service, p99 (or the maximum below P99_MIN_N faults),
           median clear and access times
  plot     fault_cdf.png: the CDF of fault service time per policy (per
           page size too when there are several), log x past a 10x range
"""

import os
import statistics

from .. import compare_stat, gnuplot, results, schema
from ..compare_rows import group
from ..compare_stat import P99_MIN_N, dist_stat, num, percentile
from ..report_html import fmt, row_flags, table
from ..schema import FAULT_KEY, key
from .base import Scenario


def fault_label(k):
    """'fault self-test policy=none bytes=1G', 'fault workload=vm_boot ...':
    the fault self-test's faults (no workload) and each run=policies
    workload's are rows of their own, never pooled."""
    return "fault %s policy=%s" % ("workload=%s" % k[0] if k[0] is not None else "self-test",
                                   k[1]) + (" bytes=%s" % results.human_size(k[2])
                                            if k[2] is not None else "")


def fault_rows(a, b):
    """[(label, Stat A, Stat B, False)]: per (workload, policy, bytes) on both sides
    the faults' median service_ns and clear_ns, with the faults' times as
    samples, and their p99 with enough faults (module comment)."""
    ga = group(a.of_type("fault"), lambda r: key(r, FAULT_KEY))
    gb = group(b.of_type("fault"), lambda r: key(r, FAULT_KEY))
    rows = []
    for k in ga:
        if k not in gb:
            continue
        nbytes = k[2] if num(k[2]) else 1
        for member, what, pick, q, min_n in (
                ("service_ns", "median", statistics.median_low, 0.5, 1),
                ("service_ns", "p99", lambda v: percentile(v, 99), 0.99, P99_MIN_N),
                ("clear_ns", "median", statistics.median_low, 0.5, 1)):
            va = [r[member] for r in ga[k] if num(r.get(member)) is not None]
            vb = [r[member] for r in gb[k] if num(r.get(member)) is not None]
            if len(va) >= min_n and len(vb) >= min_n:
                hl = what == "median" and min(va + vb) > 0  # Hodges-Lehmann estimates a shift
                rows.append(("%s %s %s" % (fault_label(k), what, member),
                             dist_stat(va, pick, q, va if hl else None, nbytes),
                             dist_stat(vb, pick, q, vb if hl else None, nbytes), False))
    return rows


def _median_low(vals):
    return statistics.median_low(vals) if vals else None


def fault_section(rs):
    recs = [r for r in rs.of_type("fault") if num(r.get("service_ns")) is not None]
    if not recs:
        return ""
    groups = {}
    for r in recs:
        groups.setdefault((r.get("workload") or "self-test", str(r.get("policy")))
                          + schema.key(r, ("bytes",)), []).append(r)
    rows = []
    for (scenario, policy, nbytes), grp in groups.items():
        svc = sorted(r["service_ns"] for r in grp)
        med = [_median_low([r[m] for r in grp if num(r.get(m)) is not None])
               for m in ("clear_ns", "access_ns")]
        flags = []
        for r in grp:
            flags += [f for f in row_flags(r, rs) if f not in flags]
        tail = compare_stat.percentile(svc, 99) if len(svc) >= compare_stat.P99_MIN_N else svc[-1]
        rows.append(([scenario, policy, results.human_size(nbytes), len(svc),
                      sum(1 for r in grp if r.get("prezeroed") is True),
                      fmt(statistics.median_low(svc) / 1e3, "%.1f"),
                      ("p99 " if len(svc) >= compare_stat.P99_MIN_N else "max ")
                      + fmt(tail / 1e3, "%.1f"),
                      fmt(med[0] / 1e3 if med[0] is not None else None, "%.1f"),
                      fmt(med[1] / 1e3 if med[1] is not None else None, "%.1f")], flags))
    return ('<h2 id="faults">Demand faults</h2><p>Service time: #PF entry to just before iretq; '
            "access: the faulting access as the program saw it (microseconds). One row per "
            "scenario: the fault self-test, or a run=policies workload.</p>" +
            table(("faults of", "policy", "page", "faults", "pre-zeroed", "median service us",
                   "tail us", "median clear us", "median access us"), rows,
                  numeric=(3, 4, 5, 6, 7, 8)))


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


def selftest_median(rs):
    """hz compare's fleet column: the median service time of the fault
    self-test (policy none, no workload), ms."""
    selftest = sorted(r["service_ns"] for r in rs.of_type("fault")
                      if "workload" not in r and r.get("policy", "none") == "none"
                      and num(r.get("service_ns")) is not None)
    return "%.3f" % (statistics.median_low(selftest) / 1e6) if selftest else "-"


SCENARIO = Scenario("fault", types=("fault",), sections=(fault_section,), plots=(plot_faults,),
                    rows=(fault_rows,),
                    cells=(("fault", lambda r: key(r, FAULT_KEY), fault_label),),
                    fleet=(("fault median ms", selftest_median),))
