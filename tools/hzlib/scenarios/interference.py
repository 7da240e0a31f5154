"""run=interference's host side (`interference`, `interference_peak`,
`interference_host`, `interference_residency`, `interference_rank`,
scenarios/interference/records.md) in hz compare, report.html, hz report --text --full,
hz plot (interference.png, interference_plot.py) and make bench.

  compare  per (zeroer, strategy, chunk, rate_pct, victim): the victim's
           metric (ns_per_load, lower is better; gbps, higher) at its
           median time; spread value_lo .. value_hi, the median's 95 %
           interval
  page     residency, pacing and CPU, the slowdowns, the ranking (rows())
  --full   text_block(), long lines wrapped to plaintext.WIDTH
  bench    summary() under a heading

Every figure comes from the records of the run: each victim's residency
class (`interference_residency`), each cell's target and achieved zeroing
rate and the zeroer's CPU per GiB, each victim's slowdown against alone
with its Moses interval and outcome (lib/compare.h, made by the kernel),
and the unthrottled ranking from the `interference_rank` comparisons
(adjacent pairs; '<' decided, '~' a tie, '?' undecided). Nothing is ranked
by a mean or a median alone. The `spin` control (a busy sibling CPU
without stores) is shown, not ranked.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import results
from ..compare_rows import group
from ..compare_stat import Stat, moses_label, num, record_flags
from ..plaintext import WIDTH, wrap
from ..report_html import esc, fmt, interval, row_flags, table
from ..schema import INTERFERENCE_KEY, Record, key
from .base import BenchBoot, BenchContext, Scenario
from .interference_plot import plot_interference

RATES = (100, 25, 10, 1)
MARK = {"slower": ">", "tie": "=", "faster": "<", "undecided": "?", "too few samples": "-"}
REL = {"slower": "<", "tie": "~"}


@dataclass
class Cell:
    """One zeroer at one rate, with its victims' records by name."""
    zeroer: str
    rate: int
    by_victim: Dict[str, Record] = field(default_factory=dict)

    def first(self) -> Record:
        return next(iter(self.by_victim.values()))


def _f(v: Any, spec: str = "%.1f") -> str:
    return spec % v if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"


def _signed(v: Any) -> str:
    return "%+.1f" % v if isinstance(v, (int, float)) else "-"


def cells(recs: Sequence[Record]) -> List[Cell]:
    """The zeroer cells (not the victims alone) in table order: spin first,
    then each zeroer by label, rates from unthrottled down."""
    out: Dict[Tuple[Any, Any], Cell] = {}
    for r in recs:
        if r.get("t") == "interference" and r.get("zeroer") not in (None, "none"):
            c = out.setdefault((r["zeroer"], r.get("rate_pct")),
                               Cell(r["zeroer"], int(r.get("rate_pct") or 0)))
            c.by_victim[r["victim"]] = r
    return sorted(out.values(), key=lambda c: (c.zeroer != "spin", c.zeroer, -c.rate))


def victims(recs: Sequence[Record]) -> List[str]:
    seen: List[str] = []
    for r in recs:
        if r.get("t") == "interference" and r.get("victim") not in seen:
            seen.append(r["victim"])
    return seen


def slowdown(r: Optional[Record]) -> str:
    """"+12.3 [+8.1..+15.0] >": the slowdown, its interval, the outcome mark."""
    if not r:
        return "-"
    return "%s [%s..%s] %s" % (_signed(r.get("slowdown_pct")), _signed(r.get("slowdown_lo_pct")),
                               _signed(r.get("slowdown_hi_pct")),
                               MARK.get(str(r.get("outcome")), "?"))


