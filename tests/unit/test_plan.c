/*
 * tests/unit/test_plan.c - lib/plan.c's pricing with each scenario's own
 * profile settings (scenarios/{clear,fault,policies,smp}/plan.c): the run
 * profiles keep the measurement rules (>= 10 repeats per cell in both),
 * and the default run's planned duration on the development machine's
 * facts stays within its 90 s budget (issue 13) under the fixture machine
 * model and under the model the kernel prints with, while run=full plans
 * the exhaustive suite.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/plan.h"
#include "measure/prezero.h"
#include "scenarios/clear/plan.h"
#include "scenarios/fault/plan.h"
#include "scenarios/policies/plan.h"
#include "scenarios/smp/plan.h"

/* The development machine at start-up: 2 vCPUs, 13 strategies of which 12
 * run (no MOVDIR64B), the reduced set rep_stosb, rep_stosq, avx512_nt,
 * clzero; a 1 GiB target, 16 MiB LLC; two 1 GiB frames (4 GiB guest). */
static const struct plan_facts dev = {.cpus = 2,
                                      .strategies = 12,
                                      .quick_strategies = 4,
                                      .big_bytes = 1ull << 30,
                                      .small_bytes = 8ull << 20,
                                      .frames = 2,
                                      .frame_bytes = 1ull << 30,
                                      .smp_bytes = 1ull << 30};

/* Fixture prices: a pass at 25 GB/s on one CPU (slower than measured),
 * 40 GB/s on all, 0.5 ms per fault, 12 s of boot. */
static const struct plan_machine fixture = {
    .pass_mbps = 25000, .smp_pass_mbps = 40000, .fault_us = 500, .boot_ms = 12000, .cell_us = 3000};

/* Planned milliseconds of run=default's scenarios (clear, fault, policies,
 * smp) under profile p, and their sum with the boot, as the kernel's plan
 * line adds their `.plan` hooks on a machine of facts f. */
struct estimate {
    uint64_t clear_ms, fault_ms, policies_ms, smp_ms, total_ms;
};

static void estimate(const struct plan_profile *p, const struct plan_facts *f,
                     const struct plan_machine *m, struct estimate *e)
{
    const struct smp_settings *s = smp_settings_get(p);
    e->clear_ms = clear_plan_ms(clear_settings_get(p), f, m);
    e->fault_ms = plan_fault_ms(fault_settings_get(p)->rounds, f, m);
    e->policies_ms = plan_policies_ms(PZ_NPOLICIES, policies_settings_get(p)->lead_idle_ms, f, m);
    e->smp_ms = smp_plan_ms(s, &s->rounds, smp_plan_strategies(s, f), 10, f, m);
    e->total_ms = m->boot_ms + e->clear_ms + e->fault_ms + e->policies_ms + e->smp_ms;
}

static void test_profiles_keep_repeats(void **state)
{
    for (int id = PLAN_DEFAULT; id <= PLAN_FULL; id++) {
        const struct plan_profile *p = plan_profile_get((enum plan_profile_id)id);
        assert_int_equal(p->id, id);
        assert_true(clear_settings_get(p)->rounds.min >= 10);
        assert_true(clear_settings_get(p)->rounds.max >= clear_settings_get(p)->rounds.min);
        assert_true(smp_settings_get(p)->rounds.min >= 10);
        assert_true(fault_settings_get(p)->rounds >= 10);
        /* the lead idle lead_idle= documents: 250 ms in run=default, 1 s in run=full */
        assert_int_equal(policies_settings_get(p)->lead_idle_ms, id == PLAN_DEFAULT ? 250 : 1000);
    }
    assert_string_equal(plan_profile_get(PLAN_DEFAULT)->name, "default");
    assert_string_equal(plan_profile_get(PLAN_FULL)->name, "full");
    assert_ptr_equal(plan_profile_get((enum plan_profile_id)7), plan_profile_get(PLAN_DEFAULT));
}

static void test_clear_cells(void **state)
{
    /* default: 4 strategies x (4K, 2M, 1G) on the cold 1 GiB target */
    assert_int_equal(clear_plan_cells(clear_settings_get(plan_profile_get(PLAN_DEFAULT)), &dev),
                     12);
    /* full: 12 x (4 large-target cells + warm and cold 4K, 2M on 8 MiB), as a run counted */
    assert_int_equal(clear_plan_cells(clear_settings_get(plan_profile_get(PLAN_FULL)), &dev), 96);
}

