"""run=smp's host side (`smp_scale`, `smp_peak`, `smp_fill`,
`smp_rounds`, scenarios/smp/records.md; its multi-CPU `clear` cells are run=clear's
type, plotted in clear.py's thread_scaling.png) on report.html: the peak,
the scaling table and the VM-start fill (wall time, interval, CV, s per
TiB)."""

from .. import results
from ..compare_stat import table_ci_label
from ..report_html import esc, fmt, interval, ms, num, row_flags, table
from .base import Scenario


def _ms_interval(r):
    """A wall-time record's ci_lo_ns..ci_hi_ns in milliseconds."""
    return interval(*(r[k] / 1e6 if num(r.get(k)) is not None else None
                      for k in ("ci_lo_ns", "ci_hi_ns")), spec="%.1f")


def smp_section(rs):
    out = []
    for p in rs.of_type("smp_peak"):
        out.append("<p>Peak (the best all-CPU non-temporal median): %s GB/s %s, %s with %s "
                   "threads%s.</p>" % (fmt(p.get("gbps"), "%.2f"),
                                       interval(p.get("gbps_lo"), p.get("gbps_hi")),
                                       esc(p.get("strategy")), esc(p.get("threads")),
                                       " <b>(noisy)</b>" if p.get("noisy") else ""))
    scale = rs.of_type("smp_scale")
    if scale:
        out.append(table(("strategy", "threads", "placement", "GB/s", table_ci_label(scale),
                          "GB/s per thread", "% of peak"),
                         [([r.get("strategy"), r.get("threads"), r.get("placement"),
                            fmt(r.get("gbps"), "%.2f"),
                            interval(r.get("gbps_lo"), r.get("gbps_hi")),
                            fmt(r.get("gbps_per_thread"), "%.2f"), fmt(r.get("pct_peak"), "%.1f")],
                           row_flags(r, rs)) for r in scale], numeric=(1, 3, 4, 5, 6)))
    fill = rs.of_type("smp_fill")
    if fill:
        out.append("<h3>VM-start fill (every free frame, as QEMU -mem-prealloc)</h3>")
        out.append(table(("strategy", "threads", "busy", "frames", "wall ms", "interval ms",
                          "CV %", "GB/s", "s per TiB"),
                         [([r.get("strategy"), r.get("threads"), r.get("busy_threads"),
                            "%s x %s" % (r.get("frames"), results.human_size(r.get("frame_bytes"))),
                            ms(r.get("wall_ns"), "%.1f"), _ms_interval(r),
                            fmt(r.get("cv_pct"), "%.2f"), fmt(r.get("gbps"), "%.2f"),
                            fmt(r.get("s_per_tib"), "%.2f")], row_flags(r, rs)) for r in fill],
                         numeric=(1, 2, 4, 5, 6, 7, 8)))
    return '<h2 id="smp">SMP scaling</h2>' + "".join(out) if out else ""


def fill_top(rs):
    """hz compare's fleet column: s_per_tib of the smp_fill record with the
    most CPUs."""
    fill = [r for r in rs.of_type("smp_fill") if num(r.get("s_per_tib")) is not None]
    top = max(fill, key=lambda r: r.get("threads") or 0) if fill else None
    return "%.3f (%s CPUs)" % (top["s_per_tib"], top.get("threads")) if top else "-"


SCENARIO = Scenario("smp", types=("smp_scale", "smp_peak", "smp_fill", "smp_rounds"),
                    sections=(smp_section,), fleet=(("fill s/TiB", fill_top),))
