/*
 * tests/unit/pool_build.h - shared fixture for tests/unit/test_pool.c and
 * tests/unit/test_pool_policy.c: NF frames of FB bytes, slices of one
 * buffer filled with 0xA5 ("dirty"), a clear function that records every
 * call, a pool holding frames 0-3 after setup(), and the helpers that serve
 * faults, check the pool's balance and snapshot it.
 */
#ifndef HZ_TESTS_POOL_BUILD_H
#define HZ_TESTS_POOL_BUILD_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mm/pool.h"

#define FB (64u * 1024)
#define NF 6

static uint8_t mem[NF * FB] __attribute__((aligned(64)));
static struct pool_frame frames[NF];
static struct pool P;

/* Every call to the clear function, as (frame offset in mem, bytes, hint). */
static struct {
    uint64_t off, bytes, hint;
} calls[256];
static size_t ncalls;

static int clear_ctx; /* its address is the pool's clear context */

static inline void test_clear(void *ctx, void *dst, size_t bytes, uint64_t hint)
{
    assert_ptr_equal(ctx, &clear_ctx);
    uint8_t *d = dst;
    assert_true(d >= mem && d + bytes <= mem + sizeof mem);
    if (ncalls < 256)
        calls[ncalls] = (typeof(calls[0])){(uint64_t)(d - mem), bytes, hint};
    ncalls++;
    memset(d, 0, bytes);
}

static inline int setup(void **state)
{
    memset(mem, 0xa5, sizeof mem);
    memset(frames, 0x5a, sizeof frames);
    ncalls = 0;
    assert_int_equal(pool_init(&P, frames, NF, FB, test_clear, &clear_ctx), POOL_OK);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t idx = 99;
        assert_int_equal(pool_add(&P, (uintptr_t)mem + (uint64_t)i * FB, &idx), POOL_OK);
        assert_int_equal(idx, i);
    }
    return 0;
}

/* Bytes [a, b) of frame i all equal v. */
static inline bool frame_bytes_are(uint32_t i, uint64_t a, uint64_t b, uint8_t v)
{
    for (uint64_t k = a; k < b; k++)
        if (mem[i * FB + k] != v)
            return false;
    return true;
}

static inline void assert_balanced(void)
{
    const char *why = NULL;
    uint32_t bad = 0;
    int rc = pool_check(&P, &why, &bad);
    if (rc)
        fail_msg("pool_check: %s (frame %u)", why, bad);
}

/* Serve one fault completely; returns the frame, *hit if it was pre-zeroed. */
static inline uint32_t fault_in(bool *hit)
{
    uint32_t i;
    bool pre;
    assert_int_equal(pool_take(&P, &i, &pre), POOL_OK);
    if (!pre)
        assert_int_equal(pool_zero_frame(&P, i, ZERO_FAULT), POOL_OK);
    assert_true(frame_bytes_are(i, 0, FB, 0));
    if (hit)
        *hit = pre;
    return i;
}

/* Serve `pages` faults; returns the pre-zeroed hits. */
static inline unsigned populate(unsigned pages)
{
    unsigned hits = 0;
    for (unsigned k = 0; k < pages; k++) {
        bool pre;
        fault_in(&pre);
        hits += pre;
    }
    return hits;
}

/* Snapshot of everything a refused call must leave alone. */
struct snap {
    struct pool p;
    struct pool_frame f[NF];
    size_t ncalls;
};
static inline void take_snap(struct snap *s)
{
    memcpy(&s->p, &P, sizeof P);
    memcpy(s->f, frames, sizeof frames);
    s->ncalls = ncalls;
}
static inline void assert_unchanged(const struct snap *s)
{
    assert_memory_equal(&s->p, &P, sizeof P);
    assert_memory_equal(s->f, frames, sizeof frames);
    assert_int_equal(s->ncalls, ncalls);
}

#endif /* HZ_TESTS_POOL_BUILD_H */
