/*
 * scenarios/smp/plan.c - run=smp's profile settings, thread counts and
 * price (scenarios/smp/plan.h), portable; its `.plan` hook
 * (scenarios/smp/smp.h), kernel only.
 */
#include "scenarios/smp/plan.h"

static const struct smp_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.all_counts = false,
                      .all_strategies = false,
                      .fill = false,
                      .rounds = {.min = 10, .max = 20, .budget_s = 5}},
    [PLAN_FULL] = {.all_counts = true,
                   .all_strategies = true,
                   .fill = true,
                   .rounds = {.min = 10, .max = 30, .budget_s = 60}},
};

const struct smp_settings *smp_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

unsigned smp_plan_counts(bool all_counts, unsigned online, unsigned *out)
{
    static const unsigned want[] = {1, 2, 4, 8, 16};
    unsigned n = 0, most = all_counts ? 5 : 1;
    if (!online)
        return 0;
    for (unsigned i = 0; i < most && want[i] < online; i++)
        out[n++] = want[i];
    out[n++] = online;
    return n;
}

unsigned smp_plan_strategies(const struct smp_settings *s, const struct plan_facts *f)
{
    return s->all_strategies ? f->strategies : 2;
}

uint64_t smp_plan_ms(const struct smp_settings *s, const struct plan_rounds *r, unsigned strategies,
                     unsigned fill_repeats, const struct plan_facts *f,
                     const struct plan_machine *m)
{
    if (!f->cpus)
        return 0;
    unsigned cnt[SMP_COUNTS_MAX], counts = smp_plan_counts(s->all_counts, f->cpus, cnt);
    uint64_t one = plan_smp_cell_us(f->smp_bytes, 1, m);
    uint64_t all = plan_smp_cell_us(f->smp_bytes, f->cpus, m);
    uint64_t per_strategy = one + (counts - 1) * all; /* the thread counts above 1 as all */
    uint64_t us = plan_rounds_us(strategies * per_strategy, r);
    if (s->fill) {
        struct plan_rounds fr = {fill_repeats, r->max, r->budget_s};
        uint64_t fill = (uint64_t)f->frames * f->frame_bytes;
        us += plan_rounds_us(counts * plan_kind_us(fill, 2, m->smp_pass_mbps, m), &fr);
    }
    return us / 1000;
}

#ifndef HZ_HOSTED
#include "kernel/options.h"
#include "mm/paging.h"
#include "scenarios/smp/smp.h"

void smp_scenario_plan(const struct plan_profile *p, const struct plan_machine *m,
                       struct plan_part *out)
{
    struct smp_settings s = *smp_settings_get(p);
    struct plan_rounds r = s.rounds;
    const char *missing;
    unsigned fill_repeats, strategies = 0;
    uint32_t skip = smp_skip_mask(p);
    struct plan_facts f = {.cpus = smp_online(), .smp_bytes = smp_want_bytes()};
    for (size_t i = 0; i < clear_strategy_count && i < 32; i++)
        strategies += !(skip & (1u << i)) && clear_supported(&clear_strategies[i], &missing);
    f.frame_bytes = PAGE_SIZE_2M;
    f.frames = (unsigned)(smp_fill_plan_bytes(&fill_repeats) / PAGE_SIZE_2M);
    s.fill = s.fill || option_given("smp_fill");
    r.min = smp_repeats_of(p);
    r = smp_rounds_apply(r);
    out->ms = smp_plan_ms(&s, &r, strategies, fill_repeats, &f, m);
}
#endif /* !HZ_HOSTED */
