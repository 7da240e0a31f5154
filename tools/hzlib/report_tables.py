"""hz report's tables of one result set: clear cells, demand faults,
clearing inside the fault (run=faultclear, grouped as faultclear.py
does), pre-zeroing policies, SMP scaling and fill, VM start (run=vmstart,
its model lines from vmstart.py), interference (residency, pacing, slowdowns
and ranking, interference.py), checks (docs/results.md names every member
shown). Each row carries report_html.row_flags().
"""

import statistics

from . import compare_stat, fmtns, results, schema
from .scenarios import faultclear, interference, vmstart
from .report_html import num, esc, fmt, interval, row_flags, table


def _clear_rows(recs, rs):
    rows = []
    for r in sorted(recs, key=lambda r: -(num(r.get("gbps_median", r.get("gbps"))) or 0)):
        rows.append(([r.get("strategy"), results.human_size(r.get("chunk")), r.get("repeats"),
                      fmt(r.get("gbps_median", r.get("gbps")), "%.2f"),
                      interval(r.get("gbps_lo"), r.get("gbps_hi")),
                      fmt(r.get("cv_pct"), "%.2f"), fmt(r.get("steal_pct"), "%.2f"),
                      fmt(r.get("cold_ratio"), "%.1f")], row_flags(r, rs)))
    return rows


def clear_section(rs):
    recs = rs.of_type("clear")
    if not recs:
        return ""
    out = ['<h2 id="clear">Clear cells</h2><p>Median GB/s (10<sup>9</sup> B/s) with the '
           "median's 95 % interval, fastest first; CV of the repeat times; steal: share of the "
           "cell's time the host ran something else; cold ratio: cold/warm probe time "
           "(below 1.3 the target was not cold).</p>"]
    for run in rs.of_type("clear_run"):
        out.append("<p>%d cells interleaved over %d rounds (stopped: %s), %d noisy, "
                   "eviction %s, seed %s.</p>" % (
                       run.get("cells", 0), run.get("rounds", 0), esc(run.get("stop")),
                       run.get("noisy_cells", 0), esc(run.get("evict")), esc(run.get("seed"))))
    groups = {}
    for r in recs:
        groups.setdefault((str(r.get("cache")),) + schema.key(r, ("bytes", "threads")),
                          []).append(r)
    for (cache, nbytes, threads) in sorted(groups, key=lambda k: (k[0], -(num(k[1]) or 0),
                                                                  num(k[2]) or 0)):
        out.append("<h3>%s, %s target, %s thread(s)</h3>" % (
            esc(cache), esc(results.human_size(nbytes)), esc(threads)))
        out.append(table(("strategy", "chunk", "repeats", "GB/s", "95% interval", "CV %",
                          "steal %", "cold ratio"),
                         _clear_rows(groups[(cache, nbytes, threads)], rs),
                         numeric=(2, 3, 4, 5, 6, 7)))
    return "".join(out)


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


def ms(ns, spec="%.2f"):
    """Nanoseconds as milliseconds text ("-" for none)."""
    return fmt(ns / 1e6 if num(ns) is not None else None, spec)


def us(ns):
    return fmt(ns / 1e3 if num(ns) is not None else None, "%.1f")


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


def _ms_interval(r):
    """A wall-time record's ci_lo_ns..ci_hi_ns in milliseconds."""
    return interval(*(r[k] / 1e6 if num(r.get(k)) is not None else None
                      for k in ("ci_lo_ns", "ci_hi_ns")), spec="%.1f")


