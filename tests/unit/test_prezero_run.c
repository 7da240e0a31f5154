/*
 * tests/unit/test_prezero_run.c - kernel/prezero_core's event loop under
 * every policy, against a simulated demand region: a real mm/pool over
 * 64 KiB frames in one buffer and a clock that advances one tick (1 ns) per
 * byte cleared and a fixed cost per fault, so every time and count below is
 * exact. Also the idle loop's edges, bad configurations, and each rule of
 * pz_check_accounting() firing on a pool that breaks it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/prezero.h"

#define FB (64u * 1024) /* frame bytes */
#define MAXF 4
#define FC 100u   /* ticks a fault costs besides clearing */
#define EXCL 7u   /* ticks of each fault reported as verification (excluded) */
#define CHUNK (16u * 1024)

static uint8_t mem[MAXF * FB] __attribute__((aligned(4096)));
static struct pool_frame frames[MAXF];
static struct pool P;
static struct spinlock L;

static struct sim {
    uint64_t t;             /* the clock: ticks = ns (hz 1e9) */
    uint32_t map[MAXF];     /* page -> pool index */
    bool mapped[MAXF];
    unsigned not_zero;      /* frames handed to a fault that were not all zero */
    unsigned waits;
} S;

static void sim_clear(void *dst, size_t bytes)
{
    memset(dst, 0, bytes);
    S.t += bytes;
}

static uint64_t sim_now(void *ctx) { return ((struct sim *)ctx)->t; }

static void sim_wait_until(void *ctx, uint64_t d)
{
    struct sim *s = ctx;
    s->waits++;
    if (s->t < d)
        s->t = d;
}

/* What mm/demand.c does on a #PF, plus the check and a tenant's write. */
static uint64_t sim_fault(void *ctx, uint32_t page)
{
    struct sim *s = ctx;
    uint32_t idx;
    bool pre;
    assert_true(page < MAXF && !s->mapped[page]);
    s->t += FC;
    assert_int_equal(pool_take(&P, &idx, &pre), POOL_OK);
    if (!pre) {
        assert_int_equal(pool_zero_step(&P, idx, FB, 0), POOL_OK);
        assert_int_equal(pool_zero_end(&P, idx), POOL_OK);
    }
    uint8_t *f = (uint8_t *)(uintptr_t)pool_phys(&P, idx);
    for (unsigned i = 0; i < FB; i++)
        if (f[i]) {
            s->not_zero++;
            break;
        }
    f[0] = f[FB - 1] = 0xee; /* the tenant dirties it again */
    s->map[page] = idx;
    s->mapped[page] = true;
    s->t += EXCL;
    return EXCL;
}

static int sim_release(void *ctx, uint32_t page, bool zero)
{
    struct sim *s = ctx;
    if (page >= MAXF || !s->mapped[page])
        return -1;
    s->mapped[page] = false;
    uint32_t idx = s->map[page];
    assert_int_equal(pool_free(&P, idx, zero), POOL_OK);
    if (zero) {
        assert_int_equal(pool_zero_step(&P, idx, FB, 0), POOL_OK);
        assert_int_equal(pool_zero_end(&P, idx), POOL_OK);
    }
    return 0;
}

static const struct pz_ops OPS = {&S, 1000000000, sim_now, sim_wait_until, sim_fault, sim_release, 0};

/* A pool of n dirty frames (0xA5), clock at 0. */
static void start(uint32_t n)
{
    memset(mem, 0xa5, sizeof mem);
    memset(&S, 0, sizeof S);
    L = (struct spinlock){0};
    assert_int_equal(pool_init(&P, frames, n, FB, sim_clear), POOL_OK);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(pool_add(&P, (uintptr_t)mem + (uint64_t)i * FB, 0), POOL_OK);
}

static struct pz_config config(enum wl_kind k, uint32_t pages, enum pz_policy pol, uint32_t batch)
{
    struct pz_config c = {.policy = {pol, batch}, .chunk_bytes = CHUNK};
    workload_defaults(&c.wl, k, pages);
    return c;
}

/* Run c, then the checks every run must pass. */
static struct pz_tally run(const struct pz_config *c, uint32_t n_frames)
{
    struct pz_tally t;
    const char *why = "unset";
    assert_int_equal(pz_run(&P, &L, c, &OPS, &t, &why), 0);
    assert_string_equal(why, "");
    assert_int_equal(S.not_zero, 0);
    assert_int_equal(pz_check_accounting(&P, &c->policy, n_frames, &why), 0);
    assert_string_equal(why, "");
    assert_int_equal(pool_check(&P, 0, 0), POOL_OK);
    assert_int_equal(t.release_errors, 0);
    assert_int_equal(t.excluded, t.faults * EXCL);
    return t;
}

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
    assert_int_equal(t.idle_overrun_max, 11 * CHUNK - 170000);
    assert_int_equal(t.lead_idle_ns, 170000);
    assert_int_equal(t.idle_ns, 170000);
    assert_int_equal(P.c.taken_prezeroed, 2);
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], 11 * CHUNK);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], (FB - 3 * CHUNK) + FB);
    assert_int_equal(P.c.zero_paused, 9); /* 3 per frame touched by idle */
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
        cmocka_unit_test(test_vm_boot_none),      cmocka_unit_test(test_vm_boot_boot),
        cmocka_unit_test(test_vm_boot_idle_lead), cmocka_unit_test(test_idle_loop_edges),
        cmocka_unit_test(test_restart_on_free),   cmocka_unit_test(test_restart_none),
        cmocka_unit_test(test_churn_on_free_waste), cmocka_unit_test(test_restart_idle),
        cmocka_unit_test(test_vm_boot_batch),     cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_accounting_rules),  cmocka_unit_test(test_parallel_populate),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
