/*
 * scenarios/prezero/prezero.h - what run=prezero's files share
 * (scenarios/prezero/run.c: the HZ_SCENARIO row and the run;
 * scenarios/prezero/plan.c: its `.plan` hook). Not a public interface.
 */
#ifndef HZ_SCENARIOS_PREZERO_PREZERO_H
#define HZ_SCENARIOS_PREZERO_PREZERO_H

#include "lib/plan.h"

/* The `.plan` hook (kernel/scenario.h): one run of the requested workload
 * under profile p, priced with m. Boot CPU, after start-up. */
void prezero_plan(const struct plan_profile *p, const struct plan_machine *m,
                  struct plan_part *out);

#endif /* HZ_SCENARIOS_PREZERO_PREZERO_H */
