/*
 * tests/unit/test_prezero_run.c - kernel/prezero_core's event loop under
 * the policies none, boot, on_free and batch, against the simulated demand
 * region of prezero_sim.h; bad configurations, and each rule of
 * pz_check_accounting() firing on a pool that breaks it. The idle policy,
 * the idle loop's edges and parallel populate are in test_prezero_idle.c.
 */
#include "prezero_sim.h"

static void test_vm_boot_none(void **state)
{
    start(4);
    struct pz_config c = config(WL_VM_BOOT, 4, PZ_NONE, 0);
    struct pz_tally t = run(&c, 4);
    assert_int_equal(t.faults, 4);
    assert_int_equal(P.c.taken_prezeroed, 0);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 4 * FB);
    assert_int_equal(t.total, 4 * (FC + FB));
    assert_int_equal(t.populate, 4 * (FC + FB));
    assert_int_equal(t.prezero, 0);
    assert_int_equal(t.idle_ns, 0);
    assert_int_equal(S.t, 4 * (FC + FB + EXCL));
}

static void test_vm_boot_boot(void **state)
{
    start(4);
    struct pz_config c = config(WL_VM_BOOT, 3, PZ_BOOT, 0);
    struct pz_tally t = run(&c, 4);
    assert_int_equal(t.prezero, 4 * FB); /* every frame, used or not */
    assert_int_equal(P.c.taken_prezeroed, 3);
    assert_int_equal(P.c.bytes_zeroed[ZERO_BOOT], 4 * FB);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 0);
    assert_int_equal(t.total, 3 * FC); /* the boot clearing is not in total */
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.zeroed_unused, 1);
}

/* restart, 2 pages, 2 cycles, on_free: populations 0, 1, 2; every free
 * clears the frame, so populations 1 and 2 are all pre-zeroed. */
static void test_restart_on_free(void **state)
{
    start(4);
    struct pz_config c = config(WL_RESTART, 2, PZ_ON_FREE, 0);
    c.wl.cycles = 2;
    c.wl.hold_ns = 1000;
    struct pz_tally t = run(&c, 4);
    assert_int_equal(t.faults, 6);
    assert_int_equal(t.frees, 4);
    assert_int_equal(P.c.taken_prezeroed, 4);
    assert_int_equal(P.c.bytes_zeroed[ZERO_ON_FREE], 4 * FB);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 2 * FB);
    assert_int_equal(t.free_time, 4 * FB);
    assert_int_equal(t.total, 6 * FC + 2 * FB + 2 * 1000 + 4 * FB);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.zeroed_unused, 0);
}

/* restart with none: every population clears in its faults. */
static void test_restart_none(void **state)
{
    start(2);
    struct pz_config c = config(WL_RESTART, 2, PZ_NONE, 0);
    c.wl.cycles = 1;
    c.wl.hold_ns = 0;
    struct pz_tally t = run(&c, 2);
    assert_int_equal(t.faults, 4);
    assert_int_equal(P.c.taken_prezeroed, 0);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 4 * FB);
    assert_int_equal(t.total, 4 * (FC + FB));
}

/* churn ends with FREE of every page: on_free then leaves zeroed frames
 * nobody uses (wasted). */
static void test_churn_on_free_waste(void **state)
{
    start(2);
    struct pz_config c = config(WL_CHURN, 2, PZ_ON_FREE, 0);
    c.wl.cycles = 1;
    struct pz_tally t = run(&c, 2);
    assert_int_equal(t.idles, 1);
    assert_true(t.idle_ns > 0);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.zeroed_unused, 2);
    assert_int_equal(P.c.taken_prezeroed, 0);
}

/* batch=2 with a request of 2 before the population: 2 of 4 pre-zeroed. */
static void test_vm_boot_batch(void **state)
{
    start(4);
    struct pz_config c = config(WL_VM_BOOT, 4, PZ_BATCH, 2);
    c.wl.zero_request = 2;
    struct pz_tally t = run(&c, 4);
    assert_int_equal(t.requests, 1);
    assert_int_equal(t.batch_frames, 2);
    assert_int_equal(t.prezero, 2 * FB);
    assert_int_equal(P.c.taken_prezeroed, 2);
    assert_int_equal(P.c.bytes_zeroed[ZERO_BATCH], 2 * FB);
    assert_int_equal(t.total, 2 * FB + 4 * FC + 2 * FB);
    /* The same stream under another policy ignores the request. */
    start(4);
    c.policy = (struct pz_policy_cfg){PZ_NONE, 0};
    t = run(&c, 4);
    assert_int_equal(t.requests, 1);
    assert_int_equal(t.batch_frames, 0);
    assert_int_equal(P.c.taken_prezeroed, 0);
}

