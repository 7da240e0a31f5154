/*
 * tests/unit/test_pool.c - mm/pool: every transition, illegal transitions
 * refused with the pool unchanged, pool_check catching corruption, random
 * call sequences, and the frame bytes really zero when the pool says
 * ZEROED. Policy runs and their accounting are in
 * tests/unit/test_pool_policy.c; the fixture is tests/unit/pool_build.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mm/pool.h"
#include "tests/unit/pool_build.h"

static void test_init_rejects_bad_arguments(void **state)
{
    struct pool p;
    assert_int_equal(pool_init(NULL, frames, NF, FB, test_clear, &clear_ctx), POOL_EINVAL);
    assert_int_equal(pool_init(&p, NULL, NF, FB, test_clear, &clear_ctx), POOL_EINVAL);
    assert_int_equal(pool_init(&p, frames, NF, 0, test_clear, &clear_ctx), POOL_EINVAL);
    assert_int_equal(pool_init(&p, frames, NF, 100, test_clear, &clear_ctx), POOL_EINVAL);
    assert_int_equal(pool_init(&p, frames, NF, FB, NULL, &clear_ctx), POOL_EINVAL);
    assert_int_equal(pool_init(&p, frames, POOL_NONE, FB, test_clear, &clear_ctx), POOL_EINVAL);
    assert_int_equal(pool_add(&p, 0, NULL), POOL_EINVAL); /* left unusable */
    assert_int_equal(pool_init(&p, frames, 0, 1ull << 30, test_clear, &clear_ctx), POOL_OK);
    assert_int_equal(pool_add(&p, 0, NULL), POOL_EFULL);
}

static void test_add_fills_dirty_list(void **state)
{
    assert_int_equal(P.n, 4);
    assert_int_equal(P.count[FRAME_DIRTY], 4);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(pool_state(&P, i), FRAME_DIRTY);
        assert_int_equal(pool_phys(&P, i), (uintptr_t)mem + (uint64_t)i * FB);
        assert_int_equal(pool_progress(&P, i), 0);
    }
    assert_int_equal(pool_state(&P, 4), FRAME_NSTATES);
    assert_int_equal(pool_phys(&P, 4), 0);
    assert_int_equal(pool_add(&P, UINT64_MAX - FB + 2, NULL), POOL_EINVAL); /* wraps */
    assert_int_equal(pool_add(&P, 0x1000, NULL), POOL_OK);
    assert_int_equal(pool_add(&P, 0x2000, NULL), POOL_OK);
    assert_int_equal(pool_add(&P, 0x3000, NULL), POOL_EFULL);
    assert_int_equal(P.n, NF);
    assert_balanced();
}

static void test_background_busy(void **state)
{
    uint32_t i;
    bool pre;
    assert_false(pool_background_busy(&P));
    assert_int_equal(pool_take(&P, &i, &pre), POOL_OK); /* ZEROING[fault]: not background */
    assert_false(pool_background_busy(&P));
    assert_int_equal(pool_zero_begin(&P, 2, ZERO_IDLE), POOL_OK);
    assert_true(pool_background_busy(&P));
    assert_int_equal(pool_zero_pause(&P, 2), POOL_OK);
    assert_false(pool_background_busy(&P));
    assert_int_equal(pool_zero_step(&P, i, FB, 0, NULL), POOL_OK);
    assert_int_equal(pool_zero_end(&P, i), POOL_OK);
    assert_int_equal(pool_free(&P, i, true), POOL_OK); /* ZEROING[on_free] counts */
    assert_true(pool_background_busy(&P));
    assert_balanced();
}

