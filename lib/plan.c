/*
 * lib/plan.c - run profiles and the planned duration model (lib/plan.h).
 *
 * The work model follows what each scenario does per repeat (the file
 * named with each part); a pass is one sweep of the bytes by one CPU.
 */
#include "lib/plan.h"

static const struct plan_profile profiles[] = {
    [PLAN_DEFAULT] = {.name = "default",
                      .clear_all_strategies = false,
                      .clear_small_target = false,
                      .clear_chunks = 3,
                      .clear_min_rounds = 10,
                      .clear_max_rounds = 40,
                      .clear_budget_s = 15,
                      .fault_rounds = 10,
                      .policies = 5,
                      .lead_idle_ms = 250,
                      .smp_all_counts = false,
                      .smp_all_strategies = false,
                      .smp_repeats = 10,
                      .smp_max_rounds = 20,
                      .smp_budget_s = 5,
                      .smp_fill = false,
                      .fill_repeats = 0,
                      .vmstart_all_rows = false},
    [PLAN_FULL] = {.name = "full",
                   .clear_all_strategies = true,
                   .clear_small_target = true,
                   .clear_chunks = 4,
                   .clear_min_rounds = 10,
                   .clear_max_rounds = 40,
                   .clear_budget_s = 120,
                   .fault_rounds = 10,
                   .policies = 5,
                   .lead_idle_ms = 1000,
                   .smp_all_counts = true,
                   .smp_all_strategies = true,
                   .smp_repeats = 10,
                   .smp_max_rounds = 30,
                   .smp_budget_s = 60,
                   .smp_fill = true,
                   .fill_repeats = 10,
                   .vmstart_all_rows = true},
};

/* Fitted to `make run` (run=default) and `run=full` on the development
 * machine, 2026-12-01 (docs/options.md "Run profiles"). */
const struct plan_machine plan_machine_dev = {
    .pass_mbps = 30000,
    .smp_pass_mbps = 45000,
    .fault_us = 400,
    .boot_ms = 11000,
    .cell_us = 3000,
};

const struct plan_profile *plan_profile_get(enum plan_profile_id id)
{
    return (unsigned)id <= PLAN_FULL ? &profiles[id] : &profiles[PLAN_DEFAULT];
}

/* Microseconds for `passes` passes over `bytes` at `mbps` 10^6 B/s. */
static uint64_t pass_us(uint64_t bytes, unsigned passes, uint64_t mbps)
{
    return mbps ? bytes * passes / mbps : 0;
}

/* The rate of a pass kind: its own when measured, else the mean pass. */
static uint64_t rate(uint64_t kind_mbps, const struct plan_machine *m)
{
    return kind_mbps ? kind_mbps : m->pass_mbps;
}

/* The small target holds the chunk sizes below it: 4K and 2M. */
static unsigned small_chunks(const struct plan_profile *p, const struct plan_facts *f)
{
    if (!p->clear_small_target)
        return 0;
    return (f->small_bytes >= (2u << 20) ? 2 : f->small_bytes >= 4096 ? 1 : 0);
}

unsigned plan_clear_cells(const struct plan_profile *p, const struct plan_facts *f)
{
    unsigned strategies = p->clear_all_strategies ? f->strategies : f->quick_strategies;
    return strategies * (p->clear_chunks + 2 * small_chunks(p, f)); /* warm + cold */
}

/* Interleaved rounds (lib/interleave.h) of round_us each: the warm-up, the
 * minimum, then extra rounds up to the most while the budget lasts (the
 * last may start just before it runs out). */
static uint64_t rounds_us(uint64_t round_us, unsigned min, unsigned max, unsigned budget_s)
{
    if (!round_us)
        return 0;
    uint64_t extra = (uint64_t)budget_s * 1000000 / round_us + 1;
    uint64_t most = max > min ? max - min : 0;
    return round_us * (1 + min + (extra < most ? extra : most));
}

/* scenarios/clear/cells.c: per repeat of a large-target (cold) cell the clear
 * and the zero check fused with the next repeat's dirtying (the eviction
 * sweeps 2 x LLC, in the fixed part); a small-target cell also dirties
 * its target first.
 * One warm-up round, the minimum rounds, then the race (scenarios/clear/race.h):
 * rounds of only the cells still undecided, up to the cap, while the budget
 * lasts. Priced as if every cell stayed in the race, so it is an upper
 * bound; with a cap of 40 the budget is what bounds it. */
static uint64_t clear_us(const struct plan_profile *p, uint64_t big, uint64_t small,
                         const struct plan_facts *f, const struct plan_machine *m)
{
    uint64_t big_us = pass_us(f->big_bytes, 1, rate(m->clear_mbps, m)) +
                      pass_us(f->big_bytes, 1, rate(m->check_dirty_mbps, m));
    uint64_t small_us = pass_us(f->small_bytes, 1, rate(m->dirty_mbps, m)) +
                        pass_us(f->small_bytes, 1, rate(m->clear_mbps, m)) +
                        pass_us(f->small_bytes, 1, rate(m->check_dirty_mbps, m));
    uint64_t round_us = big * (big_us + m->cell_us) + small * (small_us + m->cell_us);
    return rounds_us(round_us, p->clear_min_rounds, p->clear_max_rounds, p->clear_budget_s);
}

/* scenarios/fault/run.c: the pool's dirtying pass, then per round and page a
 * synchronously zeroed fault and a pre-zeroed one, each with one clear and
 * one re-dirtying pass. */
