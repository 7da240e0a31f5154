"""run=policies' host side: make bench's vm_boot lines (tools/bench.py).
Its records are run=prezero's `prezero` type and run=fault's `fault`
(each with its `workload`), shown in their tables.

bench_lines(): the vm_boot total time of none, idle and boot, each as a
share of none's, and the pre-zeroed fault's p50 and p99 (n/a below 100
faults: a nearest-rank p99 is then the maximum), against the targets (a
pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1 % of none).
"""

from typing import List, Sequence

from ..schema import Record
from .base import BenchBoot, BenchContext, Scenario


def bench_lines(recs: Sequence[Record], ctx: BenchContext) -> List[str]:
    runs = {r["policy"]: r for r in recs if r.get("t") == "prezero"}
    none = runs.get("none")
    if not none:
        return ["policies: no prezero records (see %s)" % ctx.folder]
    out = ["vm_boot %s x %s MiB, zero=%s  [%s]:" % (none["pages"], none["frame_bytes"] >> 20,
                                                    ctx.strategy, ctx.note)]
    for name in ("none", "idle", "boot"):
        r = runs.get(name)
        if r:
            p99 = r.get("lat_p99_ns")  # null below 100 faults: their max, not a p99
            out.append("  %-5s total %9.3f ms (%6.2f%% of none)  fault p50 %8.1f us  p99 %s  (n=%s)"
                       % (name, r["total_ns"] / 1e6, 100.0 * r["total_ns"] / none["total_ns"],
                          r["lat_p50_ns"] / 1e3,
                          "%8.1f us" % (p99 / 1e3) if p99 is not None
                          else "n/a (needs 100 faults)", r.get("lat_n")))
    out.append("  targets: pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none")
    return out


SCENARIO = Scenario("policies", bench=BenchBoot(
    lambda strategy: ["run=policies", "workload=vm_boot", "zero=" + strategy], "8G", False,
    bench_lines))
