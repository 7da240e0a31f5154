/*
 * bench/fault_clear_bench.c - `run=faultclear`: demand-fault service time
 * under every `fault_clear=` model (bench/fault_clear.h) x {rep_stosb,
 * rep_stosq, the best non-temporal row} on 1 GiB and 2 MiB frames, and the
 * clear_pages() gain it predicts for this CPU (docs/prezero.md "Linux-faithful
 * fault clearing").
 *
 * Each frame size gets its own pool of pages + 1 frames. A round runs every
 * cell once, the cells in an order rotated by one each round (interleaved
 * repeats, so slow drift spreads over all cells); a cell dirties every pool
 * frame, faults `pages` pages (first touch at offset 0), checks each reads
 * back zero and that the frame left unfaulted still holds its dirt at both
 * ends, then releases them. Service time is the demand fault's (mm/demand.h).
 */
#include "arch/tsc.h"
#include "arch/user.h"
#include "bench/fault_bench.h"
#include "bench/memop.h"
#include "kernel/console.h"
#include "kernel/results.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/record.h"
#include "lib/stats.h"
#include "mm/demand.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"

#define FC_STRATS 3
#define FC_CELLS (FAULT_CLEAR_NMODELS * FC_STRATS)
#define FC_MAX_ROUNDS 50
#define FC_MAX_PAGES 64

static uint64_t fc_rounds = 5;
static uint64_t fc_pages = 0; /* 0: 2 of 1 GiB, 16 of 2 MiB */
HZ_OPTION(opt_fc_rounds, .name = "faultclear_rounds", .kind = OPT_U64, .dest = &fc_rounds, .min = 1,
          .max = FC_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=faultclear: interleaved rounds of every cell (default 5)");
HZ_OPTION(opt_fc_pages, .name = "faultclear_pages", .kind = OPT_U64, .dest = &fc_pages, .min = 1,
          .max = FC_MAX_PAGES, .accepted = "1..64",
          .help = "run=faultclear: faults per cell and round (default 2 of 1 GiB, 16 of 2 MiB)");

struct fc_cell {
    struct fault_clear m;
    const struct clear_strategy *s;
    size_t n, bad;
    uint64_t calls; /* strategy calls per fault (the last round's) */
    uint64_t ns[FC_MAX_ROUNDS * FC_MAX_PAGES], clear_ns[FC_MAX_ROUNDS * FC_MAX_PAGES];
};

static struct fc_cell cells[FC_CELLS];
static struct fault_env env;

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

/* True when the first and last 4 KiB of the frame at phys hold no zero
 * byte (clear_dirty() writes none): nothing cleared into it. */
static bool still_dirty(uint64_t phys, uint64_t bytes)
{
    const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)phys;
    for (uint64_t i = 0; i < 4096; i++)
        if (!p[i] || !p[bytes - 4096 + i])
            return false;
    return true;
}

/* One cell, one round: returns false after a `fail` record. */
static bool run_cell(struct fc_cell *c, size_t pages, unsigned round)
{
    uint64_t fb = env.frame_bytes;
    env.zero = c->s;
    env.clear = c->m;
    for (uint32_t i = 0; i < env.nframes; i++) {
        struct memop d = {.op = MEMOP_DIRTY,
                          .p = (void *)(uintptr_t)pool_phys(&env.pool, i),
                          .bytes = fb,
                          .seed = pool_phys(&env.pool, i) + round};
        user_run(smp_cpu_index(), memop_run, &d);
    }
    if (demand_init(&env.pool, &env.lock, pages) < 0) {
        result_fail("faultclear.demand", "could not set up the demand region");
        return false;
    }
    uint64_t calls0 = fault_clear_calls();
    for (size_t p = 0; p < pages; p++) {
        volatile uint64_t *va = demand_page(p, fb);
        if (*va != 0 || !fault_verify_zero(va, fb)) /* the faulting access: a read */
            c->bad++;
    }
    c->calls = (fault_clear_calls() - calls0) / pages;
    for (size_t i = 0; i < demand_nsamples() && c->n < FC_MAX_ROUNDS * FC_MAX_PAGES; i++) {
        c->clear_ns[c->n] = tsc_to_ns(demand_sample(i)->clear_cyc);
        c->ns[c->n++] = tsc_to_ns(demand_sample(i)->service_cyc);
    }
    bool untouched = true;
    for (uint32_t i = 0; i < env.nframes; i++)
        if (pool_state(&env.pool, i) == FRAME_DIRTY)
            untouched &= still_dirty(pool_phys(&env.pool, i), fb);
    for (size_t p = 0; p < pages; p++)
        demand_release(p, false, 0);
    if (!untouched) {
        result_fail("faultclear.outside", "a fault cleared into a frame it did not take");
        return false;
    }
    return true;
}

