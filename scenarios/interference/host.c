/*
 * scenarios/interference/host.c - can this host answer run=interference's
 * question ("what does background zeroing cost the other tenants in CPU and
 * L3")? Checked after the residency phase and before any zeroer runs, so a
 * host that cannot answer says so within 30 s instead of after minutes of
 * cells:
 *
 *   CPU contention  the spin control (PAUSE on every zeroer CPU, no memory
 *                   traffic) decidedly slows a victim: lib/compare.h's rule
 *                   (Hodges-Lehmann ratio, 95 % Moses interval, outcome at
 *                   the tolerance) on IF_HOST_ROUNDS interleaved rounds of
 *                   the victims alone and with the spin control. The victim
 *                   and zeroer vCPUs then share physical cores (SMT siblings
 *                   or an overcommitted host), and any zeroer's cost would
 *                   be mostly that contention;
 *   no LLC victim   an LLC-sized victim runs at DRAM latency (the residency
 *                   phase): other tenants share the LLC, so L3 pollution
 *                   cannot be seen.
 *
 * Either way an answer needs distinct physical cores for the victim and the
 * zeroers and an LLC no other tenant shares: bare metal, or a dedicated
 * host with pinned vCPUs (docs/lab.md "Answering the thread on bare metal").
 * When it stops, the check's own cells (the victims alone and with the spin
 * control) go to the verdict, whose idle item says the same from them
 * (reason CONTENTION or NO_LLC).
 * `interf_host=` says what to do then: stop (default), continue (measure
 * anyway, the finding recorded), or contend (a test aid: the spin cell's
 * victim passes also spend their own time again, as a tenant sharing the
 * victim's CPU would take it, then as stop).
 */
#include "arch/tsc.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "scenarios/interference/priv.h"

enum { HOST_STOP, HOST_CONTINUE, HOST_CONTEND };
static int host_mode;
static const char *const host_modes[] = {"stop", "continue", "contend", 0};
HZ_OPTION(opt_if_host, .name = "interf_host", .kind = OPT_ENUM, .dest = &host_mode,
          .choices = host_modes, .accepted = "stop|continue|contend",
          .help = "run=interference: when the host cannot answer (CPU contention, no "
                  "LLC-resident victim): stop within 30 s (default), continue, or contend "
                  "(test aid: the spin control also takes the victim CPU's time, then stop)");

/* "+12.3" of a percent x 100 into b. */
static const char *pct(char *b, size_t n, int64_t x100)
{
    fmt_fixed(b, n, (uint64_t)(x100 < 0 ? -x100 : x100) / 10, 1);
    char t[24];
    hz_snprintf(t, sizeof(t), "%c%s", x100 < 0 ? '-' : '+', b);
    hz_snprintf(b, n, "%s", t);
    return b;
}

