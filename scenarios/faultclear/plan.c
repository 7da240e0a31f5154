/*
 * scenarios/faultclear/plan.c - run=faultclear's profile settings and its
 * `.plan` hook (scenarios/faultclear/faultclear.h): the cells and pools
 * run_size() takes, priced with lib/plan.h's parts.
 */
#include "scenarios/faultclear/faultclear.h"

#include "arch/cpu.h"
#include "kernel/options.h"
#include "measure/fault_pool.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"

/* The same rounds under both profiles, as before profiles had rows: the
 * scenario is not in run=default, and a run= list is run=full. */
static const struct faultclear_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.rounds = {.min = 5, .max = 15, .budget_s = 120}},
    [PLAN_FULL] = {.rounds = {.min = 5, .max = 15, .budget_s = 120}},
};

const struct faultclear_settings *faultclear_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

struct plan_rounds fc_rounds_of(const struct plan_profile *p)
{
    struct plan_rounds r = faultclear_settings_get(p)->rounds;
    if (option_given("faultclear_rounds"))
        r.min = (unsigned)fc_opts.rounds;
    if (option_given("faultclear_max_rounds"))
        r.max = (unsigned)fc_opts.max_rounds;
    if (option_given("faultclear_budget"))
        r.budget_s = (unsigned)fc_opts.budget_s;
    if (r.max < r.min)
        r.max = r.min;
    return r;
}

void faultclear_plan(const struct plan_profile *p, const struct plan_machine *m,
                     struct plan_part *out)
{
    unsigned cells = FAULT_CLEAR_NMODELS * (fc_opts.strategies ? 1
                                            : fc_best_nt()     ? FC_STRATS
                                                               : FC_STRATS - 1);
    struct plan_rounds r = fc_rounds_of(p);
    if (cpu_is_tcg()) /* as run_rounds(): no rounds past the minimum */
        r.max = r.min;
    uint64_t sizes[2] = {PAGE_SIZE_1G, PAGE_SIZE_2M};
    for (int i = frames_1g_free_count(mm_frames()) ? 0 : 1; i < 2; i++) {
        uint64_t fb = sizes[i];
        size_t n = fault_pool_plan(fc_pages_of(fb) + 1, &fb, fault_zero_node());
        if (n < 2)
            continue;
        uint64_t rep = plan_pass_us(n * fb, 1, m) +
                       (n - 1) * (plan_pass_us(fb, 2, m) + m->fault_us) + m->cell_us;
        out->ms += plan_rounds_ms(cells * rep, r.min, r.max, r.budget_s);
        out->cells += cells;
    }
}
