/*
 * tests/unit/test_memop.c - measure/memop: the chunked clear's calls (sizes,
 * remainder, chunk 0), the exact and sampled zero checks and the offsets
 * they report, and memop_run's dirty / clear / verify steps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cpu.h"
#include "measure/memop.h"

static size_t sizes[16], ncalls;
static uint8_t *base;

static void counting_fn(void *dst, size_t bytes)
{
    if (ncalls < 16)
        sizes[ncalls] = bytes;
    assert_int_equal((uint8_t *)dst - base, ncalls ? ncalls * 4096 : 0);
    ncalls++;
    memset(dst, 0, bytes);
}

static const struct clear_strategy counting = {.name = "counting", .fn = counting_fn};

static void test_chunked_calls(void **state)
{
    uint8_t buf[10000];
    base = buf;
    memset(buf, 0xff, sizeof(buf));
    ncalls = 0;
    memop_clear(&counting, buf, sizeof(buf), 4096);
    assert_int_equal(ncalls, 3);
    assert_int_equal(sizes[0], 4096);
    assert_int_equal(sizes[1], 4096);
    assert_int_equal(sizes[2], 10000 - 8192);
    assert_true(memop_verify_zero(buf, sizeof(buf), MEMOP_EXACT, NULL));

    ncalls = 0;
    memop_clear(&counting, buf, sizeof(buf), 0); /* one call */
    assert_int_equal(ncalls, 1);
    assert_int_equal(sizes[0], 10000);
    ncalls = 0;
    memop_clear(&counting, buf, 0, 4096); /* nothing */
    assert_int_equal(ncalls, 0);
}

static void test_verify_exact(void **state)
{
    static uint8_t buf[8192] __attribute__((aligned(64)));
    uint64_t first = 99;
    memset(buf, 0, sizeof(buf));
    assert_true(memop_verify_zero(buf, sizeof(buf), MEMOP_EXACT, &first));
    assert_int_equal(first, 99); /* untouched on success */
    buf[777] = 1;
    buf[5000] = 1;
    assert_false(memop_verify_zero(buf, sizeof(buf), MEMOP_EXACT, &first));
    assert_int_equal(first, 777);
    assert_true(memop_verify_zero(buf + 1, 776, MEMOP_EXACT, NULL)); /* any alignment */
    /* Under 16 KiB a sampled check is exact: it finds a byte mid-buffer. */
    buf[777] = 0;
    assert_false(memop_verify_zero(buf, sizeof(buf), MEMOP_SAMPLED, &first));
    assert_int_equal(first, 5000);
    assert_true(memop_verify_zero(buf, 0, MEMOP_EXACT, NULL));
}

static void test_verify_sampled(void **state)
{
    const size_t n = 1 << 20;
    uint8_t *buf = aligned_alloc(4096, n);
    uint64_t first = 0;
    assert_non_null(buf);
    memset(buf, 0, n);
    assert_true(memop_verify_zero(buf, n, MEMOP_SAMPLED, &first));
    buf[4095] = 3; /* last byte of the first 4 KiB */
    assert_false(memop_verify_zero(buf, n, MEMOP_SAMPLED, &first));
    assert_int_equal(first, 4095);
    buf[4095] = 0;
    buf[n - 4096] = 3; /* first byte of the last 4 KiB */
    assert_false(memop_verify_zero(buf, n, MEMOP_SAMPLED, &first));
    assert_int_equal(first, n - 4096);
    memset(buf + 8192, 0x11, n - 16384); /* every sampled line in between */
    buf[n - 4096] = 0;
    assert_false(memop_verify_zero(buf, n, MEMOP_SAMPLED, &first));
    assert_true(first >= 8192 && first < n - 8192);
    assert_false(memop_verify_zero(buf, n, MEMOP_EXACT, &first));
    assert_int_equal(first, 8192);
    free(buf);
}

static void test_run_steps(void **state)
{
    const size_t n = 1 << 16;
    uint8_t *buf = aligned_alloc(4096, n);
    assert_non_null(buf);
    struct memop m = {.p = buf, .bytes = n, .seed = 7, .check = MEMOP_EXACT};
    m.s = clear_find("mov_loop"); /* plain C: runs on any CPU */
    assert_non_null(m.s);
    m.chunk = 4096;
    m.op = MEMOP_DIRTY;
    memop_run(&m);
    for (size_t i = 0; i < n; i++)
        assert_int_not_equal(buf[i], 0); /* clear_dirty writes no zero byte */
    m.op = MEMOP_VERIFY;
    memop_run(&m);
    assert_false(m.zero);
    assert_int_equal(m.first, 0);
    m.op = MEMOP_CLEAR;
    memop_run(&m);
    assert_true(m.cycles > 0);
    assert_true(m.clear_cycles <= m.cycles);
    m.op = MEMOP_VERIFY;
    memop_run(&m);
    assert_true(m.zero);

    /* The A/B control's delay: a spin of delay_pct % of the clear's own
     * cycles, inside the timed interval, and the clear still clears. */
    m.op = MEMOP_DIRTY;
    memop_run(&m);
    m.op = MEMOP_CLEAR;
    m.delay_pct = 50;
    memop_run(&m);
    assert_true(m.clear_cycles > 0);
    assert_true(m.cycles >= m.clear_cycles + m.clear_cycles * 50 / 100);
    m.op = MEMOP_VERIFY;
    memop_run(&m);
    assert_true(m.zero);

    /* run=clear's check fused with the next dirtying: a cleared target
     * reads zero and is left dirty (plain stores, as MEMOP_DIRTY_CACHED);
     * a byte the clear missed is found at its offset. */
    m.op = MEMOP_VERIFY_DIRTY;
    m.seed = 9;
    memop_run(&m);
    assert_true(m.zero);
    size_t at;
    assert_true(clear_dirty_check(buf, n, 9, &at));
    m.op = MEMOP_CLEAR;
    m.delay_pct = 0;
    memop_run(&m);
    buf[n - 5] = 3;
    m.op = MEMOP_VERIFY_DIRTY;
    memop_run(&m);
    assert_false(m.zero);
    assert_int_equal(m.first, n - 5);
    m.op = MEMOP_DIRTY_CACHED;
    m.seed = 4;
    memop_run(&m);
    assert_true(clear_dirty_check(buf, n, 4, &at));
    assert_string_equal(memop_check_name(MEMOP_EXACT), "full");
    assert_string_equal(memop_check_name(MEMOP_SAMPLED), "sampled");
    free(buf);
}

int main(void)
{
    cpu_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunked_calls),
        cmocka_unit_test(test_verify_exact),
        cmocka_unit_test(test_verify_sampled),
        cmocka_unit_test(test_run_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
