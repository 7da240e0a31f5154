/*
 * tests/unit/test_stats.c - lib/stats.c against hand-computed values
 * (expected cv figures checked with exact integer arithmetic:
 * isqrt(10^8 * n^2 var) / sum).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "lib/stats.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void expect_stats(const struct stats *s, size_t n, uint64_t min, uint64_t max,
                         uint64_t median, uint64_t mean, uint64_t cv)
{
    assert_int_equal(s->n, n);
    assert_int_equal(s->min, min);
    assert_int_equal(s->max, max);
    assert_int_equal(s->median, median);
    assert_int_equal(s->mean, mean);
    assert_int_equal(s->cv_x100, cv);
}

static void test_empty_and_single(void **state)
{
    struct stats s = {99, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
    stats_compute(&s, NULL, 0);
    expect_stats(&s, 0, 0, 0, 0, 0, 0);

    uint64_t one[] = {42};
    stats_compute(&s, one, 1);
    expect_stats(&s, 1, 42, 42, 42, 42, 0);
}

static void test_odd_even(void **state)
{
    uint64_t odd[] = {5, 1, 4, 2, 3}; /* s^2 2.5, sd 1.58114, cv 52.7046 % */
    struct stats s;
    stats_compute(&s, odd, ARRAY_LEN(odd));
    expect_stats(&s, 5, 1, 5, 3, 3, 5270);
    for (size_t i = 0; i < ARRAY_LEN(odd); i++)
        assert_int_equal(odd[i], i + 1); /* sorted in place */

    uint64_t even[] = {10, 40, 20, 30}; /* lower middle 20; s^2 166.67, cv 51.6398 % */
    stats_compute(&s, even, ARRAY_LEN(even));
    expect_stats(&s, 4, 10, 40, 20, 25, 5163);

    uint64_t two[] = {2, 1}; /* mean 1.5 rounded down; sd 0.7071 -> cv 47.14 % */
    stats_compute(&s, two, ARRAY_LEN(two));
    expect_stats(&s, 2, 1, 2, 1, 1, 4714);

    uint64_t skew[] = {3, 3, 3, 100, 3, 3, 3, 3, 3, 3};
    stats_compute(&s, skew, ARRAY_LEN(skew));
    expect_stats(&s, 10, 3, 100, 3, 12, 24152);
}

static void test_median_copy(void **state)
{
    const uint64_t v[] = {9, 3, 7, 1, 5, 2}; /* sorted 1 2 3 5 7 9: lower middle 3 */
    uint64_t w[6];
    assert_int_equal(stats_median_copy(v, 6, w), 3);
    assert_int_equal(v[0], 9); /* left alone */
    assert_int_equal(stats_median_copy(v, 5, w), 5);
    assert_int_equal(stats_median_copy(v, 0, w), 0);
}

static void test_flat_and_zero(void **state)
{
    uint64_t flat[] = {7, 7, 7};
    uint64_t zero[] = {0, 0};
    struct stats s;
    stats_compute(&s, flat, ARRAY_LEN(flat));
    expect_stats(&s, 3, 7, 7, 7, 7, 0);
    stats_compute(&s, zero, ARRAY_LEN(zero));
    expect_stats(&s, 2, 0, 0, 0, 0, 0);
}

static void test_many_samples(void **state)
{
    uint64_t v[1000]; /* 1000 and 1002 alternating: sd 1.0005, cv 0.09995 % */
    for (size_t i = 0; i < ARRAY_LEN(v); i++)
        v[i] = i % 2 ? 1000 : 1002;
    struct stats s;
    stats_compute(&s, v, ARRAY_LEN(v));
    expect_stats(&s, 1000, 1000, 1002, 1000, 1001, 9);
}

