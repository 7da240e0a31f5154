"""The thread's three answers as data (`make answers`, issue 32): which
figure of which record answers each question, never a sentence.

The pre-zeroing thread (linux-mm, January 2026) asked in its own units:
  Q1 what 64 x 1 GiB hugetlb faults cost on one thread today (4 KiB
     clear_page), with the clear_pages() series under each preemption model
     and with pre-zeroed frames;
  Q2 what a 2 TB VM start with QEMU's 16 zeroing threads costs;
  Q3 what a background zeroer costs in CPU and what it costs the neighbours.
lines() reads a run's records (one boot of run=faultclear,vmstart,interference,
or several boots' records together) and returns Line objects: a kind (the
line), an outcome (which of the kind's templates, answers_text.TEMPLATES)
and its fields: numbers as Fig (value, interval, unit), names as text.

Sources, each figure from one record, nothing recomputed but unit changes:
  Q1 `faultclear` cells of Linux's clear_page strategy (rep_stosb) on 1 GiB
     frames (model linux_4k: before the series; linux_batch=32M: the series
     under preempt=none/voluntary; extent: under preempt=full/lazy), 64 x
     the median service time and its interval; the ratios and what is left
     for pre-zeroing from their `faultclear_gain` (Hodges-Lehmann, Moses
     95 %), the published figures it carries (series v8, Milan family);
     pre-zeroed = the none/voluntary fault less its clear's share.
  Q2 the `vmstart` verdict item (answers.pick) when it has a figure (under
     TCG too, deciding nothing), else the qemu_4k `vmstart_model` record's
     time; r1 and B from that record; the scaling step from the qemu_4k
     `vmstart_knee` (older records: the `vmstart` cells' medians).
  Q3 `interference_peak` (each zeroer's unthrottled rate on one CPU: the
     CPU time per GiB at its call size), the `interference_host` check, and
     the `idle` verdict item's comparison when the zeroers ran.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from . import answers, report_short, verdict_merge, verdict_text
from .compare_stat import num
from .schema import Record
from .verdict_templates import MERGED

G = 1 << 30
PAGES = 64  # the thread's 64 x 1 GiB faults
LINUX = "rep_stosb"  # Linux's clear_page on ERMS CPUs: clear_page_erms
VENDORS = {"AuthenticAMD": "AMD", "GenuineIntel": "Intel"}


@dataclass
class Fig:
    """A number with its interval (lo, hi: None without one) and unit:
    "s", "x" (a ratio), "%", "+%" (signed), "GB/s", "ms"."""
    value: float
    lo: Optional[float] = None
    hi: Optional[float] = None
    unit: str = "s"


@dataclass
class Line:
    """One line of the block: its kind, the outcome that picks the
    template, the fields the template names."""
    kind: str
    outcome: str = "ok"
    fields: Dict[str, object] = field(default_factory=dict)


def _one(recs: Sequence[Record], t: str, **match) -> Optional[Record]:
    """The last record of type t whose members equal match."""
    hit = [r for r in recs if r.get("t") == t and all(r.get(k) == v for k, v in match.items())]
    return hit[-1] if hit else None


def _fig64(r: Record) -> Fig:
    """64 x a faultclear cell's median service time and interval, in s."""
    def s(key: str) -> Optional[float]:
        v = num(r.get(key))
        return None if v is None else PAGES * v / 1e9
    return Fig(s("median_ns") or 0.0, s("ci_lo_ns"), s("ci_hi_ns"))


def _accel(h: Record, meta: Dict[str, object]) -> str:
    """One boot's accelerator from its header record (meta: hz run's
    meta.json, when it is that boot's)."""
    hv = h.get("hypervisor")
    return ("TCG" if h.get("tcg") else str(meta["accel"]).upper() if meta.get("accel")
            else "bare metal" if not hv else report_short.HYPERVISORS.get(str(hv), str(hv)))


