/*
 * tests/unit/test_verdict_rounds.c - the verdict's comparisons take an
 * interleaved run's round factors out (issue 30, lib/verdict.c
 * vd_compare(), docs/validation.md "Drift, sticky phases, bursts and
 * impossible samples"). Four cold clear cells on a 1 GiB target ran 12
 * rounds in one run while the host drifted from 1.0x to 1.5x: every cell's
 * round r took base x drift_r x its own noise (+-1.5 %, a different draw
 * per cell). Without the factors the two-sample rule sees the drift as
 * spread and decides nothing; with them A/A is a tie and a 12 % gap is
 * decided.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/interleave.h"
#include "tests/unit/verdict_fixture.h"

#define ROUNDS 12

static uint64_t factors[ROUNDS], other[ROUNDS];

/* Cell c: ns of round r = base_ns x (1 + r / 22) (1.0x .. 1.5x) x
 * (1 +- 1.5 %, SplitMix64 seeded with seed). */
static void drifting(struct vd_cell *c, uint64_t base_ns, uint64_t seed)
{
    uint64_t *s = store[c - cells], tmp[ROUNDS];
    for (unsigned r = 0; r < ROUNDS; r++) {
        int64_t own = (int64_t)(ilv_splitmix64(&seed) % 3001) - 1500; /* x 10^-5 */
        s[r] = base_ns * (22 + r) / 22 * (uint64_t)(100000 + own) / 100000;
    }
    memcpy(tmp, s, sizeof(tmp));
    stats_compute(&c->st, tmp, ROUNDS);
    c->samples = s;
    c->nsamples = ROUNDS;
}

/* The four cells (A rep_stosb/1G, B rep_stosq/1G gap_pct % slower, the
 * clear_page baseline rep_stosb/4K, avx512_nt/2M) and their run's round
 * factors; with_factors: the cells carry them. */
static void run(unsigned gap_pct, bool with_factors)
{
    static const struct {
        const char *s;
        bool nt;
        uint64_t chunk;
        unsigned gbps_x10;
    } v[] = {{"rep_stosb", false, GIB, 380},
             {"rep_stosq", false, GIB, 380},
             {"rep_stosb", false, 4096, 137},
             {"avx512_nt", true, 2 * MIB, 300}};
    struct ilv_series ser[4];
    uint64_t scratch[2 * 4 + ROUNDS];
    ncells = 0;
    for (unsigned i = 0; i < 4; i++) {
        struct vd_cell *c = clear_cell(v[i].s, v[i].nt, v[i].chunk, v[i].gbps_x10);
        uint64_t base = GIB * 10 / v[i].gbps_x10;
        drifting(c, i == 1 ? base * (100 + gap_pct) / 100 : base, 0x5eed + i);
        ser[i] = (struct ilv_series){c->samples, &c->nsamples};
    }
    ilv_round_factors(ser, 4, factors, ROUNDS, scratch);
    for (unsigned i = 0; i < 4 && with_factors; i++) {
        cells[i].factor_x1e6 = factors;
        cells[i].nfactors = ROUNDS;
    }
    decide(&kvm);
}

/* The logged clear_1g comparison between A (cell 0) and B (cell 1). */
static const struct cmp *a_vs_b(void)
{
    for (size_t i = 0; i < lg.n; i++)
        if (strcmp(lg.v[i].item, "clear_1g") == 0 && lg.v[i].a + lg.v[i].b == 1)
            return &lg.v[i].c;
    fail_msg("no clear_1g comparison of A and B");
    return 0;
}

static void assert_cmp(const struct cmp *c, const char *rule, const char *why, enum cmp_outcome o,
                       uint64_t lo_x1000, uint64_t hi_x1000)
{
    assert_string_equal(cmp_rule_name(c->rule), rule);
    assert_string_equal(cmp_why_name(c->why), why);
    assert_int_equal(c->outcome, o);
    assert_int_equal(c->lo_x1e6 / 1000, lo_x1000);
    assert_int_equal(c->hi_x1e6 / 1000, hi_x1000);
    assert_int_equal(c->na, ROUNDS);
    assert_int_equal(c->bad_a + c->bad_b, 0);
}

static void test_aa_drift(void **state)
{
    run(0, false); /* B/A 1.001 [0.673..1.508]: the drift is spread */
    assert_cmp(a_vs_b(), "two-sample", "no round factors", CMP_UNDECIDED, 673, 1508);
    run(0, true);
    /* the drift is in the factors: 1.0x in round 1, 1.5x in round 12 (1233 / 826) */
    assert_int_equal(factors[0] / 1000, 826); /* 1.0 / the median round's 1.21 */
    assert_int_equal(factors[ROUNDS - 1] / 1000, 1233);
    assert_cmp(a_vs_b(), "rounds removed", "same run", CMP_TIE, 990, 1013); /* 1.001 */
    assert_int_equal(tr.bad_samples, 0);
}

static void test_gap_drift(void **state)
{
    run(12, false); /* B/A 1.118 [0.743..1.664] */
    assert_cmp(a_vs_b(), "two-sample", "no round factors", CMP_UNDECIDED, 742, 1663);
    run(12, true); /* B/A 1.119 [1.105..1.130]: B is slower */
    assert_cmp(a_vs_b(), "rounds removed", "same run", CMP_SLOWER, 1105, 1130);
}

/* Cells of two runs (two factor arrays) are compared as two samples. */
static void test_two_runs(void **state)
{
    run(12, true);
    memcpy(other, factors, sizeof(other));
    cells[1].factor_x1e6 = other;
    decide(&kvm);
    assert_cmp(a_vs_b(), "two-sample", "different runs", CMP_UNDECIDED, 742, 1663);
}

/* A sample faster than 1 TB/s on the cell's one CPU is left out and the
 * trust item counts it. */
static void test_impossible_counted(void **state)
{
    run(0, true);
    store[0][3] = GIB / 2000; /* 2 TB/s */
    decide(&kvm);
    assert_int_equal(tr.bad_samples, 1);
    assert_int_equal(a_vs_b()->bad_a + a_vs_b()->bad_b, 1);
    assert_int_equal(vd_cell_bad_samples(&cells[0]), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aa_drift),
        cmocka_unit_test(test_gap_drift),
        cmocka_unit_test(test_two_runs),
        cmocka_unit_test(test_impossible_counted),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
