/*
 * tests/unit/test_vmmodel.c - lib/vmmodel.c: the VM-start model
 * S / min(T x r1, B) with B measured (plateau), from bw_ceiling= or
 * unknown (a lower bound only), the scaling of T against T - 1 and
 * Amdahl's law fitted to a curve, and the sizes in the claim's units, on
 * hand-worked values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/vmmodel.h"

/* A plateau is a tie or "slower" at the top of the curve; anything else
 * falls back to the option, else unknown. */
static void test_ceiling(void **state)
{
    uint64_t b = 7;
    assert_int_equal(vm_ceiling(CMP_TIE, 20000, 0, &b), VM_B_MEASURED);
    assert_true(b == 20000);
    assert_int_equal(vm_ceiling(CMP_SLOWER, 20000, 99000, &b), VM_B_MEASURED);
    assert_true(b == 20000); /* the plateau wins over the option */
    assert_int_equal(vm_ceiling(CMP_FASTER, 20000, 99000, &b), VM_B_OPTION);
    assert_true(b == 99000);
    assert_int_equal(vm_ceiling(CMP_UNDECIDED, 20000, 0, &b), VM_B_UNKNOWN);
    assert_true(b == 0);
    assert_int_equal(vm_ceiling(CMP_TOO_FEW, 20000, 0, &b), VM_B_UNKNOWN);
    assert_int_equal(vm_ceiling(-1, 20000, 0, &b), VM_B_UNKNOWN);  /* one thread count */
    assert_int_equal(vm_ceiling(CMP_TIE, 0, 0, &b), VM_B_UNKNOWN); /* no rate: no plateau */
    assert_string_equal(vm_bsrc_key(VM_B_OPTION), "option");
    assert_string_equal(vm_bsrc_text(VM_B_MEASURED), "measured plateau");
    assert_string_equal(vm_bsrc_text(VM_B_UNKNOWN), "unknown");
}

static void test_model(void **state)
{
    /* 2 TB, 16 x 3.5 GB/s = 56 capped at B = 20 GB/s: 2 x 10^12 / 20 = 100 s */
    struct vm_model m = {.bytes = VM_CLAIM_BYTES,
                         .threads = 16,
                         .r1_x1000 = 3500,
                         .b_x1000 = 20000,
                         .src = VM_B_MEASURED};
    vm_model_eval(&m);
    assert_true(m.rate_x1000 == 20000 && m.capped && !m.lower_bound);
    assert_true(m.ns == 100000000000ull);
    /* under the ceiling: 16 x 3.125 = 50 GB/s -> 40 s, the claim */
    m = (struct vm_model){.bytes = VM_CLAIM_BYTES,
                          .threads = VM_QEMU_THREADS,
                          .r1_x1000 = 3125,
                          .b_x1000 = 90000,
                          .src = VM_B_OPTION};
    vm_model_eval(&m);
    assert_true(m.rate_x1000 == 50000 && !m.capped && !m.lower_bound);
    assert_true(m.ns == VM_CLAIM_NS);
    /* B unknown: T x r1 only, and the time is a lower bound */
    m = (struct vm_model){.bytes = VM_CLAIM_BYTES,
                          .threads = 16,
                          .r1_x1000 = 3500,
                          .b_x1000 = 0,
                          .src = VM_B_UNKNOWN};
    vm_model_eval(&m);
    assert_true(m.lower_bound && !m.capped && m.rate_x1000 == 56000);
    assert_true(m.ns == 35714285714ull); /* 2 x 10^12 / 56 = 35714285714.29 */
    /* a known source with B 0 is treated as unknown, never as "no cap" */
    m = (struct vm_model){
        .bytes = VM_CLAIM_BYTES, .threads = 16, .r1_x1000 = 3500, .b_x1000 = 0, .src = VM_B_OPTION};
    vm_model_eval(&m);
    assert_true(m.lower_bound);
    /* 2 TiB beside TiB: 2^41 / 20 = 109951162777.6 */
    m = (struct vm_model){
        .bytes = 2ull << 40, .threads = 16, .r1_x1000 = 3500, .b_x1000 = 20000, .src = VM_B_OPTION};
    vm_model_eval(&m);
    assert_true(m.ns == 109951162778ull);
    /* no rate: no figure */
    m = (struct vm_model){.bytes = VM_CLAIM_BYTES,
                          .threads = 16,
                          .r1_x1000 = 0,
                          .b_x1000 = 20000,
                          .src = VM_B_OPTION};
    vm_model_eval(&m);
    assert_true(m.ns == UINT64_MAX);
}

