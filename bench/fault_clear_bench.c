/*
 * bench/fault_clear_bench.c - `run=faultclear`: demand-fault service time
 * under every `fault_clear=` model (measure/fault_clear.h) x {rep_stosb,
 * rep_stosq, the best non-temporal row} on 1 GiB and 2 MiB frames, and the
 * clear_pages() gain it predicts for this CPU (docs/prezero.md "Linux-faithful
 * fault clearing").
 *
 * Each frame size gets its own pool of pages + 1 frames. The cells are
 * interleaved (lib/interleave.h ilv_run(), as run=clear): an untimed
 * warm-up round, then rounds that run each cell once, in a seeded random
 * order per round; at least faultclear_rounds rounds, then more up to faultclear_max_rounds until
 * every cell's median has a 95 % interval within +-clear_ci or faultclear_budget seconds are spent.
 * A cell's turn dirties every pool frame, faults `pages` pages (first touch at offset 0), checks
 * each reads back zero and that the frame left unfaulted still holds its dirt in full, then
 * releases them; the KVM steal time around the faults is added to the cell (arch/steal.h). Service
 * time is the demand fault's (mm/demand.h). Issue 12's rules: median with
 * its interval, min/max/CV, `noisy` and `steal_high` flags.
 */
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "bench/bench_clear.h"
#include "kernel/progress.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/clear_record.h"
#include "measure/fault_pool.h"
#include "mm/demand.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"

#define FC_STRATS 3
#define FC_CELLS (FAULT_CLEAR_NMODELS * FC_STRATS)
#define FC_MAX_ROUNDS 50
#define FC_MAX_PAGES 64
#define FC_MAX_SAMPLES (FC_MAX_ROUNDS * FC_MAX_PAGES)

