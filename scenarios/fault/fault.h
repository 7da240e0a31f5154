/*
 * scenarios/fault/fault.h - the demand-fault self-test (`run=fault`): touch N
 * pages of the demand region (mm/demand.h) from the pool of
 * measure/fault_pool.h, check each reads back zero and that exactly N
 * faults were taken, and print per-fault service and clear times.
 */
#ifndef HZ_SCENARIOS_FAULT_FAULT_H
#define HZ_SCENARIOS_FAULT_FAULT_H

#include <stdint.h>

#include "lib/plan.h"
#include "measure/fault_pool.h"

/* The `run=fault` scenario. */
void fault_selftest(void);

/* Its options (scenarios/fault/run.c), which its plan reads too. */
struct fault_options {
    uint64_t pages;  /* fault_pages=; 0: every frame in the pool */
    uint64_t rounds; /* fault_rounds=; 0: the run profile's (lib/plan.h) */
};
extern struct fault_options fault_opts;

/* Rounds under run profile p: fault_rounds=, else 2 under TCG (emulator
 * timings: a check, not a measurement), else the profile's. */
unsigned fault_rounds_of(const struct plan_profile *p);

/* The `.plan` hook (kernel/scenario.h): the pool fault_selftest() will set
 * up, its rounds. Boot CPU, after start-up. */
void fault_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out);

/* Its cells' kind (scenarios/fault/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind fault_kind;

#endif /* HZ_SCENARIOS_FAULT_FAULT_H */