static void test_size(void **state)
{
    uint64_t b = 0;
    bool dec = false;
    char err[96], t[32];
    assert_int_equal(vm_size_parse("2TB", &b, &dec, err, sizeof(err)), 0);
    assert_true(b == 2000000000000ull && dec);
    assert_int_equal(vm_size_parse("2TiB", &b, &dec, err, sizeof(err)), 0);
    assert_true(b == 2ull << 40 && !dec);
    assert_int_equal(vm_size_parse("1536GiB", &b, &dec, err, sizeof(err)), 0);
    assert_true(b == 1536ull << 30);
    assert_int_equal(vm_size_parse("500GB", &b, &dec, err, sizeof(err)), 0);
    assert_true(b == 500000000000ull && dec);
    b = 5;
    assert_int_equal(vm_size_parse("2T", &b, &dec, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "unit"));
    assert_int_equal(vm_size_parse("0TB", &b, &dec, err, sizeof(err)), -1);
    assert_int_equal(vm_size_parse("1.5TB", &b, &dec, err, sizeof(err)), -1);
    assert_int_equal(vm_size_parse("TB", &b, &dec, err, sizeof(err)), -1);
    assert_int_equal(vm_size_parse("99999999999TB", &b, &dec, err, sizeof(err)), -1);
    assert_int_equal(vm_size_parse("2TBx", &b, &dec, err, sizeof(err)), -1);
    assert_true(b == 5); /* untouched on error */
    vm_size_text(t, sizeof(t), 2000000000000ull, true);
    assert_string_equal(t, "2 TB");
    vm_size_text(t, sizeof(t), 2ull << 40, true); /* TiB bytes in TB: 2.199 TB */
    assert_string_equal(t, "2.199 TB");
    vm_size_text(t, sizeof(t), 2ull << 40, false);
    assert_string_equal(t, "2 TiB");
    vm_size_text(t, sizeof(t), 1500000000000ull, true);
    assert_string_equal(t, "1.5 TB");
    vm_size_text(t, sizeof(t), 500000000000ull, true);
    assert_string_equal(t, "500 GB");
    vm_size_text(t, sizeof(t), 64ull << 30, false);
    assert_string_equal(t, "64 GiB");
}

static void test_gbps(void **state)
{
    uint64_t x = 9;
    char err[96];
    assert_int_equal(vm_gbps_parse("204.8", &x, err, sizeof(err)), 0);
    assert_true(x == 204800);
    assert_int_equal(vm_gbps_parse("100", &x, err, sizeof(err)), 0);
    assert_true(x == 100000);
    assert_int_equal(vm_gbps_parse("0.001", &x, err, sizeof(err)), 0);
    assert_true(x == 1);
    x = 9;
    assert_int_equal(vm_gbps_parse("0", &x, err, sizeof(err)), -1);
    assert_int_equal(vm_gbps_parse("1.2345", &x, err, sizeof(err)), -1);
    assert_int_equal(vm_gbps_parse("abc", &x, err, sizeof(err)), -1);
    assert_int_equal(vm_gbps_parse("", &x, err, sizeof(err)), -1);
    assert_int_equal(vm_gbps_parse("20000000", &x, err, sizeof(err)), -1);
    assert_int_equal(vm_gbps_parse("100GB", &x, err, sizeof(err)), -1);
    assert_true(x == 9);
}

/* The scaling of T against T - 1: a tie or slower is a plateau; faster is
 * sub-linear only when the whole speed-up interval is below T / (T - 1). */
