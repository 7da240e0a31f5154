/*
 * tests/unit/test_compare.c - lib/compare.c against the shared vectors of
 * tests/vectors/compare.txt (tests/tools/test_decide.py reads the same
 * file for tools/hzlib/decide.py), the outcome bounds, Moses ranks and the
 * Bonferroni z table, and Tukey's outlier counts of lib/stats.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/compare.h"
#include "lib/stats.h"

#define VECTORS "tests/vectors/compare.txt"
#define MAXV 160

static uint64_t scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];

/* "a BYTES v v v" -> *bytes and v[], the count */
static size_t parse_side(char *line, uint64_t *bytes, uint64_t *v)
{
    size_t n = 0;
    char *tok = strtok(line + 2, " \n");
    *bytes = strtoull(tok, 0, 10);
    while ((tok = strtok(0, " \n")) && n < MAXV)
        v[n++] = strtoull(tok, 0, 10);
    return n;
}

static enum cmp_outcome outcome_named(const char *s)
{
    static const char *const names[] = {"undecided", "faster", "slower", "tie", "too_few"};
    for (unsigned i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0)
            return (enum cmp_outcome)i;
    fail_msg("unknown outcome %s", s);
    return CMP_UNDECIDED;
}

static void test_shared_vectors(void **state)
{
    FILE *f = fopen(VECTORS, "r");
    assert_non_null(f);
    static char line[8192];
    static uint64_t a[MAXV], b[MAXV];
    uint64_t ab = 0, bb = 0;
    size_t na = 0, nb = 0, cases = 0;
    unsigned z = 0, tol = 0;
    static char name[sizeof(line)];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "case ", 5) == 0) {
            snprintf(name, sizeof(name), "%s", line + 5);
        } else if (line[0] == 'a' && line[1] == ' ') {
            na = parse_side(line, &ab, a);
        } else if (line[0] == 'b' && line[1] == ' ') {
            nb = parse_side(line, &bb, b);
        } else if (line[0] == 'z' && line[1] == ' ') {
            assert_int_equal(sscanf(line, "z %u tol %u", &z, &tol), 2);
        } else if (strncmp(line, "expect ", 7) == 0) {
            unsigned long long r, lo, hi, k;
            char out[32];
            assert_int_equal(sscanf(line, "expect %llu %llu %llu %llu %31s", &r, &lo, &hi, &k, out),
                             5);
            struct cmp c;
            cmp_compare(a, na, ab, b, nb, bb, z, tol, scratch, &c);
            print_message("%s", name);
            assert_int_equal(c.ratio_x1e6, r);
            assert_int_equal(c.lo_x1e6, lo);
            assert_int_equal(c.hi_x1e6, hi);
            assert_int_equal(c.k, k);
            assert_int_equal(c.outcome, outcome_named(out));
            cases++;
        }
    }
    fclose(f);
    assert_true(cases >= 15);
}

static void test_outcome_bounds(void **state)
{
    /* 5 %: tie inside [1/1.05, 1.05] = [0.952381, 1.05] */
    assert_int_equal(cmp_outcome_of(952381, 1050000, 500), CMP_TIE);
    assert_int_equal(cmp_outcome_of(952380, 1000000, 500), CMP_UNDECIDED);
    assert_int_equal(cmp_outcome_of(1000000, 1050001, 500), CMP_UNDECIDED);
    assert_int_equal(cmp_outcome_of(1050001, 2000000, 500), CMP_SLOWER);
    assert_int_equal(cmp_outcome_of(1050000, 2000000, 500), CMP_UNDECIDED);
    assert_int_equal(cmp_outcome_of(100000, 952380, 500), CMP_FASTER);
    assert_int_equal(cmp_outcome_of(100000, 952381, 500), CMP_UNDECIDED);
    assert_int_equal(cmp_outcome_of(900000, 1100000, 500), CMP_UNDECIDED); /* straddles both */
    assert_string_equal(cmp_outcome_name(CMP_TIE), "tie");
    assert_string_equal(cmp_outcome_name(CMP_TOO_FEW), "too few samples");
}

