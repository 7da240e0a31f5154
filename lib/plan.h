/*
 * lib/plan.h - run profiles and the arithmetic that prices a run (docs/options.md
 * "Run profiles"). `run=default` (what `make run` boots) is a reduced
 * suite that answers the verdict's questions (docs/results.md `verdict`)
 * in about a minute; `run=full` is the exhaustive suite. Both keep the
 * measurement rules (dirty before, verify after, at least 10 interleaved
 * repeats per cell): the default run has fewer cells, never fewer repeats.
 * What a profile means to a scenario is that scenario's own settings
 * (scenarios/NAME/plan.c: one row per profile); here is only the profile's
 * name and the pricing.
 *
 * The planned duration is a model, not a measurement: the work each
 * scenario plans (bytes streamed by one CPU, demand faults, fixed waits)
 * priced with a machine model (struct plan_machine). The kernel prints it
 * at the start of a run; a unit test (tests/unit/test_plan.c) holds the
 * default run's plan to its budget under a fixture machine. Portable C, no
 * allocation.
 */
#ifndef HZ_LIB_PLAN_H
#define HZ_LIB_PLAN_H

#include <stdbool.h>
#include <stdint.h>

/* The default run's wall-time budget on the development machine, QEMU
 * start included (issue 13: at most 90 s). */
#define PLAN_DEFAULT_BUDGET_MS 90000u

enum plan_profile_id { PLAN_DEFAULT = 0, PLAN_FULL = 1, PLAN_PROFILES };

/* A run profile: its name and its row in each scenario's settings table. */
struct plan_profile {
    const char *name; /* "default", "full" */
    enum plan_profile_id id;
};

/* The profile's entry; an id out of range gives the default one. */
const struct plan_profile *plan_profile_get(enum plan_profile_id id);

/* Interleaved rounds (lib/interleave.h) as a scenario's profile sets them:
 * the timed rounds every cell gets, the most, and the seconds past the
 * minimum after which no round starts. */
struct plan_rounds {
    unsigned min, max, budget_s;
};

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

/*
 * Microseconds of `passes` passes over `bytes` by one CPU at `kind_mbps`
 * (a pass kind's rate: m->dirty_mbps, clear_mbps, check_mbps,
 * check_dirty_mbps) or, when that is 0 (not calibrated), m->pass_mbps.
 * plan_pass_us() is the mean pass. 0 for no bytes.
 */
uint64_t plan_kind_us(uint64_t bytes, unsigned passes, uint64_t kind_mbps,
                      const struct plan_machine *m);
uint64_t plan_pass_us(uint64_t bytes, unsigned passes, const struct plan_machine *m);

/* Interleaved rounds of round_us each as lib/interleave.h runs them: one
 * warm-up, r->min, then more up to r->max while r->budget_s lasts (the last
 * starting just before it runs out); microseconds and milliseconds. A
 * round of 0 plans 0. */
uint64_t plan_rounds_us(uint64_t round_us, const struct plan_rounds *r);
uint64_t plan_rounds_ms(uint64_t round_us, unsigned min, unsigned max, unsigned budget_s);

/* A repeat of an interleaved multi-CPU cell (measure/smp_rounds.h): a
 * dirty, clear and check of `bytes`, by one CPU or by `cpus` together (at
 * m->smp_pass_mbps), with its fixed cost; microseconds. */
uint64_t plan_smp_cell_us(uint64_t bytes, unsigned cpus, const struct plan_machine *m);

/*
 * One part of interleaved multi-CPU cells, as run=smp and run=numa run
 * them: `one` cells of one CPU and `many` cells of `cpus` CPUs together,
 * in rounds r. Milliseconds; no cells plan 0.
 */
uint64_t plan_smp_part_ms(const struct plan_rounds *r, unsigned one, unsigned many, unsigned cpus,
                          uint64_t bytes, const struct plan_machine *m);

/* A fault-pool round (measure/fault_pool.h; run=fault): the pool's dirtying
 * pass, then per round and frame a synchronously zeroed fault and a
 * pre-zeroed one, each with one clear and one re-dirtying pass.
 * Milliseconds of `rounds` rounds over f->frames of f->frame_bytes. */
uint64_t plan_fault_ms(unsigned rounds, const struct plan_facts *f, const struct plan_machine *m);

/* `runs` runs of the pre-zeroing workload (run=prezero, run=policies): per
 * run the pool's dirtying pass, lead_idle_ms of idle, every frame cleared
 * once (in the fault or ahead of it) and faulted. Milliseconds; no frames
 * plan 0. */
uint64_t plan_policies_ms(unsigned runs, unsigned lead_idle_ms, const struct plan_facts *f,
                          const struct plan_machine *m);

/* What one scenario plans, for the `plan:` line and record: the `.plan`
 * hook of kernel/scenario.h fills it. */
struct plan_part {
    uint64_t ms;    /* planned milliseconds, boot excluded */
    unsigned cells; /* cells it measures (0: it has none to count) */
};

#endif /* HZ_LIB_PLAN_H */