def residency_lines(recs: Sequence[Record]) -> List[str]:
    out = []
    for r in recs:
        if r.get("t") == "interference_residency" and not r.get("reference"):
            out.append("  %-15s %-5s %9s ns  %-4s (aims at %s; refs L2 %s, LLC %s, DRAM %s)" % (
                r.get("victim"), r.get("access"), _f(r.get("ns_per_access")), r.get("class"),
                r.get("intended"), _f(r.get("ref_l2_ns")), _f(r.get("ref_llc_ns")),
                _f(r.get("ref_dram_ns"))))
    if any(r.get("t") == "interference_residency" and not r.get("reference")
           and r.get("intended") == "LLC" and r.get("class") != "LLC" for r in recs):
        out.append("  LLC-resident working set not achievable here (other tenants share the "
                   "LLC); L3 pollution not measured: the LLC-sized victims' slowdowns are the "
                   "bandwidth part only")
    return out


def pacing_row(c: Cell) -> List[str]:
    """zeroer, rate, call bytes, target GB/s, achieved GB/s, % of target (with '!'
    for a miss over 10 %), CPU ms per GiB."""
    r = c.first()
    pct = r.get("achieved_pct")
    return [c.zeroer, "%d%%" % c.rate, str(r.get("call_bytes", "-")),
            _f(r.get("zeroer_target_gbps"), "%.3f"), _f(r.get("zeroer_gbps"), "%.3f"),
            (_f(pct) + ("!" if r.get("rate_miss") else "")) if pct is not None else "-",
            _f(r.get("cpu_ms_per_gib"))]


def ranking(recs: Sequence[Record]) -> List[Tuple[str, str]]:
    """(victim, "nt < clzero ? temporal") from the interference_rank records."""
    chains: Dict[str, str] = {}
    for r in recs:
        if r.get("t") != "interference_rank":
            continue
        v = r["victim"]
        rel = REL.get(str(r.get("outcome")), "?")
        chains[v] = (chains[v] if v in chains else str(r.get("a"))) + " %s %s" % (rel, r.get("b"))
    return list(chains.items())


def fewest_rounds(recs: Sequence[Record]) -> Optional[int]:
    """The fewest rounds any `interference` record's comparison rests on."""
    n = [r.get("rounds") for r in recs if r.get("t") == "interference"]
    counts = [x for x in n if isinstance(x, int)]
    return min(counts) if counts and len(counts) == len(n) else None


def host_line(r: Record) -> str:
    """The host check (`interference_host`) in one line: whether this host
    can answer, and when not why, what the spin control alone cost, what
    host can, and what the run did."""
    if r.get("can_answer"):
        return "  Host check: can answer (%s rounds, %s ms)" % (
            r.get("rounds"), r.get("elapsed_ms"))
    spin = ("; spin control alone slows %s %s%% [%s..%s]" % (
        r.get("victim"), _signed(r.get("slowdown_pct")), _signed(r.get("slowdown_lo_pct")),
        _signed(r.get("slowdown_hi_pct"))) if r.get("cpu_contention") else "")
    return "  Host check: cannot answer (%s) after %s ms%s; needs %s; %s" % (
        str(r.get("reason")).replace(",", ", "), r.get("elapsed_ms"), spin, r.get("needs"),
        "stopped" if r.get("action") == "stop" else "measured anyway")


def text_block(recs: Sequence[Record]) -> List[str]:
    """The Interference block of hz report --text ([] without records):
    residency, the host check, pacing and CPU, the slowdowns per victim,
    the ranking; a run the host check stopped ends after the check."""
    cs = cells(recs)
    host = next((r for r in recs if r.get("t") == "interference_host"), None)
    if not cs and not host:
        return []
    out = ["Interference (run=interference)",
           "  Residency alone (ns per load or per 64-byte line):"]
    out += ["  " + line for line in residency_lines(recs)]
    out += [host_line(host)] if host else []
    if not cs:
        return out
    out.append("  Pacing ('!': achieved more than 10 % off the target) and zeroer CPU:")
    row = "    %-13s %4s %10s %8s %8s %7s %7s"
    out.append(row % ("zeroer", "rate", "call B", "target", "GB/s", "%tgt", "ms/GiB"))
    out += [row % tuple(pacing_row(c)) for c in cs if c.zeroer != "spin"]
    out.append("  Slowdown %% vs alone [%s], '>' slower, '=' within the tolerance, '<' "
               "faster, '?' undecided, '-' too few rounds:" % moses_label(fewest_rounds(recs)))
    for v in victims(recs):
        first: Record = next((c.by_victim[v] for c in cs if v in c.by_victim), {})
        out.append("  %s (%s):" % (v, first.get("victim_class", "?")))
        out += ["    %-13s %4s  %s" % (c.zeroer, "%d%%" % c.rate, slowdown(c.by_victim.get(v)))
                for c in cs]
    rank = ranking(recs)
    out.append("  Unthrottled ranking, least cost first ('<' decided, '~' tie, '?' undecided):")
    none = ["    undecided (fewer than 6 rounds: no comparison)"]
    out += ["    %-15s %s" % (v, chain) for v, chain in rank] or none
    return out