static uint64_t fault_us(const struct plan_profile *p, const struct plan_facts *f,
                         const struct plan_machine *m)
{
    uint64_t dirty = pass_us(f->frame_bytes, 1, rate(m->dirty_mbps, m));
    uint64_t clear = pass_us(f->frame_bytes, 1, rate(m->clear_mbps, m));
    return f->frames * dirty +
           (uint64_t)p->fault_rounds * f->frames * 2 * (dirty + clear + m->fault_us + m->cell_us);
}

/* scenarios/prezero/run.c: per policy the pool's dirtying pass, the lead idle,
 * every frame cleared once (in the fault or ahead of it) and faulted. */
static uint64_t policies_us(const struct plan_profile *p, const struct plan_facts *f,
                            const struct plan_machine *m)
{
    if (!f->frames)
        return 0;
    uint64_t one = (uint64_t)p->lead_idle_ms * 1000 +
                   f->frames * (pass_us(f->frame_bytes, 1, rate(m->dirty_mbps, m)) +
                                pass_us(f->frame_bytes, 1, rate(m->clear_mbps, m)) + m->fault_us);
    return p->policies * one;
}

unsigned plan_smp_counts(const struct plan_profile *p, unsigned online, unsigned *out)
{
    static const unsigned want[] = {1, 2, 4, 8, 16};
    unsigned n = 0, most = p->smp_all_counts ? 5 : 1;
    if (!online)
        return 0;
    for (unsigned i = 0; i < most && want[i] < online; i++)
        out[n++] = want[i];
    out[n++] = online;
    return n;
}

/* A repeat of an interleaved multi-CPU cell (measure/smp_rounds.h): a
 * dirty, clear and check of `bytes`, by one CPU or by `cpus` together. */
static uint64_t smp_cell_us(uint64_t bytes, unsigned cpus, const struct plan_machine *m)
{
    return pass_us(bytes, 3, cpus > 1 ? m->smp_pass_mbps : m->pass_mbps) + m->cell_us;
}

/* scenarios/smp/run.c: interleaved rounds of every cell, each repeat a dirty,
 * clear and check of smp_bytes; scenarios/smp/fill.c: interleaved rounds
 * of a fill of every free frame (dirty and clear) per thread count. */
static uint64_t smp_us(const struct plan_profile *p, const struct plan_facts *f,
                       const struct plan_machine *m)
{
    if (!f->cpus)
        return 0;
    unsigned cnt[PLAN_SMP_COUNTS_MAX], counts = plan_smp_counts(p, f->cpus, cnt);
    unsigned strategies = p->smp_all_strategies ? f->strategies : 2;
    uint64_t one = smp_cell_us(f->smp_bytes, 1, m);
    uint64_t all = smp_cell_us(f->smp_bytes, f->cpus, m);
    uint64_t per_strategy = one + (counts - 1) * all; /* the thread counts above 1 as all */
    uint64_t us =
        rounds_us(strategies * per_strategy, p->smp_repeats, p->smp_max_rounds, p->smp_budget_s);
    if (p->smp_fill)
        us += rounds_us(counts * pass_us((uint64_t)f->frames * f->frame_bytes, 2, m->smp_pass_mbps),
                        p->fill_repeats, p->smp_max_rounds, p->smp_budget_s);
    return us;
}

uint64_t plan_smp_part_ms(const struct plan_profile *p, unsigned repeats, unsigned one,
                          unsigned many, unsigned cpus, uint64_t bytes,
                          const struct plan_machine *m)
{
    uint64_t round_us = one * smp_cell_us(bytes, 1, m) + many * smp_cell_us(bytes, cpus, m);
    unsigned min = repeats ? repeats : p->smp_repeats;
    return rounds_us(round_us, min, p->smp_max_rounds, p->smp_budget_s) / 1000;
}

uint64_t plan_rounds_ms(uint64_t round_us, unsigned min, unsigned max, unsigned budget_s)
{
    return rounds_us(round_us, min, max, budget_s) / 1000;
}

uint64_t plan_pass_us(uint64_t bytes, unsigned passes, const struct plan_machine *m)
{
    return pass_us(bytes, passes, m->pass_mbps);
}

uint64_t plan_clear_ms(const struct plan_profile *p, const struct plan_facts *f,
                       const struct plan_machine *m)
{
    unsigned strategies = p->clear_all_strategies ? f->strategies : f->quick_strategies;
    unsigned big = strategies * p->clear_chunks;
    return clear_us(p, big, plan_clear_cells(p, f) - big, f, m) / 1000;
}

uint64_t plan_clear_cells_ms(const struct plan_profile *p, unsigned big, unsigned small,
                             const struct plan_facts *f, const struct plan_machine *m)
{
    return clear_us(p, big, small, f, m) / 1000;
}

uint64_t plan_fault_ms(const struct plan_profile *p, const struct plan_facts *f,
                       const struct plan_machine *m)
{
    return fault_us(p, f, m) / 1000;
}

uint64_t plan_policies_ms(const struct plan_profile *p, const struct plan_facts *f,
                          const struct plan_machine *m)
{
    return policies_us(p, f, m) / 1000;
}

uint64_t plan_smp_ms(const struct plan_profile *p, const struct plan_facts *f,
                     const struct plan_machine *m)
{
    return smp_us(p, f, m) / 1000;
}

void plan_estimate(const struct plan_profile *p, const struct plan_facts *f,
                   const struct plan_machine *m, struct plan_estimate *e)
{
    e->clear_ms = plan_clear_ms(p, f, m);
    e->fault_ms = plan_fault_ms(p, f, m);
    e->policies_ms = plan_policies_ms(p, f, m);
    e->smp_ms = plan_smp_ms(p, f, m);
    e->total_ms = m->boot_ms + e->clear_ms + e->fault_ms + e->policies_ms + e->smp_ms;
}