static void test_take_dirty_is_zeroed_in_fault_path(void **state)
{
    uint32_t i = 99;
    bool pre = true;
    assert_int_equal(pool_take(&P, &i, &pre), POOL_OK);
    assert_int_equal(i, 0);
    assert_false(pre);
    assert_int_equal(pool_state(&P, 0), FRAME_ZEROING);
    assert_balanced(); /* a fault's ZEROING frame counts as handed out */
    assert_int_equal(pool_zero_end(&P, 0), POOL_EPARTIAL);
    uint64_t done = 0;
    assert_int_equal(pool_zero_step(&P, 0, UINT64_MAX, 0x400000001234ull, &done), POOL_OK);
    assert_int_equal(done, FB);
    assert_int_equal(ncalls, 1);
    assert_int_equal(calls[0].hint, 0x400000001234ull); /* the fault's address, as given */
    assert_int_equal(pool_zero_end(&P, 0), POOL_OK);
    assert_int_equal(pool_state(&P, 0), FRAME_IN_USE);
    assert_true(frame_bytes_are(0, 0, FB, 0));
    assert_true(frame_bytes_are(1, 0, FB, 0xa5)); /* the neighbour is untouched */
    assert_int_equal(P.c.taken, 1);
    assert_int_equal(P.c.taken_prezeroed, 0);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], FB);
    assert_int_equal(P.c.zero_started, 1);
    assert_int_equal(P.c.zero_completed, 1);
    assert_balanced();
}

static void test_take_prefers_zeroed(void **state)
{
    assert_int_equal(pool_zero_frame(&P, 2, ZERO_BOOT), POOL_OK);
    assert_int_equal(pool_state(&P, 2), FRAME_ZEROED);
    assert_true(frame_bytes_are(2, 0, FB, 0));
    uint32_t i;
    bool pre = false;
    assert_int_equal(pool_take(&P, &i, &pre), POOL_OK);
    assert_int_equal(i, 2);
    assert_true(pre);
    assert_int_equal(pool_state(&P, 2), FRAME_IN_USE);
    assert_int_equal(ncalls, 1);        /* no clearing on a pre-zeroed hit */
    assert_int_equal(calls[0].hint, 0); /* boot zeroing: no fault, no hint */
    assert_int_equal(P.c.taken_prezeroed, 1);
    assert_balanced();
}

static void test_take_from_empty_pool_changes_nothing(void **state)
{
    uint32_t i;
    bool pre;
    assert_int_equal(populate(4), 0);
    struct snap s;
    take_snap(&s);
    assert_int_equal(pool_take(&P, &i, &pre), POOL_EEMPTY);
    assert_int_equal(pool_take(&P, NULL, &pre), POOL_EINVAL);
    assert_int_equal(pool_take(&P, &i, NULL), POOL_EINVAL);
    assert_int_equal(pool_pick_background(&P, &i), POOL_EEMPTY);
    assert_int_equal(pool_idle_chunk(&P, FB, NULL), POOL_EEMPTY);
    assert_unchanged(&s);
    assert_int_equal(P.count[FRAME_IN_USE], 4);
    assert_balanced();
}

static void test_free_and_double_free(void **state)
{
    uint32_t i = fault_in(NULL);
    assert_int_equal(pool_free(&P, i, false), POOL_OK);
    assert_int_equal(pool_state(&P, i), FRAME_DIRTY);
    assert_int_equal(P.c.frees, 1);
    struct snap s;
    take_snap(&s);
    assert_int_equal(pool_free(&P, i, false), POOL_ESTATE); /* double free */
    assert_int_equal(pool_free(&P, i, true), POOL_ESTATE);
    assert_int_equal(pool_free(&P, 1, false), POOL_ESTATE); /* never handed out */
    assert_int_equal(pool_free(&P, 4, false), POOL_EINVAL);
    assert_int_equal(pool_free(&P, POOL_NONE, false), POOL_EINVAL);
    assert_unchanged(&s);
    assert_int_equal(pool_zero_frame(&P, 1, ZERO_IDLE), POOL_OK);
    take_snap(&s);
    assert_int_equal(pool_free(&P, 1, false), POOL_ESTATE); /* ZEROED, free */
    assert_int_equal(pool_zero_begin(&P, 3, ZERO_IDLE), POOL_OK);
    take_snap(&s);
    assert_int_equal(pool_free(&P, 3, false), POOL_ESTATE); /* being zeroed */
    assert_unchanged(&s);
    assert_balanced();
}