def header(recs: Sequence[Record], meta: Dict[str, object]) -> Line:
    """CPU (vendor family model), accelerator, CPUs online (the `smp`
    record's, else hz run's --smp). Over several boots (`run`) that ran on
    different accelerators, each with its boots (meta.json is the last
    boot's: unused then); a TCG boot among them makes the outcome "tcg_some"
    (its boots in `tcg_boots`), every boot TCG "tcg": nothing is decided."""
    h = _one(recs, "header") or {}
    cpu = h.get("cpu") if isinstance(h.get("cpu"), dict) else {}
    assert isinstance(cpu, dict)
    smp = _one(recs, "smp") or {}
    heads = [r for r in recs if r.get("t") == "header"] or [h]
    boots = [(str(r.get("run", 0)), _accel(r, {})) for r in heads]
    tcg = [name for name, accel in boots if accel == "TCG"]
    mixed = len({accel for _, accel in boots}) > 1
    return Line("header", "tcg" if len(tcg) == len(boots) else "tcg_some" if tcg else "ok", {
        "vendor": VENDORS.get(str(cpu.get("vendor")), str(cpu.get("vendor") or "?")),
        "family": "%#x" % cpu["family"] if isinstance(cpu.get("family"), int) else "?",
        "model": "%#x" % cpu["model"] if isinstance(cpu.get("model"), int) else "?",
        "accel": verdict_merge.each(boots) if mixed else _accel(h, meta),
        "tcg_boots": MERGED["list"].join(tcg),
        "cpus": smp.get("online", meta.get("smp", "?"))})


def q1(recs: Sequence[Record], tcg: bool) -> List[Line]:
    """Q1: the four fault kinds in seconds for 64, the ratios against today."""
    cell = {m: _one(recs, "faultclear", bytes=G, strategy=LINUX, model=m)
            for m in ("linux_4k", "linux_batch=32M", "extent")}
    g = _one(recs, "faultclear_gain", bytes=G, strategy=LINUX)
    today = cell["linux_4k"]
    if not today:
        why = ("no 1 GiB frame" if _one(recs, "skip", name="faultclear.frames_1g")
               else "run=faultclear did not run")
        return [Line("q1", "missing", {"why": why})]
    out = [Line("q1", "ok", {"n": today.get("n"), "strategy": LINUX}),
           Line("q1_today", "ok", {"t": _fig64(today)})]
    for model, kind, pre in (("linux_batch=32M", "q1_batch", ""), ("extent", "q1_extent", "full_")):
        c = cell[model]
        if not c or not g or num(g.get(pre + "gain")) is None:
            out.append(Line(kind, "missing", {}))
            continue
        pub_key = "published_gain" if not pre else "published_full_gain"
        outcome = "tcg" if tcg else str(g.get(pre + "gain_outcome"))
        out.append(Line(kind, outcome, {
            "t": _fig64(c), "preempt": c.get("preempt"),
            "ratio": Fig(g[pre + "gain"], num(g.get(pre + "gain_lo")),
                         num(g.get(pre + "gain_hi")), "x"),
            "pub": Fig(g[pub_key], unit="x") if num(g.get(pub_key)) is not None else None,
            "pub_cpu": g.get("published_cpu"),
            "pub_batch": g.get("published_batch_bytes")}))
    batch = cell["linux_batch=32M"]
    if g and batch and num(g.get("left_pct")) is not None:
        keep = 1 - g["left_pct"] / 100.0
        t = _fig64(batch)
        out.append(Line("q1_prezeroed", "ok", {
            "t": Fig(t.value * keep),
            "left": Fig(g["left_pct"], num(g.get("left_lo_pct")), num(g.get("left_hi_pct")),
                        "%")}))
    return out


