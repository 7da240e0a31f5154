/*
 * tests/unit/test_interleave.c - lib/interleave.c: SplitMix64 against its
 * published reference outputs, per-round orders (permutations, replayed by
 * the seed, different between rounds and seeds) and the stopping rule
 * driven by fixture sample streams (expected stop rounds worked out with
 * exact binomial sums in Python). ilv_run() itself:
 * tests/unit/test_interleave_run.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/interleave.h"

static void test_splitmix64_reference(void **state)
{
    uint64_t st = 0; /* reference values of SplitMix64 from state 0 */
    assert_true(ilv_splitmix64(&st) == 0xe220a8397b1dcdafull);
    assert_true(ilv_splitmix64(&st) == 0x6e789e6aa1b965f4ull);
    assert_true(ilv_splitmix64(&st) == 0x06c45d188009454full);
}

static bool is_permutation(const unsigned *o, size_t n)
{
    bool seen[64] = {false};
    for (size_t i = 0; i < n; i++) {
        if (o[i] >= n || seen[o[i]])
            return false;
        seen[o[i]] = true;
    }
    return true;
}

static void test_orders(void **state)
{
    enum { N = 20, ROUNDS = 12 };
    unsigned o[ROUNDS][N], again[N], other[N];
    for (unsigned r = 0; r < ROUNDS; r++) {
        ilv_order(42, r, o[r], N);
        assert_true(is_permutation(o[r], N));
        for (unsigned q = 0; q < r; q++) /* every round a different order */
            assert_memory_not_equal(o[q], o[r], sizeof(o[r]));
    }
    ilv_order(42, 3, again, N); /* the seed replays a round */
    assert_memory_equal(again, o[3], sizeof(again));
    ilv_order(43, 3, other, N); /* another seed, another order */
    assert_memory_not_equal(other, o[3], sizeof(other));

    /* Over many rounds every cell runs first about equally often. */
    unsigned first[N] = {0};
    for (unsigned r = 0; r < 4000; r++) {
        ilv_order(7, r, again, N);
        first[again[0]]++;
    }
    for (unsigned i = 0; i < N; i++)
        assert_true(first[i] > 120 && first[i] < 290); /* mean 200, sd 13.8 */

    unsigned one = 99;
    ilv_order(1, 0, &one, 1);
    assert_int_equal(one, 0);
    ilv_order(1, 0, NULL, 0); /* nothing to order: no access */
}

static void test_next(void **state)
{
    struct ilv_rule r = {.min_rounds = 10, .max_rounds = 30, .ci_x100 = 200};
    assert_int_equal(ilv_next(&r, 9, true, true), ILV_MORE); /* the minimum always runs */
    assert_int_equal(ilv_next(&r, 10, true, true), ILV_STABLE);
    assert_int_equal(ilv_next(&r, 10, false, false), ILV_MORE);
    assert_int_equal(ilv_next(&r, 10, false, true), ILV_BUDGET);
    assert_int_equal(ilv_next(&r, 30, false, false), ILV_CAP);
    assert_int_equal(ilv_next(&r, 30, false, true), ILV_CAP);
    assert_string_equal(ilv_verdict_name(ILV_STABLE), "stable");
    assert_string_equal(ilv_verdict_name(ILV_BUDGET), "budget");
    assert_string_equal(ilv_verdict_name(ILV_DECIDED), "decided");
    assert_string_equal(ilv_verdict_name((enum ilv_verdict)9), "?");
}

static void test_look_schedule(void **state)
{
    struct ilv_rule r = {.min_rounds = 10, .max_rounds = 40, .look_every = ILV_LOOK_EVERY};
    unsigned looks[8], n = 0;
    for (unsigned d = 0; d <= 45; d++)
        if (ilv_look(&r, d))
            looks[n++] = d;
    assert_int_equal(n, 4);
    assert_int_equal(looks[0], 10);
    assert_int_equal(looks[1], 20);
    assert_int_equal(looks[2], 30);
    assert_int_equal(looks[3], 40);
    r.min_rounds = 6; /* the minimum is a look, then the schedule */
    assert_true(ilv_look(&r, 6));
    assert_false(ilv_look(&r, 5));
    assert_false(ilv_look(&r, 7));
    assert_true(ilv_look(&r, 10));
    assert_false(ilv_look(&r, 15));
    r.look_every = 0; /* every round from the minimum on */
    assert_false(ilv_look(&r, 5));
    assert_true(ilv_look(&r, 6));
    assert_true(ilv_look(&r, 7));
}

