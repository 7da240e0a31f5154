"""make bench's hugezero / Linux ratios from alternating blocks.

A pilot (the full run=clear boot and a short full linux-bench) picks the
cells; then each block boots hugezero once for just those cells and runs
linux-bench once for just its cells, hugezero first (blocks.order). Each
ratio is decided from the block ratios (tools/hzlib/blocks.py):
  P1 hugezero best single-thread / Linux best single-thread, GB/s
     (samples_ns of the pilots' best cells, time per byte);
  P2 hugezero 1 GiB fault / Linux 1 GiB hugetlb fault, time (hugezero
     access_ns of each zeroing fault, Linux touch_samples_ns);
  P4 hugezero all-thread / linux-bench --threads N, GB/s (run=smp's clear
     record of N threads and Linux's best all-thread strategy).
"""

from typing import Any, Dict, List, Optional, Sequence

from . import blocks, decide, records

Record = Dict[str, Any]


def _size(n: int) -> str:
    """A size option value: K multiples (every chunk is one)."""
    return "%dK" % (n // 1024)


def same_cell(r: Record, like: Record, threads: int) -> bool:
    """r is a verified `clear` record of like's strategy, chunk, cache and
    bytes with `threads` threads."""
    return (r.get("t") == "clear" and bool(r.get("verified")) and r.get("threads", 1) == threads
            and all(r.get(k) == like.get(k) for k in ("strategy", "chunk", "cache", "bytes")))


def cell(recs: Sequence[Record], like: Record, threads: int = 1) -> Optional[Record]:
    return next((r for r in recs if same_cell(r, like, threads)), None)


def smp_cell(recs: Sequence[Record], lx_all: Record) -> Optional[Record]:
    """run=smp's all-thread clear record like Linux's best all-thread cell
    (same threads and strategy; its chunk is smp_chunk)."""
    return next((r for r in recs if r.get("t") == "clear" and r.get("verified")
                 and r.get("threads") == lx_all.get("threads")
                 and r.get("strategy") == lx_all.get("strategy")), None)


def hz_args(hz_best: Record, lx_all: Optional[Record], fault: bool, repeats: int) -> List[str]:
    """The kernel options of one block's hugezero boot: run=clear of the
    pilot's best cell only, run=smp of Linux's best all-thread strategy and
    chunk (with lx_all), run=fault of 4 1 GiB pages zeroed with the best
    strategy (with fault), each `repeats` rounds, no race."""
    run = ["clear"] + (["smp"] if lx_all else []) + (["fault"] if fault else [])
    args = ["run=" + ",".join(run), "strategies=%s" % hz_best["strategy"],
            "chunks=" + _size(int(hz_best["chunk"])), "repeats=%d" % repeats,
            "max_rounds=%d" % repeats]
    if lx_all:
        args += ["smp_strategies=%s" % lx_all["strategy"],
                 "smp_chunk=" + _size(int(lx_all["chunk"])), "smp_fill=none",
                 "smp_repeats=%d" % repeats, "smp_max_rounds=%d" % repeats]
    if fault:
        args += ["fault_pages=4", "fault_rounds=%d" % repeats, "zero=%s" % hz_best["strategy"]]
    return args


def lx_args(lx_best: Record, lx_all: Optional[Record], repeats: int, threads: int) -> List[str]:
    """linux-bench's options for one block: the strategies and chunks of the
    pilot's best single-thread and all-thread cells, `repeats` repeats."""
    cells = [lx_best] + ([lx_all] if lx_all else [])
    strategies = sorted({str(c["strategy"]) for c in cells})
    chunks = sorted({int(c["chunk"]) for c in cells})
    return (["--strategies", ",".join(strategies), "--chunks", ",".join(_size(c) for c in chunks),
             "--repeats", str(repeats)] + (["--threads", str(threads)] if lx_all else []))


def _ratio(base: Optional[Record], ours: Optional[Record]) -> int:
    if not base or not ours:
        return 0
    return blocks.block_ratio(base.get("samples_ns") or [], int(base.get("bytes") or 0),
                              ours.get("samples_ns") or [], int(ours.get("bytes") or 0))


def p1_block(hz: Sequence[Record], lx: Sequence[Record], hz_best: Record, lx_best: Record) -> int:
    """One block's P1 ratio x 10^6 (hugezero / Linux of time per byte), 0
    when a side lacks its cell or samples."""
    return _ratio(cell(lx, lx_best), cell(hz, hz_best))


def p4_block(hz: Sequence[Record], lx: Sequence[Record], lx_all: Record) -> int:
    """One block's P4 ratio x 10^6 (time per byte), 0 when a side lacks it."""
    return _ratio(cell(lx, lx_all, int(lx_all.get("threads") or 1)), smp_cell(hz, lx_all))


def p2_block(hz: Sequence[Record], lx: Sequence[Record]) -> int:
    """One block's P2 ratio x 10^6: hugezero's zeroing 1 GiB faults'
    access_ns against Linux's 1 GiB hugetlb touch_samples_ns; 0 without a
    1 GiB Linux page or samples."""
    lx_fault = next((r for r in lx if r.get("t") == "linux_fault"), None)
    if not lx_fault or lx_fault.get("page_bytes") != 1 << 30:
        return 0
    acc = [r["access_ns"] for r in records.zeroing_faults(hz, 1 << 30) if r.get("access_ns")]
    return blocks.block_ratio(lx_fault.get("touch_samples_ns") or [], 1 << 30, acc, 1 << 30)


def decide_blocks(ratios_x1e6: Sequence[int]) -> blocks.Paired:
    """blocks.paired of the blocks that gave a ratio (0: a side lacked it)."""
    return blocks.paired([r for r in ratios_x1e6 if r > 0])


def ratio_text(name: str, p: blocks.Paired, what: str, target: str, speed: bool,
               tcg: bool = False) -> str:
    """'P1 best clear (hugezero / Linux GB/s): 1.23 [1.10..1.35] hugezero
    faster (±5%; 6 blocks, min..max, 96.9% coverage; target >= 1.0)'. With
    speed the time ratios are inverted (GB/s), so "faster" still means
    hugezero is faster. With tcg (hugezero ran under TCG) no outcome is
    given, as the kernel gives no speed verdict there."""
    ratio, lo, hi = p.ratio_x1e6 / decide.ONE, p.lo_x1e6 / decide.ONE, p.hi_x1e6 / decide.ONE
    if speed:
        ratio, lo, hi = 1 / ratio, 1 / hi, 1 / lo
    word = "no outcome (TCG: emulator timings)" if tcg else "tie" if p.outcome == decide.TIE \
        else "hugezero " + p.outcome if p.outcome in (decide.FASTER, decide.SLOWER) else p.outcome
    span = "min..max" if p.j == 1 else "ranks %d..%d" % (p.j, p.n + 1 - p.j)
    return "%s (%s): %.2f [%.2f..%.2f] %s (±%g%%; median of %d block ratios, %s, %.1f%% " \
        "coverage; target %s)" % (name, what, ratio, lo, hi, word, decide.TOL_X100 / 100, p.n,
                                  span, p.cover_x1e4 / 100, target)
