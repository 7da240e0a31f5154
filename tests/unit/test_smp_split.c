/*
 * tests/unit/test_smp_split.c - measure/split.c: even shares, flat and
 * per-domain placement, the extent walk, and bad input. Expected values are
 * worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "measure/split.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static void expect_share(uint64_t total, uint64_t unit, unsigned n, unsigned i, uint64_t off,
                         uint64_t bytes)
{
    uint64_t o = 1, b = 1;
    assert_int_equal(split_even(total, unit, n, i, &o, &b), SPLIT_OK);
    assert_int_equal(o, off);
    assert_int_equal(b, bytes);
}

static void test_even_shares(void **state)
{
    /* 1 GiB in 2 MiB units: 512 units / 3 = 170 r 2 -> 171, 171, 170 */
    expect_share(GiB, 2 * MiB, 3, 0, 0, 171 * 2 * MiB);
    expect_share(GiB, 2 * MiB, 3, 1, 171 * 2 * MiB, 171 * 2 * MiB);
    expect_share(GiB, 2 * MiB, 3, 2, 342 * 2 * MiB, 170 * 2 * MiB);
    /* exact division */
    expect_share(64 * MiB, 2 * MiB, 4, 3, 48 * MiB, 16 * MiB);
    /* one participant takes everything */
    expect_share(6 * MiB, 2 * MiB, 1, 0, 0, 6 * MiB);
    /* fewer units than shares: 3 units over 5 -> 1, 1, 1, 0, 0 */
    expect_share(3 * 4096, 4096, 5, 2, 2 * 4096, 4096);
    expect_share(3 * 4096, 4096, 5, 3, 3 * 4096, 0);
    expect_share(3 * 4096, 4096, 5, 4, 3 * 4096, 0);
    /* nothing at all */
    expect_share(0, 4096, 2, 1, 0, 0);
    /* largest total: 2^64 - 1 in 1-byte units over 2 shares */
    expect_share(UINT64_MAX, 1, 2, 0, 0, (UINT64_MAX >> 1) + 1);
    expect_share(UINT64_MAX, 1, 2, 1, (UINT64_MAX >> 1) + 1, UINT64_MAX >> 1);
}

static void test_even_bad_input(void **state)
{
    uint64_t o = 7, b = 9;
    assert_int_equal(split_even(GiB, 2 * MiB, 0, 0, &o, &b), SPLIT_EINVAL);
    assert_int_equal(split_even(GiB, 2 * MiB, 4, 4, &o, &b), SPLIT_EINVAL);
    assert_int_equal(split_even(GiB, 0, 4, 0, &o, &b), SPLIT_EINVAL);
    assert_int_equal(split_even(GiB + 4096, 2 * MiB, 4, 0, &o, &b), SPLIT_EINVAL);
    assert_int_equal(o, 7); /* untouched on error */
    assert_int_equal(b, 9);
}

static void test_plan_flat(void **state)
{
    /* two 1 GiB frames that are not adjacent; 1.5 GiB over 3 CPUs */
    struct split_extent ext[] = {{4 * GiB, GiB, -1}, {9 * GiB, GiB, -1}};
    struct split_piece p[3];
    assert_int_equal(split_plan(3 * GiB / 2, 2 * MiB, 3, NULL, ext, 2, p), SPLIT_OK);
    assert_int_equal(p[0].off, 0);
    assert_int_equal(p[0].bytes, GiB / 2);
    assert_int_equal(p[1].off, GiB / 2);
    assert_int_equal(p[2].off, GiB);
    assert_int_equal(p[2].bytes, GiB / 2);

    /* the whole of both frames fits, one byte-unit more does not */
    assert_int_equal(split_plan(2 * GiB, 2 * MiB, 3, NULL, ext, 2, p), SPLIT_OK);
    assert_int_equal(split_plan(2 * GiB + 2 * MiB, 2 * MiB, 3, NULL, ext, 2, p), SPLIT_ENOSPACE);
}

