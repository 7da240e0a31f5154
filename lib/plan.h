/*
 * lib/plan.h - run profiles and their planned duration (docs/options.md
 * "Run profiles"). `run=default` (what `make run` boots) is a reduced
 * suite that answers the verdict's questions (docs/results.md `verdict`)
 * in about a minute; `run=full` is the exhaustive suite. Both keep the
 * measurement rules (dirty before, verify after, at least 10 interleaved
 * repeats per cell): the default run has fewer cells, never fewer repeats.
 *
 * The planned duration is a model, not a measurement: the work each
 * scenario plans (bytes streamed by one CPU, demand faults, fixed waits)
 * priced with a machine model (struct plan_machine). The kernel prints it
 * at the start of a run; a unit test holds the default run's plan to its
 * budget under a fixture machine. Portable C, no allocation.
 */
#ifndef HZ_LIB_PLAN_H
#define HZ_LIB_PLAN_H

#include <stdbool.h>
#include <stdint.h>

/* The default run's wall-time budget on the development machine, QEMU
 * start included (issue 13: at most 90 s). */
#define PLAN_DEFAULT_BUDGET_MS 90000u

enum plan_profile_id { PLAN_DEFAULT = 0, PLAN_FULL = 1 };

/* What a profile runs; each scenario takes its defaults from here unless
 * an option given on the command line overrides them. */
struct plan_profile {
    const char *name;          /* "default", "full" */
    bool clear_all_strategies; /* false: the reduced set (clear_quick_set(), arch/clear.h) */
    bool clear_small_target;   /* warm and cold cells on the half-LLC target too */
    unsigned clear_chunks;     /* chunk sizes of the sweep: 3 = 4K,2M,1G; 4 adds 32M */
    unsigned clear_min_rounds; /* timed rounds every clear cell gets (>= 10) */
    unsigned clear_max_rounds; /* most timed rounds */
    unsigned clear_budget_s;   /* no round past the minimum starts after this */
    unsigned fault_rounds;     /* rounds of the fault test: each faults every page twice */
    unsigned policies;         /* pre-zeroing policies of `policies` (all: 5) */
    unsigned lead_idle_ms;     /* idle before each policy's workload */
    bool smp_all_counts;       /* 1, 2, 4, 8, 16 and all CPUs; false: 1 and all */
    bool smp_all_strategies;   /* false: rep_stosb and the non-temporal pick */
    unsigned smp_repeats;      /* timed rounds every smp cell gets (>= 10) */
    unsigned smp_max_rounds;   /* most timed rounds of the smp cells */
    unsigned smp_budget_s;     /* per part (scaling, fill): no round past the minimum after this */
    bool smp_fill;             /* the QEMU-like fill of every free frame */
    unsigned fill_repeats;     /* timed rounds of fills per thread count */
    bool vmstart_all_rows;     /* run=vmstart: every policy and the qemu rows; false: only
                                  the qemu rows (the verdict's VM start item) */
};

/* Most thread counts of run=smp (plan_smp_counts()). */
#define PLAN_SMP_COUNTS_MAX 6

/* The thread counts run=smp measures with `online` CPUs under profile p,
 * ascending into out[0..PLAN_SMP_COUNTS_MAX): 1, 2, 4, 8, 16 below online
 * (only 1 unless p->smp_all_counts), then online. Returns how many; 0 for
 * no CPU. */
unsigned plan_smp_counts(const struct plan_profile *p, unsigned online, unsigned *out);

/* The profile's table entry; an id out of range gives the default one. */
const struct plan_profile *plan_profile_get(enum plan_profile_id id);

/* What the machine offers at start-up (the kernel's facts; fixtures in the
 * unit test). Sizes in bytes. */
struct plan_facts {
    unsigned cpus;             /* CPUs online */
    unsigned strategies;       /* supported clear strategies (the full sweep) */
    unsigned quick_strategies; /* supported strategies of the reduced set */
    uint64_t big_bytes;        /* the large clear target */
    uint64_t small_bytes;      /* the small clear target (half the LLC) */
    unsigned frames;           /* frames of the fault and policy pools */
    uint64_t frame_bytes;      /* their size (1 GiB, or 2 MiB) */
    uint64_t smp_bytes;        /* bytes of one smp scaling measurement */
};

/* Prices of the model. A pass is one CPU streaming through memory once:
 * a dirtying pass, a CLFLUSHOPT sweep, a clear, or a zero check. */