/* Sort the cell's samples into *st (and its clear times into *cl), print its
 * record and table line. */
static void emit_cell(struct fc_cell *c, struct stats *st)
{
    char buf[HZ_RECORD_MAX], model[32], gbps[24];
    struct rec r;
    struct stats cl;
    stats_compute(st, c->ns, c->n);
    stats_compute(&cl, c->clear_ns, c->n);
    fault_clear_name(&c->m, model, sizeof(model));
    uint64_t g = stats_gbps_x1000(env.frame_bytes, st->median);
    fmt_fixed(gbps, sizeof(gbps), g, 3);
    rec_begin(&r, buf, sizeof(buf), "faultclear");
    rec_str(&r, "model", model);
    rec_str(&r, "strategy", c->s->name);
    rec_u64(&r, "bytes", env.frame_bytes);
    rec_u64(&r, "n", st->n);
    rec_u64(&r, "median_ns", st->median);
    rec_u64(&r, "min_ns", st->min);
    rec_u64(&r, "max_ns", st->max);
    rec_fixed(&r, "cv_pct", st->cv_x100, 2);
    rec_fixed(&r, "gbps", g, 3);
    rec_u64(&r, "clear_median_ns", cl.median);
    rec_u64(&r, "calls", c->calls);
    rec_bool(&r, "verified", c->bad == 0);
    record_emit(&r);
    kprintf("faultclear: %4llu MiB %-16s %-10s n %3zu  median %8llu us  min %8llu  max %8llu  "
            "cv %3llu%%  %s GB/s\n",
            (unsigned long long)(env.frame_bytes >> 20), model, c->s->name, st->n,
            (unsigned long long)(st->median / 1000), (unsigned long long)(st->min / 1000),
            (unsigned long long)(st->max / 1000), (unsigned long long)(st->cv_x100 / 100), gbps);
}

/* The prediction: linux_4k's median over linux_batch=32M's, per strategy. */
static void emit_gain(const struct stats *st)
{
    for (int k = 0; k < FC_STRATS; k++) {
        const struct stats *s4k = &st[FAULT_CLEAR_LINUX_4K * FC_STRATS + k];
        const struct stats *sb = &st[FAULT_CLEAR_LINUX_BATCH * FC_STRATS + k];
        if (!sb->median || !cells[k].s)
            continue;
        uint64_t x1000 = (s4k->median * 1000 + sb->median / 2) / sb->median;
        char buf[HZ_RECORD_MAX], ratio[24];
        struct rec r;
        fmt_fixed(ratio, sizeof(ratio), x1000, 3);
        rec_begin(&r, buf, sizeof(buf), "faultclear_gain");
        rec_str(&r, "kind", "prediction");
        rec_str(&r, "strategy", cells[k].s->name);
        rec_u64(&r, "bytes", env.frame_bytes);
        rec_u64(&r, "linux_4k_median_ns", s4k->median);
        rec_u64(&r, "linux_batch_median_ns", sb->median);
        rec_fixed(&r, "gain", x1000, 3);
        record_emit(&r);
        kprintf("faultclear: %4llu MiB %-10s predicted clear_pages() gain (linux_4k / "
                "linux_batch=32M, a prediction): %sx\n",
                (unsigned long long)(env.frame_bytes >> 20), cells[k].s->name, ratio);
    }
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
        for (int k = 0; k < FC_STRATS; k++, nc++) {
            cells[nc].m =
                (struct fault_clear){(enum fault_clear_model)m, FAULT_CLEAR_BATCH_DEFAULT};
            cells[nc].s = strat[k];
            cells[nc].n = cells[nc].bad = 0;
        }
    kprintf("faultclear: %zu faults per cell and round, %llu rounds, %llu MiB frames, "
            "non-temporal: %s\n",
            pages, (unsigned long long)fc_rounds, (unsigned long long)(fb >> 20),
            strat[2] ? strat[2]->name : "none on this CPU");
    for (unsigned r = 0; r < fc_rounds; r++)
        for (size_t i = 0; i < FC_CELLS; i++) {
            struct fc_cell *c = &cells[(i + r) % FC_CELLS];
            if (c->s && !run_cell(c, pages, r)) {
                fault_pool_teardown(&env);
                return;
            }
        }
    static struct stats st[FC_CELLS];
    size_t bad = 0;
    for (size_t i = 0; i < FC_CELLS; i++) {
        st[i] = (struct stats){0};
        if (cells[i].s) {
            emit_cell(&cells[i], &st[i]);
            bad += cells[i].bad;
        }
    }
    emit_gain(st);
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