static void test_plan_domains(void **state)
{
    /* domain 0: one frame at 4 GiB; domain 1: two frames at 16 and 17 GiB */
    struct split_extent ext[] = {{4 * GiB, GiB, 0}, {16 * GiB, GiB, 1}, {17 * GiB, GiB, 1}};
    int32_t dom[] = {0, 1, 0, 1};
    struct split_piece p[4];
    /* 2 GiB over 4: 512 MiB each; domain 0 pieces at 0 and 512M, domain 1 at 1G and 1.5G */
    assert_int_equal(split_plan(2 * GiB, 2 * MiB, 4, dom, ext, 3, p), SPLIT_OK);
    assert_int_equal(p[0].off, 0);
    assert_int_equal(p[1].off, GiB);
    assert_int_equal(p[2].off, GiB / 2);
    assert_int_equal(p[3].off, GiB + GiB / 2);
    for (int i = 0; i < 4; i++)
        assert_int_equal(p[i].bytes, GiB / 2);

    /* 4 GiB over 4: domain 0 would need 2 GiB but holds 1 */
    assert_int_equal(split_plan(4 * GiB, 2 * MiB, 4, dom, ext, 3, p), SPLIT_ENOSPACE);
    /* 3 GiB over 3 CPUs all in domain 1: 1 GiB each, domain 1 holds 2 */
    int32_t all1[] = {1, 1, 1};
    assert_int_equal(split_plan(3 * GiB, 2 * MiB, 3, all1, ext, 3, p), SPLIT_ENOSPACE);
    assert_int_equal(split_plan(2 * GiB, 2 * MiB, 3, all1, ext, 3, p), SPLIT_OK);
    /* 1024 units / 3 = 341 r 1: 342, 341, 341 units of 2 MiB from 1 GiB on */
    assert_int_equal(p[0].off, GiB);
    assert_int_equal(p[0].bytes, 342 * 2 * MiB);
    assert_int_equal(p[1].off, GiB + 342 * 2 * MiB);
    assert_int_equal(p[2].off, GiB + 683 * 2 * MiB);
    assert_int_equal(p[2].bytes, 341 * 2 * MiB);

    /* a CPU in a domain without memory */
    int32_t nomem[] = {0, 2};
    assert_int_equal(split_plan(GiB, 2 * MiB, 2, nomem, ext, 3, p), SPLIT_ENODOMAIN);
    /* domain 1's extents split by a domain-0 extent */
    struct split_extent mixed[] = {{0, GiB, 1}, {GiB, GiB, 0}, {2 * GiB, GiB, 1}};
    int32_t d1[] = {1};
    assert_int_equal(split_plan(GiB, 2 * MiB, 1, d1, mixed, 3, p), SPLIT_EORDER);
}

static void test_plan_bad_input(void **state)
{
    struct split_extent ext[] = {{0, GiB, -1}, {GiB, 3 * MiB, -1}};
    struct split_piece p[2];
    assert_int_equal(split_plan(GiB, 2 * MiB, 2, NULL, ext, 2, p), SPLIT_EINVAL); /* 3 MiB */
    assert_int_equal(split_plan(GiB, 2 * MiB, 0, NULL, ext, 1, p), SPLIT_EINVAL);
    assert_int_equal(split_plan(GiB, 0, 2, NULL, ext, 1, p), SPLIT_EINVAL);
    assert_int_equal(split_plan(GiB + MiB, 2 * MiB, 2, NULL, ext, 1, p), SPLIT_EINVAL);
    assert_int_equal(split_plan(GiB, 2 * MiB, 2, NULL, ext, 0, p), SPLIT_EINVAL);
    assert_int_equal(split_plan(GiB, 2 * MiB, 2, NULL, NULL, 1, p), SPLIT_EINVAL);
    assert_int_equal(split_plan(GiB, 2 * MiB, 2, NULL, ext, 1, NULL), SPLIT_EINVAL);
    /* extent sizes summing past 2^64 */
    struct split_extent huge[] = {{0, 1ull << 63, -1}, {0, 1ull << 63, -1}};
    assert_int_equal(split_plan(GiB, 2 * MiB, 2, NULL, huge, 2, p), SPLIT_EINVAL);
}