static void test_bad_config(void **state)
{
    start(2);
    struct pz_config c = config(WL_VM_BOOT, 3, PZ_NONE, 0);
    struct pz_tally t;
    const char *why = 0;
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "pages"); /* more pages than frames */
    c.wl.pages = 2;
    c.chunk_bytes = 0;
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "chunk_bytes");
    c.chunk_bytes = 4097;
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "chunk_bytes");
    c.chunk_bytes = CHUNK;
    c.policy = (struct pz_policy_cfg){PZ_BATCH, 0};
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "policy");
    c.policy = (struct pz_policy_cfg){PZ_IDLE, 3};
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "policy");
    c.policy = (struct pz_policy_cfg){PZ_NONE, 0};
    c.lead_idle_ns = WL_MAX_NS + 1;
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "lead_idle_ns");
    c.lead_idle_ns = 0;
    c.wl.kind = WL_CHURN;
    c.wl.cycles = 0;
    assert_int_equal(pz_run(&P, &L, &c, &OPS, &t, &why), -1);
    assert_string_equal(why, "cycles");
    c.wl.cycles = 1;
    struct pz_ops ops = OPS;
    ops.fault = 0;
    assert_int_equal(pz_run(&P, &L, &c, &ops, &t, &why), -1);
    assert_string_equal(why, "ops");
    ops = OPS;
    ops.clear_ticks = 0; /* the idle loop could not tell clearing from overhead */
    assert_int_equal(pz_run(&P, &L, &c, &ops, &t, &why), -1);
    assert_string_equal(why, "ops");
    ops = OPS;
    ops.hz = PZ_MAX_HZ; /* 17 GHz: ns -> ticks could overflow */
    assert_int_equal(pz_run(&P, &L, &c, &ops, &t, &why), -1);
    assert_string_equal(why, "ops");
    assert_int_equal(pz_run(&P, &L, 0, &OPS, &t, 0), -1);
    /* Nothing ran: no frame touched, clock still. */
    assert_int_equal(S.t, 0);
    assert_int_equal(P.c.taken, 0);
    ops.hz = PZ_MAX_HZ - 1; /* the largest clock accepted runs */
    assert_int_equal(pz_run(&P, &L, &c, &ops, &t, &why), 0);
    assert_int_equal(t.faults, 2);
}

/* Each accounting rule fires on a pool that breaks it. */
static void test_accounting_rules(void **state)
{
    const char *why;
    struct pz_policy_cfg none = {PZ_NONE, 0}, boot = {PZ_BOOT, 0}, onf = {PZ_ON_FREE, 0};
    start(2);
    struct pz_config c = config(WL_VM_BOOT, 2, PZ_NONE, 0);
    run(&c, 2);
    struct pool saved = P;

    P.c.bytes_zeroed[ZERO_IDLE] += 4096;
    assert_int_equal(pz_check_accounting(&P, &none, 2, &why), -1);
    assert_string_equal(why, "bytes cleared by an origin the policy does not use");
    P = saved;
    P.c.bytes_zeroed[ZERO_FAULT] += 4096;
    assert_int_equal(pz_check_accounting(&P, &none, 2, &why), -1);
    assert_string_equal(why, "cleared bytes != completed frames x frame size + partial cursors");
    P = saved;
    P.c.zeroed_twice = 1;
    assert_int_equal(pz_check_accounting(&P, &none, 2, &why), -1);
    assert_string_equal(why, "a frame was zeroed twice");
    P = saved;
    P.c.taken_prezeroed = 1;
    assert_int_equal(pz_check_accounting(&P, &none, 2, &why), -1);
    assert_string_equal(why, "policy none served a pre-zeroed frame");
    P = saved;

    start(2);
    c.policy = boot;
    run(&c, 2);
    assert_int_equal(pz_check_accounting(&P, &boot, 3, &why), -1);
    assert_string_equal(why, "boot did not clear every frame exactly once");

    start(2);
    c = config(WL_RESTART, 2, PZ_ON_FREE, 0);
    c.wl.cycles = 1;
    run(&c, 2);
    P.c.frees++;
    assert_int_equal(pz_check_accounting(&P, &onf, 2, &why), -1);
    assert_string_equal(why, "on_free did not clear exactly one frame per free");
    assert_int_equal(pz_check_accounting(0, &onf, 2, &why), -1);
    assert_string_equal(why, "no pool");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vm_boot_none),        cmocka_unit_test(test_vm_boot_boot),
        cmocka_unit_test(test_restart_on_free),     cmocka_unit_test(test_restart_none),
        cmocka_unit_test(test_churn_on_free_waste), cmocka_unit_test(test_vm_boot_batch),
        cmocka_unit_test(test_bad_config),          cmocka_unit_test(test_accounting_rules),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
