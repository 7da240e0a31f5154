"""run=prezero's host side: the `prezero` records (one per (workload,
policy) run, scenarios/prezero/records.md; run=policies writes them too) on
report.html, one row per record (latencies in microseconds, times in
milliseconds), and in hz compare member by member
(compare_rows.generic_rows)."""

import statistics

from .. import results
from ..report_html import fmt, ms, num, row_flags, table, us
from .base import Scenario


def prezero_section(rs):
    recs = rs.of_type("prezero")
    if not recs:
        return ""
    rows = [([r.get("workload"), r.get("policy"), r.get("strategy"),
              results.human_size(r.get("frame_bytes")), r.get("faults"), fmt(r.get("hit_pct")),
              us(r.get("lat_p50_ns")), us(r.get("lat_p99_ns") or r.get("lat_max_ns")),
              ms(r.get("total_ns")), ms(r.get("prezero_ns")), ms(r.get("idle_zeroing_ns")),
              r.get("zeroed_twice")], row_flags(r, rs)) for r in recs]
    return ('<h2 id="policies">Pre-zeroing policies</h2><p>Latencies in microseconds '
            "(p99, or the maximum below 100 faults); times in milliseconds.</p>" +
            table(("workload", "policy", "strategy", "frame", "faults", "hit %", "p50 us",
                   "p99/max us", "total ms", "prezero ms", "idle zeroing ms", "zeroed twice"),
                  rows, numeric=tuple(range(4, 12))))


def boot_p50(rs):
    """hz compare's fleet column: the pre-zeroed fault's p50 (the `boot`
    policy's lat_p50_ns; several runs: their lower median), us."""
    boot = [r["lat_p50_ns"] for r in rs.of_type("prezero")
            if r.get("policy") == "boot" and num(r.get("lat_p50_ns")) is not None]
    return "%.1f" % (statistics.median_low(boot) / 1e3) if boot else "-"


SCENARIO = Scenario("prezero", types=("prezero",), sections=(prezero_section,),
                    generic=("prezero",), fleet=(("pre-zeroed p50 us", boot_p50),))
