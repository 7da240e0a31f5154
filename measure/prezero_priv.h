/*
 * measure/prezero_priv.h - what prezero/prezero.c (options, the single-CPU
 * environment, one run, the scenarios) and measure/prezero_smp.c (the
 * fault_cpus/zero_cpus team) share. Not for other subsystems: they use
 * measure/prezero.h.
 */
#ifndef HZ_MEASURE_PREZERO_PRIV_H
#define HZ_MEASURE_PREZERO_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "measure/fault_pool.h"
#include "mm/demand.h"
#include "measure/prezero.h"

/* The `accepted` text of fault_cpus= and zero_cpus=, in the option table
 * and in the config record pz_check_cpus() prints. */
#define PZ_FAULT_CPUS_ACCEPTED "1..1024, at most the CPUs online"
#define PZ_ZERO_CPUS_ACCEPTED "0..1023; fault_cpus + zero_cpus at most the CPUs online"

/* zero_cpus=, 0..HZ_MAX_CPUS - 1 (prezero/prezero.c, docs/prezero.md
 * "Options"): run=vmstart refuses it. The prezero files share no
 * variable: a team run gets its pool in struct pz_team_ctx,
 * pz_check_cpus() the CPU counts. */
uint64_t pz_zero_cpus(void);

/* What a team run (measure/prezero_smp.c) works on, passed by
 * prezero/prezero.c for each run. */
struct pz_team_ctx {
    struct fault_env *env; /* the run's pool, its lock, frame size (fault_pool_setup()) */
    bool *sample_busy;     /* [DEMAND_MAX_SAMPLES]: pz_zeroers_busy_since() of each demand
                              sample's fault; the team sets the ones its CPUs touched */
};

/* A tenant's page: va mapped, bytes its size (4 KiB multiple). */
struct tenant {
    volatile uint64_t *va;
    uint64_t bytes;
};

/* user_run() body (arg: a struct tenant): wl_tenant_dirty() the page, a
 * non-zero word in every 64-byte line, as a tenant leaves it. prezero/prezero.c. */
void pz_tenant_fn(void *arg);

/*
 * Zeroer activity, for splitting fault latency by whether a zeroer CPU was
 * clearing another frame meanwhile (measure/prezero_smp.c). Take a
 * snapshot just before a fault's touch; pz_zeroers_busy_since() just after
 * it is true when a zeroer was inside a clear at either end or began one
 * in between. Both false/zero outside a run with zeroers.
 */
struct pz_zsnap {
    uint32_t busy;  /* zeroers inside pool_zero_step now */
    uint64_t steps; /* pool_zero_step calls zeroers have begun */
};
struct pz_zsnap pz_zeroers_snap(void);
bool pz_zeroers_busy_since(struct pz_zsnap before);

/*
 * Run the loop of config c on x's pool with P faulting CPUs (P > 1 sets
 * ops->populate for the run) and Z dedicated zeroers (clearing
 * c->chunk_bytes per step), the first P + Z online CPUs, CPU 0 running
 * pz_run(). Adds the zeroers' TSC cycles and chunks to
 * t->idle_zeroing and t->idle_chunks, and the faulted frames that did not
 * read zero to *not_zero. Returns pz_run's result (*why as it set it), or
 * -1 after a fail record when a CPU did not stop or was not online; a
 * faulting CPU that misses a barrier for 60 s ends the run (HZ_FAIL).
 * measure/prezero_smp.c.
 */
int pz_team_run(const struct pz_team_ctx *x, const struct pz_config *c, struct pz_ops *ops,
                struct pz_tally *t, const char **why, unsigned P, unsigned Z, size_t *not_zero);

/* One run of a workload under one policy (prezero/prezero.c). */
struct pz_req {
    struct pz_policy_cfg policy; /* batch 0: batch=N's N, else every page */
    enum wl_kind kind;
    uint32_t pages;      /* 0: pages=, else every frame of the pool */
    unsigned fault_cpus; /* 1..the CPUs online (pz_check_cpus() or the caller checks) */
    /* policy idle with zero_cpus: the zeroer CPUs stay off and the idle
     * loop runs on the faulting CPU in the idle periods, so no other CPU
     * clears while a fault runs; nothing is printed and the checks are
     * named prezero.<workload>.idle_off.* */
    bool zeroers_off;
    bool quiet; /* no record, line or pass: only the fail records of its checks */
};

/*
 * Set up the pool (every frame dirty), run q (with the zeroers of zero_cpus
 * for policy idle unless q->zeroers_off), verify and check it, print its
 * `prezero` record and `fault` records unless quiet or zeroers_off, and
 * give the frames back. Returns 0 (checks reported, *r filled: r->ok says
 * whether every check passed), or -1 when the run could not start
 * (skip/fail recorded).
 */
int pz_run_one(const struct pz_req *q, struct pz_result *r);

/* After pz_team_run() with P > 1: per population the slowest faulting CPU's
 * own time (its first touch to its last touch done), summed over the
 * populations, TSC cycles. populate_ns minus this is the CPUs' start skew
 * and waiting, not fault work. measure/prezero_smp.c. */
uint64_t pz_team_cpu_max(void);

/* fault_cpus + zero_cpus (the options' values) must fit the CPUs online:
 * return when they do, else print a `config` record and end the run with
 * HZ_CONFIG. measure/prezero_smp.c. */
void pz_check_cpus(uint64_t fault_cpus, uint64_t zero_cpus);

/* The lead idle every workload run starts with, ns: lead_idle= where
 * given, else profile p's (lib/plan.h lead_idle_ms). */
struct plan_profile;
uint64_t pz_lead_idle_ns(const struct plan_profile *p);

#endif /* HZ_MEASURE_PREZERO_PRIV_H */