/* Values near 2^64: sums need 65+ bits, squares 128 bits. */
static void test_extreme_values(void **state)
{
    struct stats s;
    uint64_t top[] = {UINT64_MAX, UINT64_MAX};
    stats_compute(&s, top, ARRAY_LEN(top));
    expect_stats(&s, 2, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, 0);

    uint64_t spread[] = {UINT64_MAX, 0}; /* sd == sqrt(2) mean: cv 141.42 % */
    stats_compute(&s, spread, ARRAY_LEN(spread));
    expect_stats(&s, 2, 0, UINT64_MAX, 0, UINT64_MAX / 2, 14142);

    uint64_t close[] = {UINT64_MAX, UINT64_MAX - 2};
    stats_compute(&s, close, ARRAY_LEN(close));
    expect_stats(&s, 2, UINT64_MAX - 2, UINT64_MAX, UINT64_MAX - 2, UINT64_MAX - 1, 0);

    /* n * sum of squares overflows 128 bits: the approximate path. */
    uint64_t wide[] = {1ull << 63, 1ull << 63, UINT64_MAX, 0};
    stats_compute(&s, wide, ARRAY_LEN(wide));
    expect_stats(&s, 4, 0, UINT64_MAX, 1ull << 63, (1ull << 63) - 1, 8164);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_sort_matches_qsort(void **state)
{
    enum { N = 4099 };
    static uint64_t a[N], b[N];
    uint64_t x = 0x243f6a8885a308d3ull;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = b[i] = (i % 5 == 0) ? 17 : x >> (i % 40); /* duplicates, wide range */
    }
    struct stats s;
    stats_compute(&s, a, N);
    qsort(b, N, sizeof(b[0]), cmp_u64);
    assert_memory_equal(a, b, sizeof(a));
    assert_int_equal(s.min, b[0]);
    assert_int_equal(s.max, b[N - 1]);
    assert_int_equal(s.median, b[(N - 1) / 2]);
}

static void test_percentile(void **state)
{
    uint64_t ten[10], hundred[100], seven[] = {1, 2, 3, 4, 5, 6, 7}, one[] = {7};
    for (size_t i = 0; i < 10; i++)
        ten[i] = i + 1;
    for (size_t i = 0; i < 100; i++)
        hundred[i] = (i + 1) * 10;

    assert_int_equal(stats_percentile(ten, 10, 50), 5);
    assert_int_equal(stats_percentile(ten, 10, 90), 9);
    assert_int_equal(stats_percentile(ten, 10, 99), 10);
    assert_int_equal(stats_percentile(ten, 10, 100), 10);
    assert_int_equal(stats_percentile(ten, 10, 1), 1);
    assert_int_equal(stats_percentile(ten, 10, 0), 1);
    assert_int_equal(stats_percentile(ten, 10, 250), 10);

    assert_int_equal(stats_percentile(hundred, 100, 50), 500);
    assert_int_equal(stats_percentile(hundred, 100, 90), 900);
    assert_int_equal(stats_percentile(hundred, 100, 99), 990);
    assert_int_equal(stats_percentile(hundred, 100, 100), 1000);

    assert_int_equal(stats_percentile(seven, 7, 50), 4); /* rank ceil(3.5) */
    assert_int_equal(stats_percentile(seven, 7, 90), 7); /* rank ceil(6.3) */
    assert_int_equal(stats_percentile(one, 1, 50), 7);
    assert_int_equal(stats_percentile(one, 1, 100), 7);
    assert_int_equal(stats_percentile(NULL, 0, 50), 0);
}

/* The sample counts from which p90 and p99 are published (issue 12): below
 * them the nearest-rank percentile is the maximum, at them it is not. */
static void test_percentile_min_n(void **state)
{
    uint64_t v[100];
    for (size_t i = 0; i < 100; i++)
        v[i] = i + 1;
    static const struct {
        unsigned pct;
        size_t n;
    } want[] = {{90, 10}, {99, 100}, {95, 20}, {75, 4}, {50, 1}, {0, 1}, {100, 1}};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        assert_int_equal(stats_percentile_min_n(want[i].pct), want[i].n);
    for (unsigned pct = 51; pct < 100; pct++) {
        size_t m = stats_percentile_min_n(pct);
        assert_true(stats_percentile(v, m, pct) < v[m - 1]);      /* not the maximum */
        assert_true(stats_percentile(v, m - 1, pct) == v[m - 2]); /* one fewer: the maximum */
    }
}

