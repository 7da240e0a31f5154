/*
 * scenarios/faultclear/run.c - `run=faultclear`: demand-fault service time
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
#include "measure/round_options.h"
#include "mm/demand.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "scenarios/faultclear/faultclear.h"

struct faultclear_options fc_opts;
HZ_OPTION(opt_fc_rounds, .name = "faultclear_rounds", .kind = OPT_U64, .dest = &fc_opts.rounds,
          .min = 1, .max = FC_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=faultclear: interleaved rounds every cell gets at least (default 5)");
HZ_OPTION(opt_fc_max_rounds, .name = "faultclear_max_rounds", .kind = OPT_U64,
          .dest = &fc_opts.max_rounds, .min = 1, .max = FC_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=faultclear: most rounds (default 15; never below faultclear_rounds)");
HZ_OPTION(opt_fc_budget, .name = "faultclear_budget", .kind = OPT_U64, .dest = &fc_opts.budget_s,
          .min = 0, .max = 86400, .accepted = "0..86400 (seconds)",
          .help = "run=faultclear: per frame size, no round past faultclear_rounds starts "
                  "after this (default 120)");
HZ_OPTION(opt_fc_pages, .name = "faultclear_pages", .kind = OPT_U64, .dest = &fc_opts.pages,
          .min = 1, .max = FC_MAX_PAGES, .accepted = "1..64",
          .help = "run=faultclear: faults per cell and round (default 2 of 1 GiB, 16 of 2 MiB)");
static const char *const fc_strats_choices[] = {"all", "rep_stosb", 0};
HZ_OPTION(opt_fc_strats, .name = "faultclear_strategies", .kind = OPT_ENUM,
          .dest = &fc_opts.strategies, .choices = fc_strats_choices, .accepted = "all|rep_stosb",
          .help = "run=faultclear: all (rep_stosb, rep_stosq, best non-temporal; default) or "
                  "rep_stosb only, Linux's clear_page (make answers)");

static struct fc_cell cells[FC_CELLS];
static uint64_t scratch[FC_MAX_SAMPLES];
static unsigned order[FC_CELLS];

const struct clear_strategy *fc_best_nt(void)
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

/* One cell, one round on env's pool (round 0: the untimed warm-up, checked
 * but not recorded): the cell's strategy and model go into env, the pool's
 * clear context, before its faults. Returns false after a `fail` record. */
static bool run_cell(struct fault_env *env, struct fc_cell *c, size_t pages, unsigned round)
{
    uint64_t fb = env->frame_bytes;
    env->zero = c->s;
    env->clear = c->m;
    for (uint32_t i = 0; i < env->nframes; i++)
        fc_mem(false, pool_phys(&env->pool, i), fb, pool_phys(&env->pool, i) + round);
    if (demand_init(&env->pool, &env->lock, pages) < 0) {
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
        c->unnested += demand_sample(i)->clear_cyc > demand_sample(i)->service_cyc;
        c->clear_ns[c->n] = tsc_to_ns(demand_sample(i)->clear_cyc);
        c->ns[c->n++] = tsc_to_ns(demand_sample(i)->service_cyc);
        scenario_timed(demand_sample(i)->service_cyc);
    }
    bool untouched = true;
    for (uint32_t i = 0; i < env->nframes; i++)
        if (pool_state(&env->pool, i) == FRAME_DIRTY)
            untouched &=
                fc_mem(true, pool_phys(&env->pool, i), fb, pool_phys(&env->pool, i) + round);
    for (size_t p = 0; p < pages; p++)
        demand_release(p, false, 0);
    if (!untouched) {
        result_fail("faultclear.outside", "a fault cleared into a frame it did not take");
        return false;
    }
    return true;
}

/* lib/interleave ilv_run() over the cells this CPU has a strategy for. */
struct fc_run {
    struct fault_env *env;
    size_t pages, n;
    struct fc_cell *live[FC_CELLS];
};