static void test_default_within_budget(void **state)
{
    struct estimate d, f, dd;
    estimate(plan_profile_get(PLAN_DEFAULT), &dev, &fixture, &d);
    estimate(plan_profile_get(PLAN_FULL), &dev, &fixture, &f);
    estimate(plan_profile_get(PLAN_DEFAULT), &dev, &plan_machine_dev, &dd);
    assert_true(d.total_ms <= PLAN_DEFAULT_BUDGET_MS);
    assert_true(dd.total_ms <= PLAN_DEFAULT_BUDGET_MS);
    assert_true(d.total_ms >= 30000); /* it does measure: not a plan of nothing */
    assert_int_equal(d.total_ms,
                     fixture.boot_ms + d.clear_ms + d.fault_ms + d.policies_ms + d.smp_ms);
    assert_true(f.total_ms > 3 * d.total_ms); /* the exhaustive suite */
    assert_true(f.clear_ms > 120000);         /* its clear budget alone is 120 s */
    assert_true(f.smp_ms > 5 * d.smp_ms);     /* 12 strategies and the fill */
}

/* The race (issue 20 §3): the default run caps at 40 rounds, looks at 10,
 * 20, 30, 40, and its clear part is bounded by the budget, not the cap:
 * warm-up + minimum rounds, then at most the budget plus the round that
 * starts just before it ends, priced as if every cell stayed in. */
static void test_race_priced(void **state)
{
    const struct clear_settings *p = clear_settings_get(plan_profile_get(PLAN_DEFAULT));
    assert_int_equal(p->rounds.max, 40);
    assert_int_equal(p->rounds.min, 10);
    uint64_t clear_ms = clear_plan_ms(p, &dev, &fixture);
    /* a round: 12 cells x (2 passes of 1 GiB at 25 GB/s: the clear and the
     * check fused with the next dirtying, + 3 ms) = 1.067 s */
    uint64_t round_ms = 12 * ((2ull << 30) / 25000 + 3000) / 1000;
    assert_int_equal(round_ms, 1066);
    assert_true(clear_ms >= 11 * round_ms + p->rounds.budget_s * 1000 - round_ms);
    assert_true(clear_ms <= 11 * round_ms + p->rounds.budget_s * 1000 + round_ms);
    assert_true(clear_ms < (1 + p->rounds.max) * round_ms); /* the cap never binds */
    struct clear_settings slow = *p; /* a budget past the cap: the cap binds */
    slow.rounds.budget_s = 3600;
    clear_ms = clear_plan_ms(&slow, &dev, &fixture);
    assert_true(clear_ms >= (1 + slow.rounds.max) * round_ms - 1);
    assert_true(clear_ms <= (1 + slow.rounds.max) * (round_ms + 1));
}

/* A calibrated machine (kernel/calibrate.h) prices each pass kind at its
 * own rate: a slower clear lengthens the clear and fault parts by what its
 * passes take, a slower dirtying only the parts that dirty untimed. */
static void test_pass_kinds(void **state)
{
    const struct plan_profile *p = plan_profile_get(PLAN_DEFAULT);
    struct plan_machine m = fixture;
    struct estimate a, b;
    m.clear_mbps = m.dirty_mbps = m.check_dirty_mbps = m.pass_mbps;
    estimate(p, &dev, &m, &a);
    estimate(p, &dev, &fixture, &b);
    assert_int_equal(a.clear_ms, b.clear_ms); /* the same rates named or not */
    assert_int_equal(a.fault_ms, b.fault_ms);
    m.clear_mbps = m.pass_mbps / 2;
    estimate(p, &dev, &m, &b);
    assert_true(b.clear_ms > a.clear_ms);
    /* fault: 10 rounds x 2 frames x 2 kinds of fault, each fault's clear of
     * 1 GiB 43 ms longer at half the rate (integer rounding: +-1 ms) */
    uint64_t more =
        (uint64_t)fault_settings_get(p)->rounds * dev.frames * 2 * ((1ull << 30) / 25000) / 1000;
    assert_true(b.fault_ms - a.fault_ms + 1 >= more && b.fault_ms - a.fault_ms <= more + 1);
    m.clear_mbps = m.pass_mbps;
    m.dirty_mbps = m.pass_mbps / 2;
    estimate(p, &dev, &m, &b);
    assert_int_equal(b.clear_ms, a.clear_ms); /* no untimed dirtying pass on the cold target */
    assert_true(b.fault_ms > a.fault_ms && b.policies_ms > a.policies_ms);
}

