/*
 * scenarios/interference/report.c - the `interference` scenario's tables and
 * records (scenarios/interference/records.md `interference`, `interference_peak`): per cell
 * and victim the median with its 95 % order-statistic interval and CV
 * (lib/stats.h), the slowdown against the victims alone by lib/compare.h
 * (Hodges-Lehmann ratio, Moses interval, outcome at the tolerance), the
 * achieved zeroing rate beside its target, and the zeroer's CPU time.
 */
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "lib/compare_record.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/clear_record.h" /* CLEAR_STEAL_FLAG_X100 */
#include "scenarios/interference/priv.h"

/* One (cell, victim) summary. */
struct summary {
    struct stats ns;
    struct cmp slow;                          /* against the victims alone */
    uint64_t value_x1000, lo_x1000, hi_x1000; /* ns/load or GB/s, x 1000 */
    uint64_t steal_x100; /* mean over the rounds of the victim CPU's steal share, % x 100 */
    bool noisy;
};

/* ns per load x 1000 (chases) or GB/s x 1000 (reads) for a time in ns. */
static uint64_t metric(const struct if_victim *v, uint64_t ns)
{
    return v->chase ? (v->moved ? ns * 1000 / v->moved : 0) : stats_gbps_x1000(v->moved, ns);
}

static void summarise(const struct if_state *st, const struct if_cell *c, unsigned vi,
                      struct summary *out)
{
    uint64_t v[IF_MAX_ROUNDS];
    const struct if_victim *vic = &st->v[vi];
    memcpy(v, c->ns[vi], sizeof(uint64_t) * c->rounds);
    stats_compute(&out->ns, v, c->rounds);
    out->noisy = stats_noisy(&out->ns);
    uint64_t sum = 0;
    for (unsigned r = 0; r < c->rounds; r++)
        sum += c->steal[vi][r];
    out->steal_x100 = c->rounds ? sum / c->rounds : 0;
    if_slowdown(st, c, vi, &out->slow);
    out->value_x1000 = metric(vic, out->ns.median);
    /* a read's GB/s falls as its time rises: the interval swaps ends */
    out->lo_x1000 = metric(vic, vic->chase ? out->ns.ci_lo : out->ns.ci_hi);
    out->hi_x1000 = metric(vic, vic->chase ? out->ns.ci_hi : out->ns.ci_lo);
}

static void emit(const struct if_state *st, const struct if_cell *c, unsigned vi,
                 const struct summary *s)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    const struct if_victim *v = &st->v[vi];
    const struct if_zeroer *z = c->z;
    uint64_t bps, target, pct, w[IF_MAX_ROUNDS];
    if_rate(st, c, &bps, &target, &pct);
    rec_begin(&r, buf, sizeof(buf), "interference");
    rec_str(&r, "zeroer", z ? z->label : "none");
    rec_str(&r, "strategy", z && z->s ? z->s->name : 0);
    rec_u64(&r, "chunk", z ? if_chunk(st, z) : 0);
    rec_u64(&r, "call_bytes", if_call_bytes(st, c));
    rec_u64(&r, "rate_pct", z ? c->rate_pct : 0);
    rec_u64(&r, "zeroer_cpus", z ? st->nzcpus : 0);
    rec_str(&r, "victim", v->name);
    rec_str(&r, "victim_class", if_level_name(v->level));
    rec_u64(&r, "victim_cpu", st->vcpu);
    rec_u64(&r, "set_bytes", v->bytes);
    rec_str(&r, "metric", v->chase ? "ns_per_load" : "gbps");
    rec_fixed(&r, "value", s->value_x1000, 3);
    rec_fixed(&r, "value_lo", s->lo_x1000, 3);
    rec_fixed(&r, "value_hi", s->hi_x1000, 3);
    rec_u64(&r, "median_ns", s->ns.median);
    rec_u64(&r, "ci_lo_ns", s->ns.ci_lo);
    rec_u64(&r, "ci_hi_ns", s->ns.ci_hi);
    rec_fixed(&r, "cv_pct", s->ns.cv_x100, 2);
    rec_bool(&r, "noisy", s->noisy);
    rec_u64(&r, "rounds", c->rounds);
    rec_bool(&r, "too_few", c->rounds < CMP_MIN_N);
    rec_str(&r, "steal_method", steal_available() ? "kvm_steal_time" : "none");
    rec_fixed(&r, "steal_pct", s->steal_x100, 2);
    rec_bool(&r, "steal_high", s->steal_x100 > CLEAR_STEAL_FLAG_X100);
    rec_sfixed(&r, "slowdown_pct", if_ratio_pct_x100(s->slow.ratio_x1e6), 2);
    rec_sfixed(&r, "slowdown_lo_pct", if_ratio_pct_x100(s->slow.lo_x1e6), 2);
    rec_sfixed(&r, "slowdown_hi_pct", if_ratio_pct_x100(s->slow.hi_x1e6), 2);
    rec_cmp_members(&r, &s->slow);
    rec_fixed(&r, "zeroer_gbps", bps / 1000000, 3);
    if (target) { /* null: unthrottled, or no zeroer */
        rec_fixed(&r, "zeroer_target_gbps", target / 1000000, 3);
        rec_fixed(&r, "achieved_pct", pct, 2);
    } else {
        rec_u64_opt(&r, "zeroer_target_gbps", false, 0);
        rec_u64_opt(&r, "achieved_pct", false, 0);
    }
    rec_bool(&r, "rate_miss", if_rate_missed(st, c));
    uint64_t cpg = z && z->s ? stats_median_copy(c->zcpg, c->rounds, w) : 0;
    rec_u64(&r, "cpu_cyc_per_gib", cpg);
    rec_fixed(&r, "cpu_ms_per_gib", tsc_to_ns(cpg) / 1000, 3);
    rec_bool(&r, "verified", z ? z->verified : true);
    if (st->pmu) {
        rec_u64(&r, "cycles", stats_median_copy(c->pmu[vi][0], c->rounds, w));
        rec_u64(&r, "llc_misses", stats_median_copy(c->pmu[vi][1], c->rounds, w));
    }
    rec_u64(&r, "cpl", (uint64_t)user_cpl());
    rec_bool(&r, "tsc_reliable", tsc_reliable());
    record_emit(&r);
}

