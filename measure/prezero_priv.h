/*
 * measure/prezero_priv.h - what the pre-zeroing runner's kernel files
 * share: measure/prezero_run.c (one run: the single-CPU environment and
 * the checks), measure/prezero_smp.c (the fault_cpus/zero_cpus team) and
 * measure/prezero_opts.c (the options). Not for other subsystems: they use
 * measure/prezero_run.h.
 */
#ifndef HZ_MEASURE_PREZERO_PRIV_H
#define HZ_MEASURE_PREZERO_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "measure/fault_pool.h"
#include "measure/prezero.h"
#include "measure/prezero_run.h"
#include "mm/demand.h"

/* The `accepted` text of fault_cpus= and zero_cpus=, in the option table
 * and in the config record pz_check_cpus() prints. */
#define PZ_FAULT_CPUS_ACCEPTED "1..1024, at most the CPUs online"
#define PZ_ZERO_CPUS_ACCEPTED "0..1023; fault_cpus + zero_cpus at most the CPUs online"

struct pz_team;

/* The environment of one run's event loop (struct pz_ops ctx), built by
 * pz_run_one() for each run and handed to the team with it. */
struct pz_kctx {
    struct fault_env *env; /* the run's pool, its lock, frame size (fault_pool_setup()) */
    size_t not_zero;       /* frames that did not read zero when handed to a fault */
    bool *sample_busy;     /* [DEMAND_MAX_SAMPLES]: pz_zeroers_busy_since() of each demand
                              sample's fault */
    struct pz_team *team;  /* the team while pz_team_run() runs, else NULL */
};

/* A tenant's page: va mapped, bytes its size (4 KiB multiple). */
struct tenant {
    volatile uint64_t *va;
    uint64_t bytes;
};

/* user_run() body (arg: a struct tenant): wl_tenant_dirty() the page, a
 * non-zero word in every 64-byte line, as a tenant leaves it.
 * measure/prezero_run.c. */
void pz_tenant_fn(void *arg);

/*
 * Zeroer activity, for splitting fault latency by whether a zeroer CPU was
 * clearing another frame meanwhile (measure/prezero_smp.c). Take a
 * snapshot of team t just before a fault's touch; pz_zeroers_busy_since()
 * just after it is true when a zeroer was inside a clear at either end or
 * began one in between. Both false/zero for t NULL (no team).
 */
struct pz_zsnap {
    uint32_t busy;  /* zeroers inside pool_zero_step now */
    uint64_t steps; /* pool_zero_step calls zeroers have begun */
};
struct pz_zsnap pz_zeroers_snap(const struct pz_team *t);
bool pz_zeroers_busy_since(const struct pz_team *t, struct pz_zsnap before);

/*
 * Run the loop of config c on k's pool with P faulting CPUs (P > 1 sets
 * ops->populate for the run; ops->ctx must be k) and Z dedicated zeroers
 * (clearing c->chunk_bytes per step), the first P + Z online CPUs, CPU 0
 * running pz_run(); k->team points at the team while it runs. Adds the
 * zeroers' TSC cycles and chunks to t->idle_zeroing and t->idle_chunks, and
 * the faulted frames that did not read zero to k->not_zero. *cpu_max gets,
 * per population, the slowest faulting CPU's own time (its first touch to
 * its last touch done) summed over the populations, TSC cycles: populate
 * minus this is the CPUs' start skew and waiting, not fault work. Returns
 * pz_run's result (*why as it set it), or -1 after a fail record when a CPU
 * did not stop or was not online; a faulting CPU that misses a barrier for
 * 60 s ends the run (HZ_FAIL). measure/prezero_smp.c.
 */
int pz_team_run(struct pz_kctx *k, const struct pz_config *c, struct pz_ops *ops,
                struct pz_tally *t, const char **why, unsigned P, unsigned Z, uint64_t *cpu_max);

#endif /* HZ_MEASURE_PREZERO_PRIV_H */
