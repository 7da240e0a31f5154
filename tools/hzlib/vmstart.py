"""run=vmstart's figures as text, for `make bench` (tools/bench.py).

report() gives the table of the `vmstart` cells (docs/results.md: policy,
T, median wall time with its 95 % interval, GB/s, GB/s per CPU, the
pre-zeroing before the faults, the hit ratio, flags), the knee of each
policy (`vmstart_knee`, measured) and the 2 TiB extrapolation
(`vmstart_model`): every line of it starts with MODEL, names its formula
and inputs, and stands beside the seed thread's claim (over 40 s for 2 TB
with 16 threads).
"""

from typing import Any, List, Sequence

from .compare_stat import num as _num  # a number, not a bool, else None
from .schema import Record


def _ms(ns: Any) -> str:
    return "%.3f" % (ns / 1e6) if _num(ns) is not None else "?"


def _s(ns: Any) -> str:
    """Seconds with one decimal; below 1 s, ms with one decimal."""
    if _num(ns) is None:
        return "?"
    return "%.1f s" % (ns / 1e9) if ns >= 1e9 else "%.1f ms" % (ns / 1e6)


def _flags(r: Record) -> str:
    return " ".join(f for f, on in (("NOISY", r.get("noisy") is True),
                                    ("FAILED", r.get("verified") is False),
                                    ("ring0-emulated", r.get("emulated_ring0") is True)) if on)


def table(recs: Sequence[Record]) -> List[str]:
    """One line per vmstart cell, in record order, under a header."""
    cells = [r for r in recs if r.get("t") == "vmstart"]
    if not cells:
        return []
    out = ["%-9s %3s %24s %20s %8s %11s %7s" % ("policy", "T", "wall ms [95% interval]",
                                                "GB/s [interval]", "per CPU", "pre-zero ms",
                                                "hit %")]
    for r in cells:
        wall = "%s [%s..%s]" % (_ms(r.get("wall_ns")), _ms(r.get("ci_lo_ns")),
                                _ms(r.get("ci_hi_ns")))
        g = "%s [%s..%s]" % tuple(str(r.get(k, "?")) for k in ("gbps", "gbps_lo", "gbps_hi"))
        hit = r.get("hit_pct")
        out.append(("%-9s %3s %24s %20s %8s %11s %7s %s" % (
            r.get("policy"), r.get("threads"), wall, g, r.get("gbps_per_thread", "?"),
            _ms(r.get("prezero_ns")), "-" if hit is None else hit, _flags(r))).rstrip())
    return out


def knees(recs: Sequence[Record]) -> List[str]:
    """One line: each policy's knee (measured)."""
    parts = []
    for r in recs:
        if r.get("t") == "vmstart_knee":
            k = r.get("knee_threads")
            parts.append("%s %s" % (r.get("policy"), "T=%s" % k if k is not None else
                                    "none in 1..%s" % r.get("threads_max")))
    return ["knee (first T adding < 10 %%, measured): %s" % "; ".join(parts)] if parts else []


def models(recs: Sequence[Record]) -> List[str]:
    """The 2 TiB model of each policy, labelled MODEL, and the seed's VM."""
    out = []
    for r in recs:
        if r.get("t") != "vmstart_model":
            continue
        out.append("MODEL %s: 2 TiB / min(T x %s GB/s [T=1], %s GB/s [peak, T=%s]): T=%s %s, "
                   "T=%s (all) %s; seed thread's claim: > %s for 2 TB with %s threads" % (
                       r.get("policy"), r.get("per_thread_gbps"), r.get("peak_gbps"),
                       r.get("peak_threads"), r.get("qemu_threads"), _s(r.get("qemu_ns")),
                       r.get("all_threads"), _s(r.get("all_ns")), _s(r.get("claim_min_ns")),
                       r.get("claim_threads")))
        seed = "%s 64 x 1 GiB at T=%s: %s" % (r.get("policy"), r.get("seed_threads"),
                                              _s(r.get("seed_ns")))
        out.append("  seed's VM %s" % seed + (" (measured)" if r.get("seed_measured") is True
                                              else " (MODEL: scaled from the measured S)"))
        if _num(r.get("prezero_model_ns")) is not None:
            out.append("  MODEL %s: its clearing before the VM, 2 TiB at %s GB/s on one CPU: %s"
                       % (r.get("policy"), r.get("prezero_gbps"), _s(r["prezero_model_ns"])))
    return out


def report(recs: Sequence[Record]) -> List[str]:
    """table() + knees() + models(): the lines make bench prints."""
    return table(recs) + knees(recs) + models(recs)
