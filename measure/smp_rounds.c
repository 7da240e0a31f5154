/*
 * measure/smp_rounds.c - the interleaved rounds of multi-CPU cells
 * (measure/smp_rounds.h smp_rounds_run(), lib/interleave.h) that run=smp
 * and run=numa run: the options smp_max_rounds, smp_budget and smp_seed,
 * each cell's series of wall times and steal, and the `smp_rounds` record
 * (scenarios/smp/records.md).
 */
#include "measure/smp_rounds.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "kernel/options.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/print.h"
#include "lib/record.h"

static uint64_t max_rounds = 30, budget_s = 60, seed;

HZ_OPTION(opt_smp_max_rounds, .name = "smp_max_rounds", .kind = OPT_U64, .dest = &max_rounds,
          .min = 1, .max = SMP_MAX_ROUNDS, .accepted = "1..100",
          .help = "most timed rounds of the smp cells (default 30; never below smp_repeats)");
HZ_OPTION(opt_smp_budget, .name = "smp_budget", .kind = OPT_U64, .dest = &budget_s, .min = 0,
          .max = 86400, .accepted = "0..86400 (seconds)",
          .help = "time after which no smp round past the minimum starts, per part (default 60)");
HZ_OPTION(opt_smp_seed, .name = "smp_seed", .kind = OPT_U64, .dest = &seed, .min = 0,
          .max = UINT64_MAX, .accepted = "0..2^64-1",
          .help = "seed of the smp cells' per-round order (default 0: from the TSC; recorded)");

bool smp_series_add(struct smp_series *s, const struct smp_job *j, bool timed)
{
    s->wall_below += j->wall_below;
    if (timed && s->n < SMP_MAX_ROUNDS) {
        s->start_skew_ns[s->n] = tsc_to_ns(j->start_skew_cyc);
        s->end_skew_ns[s->n] = tsc_to_ns(j->end_skew_cyc);
        s->late_starts += j->late_starts;
        s->ns[s->n++] = tsc_to_ns(j->wall_cyc);
        scenario_timed(j->wall_cyc);
        s->steal_ns += j->steal_ns;
        s->steal_base_ns += j->steal_base_ns;
        if (j->steal_base_ns) /* the summary's and the trust verdict's share (arch/steal.h) */
            steal_account(j->steal_base_ns, j->steal_ns);
    }
    return j->wall_below;
}

void smp_series_stats(const struct smp_series *s, struct stats *st, uint64_t *steal_x100)
{
    static uint64_t v[SMP_MAX_ROUNDS];
    for (size_t i = 0; i < s->n; i++)
        v[i] = s->ns[i];
    stats_compute(st, v, s->n);
    *steal_x100 = stats_pct_x100(s->steal_ns, s->steal_base_ns);
}

void smp_series_skew_record(struct rec *r, const struct smp_series *s)
{
    static uint64_t pct[SMP_MAX_ROUNDS], w[SMP_MAX_ROUNDS];
    if (!s->n)
        return;
    const uint64_t *skew[2] = {s->start_skew_ns, s->end_skew_ns};
    const char *key[2][2] = {{"start_skew_ns", "start_skew_pct"}, {"end_skew_ns", "end_skew_pct"}};
    for (unsigned e = 0; e < 2; e++) {
        for (size_t i = 0; i < s->n; i++)
            pct[i] = stats_pct_x100(skew[e][i], s->ns[i]);
        rec_u64(r, key[e][0], stats_median_copy(skew[e], s->n, w));
        rec_fixed(r, key[e][1], stats_median_copy(pct, s->n, w), 2);
    }
    rec_u64(r, "late_starts", s->late_starts);
}

struct plan_rounds smp_rounds_apply(struct plan_rounds r)
{
    if (option_given("smp_max_rounds"))
        r.max = (unsigned)max_rounds;
    if (option_given("smp_budget"))
        r.budget_s = (unsigned)budget_s;
    if (cpu_is_tcg() || r.max < r.min) /* TCG: no point in waiting for them to settle */
        r.max = r.min;
    return r;
}

/* The caller's repeat, watched: the SMI count and TSC span around it go to
 * the cell's time_lost (measure/time_lost.h); its settle, called with its
 * own arg. */
