/*
 * scenarios/fault/fault.h - the demand-fault self-test (`run=fault`): touch N
 * pages of the demand region (mm/demand.h) from the pool of
 * measure/fault_pool.h, check each reads back zero and that exactly N
 * faults were taken, and print per-fault service and clear times.
 */
#ifndef HZ_SCENARIOS_FAULT_FAULT_H
#define HZ_SCENARIOS_FAULT_FAULT_H

#include "measure/fault_pool.h"

/* The `run=fault` scenario. */
void fault_selftest(void);

#endif /* HZ_SCENARIOS_FAULT_FAULT_H */