def _scaling(recs: Sequence[Record]) -> Optional[Line]:
    """How the qemu_4k rate scaled (measured): the qemu_4k `vmstart_knee`
    step (T - 1 -> T, the speed-up with its interval and the word
    lib/vmmodel.h vm_scaling() gives it), else (records before those
    members) the qemu_4k cells' GB/s at T = 1 and at the largest T."""
    knee = _one(recs, "vmstart_knee", policy="qemu_4k")
    if knee and num(knee.get("speedup")) is not None and isinstance(knee.get("step_threads"),
                                                                    int):
        return Line("q2_step", "ok", {
            "top": knee["step_threads"], "below": knee["step_threads"] - 1,
            "speedup": Fig(knee["speedup"], num(knee.get("speedup_lo")),
                           num(knee.get("speedup_hi")), "x"),
            "linear": Fig(knee["linear_speedup"], unit="x")
            if num(knee.get("linear_speedup")) is not None else None,
            "scaling": knee.get("scaling")})
    cells = sorted((r for r in recs if r.get("t") == "vmstart" and r.get("policy") == "qemu_4k"
                    and num(r.get("gbps")) is not None), key=lambda r: r.get("threads") or 0)
    if len(cells) < 2 or not cells[0]["gbps"]:
        return None
    one, top = cells[0], cells[-1]
    return Line("q2_scaling", "ok", {
        "top": top.get("threads"), "r1": Fig(one["gbps"], unit="GB/s"),
        "rtop": Fig(top["gbps"], unit="GB/s"),
        "gain": Fig(100.0 * (top["gbps"] / one["gbps"] - 1), unit="+%")})


def q2(recs: Sequence[Record], tcg: bool) -> List[Line]:
    """Q2: the VM-start model, from the verdict item or the model record."""
    picked = answers.pick([("answers", recs)]).get("vmstart")
    item = picked[1] if picked else None
    model = _one(recs, "vmstart_model", policy="qemu_4k")
    if not model or num(model.get("model_ns")) is None:
        return [Line("q2", "missing", {})]
    r1 = Fig(model["per_thread_gbps"], unit="GB/s")
    b = Fig(model["ceiling_gbps"], unit="GB/s") if num(model.get("ceiling_gbps")) else None
    f: Dict[str, object] = {"r1": r1, "b": b, "threads": model.get("threads"),
                            "t": Fig(model["model_ns"] / 1e9)}
    src = model.get("ceiling_source")
    outcome = "given" if src == "option" else "measured" if src == "measured" else "lower"
    if item and num(item.get("figure")) is not None:  # the kernel's decision, with intervals
        f["t"] = Fig(num(item.get("figure")) or 0.0, num(item.get("lo")), num(item.get("hi")))
        figs = item.get("figures") if isinstance(item.get("figures"), list) else []
        assert isinstance(figs, list)
        am = next((x for x in figs if isinstance(x, dict) and x.get("name") == "amdahl"), None)
        if am and num(am.get("value")) is not None:
            f["amdahl"] = Fig(am["value"], num(am.get("lo")), num(am.get("hi")))
        if outcome == "measured" and item.get("decided") is True:
            outcome = "decided"
    if tcg and outcome in ("measured", "decided"):
        outcome = "measured_tcg"
    out = [Line("q2", outcome, f)]
    sc = _scaling(recs)
    if sc:
        top, want = sc.fields["top"], model.get("threads")
        sc.fields["want"] = want
        sc.outcome = ("few_cpus" if isinstance(top, int) and isinstance(want, int) and top < want
                      and outcome == "lower" else "ok")
        out.append(sc)
    return out


def _peaks(recs: Sequence[Record]) -> List[Record]:
    return [r for r in recs if r.get("t") == "interference_peak"
            and num(r.get("gbps_per_cpu"))]


def _fault_cpu(recs: Sequence[Record]) -> Optional[Line]:
    """Without zeroer peaks: rep_stosb's CPU per GiB from the 1 GiB faults,
    the clear inside an extent fault (one 1 GiB call) and inside a linux_4k
    one (4 KiB calls, clear_page)."""
    ext = _one(recs, "faultclear", bytes=G, strategy=LINUX, model="extent")
    page = _one(recs, "faultclear", bytes=G, strategy=LINUX, model="linux_4k")
    if not ext or not num(ext.get("clear_median_ns")):
        return None
    return Line("q3", "fault", {
        "zeroer": LINUX, "chunk": G, "cpu": Fig(ext["clear_median_ns"] / 1e6, unit="ms"),
        "page_cpu": Fig(page["clear_median_ns"] / 1e6, unit="ms")
        if page and num(page.get("clear_median_ns")) else None})


