/*
 * tests/unit/test_vmstart.c - scenarios/vmstart/model.c: the knee of a
 * scaling curve (first thread count that adds less than 10 %), on
 * hand-worked values (the model: tests/unit/test_vmmodel.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scenarios/vmstart/vmstart.h"

static void test_knee(void **state)
{
    const uint64_t linear[] = {5000, 10000, 15000, 20000};
    assert_int_equal(vs_knee(linear, 4), 0); /* every thread adds >= 33 % */
    const uint64_t flat[] = {5000, 9000, 9800, 9900};
    assert_int_equal(vs_knee(flat, 4), 3); /* 9800 < 1.1 x 9000 = 9900 */
    const uint64_t exact[] = {5000, 5500};
    assert_int_equal(vs_knee(exact, 2), 0); /* exactly +10 %: still worth it */
    const uint64_t below[] = {5000, 5499};
    assert_int_equal(vs_knee(below, 2), 2);
    const uint64_t drop[] = {5000, 4000, 9000};
    assert_int_equal(vs_knee(drop, 3), 2); /* a drop is a knee */
    const uint64_t missing[] = {0, 4000, 4100};
    assert_int_equal(vs_knee(missing, 3), 3); /* no rate at T = 1: no knee at 2 */
    assert_int_equal(vs_knee(linear, 1), 0);
    assert_int_equal(vs_knee(linear, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knee),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