static void test_illegal_zeroing_transitions(void **state)
{
    uint32_t i;
    bool pre;
    assert_int_equal(pool_take(&P, &i, &pre), POOL_OK); /* frame 0, ZEROING[fault] */
    struct snap s;
    take_snap(&s);
    assert_int_equal(pool_zero_pause(&P, 0), POOL_ESTATE); /* a fault cannot pause */
    assert_int_equal(pool_zero_begin(&P, 0, ZERO_IDLE), POOL_ESTATE);
    assert_int_equal(pool_zero_frame(&P, 0, ZERO_IDLE), POOL_ESTATE); /* wrong owner */
    assert_int_equal(pool_zero_begin(&P, 1, ZERO_FAULT), POOL_EINVAL);
    assert_int_equal(pool_zero_begin(&P, 1, ZERO_ON_FREE), POOL_EINVAL);
    assert_int_equal(pool_zero_begin(&P, 1, ZERO_NORIGINS), POOL_EINVAL);
    assert_int_equal(pool_zero_frame(&P, 1, ZERO_FAULT), POOL_EINVAL);
    assert_int_equal(pool_zero_step(&P, 1, FB, 0, NULL), POOL_ESTATE); /* DIRTY */
    assert_int_equal(pool_zero_end(&P, 1), POOL_ESTATE);
    assert_int_equal(pool_zero_pause(&P, 1), POOL_ESTATE);
    assert_int_equal(pool_zero_end(&P, 0), POOL_EPARTIAL);
    assert_int_equal(pool_zero_step(&P, 9, FB, 0, NULL), POOL_EINVAL);
    assert_int_equal(pool_zero_some(&P, 1, ZERO_FAULT, NULL), POOL_EINVAL);
    assert_int_equal(pool_idle_chunk(&P, 0, NULL), POOL_EINVAL);
    assert_unchanged(&s);
    assert_int_equal(pool_zero_frame(&P, 0, ZERO_FAULT), POOL_OK);
    take_snap(&s);
    assert_int_equal(pool_zero_begin(&P, 0, ZERO_BATCH), POOL_ESTATE); /* in use */
    assert_int_equal(pool_zero_step(&P, 0, FB, 0, NULL), POOL_ESTATE);
    assert_int_equal(pool_zero_frame(&P, 0, ZERO_BOOT), POOL_ESTATE);
    assert_unchanged(&s);
    assert_true(frame_bytes_are(0, 0, FB, 0));
    assert_balanced();
}

static void test_on_free_zeroes_when_freed(void **state)
{
    uint32_t i = fault_in(NULL), j;
    bool pre;
    memset(mem + i * FB, 0x77, FB); /* the workload wrote it */
    assert_int_equal(pool_free(&P, i, true), POOL_OK);
    assert_int_equal(pool_state(&P, i), FRAME_ZEROING);
    assert_balanced();
    assert_int_equal(pool_zero_frame(&P, i, ZERO_BOOT), POOL_ESTATE);
    assert_int_equal(pool_zero_frame(&P, i, ZERO_ON_FREE), POOL_OK);
    assert_int_equal(pool_state(&P, i), FRAME_ZEROED);
    assert_true(frame_bytes_are(i, 0, FB, 0));
    assert_int_equal(P.c.bytes_zeroed[ZERO_ON_FREE], FB);
    assert_int_equal(P.c.bytes_zeroed[ZERO_FAULT], FB);
    /* The next fault gets it pre-zeroed. */
    assert_int_equal(pool_take(&P, &j, &pre), POOL_OK);
    assert_int_equal(j, i);
    assert_true(pre);
    assert_balanced();
}

/* pool_check must fail with `rule` on frame `idx`. */
static void assert_broken(const char *rule, uint32_t idx)
{
    const char *why = NULL;
    uint32_t bad = 0;
    assert_int_equal(pool_check(&P, &why, &bad), POOL_ESTATE);
    assert_string_equal(why, rule);
    assert_int_equal(bad, idx);
}

