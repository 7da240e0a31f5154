/*
 * scenarios/smp/smp.h - pieces shared by the `smp` scenario's parts
 * (scenarios/smp/run.c: thread scaling; scenarios/smp/fill.c: the
 * QEMU-preallocation-like fill; the target memory and the timed multi-CPU
 * clear, the "job", are measure/smp_job.h; the interleaved rounds both
 * parts run their cells in, as run=numa does, are measure/smp_rounds.h).
 */
#ifndef HZ_SCENARIOS_SMP_SMP_H
#define HZ_SCENARIOS_SMP_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/smp.h"
#include "lib/plan.h"
#include "lib/stats.h"
#include "measure/smp_job.h"
#include "measure/smp_rounds.h"

/*
 * The QEMU-preallocation-like part (scenarios/smp/fill.c): zero every
 * free 1 GiB frame (else 2 MiB frames), up to smp_fill=, with counts[i] of
 * the CPUs cpu[0..online) for each i, and report seconds per TiB.
 */
void smp_fill_run(const unsigned *cpu, unsigned online, const unsigned *counts, unsigned nc);

/* What smp_fill_run() would zero now (run=smp's `.plan` hook): bytes of
 * every free frame (the 1 GiB ones and the small pool), or smp_fill=SIZE;
 * 0 for smp_fill=none. *repeats: its timed rounds (smp_fill_repeats=). */
uint64_t smp_fill_plan_bytes(unsigned *repeats);

/* One (strategy, threads) cell of the scaling and its figures once its
 * rounds are done (scenarios/smp/run.c). */
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

/* Print the table and the smp_peak / smp_scale records (scenarios/smp/scale.c).
 * The peak is the all-thread non-temporal cell with the best median, else
 * the best all-thread cell; with no all-thread cell nothing is printed. */
void smp_scale_report(const struct smp_scale_run *run);

/* The strategies left out under profile p, a mask of arch/clear.h rows:
 * run=default's keeps rep_stosb (Linux's clear_page) and the non-temporal
 * pick (arch/clear.h clear_pick_nt()), unless smp_strategies= says
 * otherwise (scenarios/smp/run.c). */
uint32_t smp_skip_mask(const struct plan_profile *p);

/* Bytes of the scaling target: smp_bytes=, else 1 GiB (64 MiB under TCG). */
uint64_t smp_want_bytes(void);

/* Timed rounds every cell gets at least: smp_repeats=, else p's. */
unsigned smp_repeats_of(const struct plan_profile *p);

/* The `.plan` hook (kernel/scenario.h): the strategies, thread counts and
 * target the run will take, and the fill of every free frame when it runs
 * (lib/plan.h). Boot CPU, after start-up. */
void smp_scenario_plan(const struct plan_profile *p, const struct plan_machine *m,
                       struct plan_part *out);

/* Its cells' kind (scenarios/smp/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind smp_kind;

#endif /* HZ_SCENARIOS_SMP_SMP_H */