struct plan_machine {
    uint64_t pass_mbps; /* one CPU's pass rate, 10^6 bytes/s (> 0) */
    /* one CPU's rate of each pass kind, 10^6 bytes/s; 0: pass_mbps */
    uint64_t dirty_mbps;       /* untimed dirtying (arch/clear.h clear_dirty_fast) */
    uint64_t clear_mbps;       /* a clear (REP STOSB, one call) */
    uint64_t check_mbps;       /* an exact zero check */
    uint64_t check_dirty_mbps; /* run=clear's check fused with the next dirtying */
    uint64_t smp_pass_mbps;    /* all CPUs together, 10^6 bytes/s (> 0) */
    uint64_t fault_us;         /* one demand fault's fixed cost, besides its clear */
    uint64_t boot_ms;          /* QEMU start, boot, SMP start-up and exit */
    uint64_t cell_us;          /* fixed cost of one timed repeat (probe, steal reads, switches) */
};

/* The development machine (AMD EPYC Zen 4 guest under nested PVM KVM, 2
 * vCPUs, anonymous guest RAM), fitted to its measured runs (docs/options.md):
 * the model used when the boot calibration (kernel/calibrate.h) fails. */
extern const struct plan_machine plan_machine_dev;

/* Planned milliseconds, per scenario and in total (boot included). */
struct plan_estimate {
    uint64_t clear_ms, fault_ms, policies_ms, smp_ms, total_ms;
};

/*
 * One scenario's part of the plan, priced with m under profile p from the
 * facts that scenario fills (each scenario reads its own sizes with the
 * same rule it runs with: the `.plan` hook of kernel/scenario.h). In
 * milliseconds, boot excluded; a zero-sized fact plans 0. The clear part
 * is an upper bound (see plan_estimate()).
 */
uint64_t plan_clear_ms(const struct plan_profile *p, const struct plan_facts *f,
                       const struct plan_machine *m);
/* The clear part of cells the scenario counted itself: `big` on the large
 * target (f->big_bytes), `small` on the small one (f->small_bytes). */
uint64_t plan_clear_cells_ms(const struct plan_profile *p, unsigned big, unsigned small,
                             const struct plan_facts *f, const struct plan_machine *m);
uint64_t plan_fault_ms(const struct plan_profile *p, const struct plan_facts *f,
                       const struct plan_machine *m);
uint64_t plan_policies_ms(const struct plan_profile *p, const struct plan_facts *f,
                          const struct plan_machine *m);
uint64_t plan_smp_ms(const struct plan_profile *p, const struct plan_facts *f,
                     const struct plan_machine *m);

/*
 * One part of interleaved multi-CPU cells (measure/smp_rounds.h), as
 * run=numa runs each group of its matrix: `one` cells of one CPU and
 * `many` cells of `cpus` CPUs together, each repeat a dirty, clear and
 * check of `bytes`; one warm-up round, `repeats` rounds (0: the profile's
 * smp_repeats), then more up to p->smp_max_rounds while p->smp_budget_s
 * lasts (the last may start just before it runs out). Milliseconds; no
 * cells plan 0.
 */
uint64_t plan_smp_part_ms(const struct plan_profile *p, unsigned repeats, unsigned one,
                          unsigned many, unsigned cpus, uint64_t bytes,
                          const struct plan_machine *m);

/* The model's parts for a scenario with its own cells (run=faultclear):
 * microseconds of `passes` passes over `bytes` by one CPU at m->pass_mbps,
 * and interleaved rounds of round_us each as lib/interleave.h runs them
 * (one warm-up, `min`, then more up to `max` while budget_s lasts, the
 * last starting just before it runs out), in milliseconds. */
uint64_t plan_pass_us(uint64_t bytes, unsigned passes, const struct plan_machine *m);
uint64_t plan_rounds_ms(uint64_t round_us, unsigned min, unsigned max, unsigned budget_s);

/* What one scenario plans, for the `plan:` line and record: the `.plan`
 * hook of kernel/scenario.h fills it. */
struct plan_part {
    uint64_t ms;    /* planned milliseconds, boot excluded */
    unsigned cells; /* cells it measures (0: it has none to count) */
};

/*
 * Plan profile p on a machine with facts f, priced with m: the parts of
 * run=default's scenarios and their sum with m->boot_ms. The clear part
 * counts the warm-up round, the minimum rounds and the extra rounds the
 * budget allows (so it is an upper bound for the clear sweep); the other
 * scenarios have a fixed number of repeats. A zero-sized fact (no CPUs, no
 * frames) plans nothing for the scenarios that need it. Deterministic.
 */
void plan_estimate(const struct plan_profile *p, const struct plan_facts *f,
                   const struct plan_machine *m, struct plan_estimate *e);

/* Cells of the clear sweep profile p plans on facts f. */
unsigned plan_clear_cells(const struct plan_profile *p, const struct plan_facts *f);

#endif /* HZ_LIB_PLAN_H */