/* Cell B settles after a noisy start: its median interval (ranks 3..10 of
 * 12) first lies within +-2 % at 12 samples; cell A is flat throughout. */
static const uint64_t stream_b[20] = {900,  1100, 950,  1080, 1000, 1000, 1000, 1000, 1000, 1000,
                                      1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};

/* Drive rounds as scenarios/clear/run.c does; return the rounds run. */
static unsigned drive(const struct ilv_rule *r, enum ilv_verdict *why)
{
    uint64_t a[30], b[30], scratch[30];
    unsigned done = 0, order[2];
    for (;;) {
        ilv_order(5, done, order, 2);
        for (unsigned k = 0; k < 2; k++) {
            if (order[k] == 0)
                a[done] = 1000;
            else
                b[done] = stream_b[done % 20];
        }
        done++;
        bool stable = ilv_cell_stable(a, done, r->ci_x100, scratch) &&
                      ilv_cell_stable(b, done, r->ci_x100, scratch);
        *why = ilv_next(r, done, stable, false);
        if (*why != ILV_MORE)
            return done;
    }
}

static void test_stop_rule_on_fixtures(void **state)
{
    enum ilv_verdict why;
    struct ilv_rule r = {.min_rounds = 10, .max_rounds = 30, .ci_x100 = 200};
    assert_int_equal(drive(&r, &why), 12);
    assert_int_equal(why, ILV_STABLE);

    r.max_rounds = 11; /* the cap comes first */
    assert_int_equal(drive(&r, &why), 11);
    assert_int_equal(why, ILV_CAP);

    r = (struct ilv_rule){.min_rounds = 10, .max_rounds = 30, .ci_x100 = 1000};
    assert_int_equal(drive(&r, &why), 10); /* +-10 %: 950..1080 is inside at once */
    assert_int_equal(why, ILV_STABLE);

    uint64_t v[12], scratch[12];
    memcpy(v, stream_b, sizeof(v));
    assert_true(ilv_cell_stable(v, 12, 200, scratch));
    assert_false(ilv_cell_stable(v, 11, 200, scratch)); /* ranks 2..10: 950 */
    assert_memory_equal(v, stream_b, sizeof(v));        /* input untouched */
}

/* Round factors (issue 30): the median of sample / cell median over the
 * cells of each round; an even count takes the middles' mean; a 0 ns sample
 * or a cell that stopped is missing; fewer than 4 cells give 1.0. The same
 * numbers as tools/hzlib/decide.py round_factors(). */
static void test_round_factors(void **state)
{
    static const uint64_t v[6][4] = {
        {1000, 1100, 1000, 1500}, {2000, 2300, 2000, 3000}, {500, 600}, {100, 125, 0},
        {300, 390, 300},          {400, 540, 400}};
    size_t n[6] = {4, 4, 2, 3, 3, 3};
    struct ilv_series ser[6];
    uint64_t f[4], scratch[2 * 6 + 4];
    for (unsigned c = 0; c < 6; c++)
        ser[c] = (struct ilv_series){v[c], &n[c]};
    ilv_round_factors(ser, 6, f, 4, scratch);
    assert_int_equal(f[0], 1000000);
    assert_int_equal(f[1], 1225000); /* 1.1 1.15 1.2 | 1.25 1.3 1.35 */
    assert_int_equal(f[2], 1000000); /* 4 cells: 500 stopped, 100's sample was 0 */
    assert_int_equal(f[3], 1000000); /* 2 cells (1.5, 1.5): too few, 1.0 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_reference),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_next),
        cmocka_unit_test(test_look_schedule),
        cmocka_unit_test(test_stop_rule_on_fixtures),
        cmocka_unit_test(test_round_factors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
