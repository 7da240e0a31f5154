/*
 * scenarios/faultclear/plan.c - run=faultclear's `.plan` hook
 * (scenarios/faultclear/faultclear.h): the cells and pools run_size() takes,
 * priced with lib/plan.h's parts.
 */
#include "scenarios/faultclear/faultclear.h"

#include "arch/cpu.h"
#include "measure/fault_pool.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"

void faultclear_plan(const struct plan_profile *p, const struct plan_machine *m,
                     struct plan_part *out)
{
    unsigned cells = FAULT_CLEAR_NMODELS * (fc_opts.strategies ? 1
                                            : fc_best_nt()     ? FC_STRATS
                                                               : FC_STRATS - 1);
    unsigned max =
        (unsigned)(cpu_is_tcg() || fc_opts.max_rounds < fc_opts.rounds ? fc_opts.rounds
                                                                       : fc_opts.max_rounds);
    uint64_t sizes[2] = {PAGE_SIZE_1G, PAGE_SIZE_2M};
    for (int i = frames_1g_free_count(mm_frames()) ? 0 : 1; i < 2; i++) {
        uint64_t fb = sizes[i];
        size_t n = fault_pool_plan(fc_pages_of(fb) + 1, &fb, fault_zero_node());
        if (n < 2)
            continue;
        uint64_t rep = plan_pass_us(n * fb, 1, m) +
                       (n - 1) * (plan_pass_us(fb, 2, m) + m->fault_us) + m->cell_us;
        out->ms +=
            plan_rounds_ms(cells * rep, (unsigned)fc_opts.rounds, max, (unsigned)fc_opts.budget_s);
        out->cells += cells;
    }
}