static void test_iter(void **state)
{
    struct split_extent ext[] = {{0x100000000ull, 4 * MiB, -1},
                                 {0x0, 0, -1}, /* empty: passed over */
                                 {0x240000000ull, 2 * MiB, -1},
                                 {0x300000000ull, 8 * MiB, -1}};
    struct split_iter it;
    uint64_t base, bytes;

    /* [3 MiB, 9 MiB): last MiB of the first, all of the third, first 3 MiB of the last */
    split_iter_init(&it, ext, 4, 3 * MiB, 6 * MiB);
    assert_true(split_iter_next(&it, &base, &bytes));
    assert_int_equal(base, 0x100000000ull + 3 * MiB);
    assert_int_equal(bytes, MiB);
    assert_true(split_iter_next(&it, &base, &bytes));
    assert_int_equal(base, 0x240000000ull);
    assert_int_equal(bytes, 2 * MiB);
    assert_true(split_iter_next(&it, &base, &bytes));
    assert_int_equal(base, 0x300000000ull);
    assert_int_equal(bytes, 3 * MiB);
    assert_false(split_iter_next(&it, &base, &bytes));
    assert_int_equal(it.left, 0);

    /* a range reaching 2 MiB past the 14 MiB of extents */
    split_iter_init(&it, ext, 4, 12 * MiB, 4 * MiB);
    assert_true(split_iter_next(&it, &base, &bytes));
    assert_int_equal(base, 0x300000000ull + 6 * MiB);
    assert_int_equal(bytes, 2 * MiB);
    assert_false(split_iter_next(&it, &base, &bytes));
    assert_int_equal(it.left, 2 * MiB);

    /* a range starting beyond the extents yields nothing */
    split_iter_init(&it, ext, 4, 20 * MiB, MiB);
    assert_false(split_iter_next(&it, &base, &bytes));
    assert_int_equal(it.left, MiB);

    /* an empty range yields nothing and nothing is left */
    split_iter_init(&it, ext, 4, 0, 0);
    assert_false(split_iter_next(&it, &base, &bytes));
    assert_int_equal(it.left, 0);
}

/* Every plan covers the target exactly once: pieces are disjoint and their
 * parts add up to total, for every n from 1 to 20. */
static void test_plan_covers_exactly(void **state)
{
    struct split_extent ext[] = {{GiB, 6 * MiB, -1}, {3 * GiB, 10 * MiB, -1}};
    struct split_piece p[20];
    for (unsigned n = 1; n <= 20; n++) {
        assert_int_equal(split_plan(16 * MiB, 2 * MiB, n, NULL, ext, 2, p), SPLIT_OK);
        uint64_t expect_off = 0, sum = 0;
        for (unsigned i = 0; i < n; i++) {
            assert_int_equal(p[i].off, expect_off);
            expect_off += p[i].bytes;
            struct split_iter it;
            uint64_t base, bytes;
            split_iter_init(&it, ext, 2, p[i].off, p[i].bytes);
            while (split_iter_next(&it, &base, &bytes)) {
                assert_int_equal(base % (2 * MiB), 0);
                sum += bytes;
            }
            assert_int_equal(it.left, 0);
        }
        assert_int_equal(sum, 16 * MiB);
    }
}

static void test_strerror(void **state)
{
    assert_string_equal(split_strerror(SPLIT_OK), "ok");
    assert_string_equal(split_strerror(SPLIT_ENOSPACE), "not enough memory in the extents");
    assert_string_equal(split_strerror(42), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_even_shares),         cmocka_unit_test(test_even_bad_input),
        cmocka_unit_test(test_plan_flat),           cmocka_unit_test(test_plan_domains),
        cmocka_unit_test(test_plan_bad_input),      cmocka_unit_test(test_iter),
        cmocka_unit_test(test_plan_covers_exactly), cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
