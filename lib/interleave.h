/*
 * lib/interleave.h - random interleaving of benchmark cells and the rule
 * that stops adding rounds (Google Benchmark's --benchmark_enable_random_
 * interleaving: every cell gets one repeat per round, in a fresh random
 * order each round, so a slow stretch of the host hits all cells alike).
 *
 * The order of round r is a Fisher-Yates shuffle (Knuth TAOCP Vol. 2
 * §3.4.2, Algorithm P) driven by SplitMix64 (Steele, Lea, Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014) seeded with
 * (seed, r): the same seed replays the same orders. Portable C, no
 * allocation: the kernel and the host unit tests share it.
 */
#ifndef HZ_LIB_INTERLEAVE_H
#define HZ_LIB_INTERLEAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/record.h"

/* One SplitMix64 step: advances *state, returns the next 64-bit value. */
uint64_t ilv_splitmix64(uint64_t *state);

/*
 * Fill order[0..n) with a permutation of 0..n-1 for round `round` of a run
 * seeded with `seed`. Deterministic in (seed, round, n); n == 0 does
 * nothing. The draw is the multiply-shift map of a 64-bit value onto
 * 0..i (bias below 2^-50 for n below 2^14).
 */
void ilv_order(uint64_t seed, unsigned round, unsigned *order, size_t n);

/* Why ilv_next() stopped (or did not), for a run and for each cell. */
enum ilv_verdict {
    ILV_MORE = 0, /* run another round (a cell: still active) */
    ILV_STABLE,   /* every cell's median interval is within the target (no settle callback) */
    ILV_CAP,      /* max_rounds reached */
    ILV_BUDGET,   /* the time budget is spent */
    ILV_ABORT,    /* a repeat failed (ilv_run()) */
    ILV_DECIDED,  /* settle() found no open comparison left for the cell (every cell: the run) */
};

/* Rounds between looks of a racing run: the looks fall at n = 10, 20, 30,
 * 40 (issue 20: the adjusted z of lib/compare.h CMP_Z_X1000 is for them). */
#define ILV_LOOK_EVERY 10

struct ilv_rule {
    unsigned min_rounds; /* always run this many rounds (>= 1) */
    unsigned max_rounds; /* never more (>= min_rounds) */
    unsigned ci_x100;    /* no settle(): stop once every median's 95 % interval is within
                            +-ci_x100/100 % */
    unsigned look_every; /* look at min_rounds and every multiple of this past it; 0: after
                            every round from min_rounds on */
};

/*
 * After `done` rounds: ILV_MORE while done < min_rounds; else ILV_STABLE
 * when all_stable, ILV_CAP at max_rounds, ILV_BUDGET when budget_spent,
 * else ILV_MORE. The checks run in that order, so a run that is both
 * stable and out of budget reports ILV_STABLE.
 */
enum ilv_verdict ilv_next(const struct ilv_rule *r, unsigned done, bool all_stable,
                          bool budget_spent);

/* True when a run looks at its cells after `done` timed rounds: done ==
 * min_rounds, or past it a multiple of look_every (every round when
 * look_every is 0). Before min_rounds never. */
bool ilv_look(const struct ilv_rule *r, unsigned done);

/* "more", "stable", "cap", "budget", "abort" or "decided" (a cell's
 * `stop` member in the `clear` record: "decided", "budget", "cap"). */
const char *ilv_verdict_name(enum ilv_verdict v);

/*
 * True when the samples' median has a 95 % order-statistic interval within
 * +-ci_x100/100 % of it (lib/stats.h stats_ci_within()). The samples are
 * copied to scratch (n entries), which is sorted; v is left alone.
 */
bool ilv_cell_stable(const uint64_t *v, size_t n, unsigned ci_x100, uint64_t *scratch);

/* One cell's timed samples where the cell keeps them: v[0..*n), read by
 * ilv_run() at each look (the cell's repeat appends; *n at most
 * rule->max_rounds, more samples per repeat are fine up to what scratch
 * holds). */
struct ilv_series {
    const uint64_t *v;
    const size_t *n;
};

/* Fewest cells in a round whose median residual is its shared factor. */
#define ILV_FACTOR_MIN_CELLS 4

/*
 * Each round's shared factor x 10^6 into factor_x1e6[0..nrounds) (entry r -
 * 1 for round r), for lib/compare.h cmp_compare_sides(): series[c] holds
 * cell c's time of round i + 1 at v[i] (a cell that stopped early is
 * shorter; 0 ns counts as missing). With m_c a cell's median (lower
 * middle), a round's factor is the median (the two middles' mean, rounded
 * down, for an even count) of v x 10^6 / m_c over the cells that ran it,
 * or 10^6 when fewer than ILV_FACTOR_MIN_CELLS did (tools/hzlib/decide.py
 * round_factors() is the same rule). scratch holds 2 ncells entries plus
 * the longest series' length.
 */