static void test_check_catches_corruption(void **state)
{
    assert_int_equal(populate(1), 0);
    frames[2].state = FRAME_ZEROED; /* state without the list move */
    assert_broken("frame state differs from its list", 2);
    frames[2].state = FRAME_DIRTY;
    frames[0].uses = 2; /* handed out twice */
    assert_broken("frame handed out twice or freed unheld", 0);
    frames[0].uses = 1;
    P.count[FRAME_IN_USE] = 2;
    assert_broken("list length differs from count", POOL_NONE);
    P.count[FRAME_IN_USE] = 1;
    frames[3].next = 1; /* cycle 1 -> 2 -> 3 -> 1 */
    assert_broken("broken back link", 1);
    frames[3].next = POOL_NONE;
    P.c.frees = 1;
    assert_broken("per-frame uses/frees differ from totals", POOL_NONE);
    P.c.frees = 0;
    frames[1].zero_progress = FB;
    assert_broken("zeroing cursor out of place", 1);
    frames[1].zero_progress = 0;
    assert_balanced();
    assert_int_equal(pool_check(NULL, NULL, NULL), POOL_ESTATE);
}

/* Random legal and illegal calls: the balance holds throughout, refused
 * calls change nothing, and every ZEROED or IN_USE frame reads as zero
 * (the workload never writes in this test). */
static void test_random_sequences_stay_balanced(void **state)
{
    srand(12345);
    for (int step = 0; step < 20000; step++) {
        uint32_t i = (uint32_t)rand() % (NF + 1), out;
        bool pre;
        struct snap s;
        take_snap(&s);
        int rc;
        switch (rand() % 8) {
        case 0:
            rc = pool_take(&P, &out, &pre);
            break;
        case 1:
            rc = pool_free(&P, i, rand() & 1);
            break;
        case 2:
            rc = pool_zero_begin(&P, i, (enum zero_origin)(rand() % ZERO_NORIGINS));
            break;
        case 3:
            rc = pool_zero_step(&P, i, (uint64_t)(rand() % 5) * 8192, 0, NULL);
            break;
        case 4:
            rc = pool_zero_pause(&P, i);
            break;
        case 5:
            rc = pool_zero_end(&P, i);
            break;
        case 6:
            rc = pool_idle_chunk(&P, 24 * 1024, NULL);
            break;
        default:
            rc = pool_zero_frame(&P, i, (enum zero_origin)(rand() % ZERO_NORIGINS));
            break;
        }
        if (rc != POOL_OK)
            assert_unchanged(&s);
        assert_balanced();
        for (uint32_t k = 0; k < P.n; k++) {
            enum frame_state st = pool_state(&P, k);
            if (st == FRAME_ZEROED || st == FRAME_IN_USE)
                assert_true(frame_bytes_are(k, 0, FB, 0));
            else
                assert_true(frame_bytes_are(k, 0, pool_progress(&P, k), 0));
        }
    }
    assert_true(P.c.taken > 100);
    assert_true(P.c.zero_paused > 100);
}

static void test_names(void **state)
{
    assert_string_equal(pool_state_name(FRAME_DIRTY), "dirty");
    assert_string_equal(pool_state_name(FRAME_IN_USE), "in_use");
    assert_string_equal(pool_state_name(FRAME_NSTATES), "?");
    assert_string_equal(pool_origin_name(ZERO_ON_FREE), "on_free");
    assert_string_equal(pool_origin_name(ZERO_BATCH), "batch");
    assert_string_equal(pool_origin_name(99), "?");
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_rejects_bad_arguments),
        T(test_add_fills_dirty_list),
        T(test_take_dirty_is_zeroed_in_fault_path),
        T(test_background_busy),
        T(test_take_prefers_zeroed),
        T(test_take_from_empty_pool_changes_nothing),
        T(test_free_and_double_free),
        T(test_illegal_zeroing_transitions),
        T(test_on_free_zeroes_when_freed),
        T(test_check_catches_corruption),
        T(test_random_sequences_stay_balanced),
        T(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