static uint64_t fc_rounds = 5, fc_max_rounds = 15, fc_budget_s = 120;
static uint64_t fc_pages = 0; /* 0: 2 of 1 GiB, 16 of 2 MiB */
HZ_OPTION(opt_fc_rounds, .name = "faultclear_rounds", .kind = OPT_U64, .dest = &fc_rounds, .min = 1,
          .max = FC_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=faultclear: interleaved rounds every cell gets at least (default 5)");
HZ_OPTION(opt_fc_max_rounds, .name = "faultclear_max_rounds", .kind = OPT_U64,
          .dest = &fc_max_rounds, .min = 1, .max = FC_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=faultclear: most rounds (default 15; never below faultclear_rounds)");
HZ_OPTION(opt_fc_budget, .name = "faultclear_budget", .kind = OPT_U64, .dest = &fc_budget_s,
          .min = 0, .max = 86400, .accepted = "0..86400 (seconds)",
          .help = "run=faultclear: per frame size, no round past faultclear_rounds starts "
                  "after this (default 120)");
HZ_OPTION(opt_fc_pages, .name = "faultclear_pages", .kind = OPT_U64, .dest = &fc_pages, .min = 1,
          .max = FC_MAX_PAGES, .accepted = "1..64",
          .help = "run=faultclear: faults per cell and round (default 2 of 1 GiB, 16 of 2 MiB)");

struct fc_cell {
    struct fault_clear m;
    const struct clear_strategy *s;
    size_t n, bad;
    uint64_t calls;              /* strategy calls per fault (the last round's) */
    uint64_t steal_ns, base_ns;  /* KVM steal time during the cell's faults, and their span */
    struct stats st;             /* service time, after the rounds */
    uint64_t ns[FC_MAX_SAMPLES]; /* service times, ns */
    uint64_t clear_ns[FC_MAX_SAMPLES];
    enum ilv_verdict stop; /* why it stopped taking repeats */
};

static struct fc_cell cells[FC_CELLS];
static struct fault_env env;
static uint64_t scratch[FC_MAX_SAMPLES];
static unsigned order[FC_CELLS];

/* The non-temporal row to compare with: the last one of arch/clear.c's table
 * (cheapest first) that this CPU supports. NULL when there is none. */
static const struct clear_strategy *best_nt(void)
{
    const struct clear_strategy *best = 0;
    for (size_t i = 0; i < clear_strategy_count; i++)
        if (clear_strategies[i].nontemporal && clear_supported(&clear_strategies[i], 0))
            best = &clear_strategies[i];
    return best;
}

/* Memory work of one cell turn at the measurement CPL (arch/user.h): dirty
 * a frame, or check it still holds that dirt. */
struct fc_mem {
    bool check;
    uint8_t *p;
    uint64_t bytes, seed;
    bool intact; /* check: the frame holds clear_dirty(p, bytes, seed) */
};

static void fc_mem_fn(void *arg)
{
    struct fc_mem *w = arg;
    size_t at;
    if (w->check)
        w->intact = clear_dirty_check(w->p, w->bytes, w->seed, &at);
    else
        clear_dirty(w->p, w->bytes, w->seed);
}

static bool fc_mem(bool check, uint64_t phys, uint64_t bytes, uint64_t seed)
{
    struct fc_mem w = {check, (uint8_t *)(uintptr_t)phys, bytes, seed, false};
    user_run(smp_cpu_index(), fc_mem_fn, &w);
    return w.intact;
}

/* One cell, one round (round 0: the untimed warm-up, checked but not
 * recorded): returns false after a `fail` record. */
static bool run_cell(struct fc_cell *c, size_t pages, unsigned round)
{
    uint64_t fb = env.frame_bytes;
    env.zero = c->s;
    env.clear = c->m;
    for (uint32_t i = 0; i < env.nframes; i++)
        fc_mem(false, pool_phys(&env.pool, i), fb, pool_phys(&env.pool, i) + round);
    if (demand_init(&env.pool, &env.lock, pages) < 0) {
        result_fail("faultclear.demand", "could not set up the demand region");
        return false;
    }
    uint64_t calls0 = fault_clear_calls(), s0 = steal_ns(0), t0 = rdtsc();
    for (size_t p = 0; p < pages; p++) {
        volatile uint64_t *va = demand_page(p, fb);
        if (*va != 0 || !fault_verify_zero(va, fb)) /* the faulting access: a read */
            c->bad++;
    }
    c->calls = (fault_clear_calls() - calls0) / pages;
    if (round) {
        c->steal_ns += steal_ns(0) - s0;
        c->base_ns += tsc_to_ns(rdtsc() - t0);
    }
    for (size_t i = 0; round && i < demand_nsamples() && c->n < FC_MAX_SAMPLES; i++) {
        c->clear_ns[c->n] = tsc_to_ns(demand_sample(i)->clear_cyc);
        c->ns[c->n++] = tsc_to_ns(demand_sample(i)->service_cyc);
    }
    bool untouched = true;
    for (uint32_t i = 0; i < env.nframes; i++)
        if (pool_state(&env.pool, i) == FRAME_DIRTY)
            untouched &= fc_mem(true, pool_phys(&env.pool, i), fb, pool_phys(&env.pool, i) + round);
    for (size_t p = 0; p < pages; p++)
        demand_release(p, false, 0);
    if (!untouched) {
        result_fail("faultclear.outside", "a fault cleared into a frame it did not take");
        return false;
    }
    return true;
}

/* Steal share of the cell's faults, percent x 100 (0 without steal time). */
static uint64_t steal_x100(const struct fc_cell *c)
{
    return steal_available() ? stats_pct_x100(c->steal_ns, c->base_ns) : 0;
}

/* " noisy steal" for cell c ("" for none). */
static const char *flags(const struct fc_cell *c, char *b, size_t n)
{
    hz_snprintf(b, n, "%s%s", stats_noisy(&c->st) ? " noisy" : "",
                steal_x100(c) > CLEAR_STEAL_FLAG_X100 ? " steal" : "");
    return b;
}

/* The cell's figures: its `faultclear` record and table line. */
static void emit_cell(struct fc_cell *c)
{
    char buf[HZ_RECORD_MAX], model[32], g[24], lo[24], hi[24], f[24];
    struct rec r;
    struct stats cl;
    struct stats *st = &c->st;
    for (size_t i = 0; i < c->n; i++)
        scratch[i] = c->ns[i];
    stats_compute(st, scratch, c->n);
    stats_compute(&cl, c->clear_ns, c->n);
    fault_clear_name(&c->m, model, sizeof(model));
    uint64_t fb = env.frame_bytes;
    fmt_fixed(g, sizeof(g), stats_gbps_x1000(fb, st->median), 3);
    fmt_fixed(lo, sizeof(lo), stats_gbps_x1000(fb, st->ci_hi), 3);
    fmt_fixed(hi, sizeof(hi), stats_gbps_x1000(fb, st->ci_lo), 3);
    rec_begin(&r, buf, sizeof(buf), "faultclear");
    rec_str(&r, "model", model);
    rec_str(&r, "strategy", c->s->name);
    rec_u64(&r, "bytes", fb);
    rec_u64(&r, "n", st->n);
    rec_bool(&r, "too_few", st->n < CMP_MIN_N);
    rec_u64(&r, "median_ns", st->median);
    rec_u64(&r, "min_ns", st->min);
    rec_u64(&r, "max_ns", st->max);
    rec_u64(&r, "ci_lo_ns", st->ci_lo);
    rec_u64(&r, "ci_hi_ns", st->ci_hi);
    rec_fixed(&r, "ci_pct", st->ci_cover_x100, 2);
    rec_fixed(&r, "cv_pct", st->cv_x100, 2);
    rec_fixed(&r, "gbps", stats_gbps_x1000(fb, st->median), 3);
    rec_fixed(&r, "gbps_lo", stats_gbps_x1000(fb, st->ci_hi), 3);
    rec_fixed(&r, "gbps_hi", stats_gbps_x1000(fb, st->ci_lo), 3);
    rec_bool(&r, "noisy", stats_noisy(st));
    rec_str(&r, "steal_method", steal_available() ? steal_method() : "none");
    rec_u64_opt(&r, "steal_ns", steal_available(), c->steal_ns);
    rec_u64(&r, "steal_base_ns", c->base_ns);
    if (steal_available())
        rec_fixed(&r, "steal_pct", steal_x100(c), 2);
    else
        rec_u64_opt(&r, "steal_pct", false, 0);
    rec_bool(&r, "steal_high", steal_x100(c) > CLEAR_STEAL_FLAG_X100);
    rec_u64(&r, "clear_median_ns", cl.median);
    rec_u64(&r, "calls", c->calls);
    rec_bool(&r, "verified", c->bad == 0);
    rec_bool(&r, "emulated_ring0", user_ring0_emulated());
    record_emit(&r);
    kprintf("  %4llu MiB %-16s %-10s %4zu %9llu %9llu..%-9llu %9llu %9llu %6llu %8s %8s..%-8s%s\n",
            (unsigned long long)(fb >> 20), model, c->s->name, st->n,
            (unsigned long long)(st->median / 1000), (unsigned long long)(st->ci_lo / 1000),
            (unsigned long long)(st->ci_hi / 1000), (unsigned long long)(st->min / 1000),
            (unsigned long long)(st->max / 1000), (unsigned long long)(st->cv_x100 / 100), g, lo,
            hi, flags(c, f, sizeof(f)));
}

/* The prediction: linux_4k's median over linux_batch=32M's, per strategy,
 * with the bounds the two medians' intervals allow. */
static void emit_gain(void)
{
    for (int k = 0; k < FC_STRATS; k++) {
        const struct fc_cell *a = &cells[FAULT_CLEAR_LINUX_4K * FC_STRATS + k];
        const struct fc_cell *b = &cells[FAULT_CLEAR_LINUX_BATCH * FC_STRATS + k];
        if (!a->s || !b->st.median)
            continue;
        struct stats_ratio g;
        stats_ratio_of_medians(&a->st, &b->st, &g);
        bool steal = steal_x100(a) > CLEAR_STEAL_FLAG_X100 || steal_x100(b) > CLEAR_STEAL_FLAG_X100;
        char buf[HZ_RECORD_MAX], t[3][24];
        struct rec r;
        fmt_fixed(t[0], sizeof(t[0]), g.x1000, 3);
        fmt_fixed(t[1], sizeof(t[1]), g.lo_x1000, 3);
        if (g.hi_x1000 != UINT64_MAX)
            fmt_fixed(t[2], sizeof(t[2]), g.hi_x1000, 3);
        else
            hz_snprintf(t[2], sizeof(t[2]), "inf");
        rec_begin(&r, buf, sizeof(buf), "faultclear_gain");
        rec_str(&r, "kind", "prediction");
        rec_str(&r, "strategy", a->s->name);
        rec_u64(&r, "bytes", env.frame_bytes);
        rec_u64(&r, "linux_4k_median_ns", a->st.median);
        rec_u64(&r, "linux_batch_median_ns", b->st.median);
        rec_fixed(&r, "gain", g.x1000, 3);
        rec_fixed(&r, "gain_lo", g.lo_x1000, 3);
        if (g.hi_x1000 != UINT64_MAX)
            rec_fixed(&r, "gain_hi", g.hi_x1000, 3);
        else /* an interval reaching 0 ns: no upper bound */
            rec_u64_opt(&r, "gain_hi", false, 0);
        rec_fixed(&r, "gain_cover_pct", g.cover_x100, 2);
        rec_bool(&r, "noisy", g.noisy);
        rec_bool(&r, "steal_high", steal);
        record_emit(&r);
        kprintf("faultclear: %4llu MiB %-10s predicted clear_pages() gain (linux_4k / "
                "linux_batch=32M, a prediction): %sx [%s..%s]%s%s\n",
                (unsigned long long)(env.frame_bytes >> 20), a->s->name, t[0], t[1], t[2],
                g.noisy ? " noisy" : "", steal ? " steal" : "");
    }
}

/* lib/interleave ilv_run() over the cells this CPU has a strategy for. */
struct fc_run {
    size_t pages, n;
    struct fc_cell *live[FC_CELLS];
    uint64_t t0, budget;
};

static bool fc_repeat(void *arg, size_t cell, unsigned round)
{
    struct fc_run *fr = arg;
    return run_cell(fr->live[cell], fr->pages, round);
}

static const uint64_t *fc_samples(void *arg, size_t cell, size_t *n)
{
    struct fc_run *fr = arg;
    *n = fr->live[cell]->n;
    return fr->live[cell]->ns;
}

static bool fc_budget_spent(void *arg)
{
    struct fc_run *fr = arg;
    return rdtsc() - fr->t0 > fr->budget;
}

static void fc_round_begins(void *arg, unsigned round) { progress_step(round); }

/* The interleaved rounds: an untimed warm-up, then >= faultclear_rounds;
 * false after a `fail` record (ILV_ABORT). */
static bool run_rounds(size_t pages, uint64_t seed, unsigned *done, enum ilv_verdict *why)
{
    static enum ilv_verdict stop[FC_CELLS];
    struct ilv_rule rule = {(unsigned)fc_rounds,
                            (unsigned)(fc_max_rounds < fc_rounds ? fc_rounds : fc_max_rounds),
                            bench_ci_option(), 0};
    if (cpu_is_tcg()) /* emulator timings: no point in waiting for them to settle */
        rule.max_rounds = rule.min_rounds;
    struct fc_run fr = {.pages = pages, .t0 = rdtsc(), .budget = fc_budget_s * tsc_info()->hz};
    for (size_t i = 0; i < FC_CELLS; i++)
        if (cells[i].s)
            fr.live[fr.n++] = &cells[i];
    struct ilv_run run = {.seed = seed,
                          .rule = &rule,
                          .ncells = fr.n,
                          .order = order,
                          .scratch = scratch,
                          .repeat = fc_repeat,
                          .samples = fc_samples,
                          .budget_spent = fc_budget_spent,
                          .round_begins = fc_round_begins,
                          .arg = &fr,
                          .stop = stop};
    progress_begin("faultclear", rule.max_rounds + 1);
    *why = ilv_run(&run, done);
    for (size_t i = 0; i < fr.n; i++)
        fr.live[i]->stop = stop[i];
    progress_step(rule.max_rounds + 1);
    return *why != ILV_ABORT;
}

/* Every cell on frames of `fb` bytes. */
static void run_size(uint64_t fb)
{
    size_t pages = fc_pages ? fc_pages : fb == PAGE_SIZE_1G ? 2 : 16;
    if (fb == PAGE_SIZE_1G && !frames_1g_free_count(mm_frames())) {
        result_skip("faultclear.frames_1g", "no free 1 GiB frame: 2 MiB frames only");
        return;
    }
    if (fault_pool_setup_size(&env, pages + 1, fb) < 0)
        return;
    if (env.nframes < 2) {
        result_skip("faultclear.frames", "%zu frame of %llu MiB: need 2 (one stays unfaulted)",
                    env.nframes, (unsigned long long)(fb >> 20));
        fault_pool_teardown(&env);
        return;
    }
    pages = env.nframes - 1;
    const struct clear_strategy *strat[FC_STRATS] = {clear_find("rep_stosb"),
                                                     clear_find("rep_stosq"), best_nt()};
    size_t nc = 0;
    for (int m = 0; m < FAULT_CLEAR_NMODELS; m++)
        for (int k = 0; k < FC_STRATS; k++, nc++)
            cells[nc] = (struct fc_cell){
                .m = {(enum fault_clear_model)m, FAULT_CLEAR_BATCH_DEFAULT}, .s = strat[k]};
    uint64_t seed = bench_seed_option() ? bench_seed_option() : rdtsc();
    kprintf("faultclear: %zu faults per cell and round, %llu MiB frames, non-temporal: %s; "
            ">= %llu interleaved rounds, seed %llu%s\n",
            pages, (unsigned long long)(fb >> 20), strat[2] ? strat[2]->name : "none on this CPU",
            (unsigned long long)fc_rounds, (unsigned long long)seed,
            cpu_is_tcg() ? " (TCG: emulator timings, no extra rounds)" : "");
    unsigned done = 0;
    enum ilv_verdict why = ILV_CAP;
    if (!run_rounds(pages, seed, &done, &why)) {
        fault_pool_teardown(&env);
        return;
    }
    kprintf("faultclear: %u rounds (stop: %s); fault service time in us, median [95%% "
            "interval], GB/s = frame / median%s\n",
            done, ilv_verdict_name(why), tsc_reliable() ? "" : " -- UNRELIABLE clock");
    kprintf("  %8s %-16s %-10s %4s %9s %20s %9s %9s %6s %8s %18s  %s\n", "frame", "model",
            "strategy", "n", "median", "95% interval", "min", "max", "cv%", "GB/s", "GB/s interval",
            "flags");
    size_t bad = 0, noisy = 0;
    for (size_t i = 0; i < FC_CELLS; i++)
        if (cells[i].s) {
            emit_cell(&cells[i]);
            bad += cells[i].bad;
            noisy += stats_noisy(&cells[i].st);
        }
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "faultclear_run");
    rec_u64(&r, "bytes", fb);
    rec_u64(&r, "pages", pages);
    rec_u64(&r, "seed", seed);
    rec_u64(&r, "rounds", done);
    rec_str(&r, "stop", ilv_verdict_name(why));
    rec_u64(&r, "noisy_cells", noisy);
    record_emit(&r);
    emit_gain();
    if (env.frame_bytes == PAGE_SIZE_1G) /* docs/prezero.md "Published anchors" */
        kprintf("faultclear: published, 1 GiB: Milan hugetlb 17.3 -> 42.2 GB/s (2.44x), "
                "Icelake 8.0 -> 11.3 GB/s (1.41x); Milan REP STOSQ 1 GiB extent 38.1 GB/s\n");
    else
        kprintf("faultclear: published, 2 MiB: Genoa THP 11.8 GB/s hot-last vs 23.6 GB/s "
                "address order; Milan REP STOSQ 2 MiB extent 15.1, 4 KiB 13.7 GB/s\n");
    if (bad)
        result_fail("faultclear.zeroed", "%zu faulted %llu MiB frames were not zero (%s check)",
                    bad, (unsigned long long)(fb >> 20), fault_verify_mode());
    else
        result_pass(fb == PAGE_SIZE_1G ? "faultclear.zeroed_1g" : "faultclear.zeroed_2m");
    fault_pool_teardown(&env);
}

static void fault_clear_bench(void)
{
    if (!tsc_reliable())
        kprintf("faultclear: the TSC is not reliable here (%s): times are indicative only\n",
                tsc_unreliable_reason());
    run_size(PAGE_SIZE_1G);
    run_size(PAGE_SIZE_2M);
}

HZ_SCENARIO(scenario_faultclear, .name = "faultclear", .run = fault_clear_bench, .order = 25,
            .help = "fault service time under every fault_clear= model x rep_stosb, rep_stosq, "
                    "best non-temporal, on 1 GiB and 2 MiB frames");
