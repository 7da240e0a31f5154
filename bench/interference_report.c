/*
 * bench/interference_report.c - the `interference` scenario's table and
 * records (docs/results.md `interference`, `interference_peak`): per cell
 * and victim the median with its 95 % order-statistic interval and CV
 * (lib/stats.h), and the slowdown against the victims-alone cell.
 */
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "bench/interference_priv.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/clear_record.h" /* CLEAR_STEAL_FLAG_X100 */

/* One (cell, victim) summary. */
struct summary {
    struct stats ns;
    int64_t slow_x100, slow_lo_x100, slow_hi_x100; /* percent x 100 against alone */
    uint64_t value_x1000, lo_x1000, hi_x1000;      /* ns/load or GB/s, x 1000 */
    uint64_t steal_x100; /* mean over the rounds of the victim CPU's steal share, % x 100 */
    bool noisy;
};

static int64_t slowdown_x100(uint64_t ns, uint64_t alone)
{
    if (!alone)
        return 0;
    uint64_t d = ns >= alone ? ns - alone : alone - ns, m = mul_div_u64(d, 10000, alone);
    return ns >= alone ? (int64_t)m : -(int64_t)m;
}

/* ns per load x 1000 (chases) or GB/s x 1000 (reads) for a time in ns. */
static uint64_t metric(const struct if_victim *v, uint64_t ns)
{
    return v->chase ? (v->moved ? ns * 1000 / v->moved : 0) : stats_gbps_x1000(v->moved, ns);
}

static void summarise(const struct if_state *st, const struct if_cell *c, unsigned vi,
                      const struct stats *alone, struct summary *out)
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
    uint64_t base = alone ? alone->median : out->ns.median;
    out->slow_x100 = slowdown_x100(out->ns.median, base);
    out->slow_lo_x100 = slowdown_x100(out->ns.ci_lo, base);
    out->slow_hi_x100 = slowdown_x100(out->ns.ci_hi, base);
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
    rec_begin(&r, buf, sizeof(buf), "interference");
    rec_str(&r, "zeroer", z ? z->label : "none");
    rec_str(&r, "strategy", z && z->s ? z->s->name : 0);
    rec_u64(&r, "chunk", z ? (z->chunk < st->share ? z->chunk : st->share) : 0);
    rec_u64(&r, "rate_pct", z ? c->rate_pct : 0);
    rec_u64(&r, "zeroer_cpus", z ? st->nzcpus : 0);
    rec_str(&r, "victim", v->name);
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
    rec_sfixed(&r, "slowdown_pct", s->slow_x100, 2);
    rec_sfixed(&r, "slowdown_lo_pct", s->slow_lo_x100, 2);
    rec_sfixed(&r, "slowdown_hi_pct", s->slow_hi_x100, 2);
    uint64_t w[IF_MAX_ROUNDS], zb = z ? stats_median_copy(c->zbps, c->rounds, w) : 0;
    rec_fixed(&r, "zeroer_gbps", zb / 1000000, 3);
    if (z && c->rate_pct < 100) /* null: unthrottled, or no zeroer */
        rec_fixed(&r, "zeroer_target_gbps", z->peak_bps / 100 * c->rate_pct * st->nzcpus / 1000000,
                  3);
    else
        rec_u64_opt(&r, "zeroer_target_gbps", false, 0);
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
        rec_u64(&r, "chunk", z->chunk < st->share ? z->chunk : st->share);
        rec_fixed(&r, "gbps_per_cpu", z->peak_bps / 1000000, 3);
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

void if_report(const struct if_state *st)
{
    static struct summary alone[IF_VICTIMS], s;
    static uint64_t w[IF_MAX_ROUNDS];
    char line[320], a[24], b[24];
    const struct if_cell *c0 = &st->cell[0];
    if (!c0->rounds)
        return;
    kprintf("interference: victims alone on CPU %u, median of %u rounds [95%% interval] "
            "cv%s:\n",
            st->vcpu, c0->rounds, tsc_reliable() ? "" : " -- UNRELIABLE clock");
    for (unsigned v = 0; v < IF_VICTIMS; v++) {
        summarise(st, c0, v, 0, &alone[v]);
        fmt_fixed(a, sizeof(a), alone[v].value_x1000, 3);
        kprintf("interference:   %-15s %8llu KiB %10s %s [", st->v[v].name,
                (unsigned long long)(st->v[v].bytes >> 10), a, st->v[v].chase ? "ns/load" : "GB/s");
        fmt_fixed(a, sizeof(a), alone[v].lo_x1000, 3);
        fmt_fixed(b, sizeof(b), alone[v].hi_x1000, 3);
        fmt_fixed(line, sizeof(line), alone[v].steal_x100, 2);
        kprintf("%s..%s] cv %llu%%, steal %s%%%s\n", a, b,
                (unsigned long long)(alone[v].ns.cv_x100 / 100), line,
                alone[v].noisy ? " NOISY" : "");
        emit(st, c0, v, &alone[v]);
    }
    kprintf("interference: victim slowdown %% against alone (median; cv %%; '~' noisy, 's' "
            "steal above 1%%); "
            "zeroer GB/s: all %u zeroer CPU(s), median (peak: one CPU alone)\n",
            st->nzcpus);
    size_t len = (size_t)hz_snprintf(line, sizeof(line), "interference: %-13s %-12s %5s %8s",
                                     "zeroer", "strategy", "rate", "GB/s");
    for (unsigned v = 0; v < IF_VICTIMS; v++)
        len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %15s", st->v[v].name);
    kprintf("%s\n", line);
    for (unsigned i = 1; i < st->ncells; i++) {
        const struct if_cell *c = &st->cell[i];
        if (!c->rounds)
            continue;
        fmt_fixed(a, sizeof(a), stats_median_copy(c->zbps, c->rounds, w) / 1000000, 3);
        hz_snprintf(b, sizeof(b), "%u%%", c->rate_pct);
        len = (size_t)hz_snprintf(line, sizeof(line), "interference: %-13s %-12s %5s %8s",
                                  c->z->label, c->z->s ? c->z->s->name : "-", b, a);
        for (unsigned v = 0; v < IF_VICTIMS; v++) {
            summarise(st, c, v, &alone[v].ns, &s);
            fmt_pct(a, sizeof(a), s.slow_x100);
            hz_snprintf(b, sizeof(b), "%s%% cv%llu%c%c", a,
                        (unsigned long long)(s.ns.cv_x100 / 100), s.noisy ? '~' : ' ',
                        s.steal_x100 > CLEAR_STEAL_FLAG_X100 ? 's' : ' ');
            len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %15s", b);
            emit(st, c, v, &s);
        }
        kprintf("%s%s\n", line, c->z->verified ? "" : " NOT ZERO");
    }
    peak_records(st);
}
