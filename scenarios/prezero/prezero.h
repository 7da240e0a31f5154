/*
 * scenarios/prezero/prezero.h - what run=prezero's files share
 * (scenarios/prezero/run.c: the HZ_SCENARIO row and the run;
 * scenarios/prezero/plan.c: its profile settings and `.plan` hook). Not a
 * public interface.
 */
#ifndef HZ_SCENARIOS_PREZERO_PREZERO_H
#define HZ_SCENARIOS_PREZERO_PREZERO_H

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct prezero_settings {
    unsigned lead_idle_ms; /* idle before the workload's first event (lead_idle=) */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct prezero_settings *prezero_settings_get(const struct plan_profile *p);

/* The `.plan` hook (kernel/scenario.h): one run of the requested workload
 * under profile p, priced with m. Boot CPU, after start-up. */
void prezero_plan(const struct plan_profile *p, const struct plan_machine *m,
                  struct plan_part *out);

#endif /* HZ_SCENARIOS_PREZERO_PREZERO_H */
