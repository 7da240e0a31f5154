/*
 * measure/smp_rounds.h - interleaved rounds of timed multi-CPU cells
 * (measure/smp_job.h jobs; lib/interleave.h: Google Benchmark's random
 * interleaving), with the options smp_max_rounds, smp_budget and smp_seed,
 * each cell's series of wall times, skews and steal, and the `smp_rounds`
 * record (scenarios/smp/records.md). Used by run=smp (scenarios/smp/run.c,
 * scenarios/smp/fill.c) and run=numa (scenarios/numa/run.c).
 */
#ifndef HZ_MEASURE_SMP_ROUNDS_H
#define HZ_MEASURE_SMP_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/interleave.h"
#include "lib/plan.h"
#include "lib/stats.h"
#include "measure/smp_job.h"
#include "measure/time_lost.h"

#define SMP_MAX_ROUNDS 100 /* timed rounds of a cell at most (smp_max_rounds) */
#define SMP_CI_X100 200    /* stop once every median's interval is within +-2 % */
#define SMP_MAX_CELLS 96   /* cells of one part (>= 32 strategies x 3 thread counts) */

/* The timed repeats of one cell (a strategy and thread count, or a fill
 * thread count). */
struct smp_series {
    uint64_t ns[SMP_MAX_ROUNDS]; /* wall time of each timed repeat, ns */
    uint64_t start_skew_ns[SMP_MAX_ROUNDS], end_skew_ns[SMP_MAX_ROUNDS]; /* of each, ns */
    unsigned late_starts; /* summed over the timed repeats */
    size_t n;
    uint64_t steal_ns, steal_base_ns; /* summed over the timed repeats (smp_job) */
    unsigned wall_below;              /* repeats, warm-up included, with wall < a CPU's time */
    enum ilv_verdict stop;            /* why it stopped taking repeats (smp_rounds_run) */
    struct time_lost lost;            /* SMIs and large gaps (smp_rounds_run) */
};

/* Add the job's last run to s: its wall time and steal when timed (the
 * steal also to the run's total, steal_account(), for the summary), the
 * wall check (wall_below) always. Returns job.wall_below. Boot CPU. */
bool smp_series_add(struct smp_series *s, const struct smp_job *j, bool timed);

/* The summary of a series: stats of its wall times and its steal share
 * (percent x 100, 0 without steal time). */
void smp_series_stats(const struct smp_series *s, struct stats *st, uint64_t *steal_x100);

struct rec;

/* Add the skew members of a series to record r (scenarios/smp/records.md
 * `smp_scale`): the medians over its timed repeats of the start and end
 * skews (ns) and of each as a share of that repeat's wall time (percent),
 * and late_starts. Nothing for an empty series. Boot CPU. */
void smp_series_skew_record(struct rec *r, const struct smp_series *s);

/* Rounds r (the scenario's own profile settings: its minimum, most rounds
 * and budget) with smp_max_rounds= and smp_budget= applied where given,
 * and under TCG no round past the minimum (max = min): what
 * smp_rounds_run() runs, for a scenario's `.plan` hook too. */
struct plan_rounds smp_rounds_apply(struct plan_rounds r);

/*
 * Run ncells (<= SMP_MAX_CELLS) cells interleaved (lib/interleave.h ilv_run()): an untimed
 * warm-up round, then at least rounds->min (smp_repeats, smp_fill_repeats or
 * numa_repeats) timed rounds, each cell once per round in an order drawn
 * from smp_seed=; then more, up to rounds->max, until rounds->budget_s
 * seconds of timed rounds are spent (both after smp_rounds_apply(); under
 * TCG exactly rounds->min) or:
 *  - settle NULL: every cell's median wall time has a 95 % interval within
 *    +-SMP_CI_X100;
 *  - settle given (racing, as run=clear): at each look (rounds->min, then
 *    every ILV_LOOK_EVERY rounds) settle(arg, open) gets open[0..ncells)
 *    false and sets open[i] for every cell that a still undecided comparison
 *    needs; the others take no more repeats (their series' stop: decided).
 * repeat(arg, cell, round) runs one job of `cell` (round 0: the warm-up) and
 * records it with smp_series_add(series[cell], ...); false stops the run.
 * Around each call the SMI count and the TSC span go to series[cell]->lost
 * (measure/time_lost.h; only a call that added a timed repeat counts).
 * Emits the `smp_rounds` record named `part` ("scale", "fill", "numa") and
 * its line. Returns false when a repeat failed. Boot CPU, CPL 0.
 */
bool smp_rounds_run(const char *part, const struct plan_rounds *rounds, size_t ncells,
                    struct smp_series *const *series,
                    bool (*repeat)(void *arg, size_t cell, unsigned round),
                    void (*settle)(void *arg, bool *open), void *arg);

#endif /* HZ_MEASURE_SMP_ROUNDS_H */