static void test_rates(void **state)
{
    assert_int_equal(stats_gbps_x1000(1073741824, 100000000), 10737); /* 10.737 GB/s */
    assert_int_equal(stats_gbps_x1000(1, 3), 333);
    assert_int_equal(stats_gbps_x1000(2, 3), 667);
    assert_int_equal(stats_gbps_x1000(1, 2000), 1); /* 0.5 rounds up */
    assert_int_equal(stats_gbps_x1000(1, 2001), 0);
    assert_int_equal(stats_gbps_x1000(4096, 0), 0);
    assert_int_equal(stats_gbps_x1000(0, 5), 0);
    assert_int_equal(stats_gbps_x1000(UINT64_MAX, 1), UINT64_MAX);
    assert_int_equal(stats_gbps_x1000(UINT64_MAX, 1000), UINT64_MAX);
    assert_int_equal(stats_gbps_x1000(UINT64_MAX, 2000), UINT64_MAX / 2 + 1);

    /* CPU per GiB: 28 ms in calls that cleared 1 GiB; 7 ms for 256 MiB; 180 KiB calls */
    assert_int_equal(stats_per_gib(28000000, 1ull << 30), 28000000);
    assert_int_equal(stats_per_gib(7000000, 256ull << 20), 28000000);
    assert_int_equal(stats_per_gib(5000, 184320), 29127111); /* 5000 x 2^30 / 184320 */
    assert_int_equal(stats_per_gib(1, 3ull << 31), 0);       /* 1/6: rounds down */
    assert_int_equal(stats_per_gib(1, 1ull << 31), 1);       /* 0.5 rounds up */
    assert_int_equal(stats_per_gib(5, 0), 0);
    assert_int_equal(stats_per_gib(UINT64_MAX, 1), UINT64_MAX);

    assert_int_equal(stats_cpb_x1000(3000000000u, 1073741824), 2794);
    assert_int_equal(stats_cpb_x1000(1, 3), 333);
    assert_int_equal(stats_cpb_x1000(5, 0), 0);
    assert_int_equal(stats_cpb_x1000(UINT64_MAX, 1), UINT64_MAX);

    assert_int_equal(stats_pct_x100(1, 100), 100); /* 1.00 % */
    assert_int_equal(stats_pct_x100(2, 3), 6666);  /* rounded down */
    assert_int_equal(stats_pct_x100(5, 0), 0);
    assert_int_equal(stats_pct_x100(UINT64_MAX, 1), UINT64_MAX);
    assert_int_equal(stats_pct_x100(UINT64_MAX, UINT64_MAX), 10000);
}

static void test_isqrt(void **state)
{
    typedef unsigned __int128 u128;
    assert_int_equal(stats_isqrt(0), 0);
    assert_int_equal(stats_isqrt(1), 1);
    assert_int_equal(stats_isqrt(3), 1);
    assert_int_equal(stats_isqrt(4), 2);
    assert_int_equal(stats_isqrt(15), 3);
    assert_int_equal(stats_isqrt(16), 4);
    assert_int_equal(stats_isqrt(UINT64_MAX), 0xffffffffu);
    assert_int_equal(stats_isqrt((u128)1 << 126), 1ull << 63);
    assert_int_equal(stats_isqrt(~(u128)0), UINT64_MAX);
    u128 sq = (u128)UINT64_MAX * UINT64_MAX;
    assert_int_equal(stats_isqrt(sq), UINT64_MAX);
    assert_int_equal(stats_isqrt(sq - 1), UINT64_MAX - 1);
    for (uint64_t r = 1; r < (1ull << 40); r = r * 3 + 1) {
        assert_int_equal(stats_isqrt((u128)r * r), r);
        assert_int_equal(stats_isqrt((u128)r * r - 1), r - 1);
        assert_int_equal(stats_isqrt((u128)r * r + 2 * r), r); /* (r+1)^2 - 1 */
    }
}

/* Expected ranks and coverage from the exact binomial sums (Python
 * fractions over math.comb): lo, hi are 0-based, rank k = lo + 1. */
