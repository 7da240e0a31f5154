/*
 * tests/unit/test_compare_sim.c - the decision rule of lib/compare.h on
 * simulated cells from a host like this one (issue 20 section 5,
 * docs/validation.md "How a comparison is decided").
 *
 * A sample is the true time x (1 + 3 % jitter) (jitter: a sum of 12
 * uniforms minus 6, i.e. nearly N(0, 1)), and with probability 15 % also
 * x U(1.3, 1.8): the short bursts of docs/validation.md "Where the spread
 * comes from". A run draws SIM_MAX_N samples a side and races as the
 * kernel does: cmp_compare() on the first n of each side at each look of
 * SIM_LOOKS, stopping at the first faster, slower or tie. SIM_PAIRS pairs
 * of two independent runs per true ratio B/A: 1/3 (B 3x faster), 1.12,
 * 1 (a tie), 1.02 and 1.04 (inside the 5 % tolerance) and 1.06 (just
 * outside it). Beside it, at n = 10 on the same samples, the old rule
 * (issue 12): a cell is usable only with CV <= 10 % and min/median >= 0.8,
 * and B is faster or slower only when the two medians' order-statistic
 * intervals do not overlap; it has no tie. The rates are printed for
 * docs/validation.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/compare.h"
#include "lib/interleave.h"
#include "lib/stats.h"

/* The schedule under test: the racing loop's looks, z and tolerance. */
static const unsigned SIM_LOOKS[] = {10, 20, 30, 40};
#define SIM_NLOOKS (sizeof(SIM_LOOKS) / sizeof(SIM_LOOKS[0]))
#define SIM_MAX_N 40 /* the last look */
#define SIM_Z CMP_Z_X1000
#define SIM_TOL CMP_TOL_X100
/* The host: jitter sd, burst share and slow-down range. */
#define SIM_JITTER 0.03
#define SIM_BURST 0.15
#define SIM_SLOW_LO 1.3
#define SIM_SLOW_HI 1.8
#define SIM_PAIRS 1000
#define SIM_OLD_N 10 /* the old rule looked at a cell's 10 repeats */
/* The share of true ties that must come out tie, per mille (issue 20: 95 %).
 * z = 2.361 (Pocock, 4 looks) gives 96.3-97.2 % over five seeds, z = 2.5
 * only 94.7-96.1 %; docs/validation.md has the table of schedules. */
#define SIM_TIE_MIN 950

#define A_NS 44000000.0 /* 1 GiB at 24.4 GB/s: rep_stosb in 4 KiB calls */
#define BYTES (1ull << 30)

static uint64_t scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];

static double uniform(uint64_t *st) { return (double)(ilv_splitmix64(st) >> 11) * 0x1p-53; }

/* One sample of a cell whose true time is ns. */
static uint64_t sample(uint64_t *st, double ns)
{
    double g = -6.0;
    for (unsigned i = 0; i < 12; i++)
        g += uniform(st);
    double t = ns * (1.0 + SIM_JITTER * g);
    if (uniform(st) < SIM_BURST)
        t *= SIM_SLOW_LO + (SIM_SLOW_HI - SIM_SLOW_LO) * uniform(st);
    return (uint64_t)(t + 0.5);
}

/* The old rule at SIM_OLD_N samples a side: faster, slower or undecided. */
static enum cmp_outcome old_rule(const uint64_t *a, const uint64_t *b)
{
    uint64_t va[SIM_OLD_N], vb[SIM_OLD_N];
    struct stats sa, sb;
    memcpy(va, a, sizeof(va));
    memcpy(vb, b, sizeof(vb));
    stats_compute(&sa, va, SIM_OLD_N);
    stats_compute(&sb, vb, SIM_OLD_N);
    if (stats_noisy(&sa) || stats_noisy(&sb))
        return CMP_UNDECIDED; /* "not decided: too noisy" */
    if (sb.ci_hi < sa.ci_lo)
        return CMP_FASTER;
    if (sb.ci_lo > sa.ci_hi)
        return CMP_SLOWER;
    return CMP_UNDECIDED;
}

struct run {
    enum cmp_outcome out, old;
    unsigned n; /* samples a side when it stopped */
};

/* One run of the race for true ratio B/A. */
static struct run race(uint64_t *st, double ratio)
{
    uint64_t a[SIM_MAX_N], b[SIM_MAX_N];
    for (unsigned i = 0; i < SIM_MAX_N; i++) { /* interleaved: A and B each round */
        a[i] = sample(st, A_NS);
        b[i] = sample(st, A_NS * ratio);
    }
    struct run r = {.old = old_rule(a, b)};
    for (unsigned l = 0; l < SIM_NLOOKS; l++) {
        struct cmp c;
        r.n = SIM_LOOKS[l];
        cmp_compare(a, r.n, BYTES, b, r.n, BYTES, SIM_Z, SIM_TOL, scratch, &c);
        r.out = c.outcome;
        if (c.outcome == CMP_FASTER || c.outcome == CMP_SLOWER || c.outcome == CMP_TIE)
            break;
    }
    return r;
}

