/*
 * scenarios/clear/plan.c - run=clear's profile settings and the price of
 * its sweep (scenarios/clear/plan.h), portable; its `.plan` hook
 * (scenarios/clear/clear.h), kernel only.
 */
#include "scenarios/clear/plan.h"

static const struct clear_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.all_strategies = false,
                      .small_target = false,
                      .chunks = 3,
                      .rounds = {.min = 10, .max = 40, .budget_s = 15}},
    [PLAN_FULL] = {.all_strategies = true,
                   .small_target = true,
                   .chunks = 4,
                   .rounds = {.min = 10, .max = 40, .budget_s = 120}},
};

const struct clear_settings *clear_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

/* The small target holds the chunk sizes below it: 4K and 2M. */
static unsigned small_chunks(const struct clear_settings *s, const struct plan_facts *f)
{
    if (!s->small_target)
        return 0;
    return (f->small_bytes >= (2u << 20) ? 2 : f->small_bytes >= 4096 ? 1 : 0);
}

unsigned clear_plan_cells(const struct clear_settings *s, const struct plan_facts *f)
{
    unsigned strategies = s->all_strategies ? f->strategies : f->quick_strategies;
    return strategies * (s->chunks + 2 * small_chunks(s, f)); /* warm + cold */
}

uint64_t clear_plan_cells_ms(const struct plan_rounds *r, unsigned big, unsigned small,
                             const struct plan_facts *f, const struct plan_machine *m)
{
    uint64_t big_us = plan_kind_us(f->big_bytes, 1, m->clear_mbps, m) +
                      plan_kind_us(f->big_bytes, 1, m->check_dirty_mbps, m);
    uint64_t small_us = plan_kind_us(f->small_bytes, 1, m->dirty_mbps, m) +
                        plan_kind_us(f->small_bytes, 1, m->clear_mbps, m) +
                        plan_kind_us(f->small_bytes, 1, m->check_dirty_mbps, m);
    uint64_t round_us = big * (big_us + m->cell_us) + small * (small_us + m->cell_us);
    return plan_rounds_us(round_us, r) / 1000;
}

uint64_t clear_plan_ms(const struct clear_settings *s, const struct plan_facts *f,
                       const struct plan_machine *m)
{
    unsigned strategies = s->all_strategies ? f->strategies : f->quick_strategies;
    unsigned big = strategies * s->chunks;
    return clear_plan_cells_ms(&s->rounds, big, clear_plan_cells(s, f) - big, f, m);
}

#ifndef HZ_HOSTED
#include "arch/cpu.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "scenarios/clear/clear.h"

void clear_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out)
{
    const struct clear_settings *s = clear_settings_get(p);
    struct plan_facts f = {0};
    uint64_t min, max, budget;
    size_t nch;
    const char *missing;
    const uint64_t *list = clear_option_settings(s, &nch, &min, &max, &budget);
    clear_targets(frames_1g_free_count(mm_frames()) ? PAGE_SIZE_1G : PAGE_SIZE_2M, &f.big_bytes,
                  &f.small_bytes);
    unsigned ns = 0, big = 0, sm = 0;
    for (size_t i = 0; i < clear_strategy_count; i++)
        ns += clear_selected(&clear_strategies[i], s) &&
              clear_supported(&clear_strategies[i], &missing);
    for (size_t k = 0; k < nch; k++) { /* add_cells(): the chunks that fit each target */
        big += list[k] <= f.big_bytes;
        sm += s->small_target && list[k] <= f.small_bytes ? 2 : 0;
    }
    struct plan_rounds r = {(unsigned)min, (unsigned)(cpu_is_tcg() || max < min ? min : max),
                            (unsigned)budget};
    out->ms = clear_plan_cells_ms(&r, ns * big, ns * sm, &f, m);
    out->cells = ns * (big + sm);
}
#endif /* !HZ_HOSTED */