static bool fc_repeat(void *arg, size_t cell, unsigned round)
{
    struct fc_run *fr = arg;
    return run_cell(fr->env, fr->live[cell], fr->pages, round);
}

static void fc_round_begins(void *arg, unsigned round) { progress_step(round); }

/* The interleaved rounds: an untimed warm-up, then >= faultclear_rounds;
 * false after a `fail` record (ILV_ABORT). */
static bool run_rounds(struct fault_env *env, size_t pages, uint64_t seed, unsigned *done,
                       enum ilv_verdict *why)
{
    static enum ilv_verdict stop[FC_CELLS];
    struct plan_rounds r = fc_rounds_of(scenario_profile());
    struct ilv_rule rule = {r.min, r.max, round_ci_option(), 0};
    if (cpu_is_tcg()) /* emulator timings: no point in waiting for them to settle */
        rule.max_rounds = rule.min_rounds;
    static struct ilv_series series[FC_CELLS];
    struct fc_run fr = {.env = env, .pages = pages};
    for (size_t i = 0; i < FC_CELLS; i++)
        if (cells[i].s) {
            series[fr.n] = (struct ilv_series){cells[i].ns, &cells[i].n};
            fr.live[fr.n++] = &cells[i];
        }
    struct ilv_run run = {.seed = seed,
                          .rule = &rule,
                          .ncells = fr.n,
                          .order = order,
                          .scratch = scratch,
                          .series = series,
                          .repeat = fc_repeat,
                          .round_begins = fc_round_begins,
                          .arg = &fr,
                          .clock = tsc_now,
                          .budget = r.budget_s * tsc_info()->hz, /* from the warm-up on */
                          .stop = stop};
    progress_begin("faultclear", rule.max_rounds + 1);
    *why = ilv_run(&run, done);
    for (size_t i = 0; i < fr.n; i++)
        fr.live[i]->stop = stop[i];
    progress_step(rule.max_rounds + 1);
    return *why != ILV_ABORT;
}

size_t fc_pages_of(uint64_t fb)
{
    return fc_opts.pages ? fc_opts.pages : fb == PAGE_SIZE_1G ? 2 : 16;
}

