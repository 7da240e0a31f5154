"""run=vmstart's figures as text, for `make bench` (tools/bench.py) and the
report (report_tables.py).

report() gives the table of the `vmstart` cells (docs/results.md: policy,
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

from typing import Any, List, Sequence

from ..compare_stat import num as _num  # a number, not a bool, else None
from ..fmtns import fmt_ns_any as _t
from ..schema import Record

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
        "policy", "T", "wall [95% interval]", "GB/s [interval]", "per CPU", "pre-zero", "hit %",
        "faults", "clears")]
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
    return ["knee (first T adding < 10 %%, measured): %s" % "; ".join(parts)] if parts else []


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