def _ns_interval(r):
    """A wall-time record's ci_lo_ns..ci_hi_ns by the kernel's rounding rule."""
    return "%s..%s" % (fmtns.fmt_ns_any(r.get("ci_lo_ns")), fmtns.fmt_ns_any(r.get("ci_hi_ns")))


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
        out.append(table(("strategy", "threads", "placement", "GB/s", "95% interval",
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


def faultclear_section(rs):
    cells, gains = faultclear.cells(rs.records), faultclear.gains(rs.records)
    if not cells:
        return ""
    rows = []
    for b, strat in dict.fromkeys((b, st) for b, st, _ in cells):
        recs = [cells.get((b, strat, m)) for m in faultclear.MODELS]
        gain = gains.get((b, strat))
        flags = []
        for r in [r for r in recs if r] + ([gain] if gain else []):
            flags += [f for f in row_flags(r, rs) if f not in flags]
        rows.append(([results.human_size(b), strat] +
                     ["%s %s" % (fmt(r.get("gbps"), "%.2f"), interval(r.get("gbps_lo"),
                                                                      r.get("gbps_hi")))
                      if r else "-" for r in recs] +
                     ["%sx %s%s" % (fmt(gain.get("gain"), "%.2f"),
                                    interval(gain.get("gain_lo"), gain.get("gain_hi")),
                                    faultclear.cover_text(gain))
                      if gain else "-"], flags))
    return ('<h2 id="faultclear">Clearing inside the fault (run=faultclear)</h2><p>Median '
            "fault-service GB/s (frame / median time) per fault_clear= model with its 95 % "
            "interval; predicted gain: linux_4k / linux_batch=32M time, a prediction of these "
            "models: the Hodges-Lehmann ratio with its interval and that interval's coverage "
            "(95 % Moses; older records: the range both intervals allow, 91.6 %).</p>" +
            table(("frame", "strategy") + faultclear.MODELS + ("predicted gain",), rows))


def vmstart_section(rs):
    cells = rs.of_type("vmstart")
    if not cells:
        return ""
    rows = [([r.get("policy"), r.get("path"), r.get("strategy"), r.get("threads"),
              "%s x %s" % (r.get("pages"), results.human_size(r.get("frame_bytes"))),
              fmtns.fmt_ns_any(r.get("wall_ns")), _ns_interval(r), fmt(r.get("cv_pct"), "%.2f"),
              # GB/s as the console prints it: the record's three decimals
              "-" if vmstart.prezeroed(r.get("policy")) else fmt(r.get("gbps"), "%.3f"),
              "-" if vmstart.prezeroed(r.get("policy"))
              else interval(r.get("gbps_lo"), r.get("gbps_hi"), "%.3f"),
              fmtns.fmt_ns_any(r.get("prezero_ns")), fmt(r.get("hit_pct"))], row_flags(r, rs))
            for r in cells]
    # the knees and costs (measured) and the qemu rows' model, every line of it marked MODEL
    lines = vmstart.knees(rs.records) + vmstart.costs(rs.records) + vmstart.models(rs.records)
    return ('<h2 id="vmstart">VM start (run=vmstart)</h2><p>Median wall time of S = frames x '
            "size under each policy with T CPUs faulting (qemu rows: policy none with "
            "fault_clear=linux_4k and linux_batch=32M, QEMU's touch-every-page start), with its "
            "95 % interval. GB/s only where the faults clear: the pre-zeroed policies map frames "
            "zeroed before, so their row has their own costs instead.</p>" +
            table(("policy", "path", "strategy", "T", "frames", "wall", "interval", "CV %",
                   "GB/s", "GB/s interval", "pre-zero", "hit %"), rows,
                  numeric=tuple(range(3, 12))) +
            "<p>%s</p>" % "<br>".join(esc(line) for line in lines))


def interference_section(rs):
    """Residency, pacing and CPU, the slowdowns with their intervals and
    outcomes, and the unthrottled ranking (tools/hzlib/scenarios/interference.py)."""
    cs = interference.cells(rs.records)
    if not cs:
        return ""
    res = [([r.get("victim"), r.get("access"), results.human_size(r.get("set_bytes")),
             fmt(r.get("ns_per_access"), "%.1f"), interval(r.get("ns_lo"), r.get("ns_hi"), "%.1f"),
             r.get("intended"), r.get("class"), fmt(r.get("ref_l2_ns"), "%.1f"),
             fmt(r.get("ref_llc_ns"), "%.1f"), fmt(r.get("ref_dram_ns"), "%.1f")],
            ["not-" + str(r.get("intended"))] if r.get("class") != r.get("intended") else [])
           for r in rs.of_type("interference_residency") if not r.get("reference")]
    pace = [(interference.pacing_row(c), ["rate-miss"] if c.first().get("rate_miss") else [])
            for c in cs if c.zeroer != "spin"]
    vs = interference.victims(rs.records)
    slow = [([c.zeroer, "%d%%" % c.rate] + [interference.slowdown(c.by_victim.get(v))
                                            for v in vs],
             row_flags(c.first(), rs)) for c in cs]
    rank = [([v, chain], []) for v, chain in interference.ranking(rs.records)]
    notes = [line.strip() for line in interference.residency_lines(rs.records)
             if line.startswith("  LLC-resident")]
    return ('<h2 id="interference">Interference (run=interference)</h2>'
            "<p>Each victim alone, classed by its time per access against reference sets "
            "measured in the same runs.</p>%s%s"
            % (table(("victim", "access", "set", "ns", "interval", "aims at", "class",
                      "ref L2", "ref LLC", "ref DRAM"), res, numeric=(3, 7, 8, 9)),
               "".join("<p><b>%s</b></p>" % esc(n) for n in notes)) +
            "<p>Pacing: target (the median of 7 interleaved peak cells x rate) and achieved "
            "GB/s of all zeroer CPUs, '!' more than 10 % off; the zeroer's CPU time per GiB "
            "cleared.</p>" +
            table(("zeroer", "rate", "call bytes", "target GB/s", "achieved GB/s",
                   "% of target", "CPU ms/GiB"), pace, numeric=(2, 3, 4, 5, 6)) +
            "<p>Victim slowdown %% against alone: Hodges-Lehmann, [95 %% Moses interval], "
            "then '>' slower, '=' within the tolerance, '<' faster, '?' undecided, '-' too "
            "few rounds.</p>" + table(["zeroer", "rate"] + vs, slow) +
            "<p>Unthrottled ranking, least cost first: '<' decided, '~' a tie, '?' "
            "undecided (adjacent pairs, Bonferroni z).</p>" +
            (table(("victim", "ranking"), rank) if rank else
             "<p>undecided: no interference_rank comparison (fewer than 6 rounds)</p>"))


def checks_section(rs):
    summ = rs.of_type("summary")
    s = summ[-1] if summ else {}
    bad = [r for r in rs.records if r.get("t") in ("fail", "skip", "crash", "config")]
    out = ['<h2 id="checks">Checks</h2><p>%s</p>' % (
        "status %s: %s pass, %s fail, %s skip" % tuple(
            esc(s.get(k, "?")) for k in ("status_name", "pass", "fail", "skip"))
        if s else "<b>no summary record: the run did not finish</b>")]
    if bad:
        out.append(table(("result", "check", "reason"),
                         [([r["t"], r.get("name", ""), r.get("reason", r.get("text", ""))],
                           [r["t"]] if r["t"] != "skip" else []) for r in bad]))
    return "".join(out)


# In page order.
SECTIONS = (clear_section, fault_section, faultclear_section, prezero_section, smp_section,
            vmstart_section, interference_section, checks_section)