/* "+12.3" style percent x 100 with one decimal (rounded toward zero). */
static void fmt_pct(char *buf, size_t cap, int64_t x100)
{
    uint64_t m = x100 < 0 ? 0 - (uint64_t)x100 : (uint64_t)x100;
    char t[24];
    fmt_fixed(t, sizeof(t), m / 10, 1);
    hz_snprintf(buf, cap, "%c%s", x100 < 0 ? '-' : '+', t);
}

static void peak_records(const struct if_state *st)
{
    for (unsigned i = 0; i < IF_ZEROERS; i++) {
        const struct if_zeroer *z = &st->z[i];
        char buf[HZ_RECORD_MAX];
        struct rec r;
        if (!z->s)
            continue;
        rec_begin(&r, buf, sizeof(buf), "interference_peak");
        rec_str(&r, "zeroer", z->label);
        rec_str(&r, "strategy", z->s->name);
        rec_u64(&r, "chunk", if_chunk(st, z));
        rec_fixed(&r, "gbps_per_cpu", z->peak_bps / 1000000, 3);
        rec_fixed(&r, "gbps_lo", z->peak_lo / 1000000, 3);
        rec_fixed(&r, "gbps_hi", z->peak_hi / 1000000, 3);
        rec_fixed(&r, "cover_pct", z->peak_cover_x100, 2);
        rec_u64(&r, "n", IF_PEAK_ROUNDS);
        rec_u64(&r, "period_us", st->period_us);
        rec_u64(&r, "share_bytes", st->share);
        record_emit(&r);
        char name[48];
        hz_snprintf(name, sizeof(name), "interference.verify.%s", z->label);
        if (z->verified)
            result_pass(name);
        else
            result_fail(name, "a zeroer left a non-zero byte in its share (see above)");
    }
}

static void alone_table(const struct if_state *st)
{
    static struct summary s;
    char a[24], b[24], c[24], d[24], ci[32];
    const struct if_cell *c0 = &st->cell[0];
    size_t lo, hi;
    unsigned cover;
    stats_median_ci95(c0->rounds, &lo, &hi, &cover);
    kprintf("interference: victims alone on CPU %u, median of %u rounds [%s] cv%s:\n", st->vcpu,
            c0->rounds, fmt_ci_label(ci, sizeof(ci), cover),
            tsc_reliable() ? "" : " -- UNRELIABLE clock");
    for (unsigned v = 0; v < IF_VICTIMS; v++) {
        summarise(st, c0, v, &s);
        fmt_fixed(a, sizeof(a), s.value_x1000, 3);
        fmt_fixed(b, sizeof(b), s.lo_x1000, 3);
        fmt_fixed(c, sizeof(c), s.hi_x1000, 3);
        fmt_fixed(d, sizeof(d), s.steal_x100, 2);
        kprintf("interference:   %-15s %8llu KiB %-4s %10s %s [%s..%s] cv %llu%%, steal %s%%%s\n",
                st->v[v].name, (unsigned long long)(st->v[v].bytes >> 10),
                if_level_name(st->v[v].level), a, st->v[v].chase ? "ns/load" : "GB/s", b, c,
                (unsigned long long)(s.ns.cv_x100 / 100), d, s.noisy ? " NOISY" : "");
        emit(st, c0, v, &s);
    }
}