static void test_scales_with_machine(void **state)
{
    struct plan_facts big = dev;
    struct estimate a, b;
    big.frames = 8;
    estimate(plan_profile_get(PLAN_DEFAULT), &dev, &fixture, &a);
    estimate(plan_profile_get(PLAN_DEFAULT), &big, &fixture, &b);
    assert_true(b.fault_ms > a.fault_ms && b.policies_ms > a.policies_ms);
    assert_int_equal(b.clear_ms, a.clear_ms);
    big = dev;
    big.cpus = 0;
    big.frames = 0;
    estimate(plan_profile_get(PLAN_DEFAULT), &big, &fixture, &b);
    assert_int_equal(b.smp_ms, 0);
    assert_int_equal(b.fault_ms, 0);
    assert_int_equal(b.policies_ms, 0);
}

/* The parts a scenario prices itself (its `.plan` hook): run=clear's cells
 * counted by the scenario give its sweep, and run=smp's thread-count rule
 * follows its settings. Catches a part priced with the wrong facts or a
 * thread-count rule that drifts. */
static void test_parts(void **state)
{
    const struct plan_profile *p = plan_profile_get(PLAN_DEFAULT),
                              *full = plan_profile_get(PLAN_FULL);
    const struct clear_settings *c = clear_settings_get(p);
    struct estimate d;
    estimate(p, &dev, &fixture, &d);
    /* cells counted by the scenario: 12 on the large target, none small */
    assert_int_equal(clear_plan_cells_ms(&c->rounds, 12, 0, &dev, &fixture), d.clear_ms);
    assert_true(clear_plan_cells_ms(&c->rounds, 6, 0, &dev, &fixture) < d.clear_ms);
    bool all = smp_settings_get(full)->all_counts;
    unsigned n[SMP_COUNTS_MAX];
    assert_false(smp_settings_get(p)->all_counts);
    assert_int_equal(smp_plan_counts(false, 0, n), 0);
    assert_int_equal(smp_plan_counts(false, 1, n), 1);
    assert_int_equal(n[0], 1);
    assert_int_equal(smp_plan_counts(false, 2, n), 2);
    assert_int_equal(n[1], 2);
    assert_int_equal(smp_plan_counts(all, 64, n), 6);
    assert_int_equal(n[4], 16);
    assert_int_equal(n[5], 64);
    assert_int_equal(smp_plan_counts(all, 4, n), 3); /* 1, 2, 4 */
    assert_int_equal(n[2], 4);
    /* run=default's smp: rep_stosb and the non-temporal pick, no fill */
    assert_int_equal(smp_plan_strategies(smp_settings_get(p), &dev), 2);
    assert_int_equal(smp_plan_strategies(smp_settings_get(full), &dev), dev.strategies);
}

/* run=numa's groups: one warm-up, 10 rounds, then rounds while the 5 s
 * budget lasts, up to 20 (the default profile). A group of 4 one-CPU
 * cells of 256 MiB at 25 GB/s: 3 passes = 32.2 ms + 3 ms a repeat. */
static void test_smp_part(void **state)
{
    struct plan_rounds p = smp_settings_get(plan_profile_get(PLAN_DEFAULT))->rounds;
    uint64_t rep_us = 3 * (256ull << 20) / 25000 + 3000;
    uint64_t round_us = 4 * rep_us;
    uint64_t extra = 5000000 / round_us + 1; /* rounds the budget allows past the 10 */
    uint64_t want = round_us * (1 + 10 + (extra < 10 ? extra : 10)) / 1000;
    assert_int_equal(p.min, 10);
    assert_int_equal(plan_smp_part_ms(&p, 4, 0, 1, 256ull << 20, &fixture), want);
    /* run=faultclear's own cells use the same two parts */
    assert_int_equal(plan_pass_us(256ull << 20, 3, &fixture), rep_us - 3000);
    assert_int_equal(plan_rounds_ms(round_us, 10, 20, 5), want);
    assert_int_equal(plan_rounds_ms(round_us, 10, 10, 5), round_us * 11 / 1000); /* TCG */
    assert_int_equal(plan_rounds_ms(0, 10, 20, 5), 0);
    assert_int_equal(plan_smp_part_ms(&p, 0, 0, 2, 256ull << 20, &fixture), 0);
    /* all CPUs of a node clear at the smp rate: cheaper than one CPU */
    assert_true(plan_smp_part_ms(&p, 0, 4, 2, 256ull << 20, &fixture) < want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiles_keep_repeats),
        cmocka_unit_test(test_clear_cells),
        cmocka_unit_test(test_default_within_budget),
        cmocka_unit_test(test_race_priced),
        cmocka_unit_test(test_pass_kinds),
        cmocka_unit_test(test_scales_with_machine),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_smp_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
