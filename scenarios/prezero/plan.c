/*
 * scenarios/prezero/plan.c - run=prezero's `.plan` hook
 * (scenarios/prezero/prezero.h): the pool and lead idle of the request the
 * options ask for (measure/prezero_run.h pz_plan_ms).
 */
#include "scenarios/prezero/prezero.h"

#include "measure/prezero_run.h"

void prezero_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out)
{
    out->ms = pz_plan_ms(p, m, 1);
}