def summary(recs: Sequence[Record]) -> List[str]:
    """Lines for the bench summary: each cell's achieved GB/s and every
    victim's slowdown with its outcome mark, then the ranking; without
    cells only the scenario's skip reasons; [] when it left no record."""
    cs = cells(recs)
    skips = [r for r in recs if r.get("t") == "skip" and str(r.get("name", "")).startswith(
        "interference")]
    if not cs:  # e.g. one CPU: only the skip says why
        return ["  skip %s: %s" % (r.get("name"), r.get("reason")) for r in skips]
    vs = victims(recs)
    lines = ["interference (victim slowdown % vs alone, Hodges-Lehmann; '>' slower, '=' tie, "
             "'?' undecided; '~' noisy; zeroer GB/s all zeroer CPUs):",
             "  %-13s %4s %8s  %s" % ("zeroer", "rate", "GB/s", " ".join("%15s" % v for v in vs))]
    for c in cs:
        by = c.by_victim
        lines.append("  %-13s %3d%% %8.3f  %s" % (
            c.zeroer, c.rate, c.first().get("zeroer_gbps", 0),
            " ".join("%13.1f%s%s" % (by[v]["slowdown_pct"], MARK.get(str(by[v].get("outcome")),
                                                                     "?"),
                                     "~" if by[v].get("noisy") else " ")
                     if v in by else "%15s" % "-" for v in vs)))
    rank = ranking(recs)
    lines += ["  ranking at 100%% on %s: %s" % (v, chain) for v, chain in rank] or [
        "  ranking: undecided (no interference_rank comparison)"]
    lines += ["  skip %s: %s" % (r.get("name"), r.get("reason")) for r in skips]
    return lines


def interference_label(k, metric=None):
    zeroer, _, _, rate, victim = k
    return "interference %s%s %s%s" % (zeroer, " %s%%" % rate if zeroer != "none" else "",
                                       victim, " " + metric if metric else "")


def interference_rows(a, b):
    ga = group(a.of_type("interference"), lambda r: key(r, INTERFERENCE_KEY))
    gb = group(b.of_type("interference"), lambda r: key(r, INTERFERENCE_KEY))
    rows = []
    for k, recs in ga.items():
        if k not in gb:
            continue
        sides = []
        for r in (recs[-1], gb[k][-1]):
            v, lo, hi = (num(r.get(m)) for m in ("value", "value_lo", "value_hi"))
            sides.append(Stat(v, lo, hi, cv=num(r.get("cv_pct")), n=r.get("rounds") or 1,
                              ci=None not in (lo, hi), flags=record_flags(r)))
        if None not in (sides[0].value, sides[1].value):
            rows.append((interference_label(k, recs[-1].get("metric")), sides[0], sides[1],
                         recs[-1].get("metric") == "gbps"))
    return rows