bool if_host_check(struct if_state *st, uint64_t t0)
{
    struct if_cell *alone = &st->cell[0], *spin = &st->cell[1];
    uint64_t deadline = t0 + IF_HOST_BUDGET_S * tsc_info()->hz;
    unsigned order[2], r;
    for (r = 0; r < IF_HOST_ROUNDS && rdtsc() < deadline; r++) {
        ilv_order(4099, r, order, 2);
        for (unsigned i = 0; i < 2; i++)
            if (!if_run_cell(&st->cell[order[i]], r + 3,
                             order[i] == 1 && host_mode == HOST_CONTEND))
                return false;
    }
    /* the worst victim: the largest slowdown the spin control decidedly causes */
    struct cmp worst = {0}, c;
    int wv = -1;
    char a[24], b[24], d[24];
    kprintf("interference: host check, the spin control alone against the victims alone, %u "
            "interleaved rounds%s:\n",
            r, host_mode == HOST_CONTEND ? " (interf_host=contend: forced contention)" : "");
    for (unsigned v = 0; v < IF_VICTIMS; v++) {
        if_slowdown(st, spin, v, &c);
        kprintf("interference:   %-15s %s%% [%s..%s] %s\n", st->v[v].name,
                pct(a, sizeof(a), if_ratio_pct_x100(c.ratio_x1e6)),
                pct(b, sizeof(b), if_ratio_pct_x100(c.lo_x1e6)),
                pct(d, sizeof(d), if_ratio_pct_x100(c.hi_x1e6)), cmp_outcome_name(c.outcome));
        if (c.outcome == CMP_SLOWER && (wv < 0 || c.ratio_x1e6 > worst.ratio_x1e6))
            worst = c, wv = (int)v;
    }
    /* fewer rounds than a comparison takes (the budget ran out): nothing checked */
    bool contention = wv >= 0, checked = r == IF_HOST_ROUNDS;
    bool answer = checked && !contention && st->llc_resident;
    char reason[64];
    hz_snprintf(reason, sizeof(reason), "%s%s%s%s", answer ? "ok" : "",
                contention ? ",cpu_contention" : "", st->llc_resident ? "" : ",no_llc_victim",
                checked ? "" : ",check_incomplete");
    const char *why = reason[0] == ',' ? reason + 1 : reason;
    bool stop = !answer && host_mode != HOST_CONTINUE;
    const char *needs = !st->llc_resident && contention ? "distinct physical cores, an unshared LLC"
                        : contention                    ? "distinct physical cores"
                        : !st->llc_resident             ? "an unshared LLC"
                                                        : "the host check's rounds within 25 s";
    uint64_t ms = tsc_to_ns(rdtsc() - t0) / 1000000;
    char buf[HZ_RECORD_MAX];
    struct rec rec;
    rec_begin(&rec, buf, sizeof(buf), "interference_host");
    rec_bool(&rec, "can_answer", answer);
    rec_str(&rec, "reason", why);
    rec_bool(&rec, "cpu_contention", contention);
    rec_bool(&rec, "llc_resident", st->llc_resident);
    rec_bool(&rec, "forced", host_mode == HOST_CONTEND);
    rec_u64(&rec, "rounds", r);
    rec_u64(&rec, "victim_cpu", st->vcpu);
    rec_u64(&rec, "zeroer_cpus", st->nzcpus);
    rec_u64(&rec, "l2_bytes", st->l2);
    rec_u64(&rec, "llc_bytes", st->llc);
    rec_str(&rec, "cache_source", st->cache_source);
    if (contention) {
        rec_str(&rec, "victim", st->v[wv].name);
        rec_sfixed(&rec, "slowdown_pct", if_ratio_pct_x100(worst.ratio_x1e6), 2);
        rec_sfixed(&rec, "slowdown_lo_pct", if_ratio_pct_x100(worst.lo_x1e6), 2);
        rec_sfixed(&rec, "slowdown_hi_pct", if_ratio_pct_x100(worst.hi_x1e6), 2);
    } else {
        rec_u64_opt(&rec, "victim", false, 0);
        rec_u64_opt(&rec, "slowdown_pct", false, 0);
        rec_u64_opt(&rec, "slowdown_lo_pct", false, 0);
        rec_u64_opt(&rec, "slowdown_hi_pct", false, 0);
    }
    rec_str(&rec, "needs", answer ? "" : needs);
    rec_str(&rec, "action", answer ? "measure" : stop ? "stop" : "continue");
    rec_u64(&rec, "elapsed_ms", ms);
    record_emit(&rec);
    if (stop) /* the verdict's idle item says why from these cells
                 (scenarios/interference/verdict.c) */
        if_verdict_cells(st);
    alone->rounds = spin->rounds = 0; /* the rounds proper start afresh */
    if (answer)
        return true;
    if (contention)
        kprintf("interference: CPU contention here: the spin control alone slows victim %s by "
                "%s%% [%s..%s]\n",
                st->v[wv].name, pct(a, sizeof(a), if_ratio_pct_x100(worst.ratio_x1e6)),
                pct(b, sizeof(b), if_ratio_pct_x100(worst.lo_x1e6)),
                pct(d, sizeof(d), if_ratio_pct_x100(worst.hi_x1e6)));
    if (!st->llc_resident)
        kprintf("interference: no LLC-resident victim here: an LLC-sized working set runs at "
                "DRAM latency (an LLC other tenants share, or none modelled)\n");
    if (!checked)
        kprintf("interference: the host check ran %u of its %u rounds in %u s: too few to tell "
                "CPU contention\n",
                r, IF_HOST_ROUNDS, IF_HOST_BUDGET_S);
    kprintf("interference: this host cannot answer the neighbour question; a host with %s for "
            "victim and zeroers can (bare metal, or pinned vCPUs on a dedicated host: "
            "docs/lab.md)%s\n",
            needs, stop ? "; stopping" : "; measuring anyway (interf_host=continue)");
    if (stop)
        result_skip("interference.host", "this host cannot answer (%s) after %llu ms", why,
                    (unsigned long long)ms);
    return !stop;
}
