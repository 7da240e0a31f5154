/*
 * tests/unit/prezero_sim.h - the simulated demand region shared by
 * test_prezero_run.c and test_prezero_idle.c: a real mm/pool over 64 KiB
 * frames in one static buffer and a clock that advances one tick (1 ns at
 * hz 1e9) per byte cleared and a fixed cost per fault, so every time and
 * count the tests assert is exact. Test-only; included once per program, so
 * its definitions are static.
 */
#ifndef HZ_TESTS_PREZERO_SIM_H
#define HZ_TESTS_PREZERO_SIM_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/prezero.h"

#define FB (64u * 1024) /* frame bytes */
#define MAXF 4
#define FC 100u /* ticks a fault costs besides clearing */
#define EXCL 7u /* ticks of each fault reported as verification (excluded) */
#define CHUNK (16u * 1024)

static uint8_t mem[MAXF * FB] __attribute__((aligned(4096)));
static struct pool_frame frames[MAXF];
static struct pool P;
static struct spinlock L;

static struct sim {
    uint64_t t;         /* the clock: ticks = ns (hz 1e9) */
    uint32_t map[MAXF]; /* page -> pool index */
    bool mapped[MAXF];
    unsigned not_zero; /* frames handed to a fault that were not all zero */
    unsigned waits;
    uint64_t clear;      /* ticks spent inside sim_clear's clearing: clear_ticks */
    uint64_t clear_cost; /* ticks each sim_clear call costs besides its bytes
                          * (the lock, pool and ring switches of the kernel) */
} S;

static void sim_clear(void *ctx, void *dst, size_t bytes, uint64_t hint)
{
    struct sim *s = ctx;
    assert_int_equal(hint, 0); /* no fault in the model passes one */
    memset(dst, 0, bytes);
    s->t += bytes + s->clear_cost;
    s->clear += bytes;
}

static uint64_t sim_now(void *ctx) { return ((struct sim *)ctx)->t; }

static uint64_t sim_clear_ticks(void *ctx) { return ((struct sim *)ctx)->clear; }

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
        assert_int_equal(pool_zero_step(&P, idx, FB, 0, 0), POOL_OK);
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
        assert_int_equal(pool_zero_step(&P, idx, FB, 0, 0), POOL_OK);
        assert_int_equal(pool_zero_end(&P, idx), POOL_OK);
    }
    return 0;
}

static const struct pz_ops OPS = {.ctx = &S,
                                  .hz = 1000000000,
                                  .now = sim_now,
                                  .wait_until = sim_wait_until,
                                  .fault = sim_fault,
                                  .release = sim_release,
                                  .clear_ticks = sim_clear_ticks};

/* A pool of n dirty frames (0xA5), clock at 0. */
static void start(uint32_t n)
{
    memset(mem, 0xa5, sizeof mem);
    memset(&S, 0, sizeof S);
    L = (struct spinlock){0};
    assert_int_equal(pool_init(&P, frames, n, FB, sim_clear, &S), POOL_OK);
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

#endif /* HZ_TESTS_PREZERO_SIM_H */