static void test_median_ci(void **state)
{
    static const struct {
        size_t n, lo, hi;
        unsigned cover;
    } want[] = {
        {1, 0, 0, 0},           {2, 0, 1, 5000},     {5, 0, 4, 9375},      {6, 0, 5, 9687},
        {9, 1, 7, 9609},        {10, 1, 8, 9785},    {11, 1, 9, 9882},     {12, 2, 9, 9614},
        {15, 3, 11, 9648},      {20, 5, 14, 9586},   {30, 9, 20, 9572},    {50, 17, 32, 9671},
        {100, 39, 60, 9647},    {121, 49, 71, 9549}, {200, 85, 114, 9599}, {500, 227, 272, 9559},
        {1000, 468, 531, 9537},
    };
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        size_t lo = 99, hi = 99;
        unsigned cover = 99;
        stats_median_ci95(want[i].n, &lo, &hi, &cover);
        assert_int_equal(lo, want[i].lo);
        assert_int_equal(hi, want[i].hi);
        assert_int_equal(cover, want[i].cover);
    }
    size_t lo = 7, hi = 7;
    unsigned cover = 7;
    stats_median_ci95(0, &lo, &hi, &cover);
    assert_true(lo == 0 && hi == 0 && cover == 0);

    uint64_t v[10] = {19, 11, 18, 12, 17, 13, 16, 14, 15, 10};
    struct stats s;
    stats_compute(&s, v, ARRAY_LEN(v));
    assert_int_equal(s.median, 14);
    assert_int_equal(s.ci_lo, 11);
    assert_int_equal(s.ci_hi, 18);
    assert_int_equal(s.ci_cover_x100, 9785);
}

static void test_ci_within_and_noisy(void **state)
{
    uint64_t tight[10] = {1000, 1001, 999, 1000, 1010, 990, 1002, 998, 1000, 1000};
    uint64_t wide[10] = {1000, 1030, 970, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    uint64_t fast_min[10] = {790, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    uint64_t spread[6] = {500, 1500, 500, 1500, 500, 1500};
    uint64_t few[5] = {1000, 1000, 1000, 1000, 1000};
    struct stats s;

    stats_compute(&s, tight, 10); /* ranks 2..9: 990 .. 1002 around 1000 */
    assert_true(s.ci_lo == 998 && s.ci_hi == 1002);
    assert_true(stats_ci_within(&s, 200));
    assert_true(stats_ci_within(&s, 20));  /* exactly 0.2 % */
    assert_false(stats_ci_within(&s, 19)); /* 2 / 1000 > 0.19 % */
    assert_false(stats_noisy(&s));

    stats_compute(&s, wide, 10); /* ranks 2..9 are all 1000: 0 width */
    assert_true(stats_ci_within(&s, 1));
    assert_false(stats_noisy(&s)); /* min 970 / 1000 >= 0.8, cv 1.41 % */

    stats_compute(&s, fast_min, 10); /* cv 6.6 % but min/median 0.79 */
    assert_true(s.cv_x100 < STATS_NOISY_CV_X100);
    assert_true(stats_noisy(&s));
    fast_min[0] = 800; /* exactly 0.8: not noisy */
    stats_compute(&s, fast_min, 10);
    assert_false(stats_noisy(&s));

    stats_compute(&s, spread, 6); /* cv 54.8 %: noisy, min/median 1 */
    assert_int_equal(s.cv_x100, 5477);
    assert_true(stats_noisy(&s));

    stats_compute(&s, few, 5); /* flat, but 5 samples cover only 93.75 % */
    assert_false(stats_ci_within(&s, 200));
    stats_compute(&s, NULL, 0);
    assert_false(stats_noisy(&s));
    assert_false(stats_ci_within(&s, 200));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_and_single),
        cmocka_unit_test(test_odd_even),
        cmocka_unit_test(test_flat_and_zero),
        cmocka_unit_test(test_median_copy),
        cmocka_unit_test(test_many_samples),
        cmocka_unit_test(test_extreme_values),
        cmocka_unit_test(test_sort_matches_qsort),
        cmocka_unit_test(test_percentile),
        cmocka_unit_test(test_percentile_min_n),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_isqrt),
        cmocka_unit_test(test_median_ci),
        cmocka_unit_test(test_ci_within_and_noisy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
