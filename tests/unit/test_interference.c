/*
 * tests/unit/test_interference.c - scenarios/interference/work: the chase is
 * one cycle through every line of the set, across extents (Sattolo's
 * algorithm), bad input builds nothing; the reads sum every word; the
 * zeroer clears and checks what it covered, wraps round its share, times
 * its calls, and a paced zeroer never clears more than its credit allows
 * (the bucket itself: tests/unit/test_interference_pace.c).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "arch/cpu.h"
#include "scenarios/interference/interference.h"

#define LINES 4096

static uint8_t *two_extents(struct split_extent ext[2], size_t lines_a, size_t lines_b)
{
    uint8_t *buf = aligned_alloc(4096, (lines_a + lines_b + 64) * INTERF_LINE);
    assert_non_null(buf);
    /* a gap between the extents: the chase must never step into it */
    memset(buf, 0xee, (lines_a + lines_b + 64) * INTERF_LINE);
    ext[0] = (struct split_extent){(uint64_t)(uintptr_t)buf, lines_a * INTERF_LINE, -1};
    ext[1] = (struct split_extent){(uint64_t)(uintptr_t)(buf + (lines_a + 64) * INTERF_LINE),
                                   lines_b * INTERF_LINE, -1};
    return buf;
}

static bool inside(const struct split_extent ext[2], uint64_t p)
{
    for (int i = 0; i < 2; i++)
        if (p >= ext[i].base && p < ext[i].base + ext[i].bytes && (p - ext[i].base) % 64 == 0)
            return true;
    return false;
}

static void test_chase_one_cycle(void **state)
{
    struct split_extent ext[2];
    uint8_t *buf = two_extents(ext, 1000, LINES - 1000);
    static uint8_t seen[LINES];
    memset(seen, 0, sizeof(seen));
    uint64_t start = interf_chase_build(ext, 2, LINES * INTERF_LINE, 42);
    assert_int_equal(start, ext[0].base);
    uint64_t p = start;
    for (unsigned k = 0; k < LINES; k++) {
        assert_true(inside(ext, p));
        uint64_t idx = p < ext[1].base ? (p - ext[0].base) / 64 : 1000 + (p - ext[1].base) / 64;
        assert_int_equal(seen[idx], 0); /* no line twice before the cycle closes */
        seen[idx] = 1;
        p = interf_chase(p, 1);
    }
    assert_int_equal(p, start); /* back after exactly LINES loads */
    assert_int_equal(interf_chase(start, LINES * 3), start);
    /* the gap is untouched */
    for (unsigned i = 0; i < 64 * INTERF_LINE; i++)
        assert_int_equal(buf[1000 * INTERF_LINE + i], 0xee);
    /* another seed, another cycle (a fixed pair of seeds: deterministic) */
    uint64_t succ42 = interf_chase(start, 1);
    interf_chase_build(ext, 2, LINES * INTERF_LINE, 43);
    assert_int_not_equal(interf_chase(start, 1), succ42);
    free(buf);
}

static void test_chase_bad_input(void **state)
{
    struct split_extent ext[2];
    uint8_t *buf = two_extents(ext, 8, 8);
    uint8_t copy[16 * INTERF_LINE];
    memcpy(copy, buf, sizeof(copy));
    assert_int_equal(interf_chase_build(ext, 2, 17 * INTERF_LINE, 1), 0); /* past the end */
    assert_int_equal(interf_chase_build(ext, 2, 100, 1), 0);              /* not whole lines */
    assert_int_equal(interf_chase_build(ext, 2, INTERF_LINE, 1), 0);      /* one line */
    assert_int_equal(interf_chase_build(NULL, 0, 2 * INTERF_LINE, 1), 0);
    assert_memory_equal(buf, copy, sizeof(copy));
    free(buf);
}

static void test_read_sums(void **state)
{
    struct split_extent ext[2];
    uint8_t *buf = two_extents(ext, 2, 2);
    uint64_t *a = (uint64_t *)(uintptr_t)ext[0].base, *b = (uint64_t *)(uintptr_t)ext[1].base;
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = (uint64_t)i + 1;
    assert_int_equal(interf_read(ext, 2, 4 * INTERF_LINE, 1), 2 * 136);
    assert_int_equal(interf_read(ext, 2, 4 * INTERF_LINE, 3), 6 * 136);
    assert_int_equal(interf_read(ext, 2, 2 * INTERF_LINE, 1), 136); /* first extent only */
    free(buf);
}

static volatile uint32_t stop;

static void *zeroer_thread(void *arg)
{
    interf_zeroer_run(arg);
    return NULL;
}

static void run_for_ms(struct interf_zeroer *z, unsigned ms)
{
    pthread_t t;
    stop = 0;
    z->stop = &stop;
    assert_int_equal(pthread_create(&t, NULL, zeroer_thread, z), 0);
    nanosleep(&(struct timespec){0, (long)ms * 1000000L}, NULL);
    stop = 1;
    assert_int_equal(pthread_join(t, NULL), 0);
}

static void test_zeroer(void **state)
{
    const size_t share = 1 << 20;
    uint8_t *buf = aligned_alloc(4096, share + 8192);
    assert_non_null(buf);
    struct split_extent ext[2] = {{(uint64_t)(uintptr_t)buf, share / 2, -1},
                                  {(uint64_t)(uintptr_t)(buf + share / 2 + 8192), share / 2, -1}};
    memset(buf + share / 2, 0x5a, 8192); /* the gap */
    struct interf_zeroer z = {.s = clear_find("rep_stosb"),
                              .ext = ext,
                              .next = 2,
                              .off = 0,
                              .bytes = share,
                              .chunk = 4096,
                              .seed = 3};
    interf_zeroer_dirty(&z);
    assert_int_not_equal(buf[0], 0);
    run_for_ms(&z, 50);
    assert_true(z.zero);
    assert_true(z.cleared >= share); /* 1 MiB in 50 ms: it wrapped */
    for (size_t i = 0; i < 8192; i++)
        assert_int_equal(buf[share / 2 + i], 0x5a);
    for (size_t i = 0; i < share / 2; i++)
        assert_int_equal(buf[i] | buf[share / 2 + 8192 + i], 0);

    assert_true(z.busy > 0 && z.busy <= z.cyc);

    /* paced by the bucket: 4 KiB per ms of a 3 GHz TSC (no calibration on
     * the host), bursts of 2 pieces: never more than the credit earned */
    interf_zeroer_dirty(&z);
    z.rate_bps = 4096000;
    z.hz = 3000000000ull;
    z.piece = 4096;
    z.burst = 8192;
    run_for_ms(&z, 30);
    assert_true(z.zero);
    assert_true(z.cleared > 0);
    assert_true(z.cleared <= z.burst + z.piece + z.cyc / 3000000 * 4096);
    assert_int_equal(z.cleared % 4096, 0);
    assert_true(z.cleared < share); /* nowhere near a pass: the rest stays dirty */
    assert_int_not_equal(buf[share / 2 + 8192 + share / 2 - 1], 0);

    /* re-dirtying only what the last run cleared: the first dirty_bytes */
    memset(buf, 0, share / 2);
    z.dirty_bytes = 8192;
    interf_zeroer_dirty(&z);
    for (size_t i = 0; i < 8192; i++)
        assert_int_not_equal(buf[i], 0);
    assert_int_equal(buf[8192], 0);
    free(buf);
}

int main(void)
{
    cpu_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chase_one_cycle),
        cmocka_unit_test(test_chase_bad_input),
        cmocka_unit_test(test_read_sums),
        cmocka_unit_test(test_zeroer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
