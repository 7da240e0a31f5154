/*
 * tests/unit/test_vmstart.c - prezero/vmstart_model.c: the knee of a
 * scaling curve (first thread count that adds less than 10 %) and the
 * 2 TiB model min(T x per-thread rate, peak), on hand-worked values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "prezero/vmstart.h"

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

static void test_model(void **state)
{
    /* 2 TiB at min(16 x 3.5, 20) = 20 GB/s: 2^41 / 20 ns = 109951162777.6 */
    assert_int_equal(vs_model_gbps_x1000(16, 3500, 20000), 20000);
    assert_true(vs_model_ns(VS_MODEL_BYTES, 16, 3500, 20000) == 109951162778ull);
    /* under the peak: 2 x 3.5 = 7 GB/s, 2^41 / 7 = 314146179364.57 */
    assert_int_equal(vs_model_gbps_x1000(2, 3500, 20000), 7000);
    assert_true(vs_model_ns(VS_MODEL_BYTES, 2, 3500, 20000) == 314146179365ull);
    /* peak 0: no cap */
    assert_int_equal(vs_model_gbps_x1000(4, 3500, 0), 14000);
    /* no rate: no figure */
    assert_true(vs_model_ns(VS_MODEL_BYTES, 16, 0, 20000) == UINT64_MAX);
    /* 1 GB at 1000 threads x 1 GB/s capped at 0.001 GB/s: 10^12 ns */
    assert_true(vs_model_ns(1000000000ull, 1000, 1000, 1) == 1000000000000ull);
    /* too long for 64 bits: saturates */
    assert_true(vs_model_ns(UINT64_MAX, 1, 1, 1) == UINT64_MAX);
    /* the seed's claim, for scale: 2 TB in 40 s with 16 threads is 50 GB/s,
     * 3.125 GB/s per thread */
    assert_true(vs_model_ns(2000000000000ull, 16, 3125, 0) == VS_SEED_CLAIM_NS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knee),
        cmocka_unit_test(test_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