void ilv_round_factors(const struct ilv_series *series, size_t ncells, uint64_t *factor_x1e6,
                       size_t nrounds, uint64_t *scratch);

/*
 * An interleaved run of ncells cells, for ilv_run(). The callbacks get arg.
 * repeat(arg, cell, round) runs one repeat of `cell`: round 0 is the
 * untimed warm-up (every cell once, before any timed round), rounds 1, 2,
 * ... are timed and the callee appends their samples to the cell's series
 * (series[cell]); it returns false when the run must stop (a stuck CPU).
 * round_begins (may be NULL) is told every round number before it runs
 * (progress).
 *
 * The time budget (clock non-NULL; NULL: none): clock() is read when round
 * budget_from begins (0: the warm-up; the kernel passes arch/tsc.h
 * tsc_now), and the budget is spent once clock() has moved more than
 * `budget` ticks past that (the deadline; read after every round from
 * min_rounds on). A zero budget is spent after the first such round.
 *
 * Racing (settle non-NULL): at each look (ilv_look()) settle(arg, open)
 * gets open[0..ncells) all false and sets open[i] for every cell a still
 * undecided comparison needs; an active cell left false drops out for good
 * with stop[i] = ILV_DECIDED and gets no more repeats. Without settle every
 * cell stays active until the whole run stops (the stability rule on the
 * series). order needs ncells entries, scratch the most samples of a
 * series, series and stop ncells (each cell's reason once the run returns:
 * ILV_DECIDED, ILV_STABLE, ILV_CAP, ILV_BUDGET or ILV_ABORT), open ncells
 * (only with settle; series and scratch are not read then).
 */
struct ilv_run {
    uint64_t seed;
    const struct ilv_rule *rule;
    size_t ncells;
    unsigned *order;
    uint64_t *scratch;
    const struct ilv_series *series;
    bool (*repeat)(void *arg, size_t cell, unsigned round);
    void (*round_begins)(void *arg, unsigned round);
    void *arg;
    uint64_t (*clock)(void);
    uint64_t budget;
    unsigned budget_from;
    enum ilv_verdict *stop;
    void (*settle)(void *arg, bool *open);
    bool *open;
};

/*
 * Run the rounds: round 0 (warm-up, every cell), then timed rounds r = 1,
 * 2, ... in which every active cell runs once, in ilv_order(seed, r) order
 * with the inactive cells skipped. From min_rounds on, after each round:
 * when the budget is spent or max_rounds reached, or at a look, the cells
 * are looked at (settle(), or the stability of every cell); the run stops
 * with ILV_DECIDED once no cell is active, ILV_STABLE when every cell is
 * stable (no settle), else ILV_CAP at max_rounds, ILV_BUDGET when the
 * budget is spent; the cells still active then get that reason. A cell
 * that settle() drops at the last look gets ILV_DECIDED even then. Returns
 * that verdict, or ILV_ABORT (for the cells still active) as soon as a
 * repeat returns false; *done is the number of timed rounds completed (the
 * most any cell got). ncells == 0 runs nothing and returns ILV_CAP.
 */
enum ilv_verdict ilv_run(const struct ilv_run *r, unsigned *done);

/*
 * The members every record of an interleaved run carries (scenarios/clear/records.md
 * `clear_run`, scenarios/smp/records.md `smp_rounds`), in this order: seed, cells, rounds, stop
 * (ilv_verdict_name()), min_rounds and max_rounds and ci_target_pct (of
 * rule), budget_s, stable_cells, noisy_cells. Inline so that builds
 * without lib/record.c that include this header still link.
 */
static inline void ilv_rec_run(struct rec *r, uint64_t seed, size_t cells, unsigned rounds,
                               enum ilv_verdict stop, const struct ilv_rule *rule,
                               uint64_t budget_s, unsigned stable, unsigned noisy)
{
    rec_u64(r, "seed", seed);
    rec_u64(r, "cells", cells);
    rec_u64(r, "rounds", rounds);
    rec_str(r, "stop", ilv_verdict_name(stop));
    rec_u64(r, "min_rounds", rule->min_rounds);
    rec_u64(r, "max_rounds", rule->max_rounds);
    rec_fixed(r, "ci_target_pct", rule->ci_x100, 2);
    rec_u64(r, "budget_s", budget_s);
    rec_u64(r, "stable_cells", stable);
    rec_u64(r, "noisy_cells", noisy);
}

#endif /* HZ_LIB_INTERLEAVE_H */