/* Every cell on frames of `fb` bytes. */
static void run_size(uint64_t fb)
{
    size_t pages = fc_pages_of(fb);
    if (fb == PAGE_SIZE_1G && !frames_1g_free_count(mm_frames())) {
        result_skip("faultclear.frames_1g", "no free 1 GiB frame: 2 MiB frames only");
        return;
    }
    struct fault_env env; /* the pool's clear context: run_cell sets each cell's path */
    struct fault_path path = fault_path_option();
    if (fault_pool_setup_size(&env, pages + 1, fb, &path) < 0)
        return;
    if (env.nframes < 2) {
        result_skip("faultclear.frames", "%zu frame of %llu MiB: need 2 (one stays unfaulted)",
                    env.nframes, (unsigned long long)(fb >> 20));
        fault_pool_teardown(&env);
        return;
    }
    pages = env.nframes - 1;
    const struct clear_strategy *strat[FC_STRATS] = {
        clear_find("rep_stosb"), fc_opts.strategies ? 0 : clear_find("rep_stosq"),
        fc_opts.strategies ? 0 : fc_best_nt()};
    size_t nc = 0;
    for (int m = 0; m < FAULT_CLEAR_NMODELS; m++)
        for (int k = 0; k < FC_STRATS; k++, nc++)
            cells[nc] = (struct fc_cell){
                .m = {(enum fault_clear_model)m, FAULT_CLEAR_BATCH_DEFAULT}, .s = strat[k]};
    uint64_t seed = round_seed_option() ? round_seed_option() : rdtsc();
    char got[80] = "";
    if (pages < fc_pages_of(fb)) /* one frame stays unfaulted as a guard */
        hz_snprintf(got, sizeof(got), " (asked for %zu: RAM has %zu free frames, one the guard)",
                    fc_pages_of(fb), env.nframes);
    kprintf("faultclear: %zu faults per cell and round%s, %llu MiB frames, non-temporal: %s; "
            ">= %u interleaved rounds, seed %llu%s\n",
            pages, got, (unsigned long long)(fb >> 20),
            fc_opts.strategies ? "not run (faultclear_strategies=rep_stosb)"
            : strat[2]         ? strat[2]->name
                               : "none on this CPU",
            fc_rounds_of(scenario_profile()).min, (unsigned long long)seed,
            cpu_is_tcg() ? " (TCG: emulator timings, no extra rounds)" : "");
    unsigned done = 0;
    enum ilv_verdict why = ILV_CAP;
    if (!run_rounds(&env, pages, seed, &done, &why)) {
        fault_pool_teardown(&env);
        return;
    }
    char ci[32];
    size_t lo, hi;
    unsigned cover;
    stats_median_ci95(done, &lo, &hi, &cover);
    kprintf("faultclear: %u rounds (stop: %s); fault service time in us, median [%s], "
            "GB/s = frame / median%s\n",
            done, ilv_verdict_name(why), fmt_ci_label(ci, sizeof(ci), cover),
            tsc_reliable() ? "" : " -- UNRELIABLE clock");
    kprintf("  %8s %-16s %-13s %-14s %-10s %4s %9s %20s %9s %9s %6s %8s %18s  %s\n", "frame",
            "model", "linux", "preempt=", "strategy", "n", "median", "[interval]", "min", "max",
            "cv%", "GB/s", "GB/s interval", "flags");
    size_t bad = 0, noisy = 0, unnested = 0;
    for (size_t i = 0; i < FC_CELLS; i++)
        if (cells[i].s) {
            fc_emit_cell(&cells[i], fb);
            bad += cells[i].bad;
            unnested += cells[i].unnested;
            noisy += stats_noisy(&cells[i].st);
        }
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "faultclear_run");
    rec_u64(&r, "bytes", fb);
    rec_u64(&r, "pages", pages);
    rec_u64(&r, "pages_asked", fc_pages_of(fb));
    rec_u64(&r, "seed", seed);
    rec_u64(&r, "rounds", done);
    rec_str(&r, "stop", ilv_verdict_name(why));
    rec_u64(&r, "noisy_cells", noisy);
    rec_str(&r, "strategies", fc_strats_choices[fc_opts.strategies]);
    rec_str(&r, "nontemporal", strat[2] ? strat[2]->name : 0);
    record_emit(&r);
    fc_emit_gain(cells, fb);
    if (env.frame_bytes == PAGE_SIZE_1G) /* docs/prezero.md "Published anchors" */
        kprintf("faultclear: published, 1 GiB: Milan hugetlb (series v8) preempt=full/lazy "
                "17.3 -> 42.2 GB/s (2.44x), preempt=none/voluntary in 8 MiB batches "
                "17.1 -> 18.0 GB/s (1.05x); Icelake 8.0 -> 11.3 GB/s (1.41x, preemption "
                "model not stated); Milan REP STOSQ 1 GiB extent 38.1 GB/s\n");
    else
        kprintf("faultclear: published, 2 MiB: Genoa THP 11.8 GB/s hot-last vs 23.6 GB/s "
                "address order; Milan REP STOSQ 2 MiB extent 15.1, 4 KiB 13.7 GB/s\n");
    if (unnested) /* mm/demand.h: clear_cyc <= service_cyc by construction */
        result_fail("faultclear.nested",
                    "%zu %llu MiB faults timed a clear longer than their service: the TSC "
                    "stepped back; their clear is not taken out",
                    unnested, (unsigned long long)(fb >> 20));
    else
        result_pass(fb == PAGE_SIZE_1G ? "faultclear.nested_1g" : "faultclear.nested_2m");
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

HZ_SCENARIO(scenario_faultclear, .name = "faultclear", .run = fault_clear_bench,
            .plan = faultclear_plan, .order = 25,
            .help = "fault service time under every fault_clear= model x rep_stosb, rep_stosq, "
                    "best non-temporal, on 1 GiB and 2 MiB frames");
