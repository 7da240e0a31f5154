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
#include "lib/interleave.h"
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

#define MAXCELLS 8

/* One case of the vectors file: its sides, the other cells of its run and
 * the CPUs of each side. */
struct vcase {
    char name[64];
    uint64_t v[MAXCELLS][MAXV], bytes[2];
    size_t n[MAXCELLS], ncells;
    unsigned z, tol, cpus[2];
    struct cmp c;
};

/* Compare the case's B with its A, with round factors when it has cells. */
static void run_case(struct vcase *k)
{
    static uint64_t factors[MAXV], fscratch[2 * MAXCELLS + MAXV];
    struct ilv_series ser[MAXCELLS];
    struct cmp_side a = {k->v[0], k->n[0], k->bytes[0], k->cpus[0]};
    struct cmp_side b = {k->v[1], k->n[1], k->bytes[1], k->cpus[1]};
    size_t rounds = k->n[0] > k->n[1] ? k->n[0] : k->n[1];
    for (size_t c = 0; c < k->ncells; c++)
        ser[c] = (struct ilv_series){k->v[c], &k->n[c]};
    if (k->ncells > 2)
        ilv_round_factors(ser, k->ncells, factors, rounds, fscratch);
    cmp_compare_sides(&a, &b, k->ncells > 2 ? factors : NULL, rounds, CMP_WHY_APART, k->z, k->tol,
                      scratch, &k->c);
}

static void check_line(struct vcase *k, char *line)
{
    unsigned long long r, lo, hi, kk, x;
    unsigned rule, bad_a, bad_b, fa, fb, start, len;
    int r1a, r1b;
    char out[32], side;
    if (sscanf(line, "expect %llu %llu %llu %llu %31s", &r, &lo, &hi, &kk, out) == 5) {
        run_case(k);
        print_message("%s\n", k->name);
        assert_int_equal(k->c.ratio_x1e6, r);
        assert_int_equal(k->c.lo_x1e6, lo);
        assert_int_equal(k->c.hi_x1e6, hi);
        assert_int_equal(k->c.k, kk);
        assert_int_equal(k->c.outcome, outcome_named(out));
    } else if (sscanf(line, "detail %u %u %u %u %u %d %d", &rule, &bad_a, &bad_b, &fa, &fb, &r1a,
                      &r1b) == 7) {
        assert_int_equal(k->c.rule, rule);
        assert_int_equal(k->c.bad_a, bad_a);
        assert_int_equal(k->c.bad_b, bad_b);
        assert_int_equal(k->c.fa_x1000, fa);
        assert_int_equal(k->c.fb_x1000, fb);
        assert_int_equal(k->c.r1a_x1000, r1a);
        assert_int_equal(k->c.r1b_x1000, r1b);
    } else if (sscanf(line, "burst %c %u %u %llu", &side, &start, &len, &x) == 4) {
        struct stats_burst bu;
        stats_burst_of(k->v[side == 'b'], k->n[side == 'b'], k->tol, scratch, &bu);
        assert_int_equal(bu.start, start);
        assert_int_equal(bu.len, len);
        assert_int_equal(bu.x1000, x);
    } else {
        fail_msg("bad line %s", line);
    }
}

static void test_shared_vectors(void **state)
{
    FILE *f = fopen(VECTORS, "r");
    assert_non_null(f);
    static char line[8192];
    static struct vcase k;
    size_t cases = 0, with_cells = 0;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "case ", 5) == 0) {
            memset(&k, 0, sizeof(k));
            k.ncells = 2;
            snprintf(k.name, sizeof(k.name), "%.60s", line + 5);
            cases++;
        } else if ((line[0] == 'a' || line[0] == 'b') && line[1] == ' ') {
            int s = line[0] == 'b';
            k.n[s] = parse_side(line, &k.bytes[s], k.v[s]);
        } else if (strncmp(line, "cell ", 5) == 0 && k.ncells < MAXCELLS) {
            uint64_t unused;
            k.n[k.ncells] = parse_side(line + 3, &unused, k.v[k.ncells]) + 1;
            memmove(k.v[k.ncells] + 1, k.v[k.ncells], (k.n[k.ncells] - 1) * sizeof(uint64_t));
            k.v[k.ncells][0] = unused;
            with_cells += k.ncells++ == 2;
        } else if (strncmp(line, "cpus ", 5) == 0) {
            assert_int_equal(sscanf(line, "cpus %u %u", &k.cpus[0], &k.cpus[1]), 2);
        } else if (line[0] == 'z' && line[1] == ' ') {
            assert_int_equal(sscanf(line, "z %u tol %u", &k.z, &k.tol), 2);
        } else if (line[0] != '#' && line[0] != '\n') {
            check_line(&k, line);
        }
    }
    fclose(f);
    assert_true(cases >= 25);
    assert_true(with_cells >= 1);
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
    assert_int_equal(cmp_moses_k(10, 10, 1960, 1000, 1000), 24);
    assert_int_equal(cmp_moses_k(10, 10, 2500, 1000, 1000), 16); /* 50 - 2.5 x 13.229 = 16.93 */
    assert_int_equal(cmp_moses_k(40, 40, 2500, 1000, 1000), 540);
    assert_int_equal(cmp_moses_k(1, 1, 2500, 1000, 1000), 1);
    assert_int_equal(cmp_moses_k(0, 10, 2500, 1000, 1000), 1);
    assert_int_equal(cmp_moses_k(3, 3, 2500, 1000, 1000), 1); /* floor below 1 */
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
