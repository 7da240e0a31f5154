/*
 * bench/bench_smp.h - pieces shared by the `smp` scenario's parts
 * (bench/bench_smp.c: thread scaling; bench/bench_smp_fill.c: the
 * QEMU-preallocation-like fill; the target memory and the timed multi-CPU
 * clear, the "job", are measure/smp_job.h): the interleaved rounds both
 * parts run their cells in (bench/smp_rounds.c, lib/interleave.h: Google
 * Benchmark's random interleaving).
 */
#ifndef HZ_BENCH_BENCH_SMP_H
#define HZ_BENCH_BENCH_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/smp.h"
#include "lib/interleave.h"
#include "lib/stats.h"
#include "measure/smp_job.h"

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
};

/* Add the job's last run to s: its wall time and steal when timed (the
 * steal also to the run's total, steal_account(), for the summary), the
 * wall check (wall_below) always. Returns job.wall_below. Boot CPU. */
bool smp_series_add(struct smp_series *s, const struct smp_job *j, bool timed);

/* The summary of a series: stats of its wall times and its steal share
 * (percent x 100, 0 without steal time). */
void smp_series_stats(const struct smp_series *s, struct stats *st, uint64_t *steal_x100);

struct rec;

/* Add the skew members of a series to record r (docs/results.md
 * `smp_scale`): the medians over its timed repeats of the start and end
 * skews (ns) and of each as a share of that repeat's wall time (percent),
 * and late_starts. Nothing for an empty series. Boot CPU. */
void smp_series_skew_record(struct rec *r, const struct smp_series *s);

/*
 * Run ncells (<= SMP_MAX_CELLS) cells interleaved (lib/interleave.h ilv_run()): an untimed
 * warm-up round, then at least min_rounds (smp_repeats or smp_fill_repeats)
 * timed rounds, each cell once per round in an order drawn from smp_seed=;
 * then more, up to smp_max_rounds, until every cell's median wall time has
 * a 95 % interval within +-SMP_CI_X100 or smp_budget= seconds of timed
 * rounds are spent (under TCG exactly min_rounds). repeat(arg, cell, round)
 * runs one job of `cell` (round 0: the warm-up) and records it with
 * smp_series_add(series[cell], ...); false stops the run. Emits the
 * `smp_rounds` record named `part` ("scale", "fill") and its line. Returns
 * false when a repeat failed. Boot CPU, CPL 0.
 */
bool smp_rounds_run(const char *part, unsigned min_rounds, size_t ncells,
                    struct smp_series *const *series,
                    bool (*repeat)(void *arg, size_t cell, unsigned round), void *arg);

/*
 * The QEMU-preallocation-like part (bench/bench_smp_fill.c): zero every
 * free 1 GiB frame (else 2 MiB frames), up to smp_fill=, with counts[i] of
 * the CPUs cpu[0..online) for each i, and report seconds per TiB.
 */
void smp_fill_run(const unsigned *cpu, unsigned online, const unsigned *counts, unsigned nc);

/* What smp_fill_run() would zero now (run=smp's `.plan` hook): bytes of
 * every free frame (the 1 GiB ones and the small pool), or smp_fill=SIZE;
 * 0 for smp_fill=none. *repeats: its timed rounds (smp_fill_repeats=). */
uint64_t smp_fill_plan_bytes(unsigned *repeats);

/* One (strategy, threads) cell of the scaling and its figures once its
 * rounds are done (bench/bench_smp.c). */
struct smp_cell {
    const struct clear_strategy *s;
    unsigned threads;
    struct smp_series ser;                            /* wall times, steal */
    uint64_t gbps_x1000, wall_min_ns, wall_median_ns; /* gbps_x1000: from the median */
    uint64_t gbps_lo_x1000, gbps_hi_x1000;            /* the median's 95 % interval */
    struct stats st;
    uint64_t steal_x100;
    bool noisy;
    uint64_t cpu_ns[HZ_MAX_CPUS]; /* by slot: the CPU's own best clear time */
    bool numa, verified;
};

/* What the scaling report reads: the cells (one strategy's thread counts
 * next to each other), the CPU of each slot (cpu_ns[k] is cpus[k]'s), the
 * target and chunk size in bytes, the online CPUs and the thread counts
 * measured. */
struct smp_scale_run {
    const struct smp_cell *cells;
    unsigned ncells;
    const unsigned *cpus;
    uint64_t bytes, chunk;
    unsigned online;
    const unsigned *counts;
    unsigned ncounts;
};

/* Print the table and the smp_peak / smp_scale records (bench/smp_scale.c).
 * The peak is the all-thread non-temporal cell with the best median, else
 * the best all-thread cell; with no all-thread cell nothing is printed. */
void smp_scale_report(const struct smp_scale_run *run);

#endif /* HZ_BENCH_BENCH_SMP_H */
