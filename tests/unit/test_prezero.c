/*
 * tests/unit/test_prezero.c - kernel/prezero_core: policy and duration
 * parsing (valid and malformed input), the human duration format, latency
 * percentiles and the hit percentage. The event loop has its own file,
 * test_prezero_run.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "measure/prezero.h"

static void test_policy_parse(void **state)
{
    struct pz_policy_cfg p = {PZ_IDLE, 9};
    static const char *const names[] = {"none", "boot", "on_free", "idle"};
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(pz_policy_parse(names[k], &p), 0);
        assert_int_equal(p.kind, k);
        assert_int_equal(p.batch, 0);
        assert_string_equal(pz_policy_name(k), names[k]);
    }
    assert_int_equal(pz_policy_parse("batch=1", &p), 0);
    assert_int_equal(p.kind, PZ_BATCH);
    assert_int_equal(p.batch, 1);
    assert_int_equal(pz_policy_parse("batch=4294967295", &p), 0);
    assert_int_equal(p.batch, 4294967295u);
    static const char *const bad[] = {"",         "batch",
                                      "batch=",   "batch=0",
                                      "batch=4x", "batch=-1",
                                      "batch= 2", "batch=4294967296",
                                      "Idle",     "none ",
                                      "on-free",  "idle=1",
                                      "nonex",    "batch=99999999999999999999"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        p = (struct pz_policy_cfg){PZ_IDLE, 9};
        assert_int_equal(pz_policy_parse(bad[i], &p), -1);
        assert_int_equal(p.kind, PZ_IDLE); /* untouched */
        assert_int_equal(p.batch, 9);
    }
    assert_int_equal(pz_policy_parse(0, &p), -1);
    assert_string_equal(pz_policy_name(PZ_BATCH), "batch");
    assert_string_equal(pz_policy_name(PZ_NPOLICIES), "?");

    char buf[32];
    p = (struct pz_policy_cfg){PZ_BATCH, 12};
    assert_int_equal(pz_policy_format(buf, sizeof buf, &p), 8);
    assert_string_equal(buf, "batch=12");
    p = (struct pz_policy_cfg){PZ_ON_FREE, 0};
    assert_int_equal(pz_policy_format(buf, sizeof buf, &p), 7);
    assert_string_equal(buf, "on_free");
    assert_int_equal(pz_policy_format(buf, 4, &p), 7); /* truncated, full length back */
    assert_string_equal(buf, "on_");
}

static void test_parse_ns(void **state)
{
    uint64_t ns = 42;
    static const struct {
        const char *s;
        uint64_t ns;
    } good[] = {{"0", 0},
                {"0s", 0},
                {"250ns", 250},
                {"10us", 10000},
                {"100ms", 100000000},
                {"2s", 2000000000},
                {"007ms", 7000000},
                {"18446744073709551615ns", UINT64_MAX}};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        assert_int_equal(pz_parse_ns(good[i].s, UINT64_MAX, &ns), 0);
        assert_int_equal(ns, good[i].ns);
    }
    static const char *const bad[] = {"",
                                      "5",
                                      "ms",
                                      "1.5s",
                                      "10 ms",
                                      "-1s",
                                      "+1s",
                                      "10m",
                                      "10S",
                                      "1sec",
                                      "s1",
                                      " 1s",
                                      "1s ",
                                      "18446744073709551616ns",
                                      "18446744073709551615us"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ns = 42;
        assert_int_equal(pz_parse_ns(bad[i], UINT64_MAX, &ns), -1);
        assert_int_equal(ns, 42);
    }
    assert_int_equal(pz_parse_ns("1s", 999999999, &ns), -1); /* above max */
    assert_int_equal(pz_parse_ns("999999999ns", 999999999, &ns), 0);
    assert_int_equal(ns, 999999999);
    assert_int_equal(pz_parse_ns(0, 1, &ns), -1);
}

static void test_format_ns(void **state)
{
    static const struct {
        uint64_t ns;
        const char *s;
    } cases[] = {{0, "0 ns"},
                 {999, "999 ns"},
                 {1000, "1.00 us"},
                 {1009, "1.00 us"},
                 {12345, "12.3 us"},
                 {99999, "99.9 us"},
                 {100000, "100 us"},
                 {999999, "999 us"},
                 {300000000, "300 ms"},
                 {1234567890, "1.23 s"},
                 {20050000000ull, "20.0 s"},
                 {4821000000000ull, "4821 s"},
                 {UINT64_MAX, "18446744073 s"}};
    char buf[32];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int n = pz_format_ns(buf, sizeof buf, cases[i].ns);
        assert_string_equal(buf, cases[i].s);
        assert_int_equal(n, (int)strlen(cases[i].s));
    }
}