/* Per cell: target and achieved rate, the call size, the CPU per GiB. */
static void pacing_table(const struct if_state *st)
{
    uint64_t w[IF_MAX_ROUNDS];
    char a[24], b[24], c[24], d[24], e[24];
    kprintf("interference: pacing (all %u zeroer CPU(s); base: median of %u interleaved peak "
            "cells; '!' achieved more than %u%% off the target) and the zeroer's CPU (TSC time "
            "in its calls per GiB cleared):\n",
            st->nzcpus, IF_PEAK_ROUNDS, IF_MISS_PCT);
    kprintf("interference: %-13s %5s %9s %9s %9s %8s %10s %12s\n", "zeroer", "rate", "call",
            "target", "achieved", "%target", "CPU ms/GiB", "cyc/GiB");
    for (unsigned i = 1; i < st->ncells; i++) {
        const struct if_cell *cl = &st->cell[i];
        uint64_t bps, target, pct;
        if (!cl->rounds || !cl->z->s)
            continue;
        if_rate(st, cl, &bps, &target, &pct);
        uint64_t cpg = stats_median_copy(cl->zcpg, cl->rounds, w);
        fmt_size(a, sizeof(a), if_call_bytes(st, cl));
        fmt_fixed(b, sizeof(b), target / 1000000, 3);
        fmt_fixed(c, sizeof(c), bps / 1000000, 3);
        fmt_fixed(d, sizeof(d), pct / 10, 1);
        fmt_fixed(e, sizeof(e), tsc_to_ns(cpg) / 100000, 1); /* ms, 1 decimal */
        kprintf("interference: %-13s %4u%% %9s %9s %9s %7s%c %10s %12llu\n", cl->z->label,
                cl->rate_pct, a, target ? b : "-", c, target ? d : "-",
                if_rate_missed(st, cl) ? '!' : ' ', e, (unsigned long long)cpg);
    }
    for (unsigned i = 0; i < IF_ZEROERS; i++) {
        const struct if_zeroer *z = &st->z[i];
        if (!z->s)
            continue;
        fmt_fixed(a, sizeof(a), z->peak_bps / 1000000, 3);
        fmt_fixed(b, sizeof(b), z->peak_lo / 1000000, 3);
        fmt_fixed(c, sizeof(c), z->peak_hi / 1000000, 3);
        fmt_fixed(d, sizeof(d), z->peak_cover_x100, 2);
        kprintf("interference:   peak %-13s %s GB/s per CPU [%s..%s] (%s%% interval, n = %u)\n",
                z->label, a, b, c, d, IF_PEAK_ROUNDS);
    }
}

static char outcome_mark(const struct cmp *m)
{
    return m->outcome == CMP_SLOWER    ? '>'
           : m->outcome == CMP_FASTER  ? '<'
           : m->outcome == CMP_TIE     ? '='
           : m->outcome == CMP_TOO_FEW ? '-'
                                       : '?';
}

void if_report(const struct if_state *st)
{
    static struct summary s;
    char line[400], a[24], b[24], c[24], t[16];
    if (!st->cell[0].rounds)
        return;
    alone_table(st);
    pacing_table(st);
    fmt_fixed(t, sizeof(t), st->tol_x100, 2);
    /* a comparison needs CMP_MIN_N rounds a side (lib/compare.h) */
    kprintf("interference: victim slowdown %% against alone, Hodges-Lehmann [%s] then '>' "
            "slower, '=' within +-%s%%, '<' faster, '?' undecided, '-' too few rounds; '~' "
            "noisy, 's' steal above 1%%%s\n",
            st->cell[0].rounds >= CMP_MIN_N ? "95% Moses interval"
                                            : "Moses interval, 95% only from 6 rounds",
            t, st->llc_resident ? "" : "; LLC-sized victims not LLC-resident: bandwidth part only");
    size_t len =
        (size_t)hz_snprintf(line, sizeof(line), "interference: %-13s %5s", "zeroer", "rate");
    for (unsigned v = 0; v < IF_VICTIMS; v++)
        len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %24s", st->v[v].name);
    kprintf("%s\n", line);
    for (unsigned i = 1; i < st->ncells; i++) {
        const struct if_cell *cl = &st->cell[i];
        if (!cl->rounds)
            continue;
        len = (size_t)hz_snprintf(line, sizeof(line), "interference: %-13s %4u%%", cl->z->label,
                                  cl->rate_pct);
        for (unsigned v = 0; v < IF_VICTIMS; v++) {
            summarise(st, cl, v, &s);
            fmt_pct(a, sizeof(a), if_ratio_pct_x100(s.slow.ratio_x1e6));
            fmt_pct(b, sizeof(b), if_ratio_pct_x100(s.slow.lo_x1e6));
            fmt_pct(c, sizeof(c), if_ratio_pct_x100(s.slow.hi_x1e6));
            char cell[40];
            hz_snprintf(cell, sizeof(cell), "%s [%s..%s]%c%c%c", a, b, c, outcome_mark(&s.slow),
                        s.noisy ? '~' : ' ', s.steal_x100 > CLEAR_STEAL_FLAG_X100 ? 's' : ' ');
            len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %24s", cell);
            emit(st, cl, v, &s);
        }
        kprintf("%s%s\n", line, cl->z->verified ? "" : " NOT ZERO");
    }
    peak_records(st);
}