static void test_moses_k(void **state)
{
    /* z = 1.96, m = n = 10: the exact table value of Hollander & Wolfe is 24 */
    assert_int_equal(cmp_moses_k(10, 10, 1960), 24);
    assert_int_equal(cmp_moses_k(10, 10, 2500), 16); /* 50 - 2.5 x 13.229 = 16.93 */
    assert_int_equal(cmp_moses_k(40, 40, 2500), 540);
    assert_int_equal(cmp_moses_k(1, 1, 2500), 1);
    assert_int_equal(cmp_moses_k(0, 10, 2500), 1);
    assert_int_equal(cmp_moses_k(3, 3, 2500), 1); /* floor below 1 */
}

static void test_swap_symmetry(void **state)
{
    uint64_t a[12], b[12];
    for (unsigned i = 0; i < 12; i++) {
        a[i] = 1000 + 7 * ((i * 5) % 12);
        b[i] = 1300 + 11 * ((i * 7) % 12);
    }
    struct cmp ab, ba;
    cmp_compare(a, 12, 4096, b, 12, 4096, CMP_Z_X1000, CMP_TOL_X100, scratch, &ab);
    cmp_compare(b, 12, 4096, a, 12, 4096, CMP_Z_X1000, CMP_TOL_X100, scratch, &ba);
    assert_int_equal(ab.outcome, CMP_SLOWER);
    assert_int_equal(ba.outcome, CMP_FASTER);
    /* lo of B/A is about 1 / hi of A/B (rounding aside) */
    assert_true(ab.lo_x1e6 * ba.hi_x1e6 / CMP_ONE >= CMP_ONE - 2);
    assert_true(ab.lo_x1e6 * ba.hi_x1e6 / CMP_ONE <= CMP_ONE + 2);
}

static void test_inputs_left_alone(void **state)
{
    uint64_t a[6] = {9, 3, 7, 1, 5, 2}, b[6] = {4, 8, 6, 2, 9, 1};
    struct cmp c;
    cmp_compare(a, 6, 1, b, 6, 1, CMP_Z_X1000, CMP_TOL_X100, scratch, &c);
    assert_int_equal(a[0], 9);
    assert_int_equal(b[0], 4);
    assert_int_equal(cmp_scratch_len(6, 6), 48);
    assert_int_equal(cmp_scratch_len(500, 2), CMP_MAX_N * 2 + CMP_MAX_N + 2);
}

static void test_bonferroni(void **state)
{
    assert_int_equal(cmp_z_bonferroni_x1000(0), CMP_Z_X1000);
    assert_int_equal(cmp_z_bonferroni_x1000(1), 2361);
    assert_int_equal(cmp_z_bonferroni_x1000(3), 2744);
    assert_int_equal(cmp_z_bonferroni_x1000(32), 3446);
    assert_int_equal(cmp_z_bonferroni_x1000(1000), 3446);
}

static void test_tukey(void **state)
{
    /* 10 samples, two bursts: q1 = v[2] = 100, q3 = v[7] = 104, iqr 4:
     * mild above 110, severe above 116 */
    uint64_t v[10] = {100, 101, 100, 104, 103, 102, 150, 111, 99, 104};
    struct stats s;
    stats_compute(&s, v, 10);
    assert_int_equal(s.out_hi_severe, 1); /* 150 */
    assert_int_equal(s.out_hi_mild, 1);   /* 111 */
    assert_int_equal(s.out_lo_mild + s.out_lo_severe, 0);
    assert_int_equal(s.out_hi_min, 111);
    assert_int_equal(s.out_hi_max, 150);
    assert_false(stats_outliers_many(&s));
    uint64_t w[7] = {10, 10, 10, 10, 10, 30, 2}; /* q1 = q3 = 10, iqr 0 */
    stats_compute(&s, w, 7);
    assert_int_equal(s.out_hi_severe, 1);
    assert_int_equal(s.out_lo_severe, 1);
    assert_true(stats_outliers_many(&s)); /* 2 of 7 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_vectors),
        cmocka_unit_test(test_outcome_bounds),
        cmocka_unit_test(test_moses_k),
        cmocka_unit_test(test_swap_symmetry),
        cmocka_unit_test(test_inputs_left_alone),
        cmocka_unit_test(test_bonferroni),
        cmocka_unit_test(test_tukey),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