/* Like with like (issue 12): hits and misses are summarised apart, and the
 * busy groups hold only the faults a zeroer CPU overlapped; a group without
 * samples is all unknown, never another group's figures. */
static void test_latency_split(void **state)
{
    struct pz_sample s[] = {
        {1000, false, false}, {10, true, false}, {3000, false, true}, {20, true, true},
        {2000, false, false}, {30, true, true},  {40, true, false},
    };
    size_t n = sizeof(s) / sizeof(s[0]);
    uint64_t scratch[7] = {0};
    struct pz_split l;
    pz_split_latency(s, n, scratch, &l);
    assert_int_equal(l.all.n, 7);
    assert_int_equal(l.all.min, 10);
    assert_int_equal(l.all.max, 3000);
    assert_int_equal(l.all.p50, 40); /* rank 4 of 10 20 30 40 1000 2000 3000 */
    assert_false(l.all.has_p90);
    assert_int_equal(l.hit.n, 4);
    assert_true(l.hit.min == 10 && l.hit.p50 == 20 && l.hit.max == 40);
    assert_int_equal(l.miss.n, 3);
    assert_true(l.miss.min == 1000 && l.miss.p50 == 2000 && l.miss.max == 3000);
    assert_int_equal(l.busy_hit.n, 2);
    assert_true(l.busy_hit.min == 20 && l.busy_hit.max == 30);
    assert_int_equal(l.busy_miss.n, 1);
    assert_true(l.busy_miss.min == 3000 && l.busy_miss.p50 == 3000);

    for (size_t i = 0; i < n; i++) /* no miss at all */
        s[i].prezeroed = true;
    pz_split_latency(s, n, scratch, &l);
    assert_int_equal(l.miss.n, 0);
    assert_true(l.miss.min == 0 && l.miss.p50 == 0 && l.miss.max == 0);
    assert_int_equal(l.hit.n, 7);
    assert_int_equal(l.busy_hit.n, 3);
    pz_split_latency(s, 0, scratch, &l);
    assert_true(l.all.n == 0 && l.hit.n == 0 && l.busy_miss.n == 0);
}

static void test_latency_and_hits(void **state)
{
    uint64_t v[200];
    for (unsigned i = 0; i < 200; i++)
        v[i] = 10 * (i + 1);
    struct pz_lat l;
    pz_latency(v, 200, &l);
    assert_int_equal(l.n, 200);
    assert_int_equal(l.min, 10);
    assert_int_equal(l.p50, 1000); /* rank 100 */
    assert_int_equal(l.p90, 1800); /* rank 180 */
    assert_int_equal(l.p99, 1980); /* rank 198 */
    assert_int_equal(l.max, 2000);
    assert_true(l.has_p90 && l.has_p99);
    /* p99 needs 100 samples, p90 10: fewer give "unknown", never the max. */
    pz_latency(v, 100, &l);
    assert_true(l.has_p99 && l.p99 == 990 && l.max == 1000);
    pz_latency(v, 99, &l);
    assert_true(l.has_p90 && l.p90 == 900 && !l.has_p99 && l.p99 == 0 && l.max == 990);
    pz_latency(v, 10, &l);
    assert_true(l.has_p90 && l.p90 == 90 && !l.has_p99);
    pz_latency(v, 6, &l); /* the README's old "p99" of 6 faults */
    assert_true(!l.has_p90 && !l.has_p99 && l.p90 == 0 && l.p99 == 0 && l.p50 == 30);
    assert_int_equal(l.max, 60);
    pz_latency(v, 1, &l);
    assert_true(l.min == 10 && l.p50 == 10 && !l.has_p99 && l.max == 10);
    pz_latency(0, 0, &l);
    assert_true(l.n == 0 && l.min == 0 && l.max == 0);

    assert_int_equal(pz_hit_pct_x100(7, 8), 8750);
    assert_int_equal(pz_hit_pct_x100(1, 3), 3333);
    assert_int_equal(pz_hit_pct_x100(2, 3), 6666); /* rounded down */
    assert_int_equal(pz_hit_pct_x100(2, 2), 10000);
    assert_int_equal(pz_hit_pct_x100(0, 5), 0);
    assert_int_equal(pz_hit_pct_x100(0, 0), 0);
    assert_int_equal(pz_hit_pct_x100(9, 2), 10000);
    assert_int_equal(pz_hit_pct_x100(UINT64_MAX - 1, UINT64_MAX), 9999);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_parse),  cmocka_unit_test(test_parse_ns),
        cmocka_unit_test(test_format_ns),     cmocka_unit_test(test_latency_and_hits),
        cmocka_unit_test(test_latency_split),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
