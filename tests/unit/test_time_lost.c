/*
 * tests/unit/test_time_lost.c - measure/time_lost.c's gap rule: a timed
 * repeat is a gap only when its span is more than twice the cell's fastest
 * so far and longer by more than TL_GAP_NS; untimed repeats only set the
 * fastest; the count, total and longest add up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "measure/time_lost.h"

#define MS 1000000ull

static void test_rule(void **state)
{
    struct time_lost t = {0};
    assert_int_equal(tl_repeat(&t, 5000 * MS, false), 0); /* warm-up: no history */
    assert_int_equal(t.fastest_ns, 5000 * MS);
    assert_int_equal(tl_repeat(&t, 30 * MS, true), 0);           /* faster: the new fastest */
    assert_int_equal(tl_repeat(&t, 54 * MS, true), 0);           /* 1.8 x: a slow phase, no gap */
    assert_int_equal(tl_repeat(&t, 61 * MS, true), 31 * MS);     /* > 2 x, +31 ms */
    assert_int_equal(tl_repeat(&t, 5030 * MS, true), 5000 * MS); /* a 5 s SIGSTOP */
    assert_int_equal(t.gaps, 2);
    assert_int_equal(t.gap_total_ns, 5031 * MS);
    assert_int_equal(t.gap_max_ns, 5000 * MS);
    assert_int_equal(t.fastest_ns, 30 * MS);
}

static void test_small_cells(void **state)
{
    /* 3 x a 1 ms repeat is under TL_GAP_NS longer: not a gap; 12 ms is */
    struct time_lost t = {0};
    tl_repeat(&t, 1 * MS, true);
    assert_int_equal(tl_repeat(&t, 3 * MS, true), 0);
    assert_int_equal(tl_repeat(&t, 1 * MS + TL_GAP_NS, true), 0); /* not more than */
    assert_int_equal(tl_repeat(&t, 12 * MS, true), 11 * MS);
    /* an untimed repeat with a gap is not counted */
    assert_int_equal(tl_repeat(&t, 900 * MS, false), 0);
    assert_int_equal(t.gaps, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_small_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