struct watched {
    bool (*repeat)(void *arg, size_t cell, unsigned round);
    void (*settle)(void *arg, bool *open);
    void *arg;
    struct smp_series *const *series;
};

static bool watched_repeat(void *arg, size_t cell, unsigned round)
{
    const struct watched *w = arg;
    struct smp_series *s = w->series[cell];
    size_t n = s->n;
    uint64_t smi0 = 0, smi1 = 0;
    bool smi = tl_smi_read(&smi0);
    uint64_t t0 = rdtsc();
    bool ok = w->repeat(w->arg, cell, round);
    uint64_t span = rdtsc() - t0;
    bool timed = s->n > n; /* it added a timed repeat */
    tl_repeat(&s->lost, tsc_to_ns(span), timed);
    if (timed) {
        smi = smi && tl_smi_read(&smi1);
        s->lost.smi_known = smi && (n == 0 || s->lost.smi_known);
        s->lost.smi += s->lost.smi_known ? (uint32_t)(smi1 - smi0) : 0; /* bits 31:0 count */
    }
    return ok;
}

static void watched_settle(void *arg, bool *open)
{
    const struct watched *w = arg;
    w->settle(w->arg, open);
}

bool smp_rounds_run(const char *part, const struct plan_rounds *rounds, size_t ncells,
                    struct smp_series *const *series,
                    bool (*repeat)(void *arg, size_t cell, unsigned round),
                    void (*settle)(void *arg, bool *open), void *arg)
{
    static bool open[SMP_MAX_CELLS];
    static unsigned order[SMP_MAX_CELLS];
    static uint64_t scratch[SMP_MAX_ROUNDS];
    static enum ilv_verdict stop[SMP_MAX_CELLS];
    static struct ilv_series ser[SMP_MAX_CELLS];
    struct plan_rounds q = smp_rounds_apply(*rounds);
    struct ilv_rule rule = {q.min, q.max, SMP_CI_X100, settle ? ILV_LOOK_EVERY : 0};
    for (size_t i = 0; i < ncells && i < SMP_MAX_CELLS; i++)
        ser[i] = (struct ilv_series){series[i]->ns, &series[i]->n};
    uint64_t s = seed ? seed : rdtsc();
    struct watched w = {repeat, settle, arg, series};
    struct ilv_run run = {.seed = s,
                          .rule = &rule,
                          .ncells = ncells,
                          .order = order,
                          .scratch = scratch,
                          .series = ser,
                          .repeat = watched_repeat,
                          .arg = &w,
                          .clock = tsc_now,
                          .budget = (uint64_t)q.budget_s * tsc_info()->hz,
                          .budget_from = 1, /* the timed rounds */
                          .stop = stop,
                          .settle = settle ? watched_settle : 0,
                          .open = open};
    unsigned done = 0, stable = 0, noisy = 0, decided = 0;
    enum ilv_verdict why = ncells <= SMP_MAX_CELLS ? ilv_run(&run, &done) : ILV_ABORT;
    for (size_t i = 0; i < ncells && why != ILV_ABORT; i++) {
        struct stats st;
        uint64_t steal;
        series[i]->stop = stop[i];
        decided += stop[i] == ILV_DECIDED;
        smp_series_stats(series[i], &st, &steal);
        stable += stats_ci_within(&st, SMP_CI_X100);
        noisy += stats_noisy(&st);
    }
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "smp_rounds");
    rec_str(&r, "part", part);
    ilv_rec_run(&r, s, ncells, done, why, &rule, q.budget_s, stable, noisy);
    rec_bool(&r, "race", settle != 0);
    rec_u64(&r, "decided_cells", decided);
    rec_str(&r, "steal_method", steal_available() ? steal_method() : "none");
    rec_u64(&r, "start_lead_us", smp_start_lead_us());
    record_emit(&r);
    kprintf("smp: %s: %zu cells, %u interleaved rounds (stop: %s, seed %llu), %u within "
            "+-%u%%, %u noisy\n",
            part, ncells, done, ilv_verdict_name(why), (unsigned long long)s, stable,
            SMP_CI_X100 / 100, noisy);
    return why != ILV_ABORT;
}
