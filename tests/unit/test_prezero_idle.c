/*
 * tests/unit/test_prezero_idle.c - kernel/prezero_core under the idle
 * policy and with parallel population, against the simulated demand region
 * of prezero_sim.h: the lead idle period, idle periods between populations,
 * the edges of pz_idle_zero()'s loop (deadline checked before each chunk,
 * stop on an empty DIRTY list), and populate() batching FAULTs by CPU.
 */
#include "prezero_sim.h"

/* Lead idle of 170000 ns with 16 KiB chunks: chunks start at 0, 16384, ...,
 * 163840 (< 170000), so 11 chunks; the last ends 10224 ns late. Frames 0
 * and 1 complete, frame 2 keeps a 3-chunk cursor that its fault resumes. */
static void test_vm_boot_idle_lead(void **state)
{
    start(4);
    struct pz_config c = config(WL_VM_BOOT, 4, PZ_IDLE, 0);
    c.lead_idle_ns = 170000;
    struct pz_tally t = run(&c, 4);
    assert_int_equal(t.idle_chunks, 11);
    assert_int_equal(t.idle_zeroing, 11 * CHUNK);
    assert_int_equal(t.idle_overhead, 0);
    assert_int_equal(t.idle_overrun_max, 11 * CHUNK - 170000);
    assert_int_equal(t.lead_idle_ns, 170000);
    assert_int_equal(t.idle_ns, 170000);
    assert_int_equal(P.c.taken_prezeroed, 2);
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], 11 * CHUNK);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], (FB - 3 * CHUNK) + FB);
    assert_int_equal(P.c.zero_paused, 9);  /* 3 per frame touched by idle */
    assert_int_equal(P.c.zero_resumed, 9); /* 3 + 3 + 2 by idle, 1 by the fault */
    assert_int_equal(t.total, 4 * FC + (FB - 3 * CHUNK) + FB);
}

/* The deadline is checked before each chunk, and an empty DIRTY list ends
 * the loop without waiting. */
static void test_idle_loop_edges(void **state)
{
    start(2);
    struct pz_tally t = {0};
    S.t = 500;
    pz_idle_zero(&P, &L, CHUNK, 500, &OPS, &t); /* already due */
    assert_int_equal(t.idle_chunks, 0);
    assert_int_equal(S.t, 500);
    pz_idle_zero(&P, &L, FB, UINT64_MAX, &OPS, &t); /* clears both, then stops */
    assert_int_equal(t.idle_chunks, 2);
    assert_int_equal(S.t, 500 + 2 * FB);
    assert_int_equal(P.count[FRAME_ZEROED], 2);
    assert_int_equal(t.idle_overrun_max, 0);
    assert_int_equal(S.waits, 0);
}

/* Idle clearing cost is the clear (issue 12): each chunk's lock, pool and
 * ring-switch time (here clear_cost ticks per clear call) goes to
 * idle_overhead, not idle_zeroing. 170000 ns with chunks of 16384 + 1000
 * ticks: 10 chunks start before the deadline (the 10th at 156456). */
static void test_idle_clear_time_apart(void **state)
{
    start(4);
    S.clear_cost = 1000;
    struct pz_config c = config(WL_VM_BOOT, 4, PZ_IDLE, 0);
    c.lead_idle_ns = 170000;
    struct pz_tally t = run(&c, 4);
    assert_int_equal(t.idle_chunks, 10);
    assert_int_equal(t.idle_zeroing, 10 * CHUNK);
    assert_int_equal(t.idle_overhead, 10 * 1000);
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], 10 * CHUNK);
    assert_int_equal(t.idle_overrun_max, 10 * (CHUNK + 1000) - 170000);
}

/* restart with an idle period that fits 1.5 frames: the first freed frame
 * is pre-zeroed, the second half done and resumed by its fault. */
static void test_restart_idle(void **state)
{
    start(2);
    struct pz_config c = config(WL_RESTART, 2, PZ_IDLE, 0);
    c.wl.cycles = 1;
    c.wl.hold_ns = 0;
    c.wl.idle_ns = FB + FB / 2;
    struct pz_tally t = run(&c, 2);
    assert_int_equal(t.idles, 1);
    assert_int_equal(t.idle_chunks, 6);
    assert_int_equal(t.idle_overrun_max, 0);
    assert_int_equal(P.c.taken_prezeroed, 1);
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], FB + FB / 2);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 2 * FB + FB / 2);
    assert_int_equal(t.total, 4 * FC + 2 * FB + (FB + FB / 2) + FB / 2);
}

/* populate(): consecutive FAULTs of a population arrive together, with the
 * CPU that owns each page; the ticks it reports as excluded are excluded. */
static struct {
    unsigned calls, sizes[8], order[8], cpus[8], k;
} Pop;

static uint64_t sim_populate(void *ctx, const struct wl_event *ev, size_t n)
{
    uint64_t skip = 0;
    if (Pop.calls < 8)
        Pop.sizes[Pop.calls] = (unsigned)n;
    Pop.calls++;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ev[i].op, WL_FAULT);
        if (Pop.k < 8) {
            Pop.order[Pop.k] = ev[i].page;
            Pop.cpus[Pop.k] = ev[i].cpu;
        }
        Pop.k++;
        skip += sim_fault(ctx, ev[i].page);
    }
    return skip;
}

static void test_parallel_populate(void **state)
{
    start(4);
    struct pz_config c = config(WL_RESTART, 4, PZ_IDLE, 0);
    c.wl.cycles = 1;
    c.wl.idle_ns = 1000000;
    c.wl.cpus = 2;
    c.background = true; /* dedicated zeroers would clear: the loop only waits */
    struct pz_ops ops = OPS;
    ops.fault = sim_fault;
    ops.populate = sim_populate;
    memset(&Pop, 0, sizeof Pop);
    struct pz_tally t;
    const char *why;
    assert_int_equal(pz_run(&P, &L, &c, &ops, &t, &why), 0);
    assert_int_equal(Pop.calls, 2); /* one call per population */
    assert_int_equal(Pop.sizes[0], 4);
    assert_int_equal(Pop.sizes[1], 4);
    static const unsigned order[4] = {0, 2, 1, 3}, cpus[4] = {0, 1, 0, 1};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(Pop.order[i], order[i]);
        assert_int_equal(Pop.cpus[i], cpus[i]);
        assert_int_equal(Pop.order[4 + i], order[i]);
    }
    assert_int_equal(t.faults, 8);
    assert_int_equal(t.excluded, 8 * EXCL);
    assert_int_equal(t.populate, 8 * (FC + FB)); /* every fault cleared its frame */
    assert_int_equal(t.idle_chunks, 0);
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], 0);
    assert_int_equal(t.idle_ns, 1000000);
    assert_int_equal(pz_check_accounting(&P, &c.policy, 4, &why), 0);

    /* One CPU: populate is not used even when set. */
    start(2);
    c = config(WL_VM_BOOT, 2, PZ_NONE, 0);
    memset(&Pop, 0, sizeof Pop);
    assert_int_equal(pz_run(&P, &L, &c, &ops, &t, &why), 0);
    assert_int_equal(Pop.calls, 0);
    assert_int_equal(t.faults, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vm_boot_idle_lead), cmocka_unit_test(test_idle_clear_time_apart),
        cmocka_unit_test(test_idle_loop_edges),   cmocka_unit_test(test_restart_idle),
        cmocka_unit_test(test_parallel_populate),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