static void test_scaling(void **state)
{
    /* time ratios B/A x 10^6: 0.60 [0.55..0.65] is a speed-up 1.67 [1.54..1.82] */
    struct cmp c = {
        .outcome = CMP_FASTER, .ratio_x1e6 = 600000, .lo_x1e6 = 550000, .hi_x1e6 = 650000};
    assert_int_equal(vm_scaling(&c, 2), VM_SCALE_SUBLINEAR); /* 1.82 < 2 */
    c.lo_x1e6 = 490000;                                      /* speed-up up to 2.04 */
    assert_int_equal(vm_scaling(&c, 2), VM_SCALE_LINEAR);
    c.lo_x1e6 = 500000; /* exactly 2.00: reaches linear */
    assert_int_equal(vm_scaling(&c, 2), VM_SCALE_LINEAR);
    c.lo_x1e6 = 760000; /* T=4 over 3: linear is 1.333, speed-up hi 1.316 */
    assert_int_equal(vm_scaling(&c, 4), VM_SCALE_SUBLINEAR);
    assert_int_equal(vm_scaling(&c, 1), VM_SCALE_OPEN);
    assert_int_equal(vm_scaling(0, 2), VM_SCALE_OPEN);
    c.outcome = CMP_TIE;
    assert_int_equal(vm_scaling(&c, 2), VM_SCALE_PLATEAU);
    c.outcome = CMP_SLOWER;
    assert_int_equal(vm_scaling(&c, 2), VM_SCALE_PLATEAU);
    c.outcome = CMP_UNDECIDED;
    assert_int_equal(vm_scaling(&c, 2), VM_SCALE_OPEN);
    assert_string_equal(vm_scale_key(VM_SCALE_SUBLINEAR), "sublinear");
    assert_string_equal(vm_scale_key(VM_SCALE_PLATEAU), "plateau");
}

/* The knee: the first step that is a plateau or sub-linear; linear and
 * undecided steps are no knee. */
static void test_knee(void **state)
{
    const struct cmp lin = {.outcome = CMP_FASTER, .ratio_x1e6 = 500000, .lo_x1e6 = 480000},
                     sub = {.outcome = CMP_FASTER, .ratio_x1e6 = 900000, .lo_x1e6 = 880000},
                     und = {.outcome = CMP_UNDECIDED, .lo_x1e6 = 880000},
                     tie = {.outcome = CMP_TIE, .lo_x1e6 = 980000};
    struct cmp steps[3] = {lin, lin, lin};
    assert_int_equal(vm_knee(steps, 4), 0);
    steps[1] = sub; /* T=3 vs T=2 */
    assert_int_equal(vm_knee(steps, 4), 3);
    steps[0] = und; /* undecided at T=2: not a knee */
    assert_int_equal(vm_knee(steps, 4), 3);
    steps[1] = und;
    steps[2] = tie;
    assert_int_equal(vm_knee(steps, 4), 4);
    assert_int_equal(vm_knee(steps, 3), 0); /* only T=2, 3 looked at */
    assert_int_equal(vm_knee(steps, 1), 0);
}

/* Amdahl's law fitted to measured curves, worked by hand. */
static void test_amdahl(void **state)
{
    /* linear: serial 0, and 16 threads give 16 x r1 */
    const uint64_t lin[4] = {10000, 20000, 30000, 40000};
    assert_int_equal(vm_amdahl_fit(lin, 4), 0);
    assert_true(vm_amdahl_rate(10000, 0, 16) == 160000);
    /* S(2) = 1.2: 1 - 1/1.2 = 0.1667 = p x 0.5, p = 0.3333, serial 0.6667;
     * S(16) = 16 / (16 x 0.6667 + 0.3333) = 1.4545 */
    const uint64_t sub[2] = {10000, 12000};
    int64_t s = vm_amdahl_fit(sub, 2);
    assert_true(s >= 666000 && s <= 667500);
    uint64_t r16 = vm_amdahl_rate(10000, (uint64_t)s, 16);
    assert_true(r16 >= 14540 && r16 <= 14560);
    /* points of one Amdahl curve (serial 0.1: S = T / (0.1 T + 0.9)) fit it back */
    uint64_t g[8];
    for (unsigned t = 1; t <= 8; t++)
        g[t - 1] = vm_amdahl_rate(10000, 100000, t);
    s = vm_amdahl_fit(g, 8);
    assert_true(s >= 99000 && s <= 101000);
    /* a flat curve is all serial; one slower than T=1 clamps to serial 1 */
    const uint64_t flat[3] = {10000, 10000, 9000};
    assert_int_equal(vm_amdahl_fit(flat, 3), 1000000);
    assert_true(vm_amdahl_rate(10000, 1000000, 16) == 10000);
    /* nothing to fit: one point, or no rate at T=1 */
    assert_int_equal(vm_amdahl_fit(sub, 1), -1);
    const uint64_t none[2] = {0, 5000};
    assert_int_equal(vm_amdahl_fit(none, 2), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ceiling), cmocka_unit_test(test_model),
        cmocka_unit_test(test_size),    cmocka_unit_test(test_gbps),
        cmocka_unit_test(test_scaling), cmocka_unit_test(test_amdahl),
        cmocka_unit_test(test_knee),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