def interference_section(rs):
    """Residency, the host check, pacing and CPU, the slowdowns with their
    intervals and outcomes, and the unthrottled ranking; a run the host
    check stopped ends after the check, which says why ("" without
    records)."""
    cs = cells(rs.records)
    host = next((r for r in rs.records if r.get("t") == "interference_host"), None)
    if not cs and not host:
        return ""
    res = [([r.get("victim"), r.get("access"), results.human_size(r.get("set_bytes")),
             fmt(r.get("ns_per_access"), "%.1f"), interval(r.get("ns_lo"), r.get("ns_hi"), "%.1f"),
             r.get("intended"), r.get("class"), fmt(r.get("ref_l2_ns"), "%.1f"),
             fmt(r.get("ref_llc_ns"), "%.1f"), fmt(r.get("ref_dram_ns"), "%.1f")],
            ["not-" + str(r.get("intended"))] if r.get("class") != r.get("intended") else [])
           for r in rs.of_type("interference_residency") if not r.get("reference")]
    notes = [line.strip() for line in residency_lines(rs.records)
             if line.startswith("  LLC-resident")]
    head = ('<h2 id="interference">Interference (run=interference)</h2>'
            "<p>Each victim alone, classed by its time per access against reference sets "
            "measured in the same runs.</p>%s%s%s"
            % (table(("victim", "access", "set", "ns", "interval", "aims at", "class",
                      "ref L2", "ref LLC", "ref DRAM"), res, numeric=(3, 7, 8, 9)),
               "".join("<p><b>%s</b></p>" % esc(n) for n in notes),
               "<p>%s</p>" % esc(host_line(host).strip()) if host else ""))
    if not cs:
        return head
    pace = [(pacing_row(c), ["rate-miss"] if c.first().get("rate_miss") else [])
            for c in cs if c.zeroer != "spin"]
    vs = victims(rs.records)
    slow = [([c.zeroer, "%d%%" % c.rate] + [slowdown(c.by_victim.get(v))
                                            for v in vs],
             row_flags(c.first(), rs)) for c in cs]
    rank = [([v, chain], []) for v, chain in ranking(rs.records)]
    return (head +
            "<p>Pacing: target (the median of 7 interleaved peak cells x rate) and achieved "
            "GB/s of all zeroer CPUs, '!' more than 10 % off; the zeroer's CPU time in its "
            "clear calls per GiB cleared, at the call size it issued (call bytes).</p>" +
            table(("zeroer", "rate", "call bytes", "target GB/s", "achieved GB/s",
                   "% of target", "CPU ms/GiB"), pace, numeric=(2, 3, 4, 5, 6)) +
            "<p>Victim slowdown %% against alone: Hodges-Lehmann, [%s], "
            "then '>' slower, '=' within the tolerance, '<' faster, '?' undecided, '-' too "
            "few rounds.</p>" % esc(moses_label(fewest_rounds(rs.records))) +
            table(["zeroer", "rate"] + vs, slow) +
            "<p>Unthrottled ranking, least cost first: '<' decided, '~' a tie, '?' "
            "undecided (adjacent pairs, Bonferroni z).</p>" +
            (table(("victim", "ranking"), rank) if rank else
             "<p>undecided: no interference_rank comparison (fewer than 6 rounds)</p>"))


def interference_block(rs) -> List[str]:
    """run=interference's tables (tools/hzlib/scenarios/interference.py), long lines
    wrapped to WIDTH ([] without its records)."""
    out: List[str] = []
    for line in text_block(rs.records):
        body = line.lstrip(" ")
        ind = " " * (len(line) - len(body))
        out += wrap(body, ind + "    ", ind) if len(line) > WIDTH else [line]
    return out


def bench_lines(recs: Sequence[Record], ctx: BenchContext) -> List[str]:
    """make bench's run=interference block: summary() under a heading."""
    lines = summary(recs)
    if not lines:
        return ["run=interference: no records (see %s)" % ctx.folder]
    return ["run=interference, %d CPUs  [%s]:" % (ctx.cpus, ctx.note)] + lines


SCENARIO = Scenario(
    "interference", types=("interference", "interference_peak", "interference_host",
                           "interference_residency", "interference_rank"),
    sections=(interference_section,), text=(interference_block,), plots=(plot_interference,),
    rows=(interference_rows,),
    cells=(("interference", lambda r: key(r, INTERFERENCE_KEY), interference_label),),
    bench=BenchBoot(lambda strategy: ["run=interference"], "6G", True, bench_lines))