def q3(recs: Sequence[Record], tcg: bool) -> List[Line]:
    """Q3: CPU per GiB of the cheapest zeroer at its call size (and Linux's
    clear_page in 4 KiB calls), then the neighbour cost or why not."""
    peaks = _peaks(recs)
    if peaks:
        def ms(r: Record) -> Fig:  # CPU ms per GiB at one CPU's unthrottled rate
            return Fig(G / (r["gbps_per_cpu"] * 1e9) * 1e3, unit="ms")
        best = max(peaks, key=lambda r: r["gbps_per_cpu"])
        page = next((r for r in peaks if r.get("zeroer") == "rep_stosb_4k"), None)
        first = Line("q3", "peak", {"zeroer": best.get("zeroer"), "chunk": best.get("chunk"),
                                    "cpu": ms(best),
                                    "page_cpu": ms(page) if page and page is not best else None})
    else:
        first = _fault_cpu(recs) or Line("q3", "missing", {})
    out = [first]
    host = _one(recs, "interference_host")
    idle = answers.pick([("answers", recs)]).get("idle")
    rec = idle[1] if idle and num(idle[1].get("ratio")) is not None else None
    if host and host.get("can_answer") is False:
        out.append(Line("q3_host", str(host.get("reason")), {
            "victim": host.get("victim"),
            "spin": Fig(host["slowdown_pct"], num(host.get("slowdown_lo_pct")),
                        num(host.get("slowdown_hi_pct")), "+%")
            if num(host.get("slowdown_pct")) is not None else None,
            "needs": host.get("needs")}))
    elif rec:
        args = rec.get("args") if isinstance(rec.get("args"), dict) else {}
        assert isinstance(args, dict)

        def pct(key: str) -> Optional[float]:
            v = num(rec.get(key)) if rec else None
            return None if v is None else 100.0 * (v - 1)
        out.append(Line("q3_cost", "tcg" if tcg else str(rec.get("outcome") or "open"), {
            "strategy": args.get("strategy"), "rate": args.get("rate_pct"),
            "victim": args.get("victim"),
            "cost": Fig(pct("ratio") or 0.0, pct("ratio_lo"), pct("ratio_hi"), "+%")}))
    else:
        skip = next((r for r in recs if r.get("t") == "skip"
                     and str(r.get("name", "")).startswith("interference")), None)
        out.append(Line("q3_cost", "no_figure" if host else "not_run",
                        {"why": skip.get("reason") if skip else None}))
    return out


def lines(recs: Sequence[Record], meta: Optional[Dict[str, object]] = None) -> List[Line]:
    """The block's lines as data: header, Q1, Q2, Q3 (and every boot's trust
    item record, kind "trust", for verdict_merge.trust_lines: the block's
    figures may come from any boot, so it speaks for all of them)."""
    head = header(recs, meta or {})
    tcg = head.outcome != "ok"  # any boot under TCG: no figure here decides
    out = [head] + q1(recs, tcg) + q2(recs, tcg) + q3(recs, tcg)
    trust = [(str(r.get("run", 0)), r) for r in recs
             if r.get("t") == "verdict" and verdict_text.run_facts(r)]
    if trust:
        out.append(Line("trust", "ok", {"boots": trust}))
    return out


def has_answers(recs: Sequence[Record]) -> bool:
    """True when the records hold the three answers' sources: faultclear
    cells, a vmstart model and interference peaks."""
    return bool(_one(recs, "faultclear") and _one(recs, "vmstart_model")
                and (_one(recs, "interference_host") or _peaks(recs)))