/* Counts over the 2 SIM_PAIRS runs of one true ratio. */
struct rates {
    unsigned out[5], old[5]; /* runs per cmp_outcome: the race, the old rule */
    unsigned at[SIM_NLOOKS]; /* runs that stopped at each look */
    unsigned opposite;       /* pairs that said faster in one run, slower in the other */
    unsigned old_opposite;
};

#define RUNS (2 * SIM_PAIRS)
#define PCT(x) (100.0 * (x) / RUNS)

static bool opposite(enum cmp_outcome x, enum cmp_outcome y)
{
    return (x == CMP_FASTER && y == CMP_SLOWER) || (x == CMP_SLOWER && y == CMP_FASTER);
}

static unsigned look_of(unsigned n)
{
    unsigned l = 0;
    while (SIM_LOOKS[l] != n)
        l++;
    return l;
}

static struct rates simulate(const char *name, double ratio, uint64_t seed)
{
    struct rates t = {0};
    uint64_t st = seed;
    for (unsigned p = 0; p < SIM_PAIRS; p++) {
        struct run r1 = race(&st, ratio), r2 = race(&st, ratio);
        t.out[r1.out]++, t.out[r2.out]++, t.old[r1.old]++, t.old[r2.old]++;
        t.at[look_of(r1.n)]++, t.at[look_of(r2.n)]++;
        t.opposite += opposite(r1.out, r2.out);
        t.old_opposite += opposite(r1.old, r2.old);
    }
    print_message("%-4s B/A %.3f, %u runs: faster %.1f%%, slower %.1f%%, tie %.1f%%, "
                  "undecided %.1f%%; opposite pairs %u of %u; stopped at n =",
                  name, ratio, RUNS, PCT(t.out[CMP_FASTER]), PCT(t.out[CMP_SLOWER]),
                  PCT(t.out[CMP_TIE]), PCT(t.out[CMP_UNDECIDED]), t.opposite, SIM_PAIRS);
    for (unsigned l = 0; l < SIM_NLOOKS; l++)
        print_message(" %u: %u", SIM_LOOKS[l], t.at[l]);
    print_message("\n%-4s old CV rule at n = %u: faster %.1f%%, slower %.1f%%, not decided "
                  "%.1f%%; opposite pairs %u\n",
                  name, SIM_OLD_N, PCT(t.old[CMP_FASTER]), PCT(t.old[CMP_SLOWER]),
                  PCT(t.old[CMP_UNDECIDED]), t.old_opposite);
    return t;
}

/* Runs, of RUNS, for a share in per mille. */
#define SHARE(pm) (RUNS * (pm) / 1000u)

static void test_gap_3x(void **state)
{
    struct rates t = simulate("3x", 1.0 / 3.0, 0x3a);
    assert_true(t.out[CMP_FASTER] >= SHARE(990)); /* decided, the right direction */
    assert_int_equal(t.out[CMP_SLOWER], 0);
    assert_int_equal(t.opposite, 0);
    /* the old rule: most cells have a burst among their 10 samples, CV > 10 % */
    assert_true(t.old[CMP_FASTER] < SHARE(500));
    assert_int_equal(t.old[CMP_SLOWER], 0);
}

static void test_gap_12pct(void **state)
{
    struct rates t = simulate("12%", 1.12, 0x12);
    assert_true(t.out[CMP_SLOWER] >= SHARE(950));
    assert_int_equal(t.out[CMP_FASTER], 0);
    assert_int_equal(t.opposite, 0);
    assert_true(t.old[CMP_SLOWER] < SHARE(500));
}

static void test_true_tie(void **state)
{
    struct rates t = simulate("tie", 1.0, 0x7e);
    assert_true(t.out[CMP_TIE] >= SHARE(SIM_TIE_MIN));
    assert_int_equal(t.out[CMP_FASTER] + t.out[CMP_SLOWER], 0);
    assert_int_equal(t.opposite, 0);
    assert_int_equal(t.old[CMP_TIE], 0); /* the old rule has no tie */
}

/* Inside the tolerance: never (at most 1 %) called slower. */
static void test_gap_2pct_and_4pct(void **state)
{
    struct rates t = simulate("2%", 1.02, 0x02);
    assert_true(t.out[CMP_SLOWER] <= SHARE(10));
    assert_int_equal(t.out[CMP_FASTER], 0);
    assert_int_equal(t.opposite, 0);
    t = simulate("4%", 1.04, 0x04);
    assert_true(t.out[CMP_SLOWER] <= SHARE(10));
    assert_int_equal(t.out[CMP_FASTER], 0);
}

/* Just outside the tolerance: never (at most 1 %) called tie. */
static void test_gap_6pct(void **state)
{
    struct rates t = simulate("6%", 1.06, 0x06);
    assert_true(t.out[CMP_TIE] <= SHARE(10));
    assert_int_equal(t.out[CMP_FASTER], 0);
    assert_int_equal(t.opposite, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gap_3x),   cmocka_unit_test(test_gap_12pct),
        cmocka_unit_test(test_true_tie), cmocka_unit_test(test_gap_2pct_and_4pct),
        cmocka_unit_test(test_gap_6pct),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
