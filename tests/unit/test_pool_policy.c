/*
 * tests/unit/test_pool_policy.c - mm/pool: exact accounting after scripted
 * pre-zeroing policy runs (boot, none, batch, idle chunks resumed mid-frame,
 * paused and repeated zeroing counted as waste). The fixture is
 * tests/unit/pool_build.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mm/pool.h"
#include "tests/unit/pool_build.h"

static void test_policy_boot_gives_all_hits(void **state)
{
    uint32_t z = 0;
    assert_int_equal(pool_zero_some(&P, UINT32_MAX, ZERO_BOOT, &z), POOL_OK);
    assert_int_equal(z, 4);
    assert_int_equal(P.count[FRAME_ZEROED], 4);
    assert_int_equal(populate(4), 4);
    assert_int_equal(P.c.bytes_zeroed[ZERO_BOOT], 4 * FB);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 0);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.zeroed_unused, 0);
    assert_int_equal(s.bytes_fault, 0);
    assert_int_equal(s.bytes_background, 4 * FB);
    assert_balanced();
}

static void test_policy_none_gives_no_hits(void **state)
{
    assert_int_equal(populate(4), 0);
    assert_int_equal(P.c.taken, 4);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 4 * FB);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.bytes_background, 0);
    assert_int_equal(s.zeroed_unused, 0);
    assert_balanced();
}

static void test_policy_batch_zeroes_n(void **state)
{
    uint32_t z = 0;
    assert_int_equal(pool_zero_some(&P, 3, ZERO_BATCH, &z), POOL_OK);
    assert_int_equal(z, 3);
    assert_int_equal(populate(2), 2);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.zeroed_unused, 1); /* zeroed, never used */
    assert_int_equal(P.c.bytes_zeroed[ZERO_BATCH], 3 * FB);
    assert_int_equal(pool_zero_some(&P, 9, ZERO_BATCH, &z), POOL_OK);
    assert_int_equal(z, 1); /* only one DIRTY frame was left */
    assert_balanced();
}

static void test_idle_chunks_resume_mid_frame(void **state)
{
    uint64_t c = 0;
    assert_int_equal(pool_idle_chunk(&P, 16 * 1024, &c), POOL_OK);
    assert_int_equal(c, 16 * 1024);
    assert_int_equal(pool_state(&P, 0), FRAME_DIRTY);
    assert_int_equal(pool_progress(&P, 0), 16 * 1024);
    assert_true(frame_bytes_are(0, 0, 16 * 1024, 0));
    assert_true(frame_bytes_are(0, 16 * 1024, FB, 0xa5));
    uint32_t pick;
    assert_int_equal(pool_pick_background(&P, &pick), POOL_OK);
    assert_int_equal(pick, 0); /* the partial frame resumes first */
    assert_int_equal(pool_idle_chunk(&P, 16 * 1024, &c), POOL_OK);
    assert_int_equal(calls[1].off, 16 * 1024); /* resumed where it stopped */
    assert_int_equal(calls[1].bytes, 16 * 1024);
    assert_true(frame_bytes_are(0, 0, 32 * 1024, 0));
    assert_true(frame_bytes_are(0, 32 * 1024, FB, 0xa5));
    assert_int_equal(P.c.zero_started, 1);
    assert_int_equal(P.c.zero_resumed, 1);
    assert_int_equal(P.c.zero_paused, 2);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.partial_bytes, 32 * 1024);
    assert_balanced();
    /* A fault arrives: it takes the half-done frame and clears the rest. */
    uint32_t i;
    bool pre = true;
    assert_int_equal(pool_take(&P, &i, &pre), POOL_OK);
    assert_int_equal(i, 0);
    assert_false(pre);
    assert_int_equal(pool_zero_frame(&P, i, ZERO_FAULT), POOL_OK);
    assert_int_equal(calls[2].off, 32 * 1024);
    assert_int_equal(calls[2].bytes, 32 * 1024);
    assert_true(frame_bytes_are(0, 0, FB, 0));
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], 32 * 1024);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], 32 * 1024);
    /* Idle with a chunk larger than a frame finishes frame 1 only. */
    assert_int_equal(pool_idle_chunk(&P, 3 * FB, &c), POOL_OK);
    assert_int_equal(c, FB);
    assert_int_equal(pool_state(&P, 1), FRAME_ZEROED);
    assert_int_equal(pool_state(&P, 2), FRAME_DIRTY);
    assert_true(frame_bytes_are(2, 0, FB, 0xa5));
    assert_balanced();
}

static void test_pause_of_complete_frame_finishes_it(void **state)
{
    assert_int_equal(pool_zero_begin(&P, 3, ZERO_IDLE), POOL_OK);
    assert_int_equal(pool_zero_step(&P, 3, FB, 0, NULL), POOL_OK);
    assert_int_equal(pool_zero_pause(&P, 3), POOL_OK);
    assert_int_equal(pool_state(&P, 3), FRAME_ZEROED);
    assert_int_equal(pool_progress(&P, 3), 0);
    assert_int_equal(P.c.zero_completed, 1);
    assert_int_equal(P.c.zero_paused, 0);
    assert_balanced();
}

static void test_wasted_work_is_counted(void **state)
{
    assert_int_equal(pool_zero_frame(&P, 1, ZERO_BOOT), POOL_OK);
    assert_int_equal(pool_zero_frame(&P, 1, ZERO_BATCH), POOL_OK); /* again */
    assert_int_equal(P.c.zeroed_twice, 1);
    assert_int_equal(P.c.bytes_wasted, FB);
    /* A re-zero stopped half way returns to ZEROED; its bytes are waste. */
    assert_int_equal(pool_zero_begin(&P, 1, ZERO_IDLE), POOL_OK);
    assert_int_equal(pool_zero_step(&P, 1, FB / 2, 0, NULL), POOL_OK);
    assert_int_equal(pool_zero_pause(&P, 1), POOL_OK);
    assert_int_equal(pool_state(&P, 1), FRAME_ZEROED);
    assert_int_equal(pool_progress(&P, 1), 0);
    assert_int_equal(P.c.zeroed_twice, 1);
    assert_int_equal(P.c.bytes_wasted, FB + FB / 2);
    assert_int_equal(P.c.bytes_zeroed[ZERO_IDLE], FB / 2);
    struct pool_summary s;
    pool_summarise(&P, &s);
    assert_int_equal(s.zeroed_unused, 1);
    assert_int_equal(s.bytes_background, 2 * FB + FB / 2);
    assert_balanced();
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_policy_boot_gives_all_hits),
        T(test_policy_none_gives_no_hits),
        T(test_policy_batch_zeroes_n),
        T(test_idle_chunks_resume_mid_frame),
        T(test_pause_of_complete_frame_finishes_it),
        T(test_wasted_work_is_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
