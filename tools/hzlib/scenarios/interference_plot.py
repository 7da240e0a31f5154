"""interference.png: what a background zeroer costs its neighbours
(`interference` records, scenarios/interference/records.md).

One panel per victim (pointer chases over L2/2, LLC/2, 4 x LLC; the
4 x LLC stream; the LLC-sized tenant). In each, one line per zeroer
(strategy and call size): x is the zeroer's achieved GB/s, all zeroer CPUs
together, at the rates it ran (1, 10, 25 % of its peak and unthrottled),
log scale; y is the victim's slowdown % against running alone, with the
median's 95 % interval as error bar. The lowest line at a given GB/s is the
strategy a background zeroer should use at that rate; a line that stays
near 0 up to some rate says how fast it may go. Noisy points are labelled.
A dashed line is the `spin` control (the zeroer CPUs busy, no stores): the
part of any slowdown that is CPU contention, not memory.
Without any `interference` record (the scenario did not run) nothing is
said; with only the victims-alone records, a message.
"""

import os

from .. import gnuplot

VICTIMS = ("chase_l2_half", "chase_llc_half", "chase_4llc", "stream_4llc", "tenant_llc")


def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def plot_interference(rs, outdir, work, machine):
    recs = [r for r in rs.of_type("interference")
            if r.get("zeroer") not in (None, "none") and _num(r.get("zeroer_gbps"))
            and _num(r.get("slowdown_pct"))]
    if not recs:  # silent when run=interference did not run at all
        return [], (["interference: no interference records with a zeroer"]
                    if rs.of_type("interference") else [])
    victims = [v for v in VICTIMS if any(r.get("victim") == v for r in recs)]
    victims += sorted({r.get("victim") for r in recs} - set(victims))
    zeroers = sorted({r["zeroer"] for r in recs})
    out = os.path.join(outdir, "interference.png")
    script = ("set terminal %s size 1500,900 noenhanced font 'sans,9'\nset output %s\n"
              "set multiplot layout 2,3 title %s\n"
              % (gnuplot.terminal(), gnuplot.quote(out),
                 gnuplot.quote(gnuplot.fit("victim slowdown vs background zeroer rate (median, "
                                           "95% interval)\n" + machine,
                                           gnuplot.MULTIPLOT_TITLE_COLUMNS))))
    noisy_any = False
    for vi, victim in enumerate(victims):
        plots = []
        for zi, z in enumerate(zeroers):
            pts = sorted((r for r in recs if r["zeroer"] == z and r.get("victim") == victim),
                         key=lambda r: r["zeroer_gbps"])
            pts = [r for r in pts if r["zeroer_gbps"] > 0]
            if not pts:
                continue
            data = os.path.join(work, "interf%d_%d.dat" % (vi, zi))
            with open(data, "w") as f:
                for r in pts:
                    lo, hi = r.get("slowdown_lo_pct"), r.get("slowdown_hi_pct")
                    lo = lo if _num(lo) else r["slowdown_pct"]
                    hi = hi if _num(hi) else r["slowdown_pct"]
                    f.write("%s %s %s %s\n" % (r["zeroer_gbps"], r["slowdown_pct"], lo, hi))
                    noisy_any |= r.get("noisy") is True
            label = "%s (%s)" % (z, pts[0].get("strategy"))
            plots.append("%s using 1:2:3:4 with yerrorlines lw 2 lc %d title %s"
                         % (gnuplot.quote(data), zi + 1, gnuplot.quote(label)))
        if not plots:
            continue
        spin = [r["slowdown_pct"] for r in recs
                if r["zeroer"] == "spin" and r.get("victim") == victim]
        if spin:  # the control: a busy sibling CPU without stores
            plots.append("%s with lines dt 2 lc rgb 'black' title %s"
                         % (spin[-1], gnuplot.quote("spin control %.1f %%" % spin[-1])))
        metric = next((r.get("metric") for r in recs if r.get("victim") == victim), "")
        script += ("set title %s\nset xlabel 'zeroer GB/s (all zeroer CPUs, log)'\n"
                   "set ylabel 'victim slowdown %%'\nset logscale x\nset grid\n"
                   "set key %s top left font 'sans,8'\nplot %s\n"
                   % (gnuplot.quote("%s (%s)" % (victim, metric)), "inside" if vi == 0 else "off",
                      ", ".join(plots)))
    script += "unset multiplot\n"
    gnuplot.run(script, work)
    msgs = (["interference: some points are noisy (CV > 10 %): see the table's '~'"]
            if noisy_any else [])
    return [out], msgs
