/*
 * tests/unit/test_workload.c - kernel/workload: the PRNGs against their
 * published vectors, the fixed-point ln against libm, the exponential
 * distribution's moments, and the exact event streams of each workload.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "measure/workload.h"

static void test_splitmix64_reference(void **state)
{
    uint64_t s = 0;
    assert_int_equal(wl_splitmix64(&s), 0xe220a8397b1dcdafull);
    assert_int_equal(wl_splitmix64(&s), 0x6e789e6aa1b965f4ull);
    assert_int_equal(wl_splitmix64(&s), 0x06c45d188009454full);
}

static void test_xoshiro256starstar_reference(void **state)
{
    struct wl_rng r = {{1, 2, 3, 4}};
    static const uint64_t want[10] = {11520ull,
                                      0ull,
                                      1509978240ull,
                                      1215971899390074240ull,
                                      1216172134540287360ull,
                                      607988272756665600ull,
                                      16172922978634559625ull,
                                      8476171486693032832ull,
                                      10595114339597558777ull,
                                      2904607092377533576ull};
    for (int i = 0; i < 10; i++)
        assert_int_equal(wl_rng_next(&r), want[i]);
    /* Seeding is splitmix64 from the seed: seed 0 -> the vector above. */
    wl_rng_seed(&r, 0);
    assert_int_equal(r.s[0], 0xe220a8397b1dcdafull);
    assert_int_equal(r.s[2], 0x06c45d188009454full);
}

static long double ln_error(uint64_t m)
{
    long double want = -logl(ldexpl((long double)m, -64));
    long double got = ldexpl((long double)wl_neg_ln_q32(m), -32);
    return fabsl(got - want);
}

static void test_neg_ln_matches_libm(void **state)
{
    /* Exact points first: 2^63 -> ln 2, 2^32 -> 32 ln 2, 1 -> 64 ln 2. */
    assert_int_equal(wl_neg_ln_q32(1ull << 63), 2977044471ull); /* floor(ln2 * 2^32) */
    assert_int_equal(wl_neg_ln_q32(1), wl_neg_ln_q32(0));
    assert_true(ln_error(1) < 0x1p-28L);
    assert_true(ln_error(1ull << 32) < 0x1p-28L);
    assert_true(wl_neg_ln_q32(UINT64_MAX) <= 1); /* -ln(1 - 2^-64) ~ 5e-20 */
    long double worst = 0;
    struct wl_rng r;
    wl_rng_seed(&r, 99);
    for (int i = 0; i < 200000; i++) {
        uint64_t m = wl_rng_next(&r) >> (i % 64); /* all magnitudes */
        if (!m)
            continue;
        long double e = ln_error(m);
        if (e > worst)
            worst = e;
    }
    for (uint64_t m = 1; m < 5000; m++) {
        long double e = ln_error(m);
        if (e > worst)
            worst = e;
    }
    assert_true(worst < 0x1p-28L);
    assert_true(worst > 0); /* the bound is really exercised, not vacuous */
}

static void test_exp_draws_match_inverse_cdf(void **state)
{
    struct wl_rng a, b;
    wl_rng_seed(&a, 7);
    wl_rng_seed(&b, 7);
    const uint64_t mean = 250000000; /* 250 ms */
    for (int i = 0; i < 2000; i++) {
        uint64_t u = wl_rng_next(&b);
        long double want = (long double)mean * -logl(ldexpl((long double)u, -64));
        long double got = (long double)wl_exp_ns(&a, mean);
        assert_true(fabsl(got - want) <= 1.5L);
    }
    assert_int_equal(wl_exp_ns(&a, 0), 0);
    assert_int_equal(a.s[0], (wl_rng_next(&b), b.s[0])); /* mean 0 still draws */
}

static void test_exp_mean_and_shape(void **state)
{
    struct wl_rng r;
    wl_rng_seed(&r, 2024);
    const uint64_t mean = 1000000;
    const int n = 200000;
    long double sum = 0, sq = 0;
    int above = 0;
    for (int i = 0; i < n; i++) {
        uint64_t t = wl_exp_ns(&r, mean);
        sum += t;
        sq += (long double)t * t;
        above += t > mean;
    }
    long double m = sum / n, sd = sqrtl(sq / n - m * m);
    assert_true(fabsl(m / mean - 1) < 0.02L);                      /* mean within 2% */
    assert_true(fabsl(sd / mean - 1) < 0.03L);                     /* exponential: sd == mean */
    assert_true(fabsl((long double)above / n - expl(-1)) < 0.01L); /* P(T > mean) = 1/e */
}

/* Collect up to max events; returns how many. */
static int run(const struct wl_params *p, struct wl_event *ev, int max)
{
    struct wl_gen g;
    const char *why = "x";
    assert_int_equal(workload_init(&g, p, &why), WL_OK);
    assert_string_equal(why, "");
    int n = 0;
    while (n < max && workload_next(&g, &ev[n]))
        n++;
    struct wl_event e = {.page = 77};
    if (n < max) { /* the end is sticky and leaves *e alone */
        assert_false(workload_next(&g, &e));
        assert_int_equal(e.page, 77);
    }
    return n;
}

static void expect(const struct wl_event *e, enum wl_op op, uint64_t at, uint64_t arg,
                   uint32_t page, uint32_t cpu, uint32_t cycle)
{
    assert_int_equal(e->op, op);
    assert_int_equal(e->at_ns, at);
    assert_int_equal(e->arg, arg);
    assert_int_equal(e->page, page);
    assert_int_equal(e->cpu, cpu);
    assert_int_equal(e->cycle, cycle);
}

static void test_vm_boot_interleaves_cpu_ranges(void **state)
{
    struct wl_params p;
    workload_defaults(&p, WL_VM_BOOT, 10);
    p.cpus = 3; /* ranges [0,4) [4,7) [7,10) */
    struct wl_event ev[16];
    assert_int_equal(run(&p, ev, 16), 10);
    static const uint32_t page[10] = {0, 4, 7, 1, 5, 8, 2, 6, 9, 3};
    static const uint32_t cpu[10] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0};
    for (int i = 0; i < 10; i++)
        expect(&ev[i], WL_FAULT, 0, 0, page[i], cpu[i], 0);
    p.cpus = 5;
    p.pages = 2; /* more CPUs than pages */
    assert_int_equal(run(&p, ev, 16), 2);
    expect(&ev[0], WL_FAULT, 0, 0, 0, 0, 0);
    expect(&ev[1], WL_FAULT, 0, 0, 1, 1, 0);
    p.zero_request = 3;
    assert_int_equal(run(&p, ev, 16), 3);
    expect(&ev[0], WL_ZERO_REQUEST, 0, 3, 0, 0, 0);
}

static void test_vm_boot_covers_each_page_once(void **state)
{
    static struct wl_event ev[600];
    for (uint32_t n = 1; n <= 40; n += 3) {
        for (uint32_t c = 1; c <= 9; c++) {
            struct wl_params p;
            workload_defaults(&p, WL_VM_BOOT, n);
            p.cpus = c;
            assert_int_equal(run(&p, ev, 600), (int)n);
            int seen[40] = {0};
            uint32_t last[9];
            for (uint32_t k = 0; k < c; k++)
                last[k] = UINT32_MAX;
            for (uint32_t i = 0; i < n; i++) {
                seen[ev[i].page]++;
                uint32_t k = ev[i].cpu;
                assert_true(k < c);
                /* each CPU walks its own range upwards, one page at a time */
                if (last[k] != UINT32_MAX)
                    assert_int_equal(ev[i].page, last[k] + 1);
                last[k] = ev[i].page;
            }
            for (uint32_t i = 0; i < n; i++)
                assert_int_equal(seen[i], 1);
        }
    }
}

static void test_restart_shape(void **state)
{
    struct wl_params p;
    workload_defaults(&p, WL_RESTART, 3);
    p.cycles = 2;
    p.hold_ns = 10;
    p.idle_ns = 100;
    struct wl_event ev[32];
    assert_int_equal(run(&p, ev, 32), 3 + 3 + 1 + 3 + 3 + 1 + 3);
    assert_int_equal(workload_faults(&p), 9);
    int i = 0;
    for (uint32_t c = 0; c <= 2; c++) {
        uint64_t t0 = c * 110;
        if (c > 0)
            expect(&ev[i++], WL_IDLE, t0 - 100, 100, 0, 0, c);
        for (uint32_t k = 0; k < 3; k++)
            expect(&ev[i++], WL_FAULT, t0, 0, k, 0, c);
        if (c < 2)
            for (uint32_t k = 0; k < 3; k++)
                expect(&ev[i++], WL_FREE, t0 + 10, 0, k, 0, c);
    }
    p.idle_ns = 0; /* no zero-length IDLE events */
    assert_int_equal(run(&p, ev, 32), 15);
    for (i = 0; i < 15; i++)
        assert_int_not_equal(ev[i].op, WL_IDLE);
}

static void test_burst_shape(void **state)
{
    struct wl_params p;
    workload_defaults(&p, WL_BURST, 2);
    p.cycles = 2;
    p.idle_ns = 1000;
    p.hold_ns = 5;
    p.zero_request = 2;
    p.cpus = 2;
    struct wl_event ev[16];
    assert_int_equal(run(&p, ev, 16), 10);
    expect(&ev[0], WL_IDLE, 0, 1000, 0, 0, 0);
    expect(&ev[1], WL_ZERO_REQUEST, 1000, 2, 0, 0, 0);
    expect(&ev[2], WL_FAULT, 1000, 0, 0, 0, 0);
    expect(&ev[3], WL_FAULT, 1000, 0, 1, 1, 0);
    expect(&ev[4], WL_FREE, 1005, 0, 0, 0, 0);
    expect(&ev[5], WL_FREE, 1005, 0, 1, 1, 0);
    expect(&ev[6], WL_IDLE, 1005, 1000, 0, 0, 1);
    expect(&ev[7], WL_ZERO_REQUEST, 2005, 2, 0, 0, 1);
    expect(&ev[8], WL_FAULT, 2005, 0, 0, 0, 1);
    expect(&ev[9], WL_FAULT, 2005, 0, 1, 1, 1);
    p.cycles = 1; /* the last burst keeps its pages */
    assert_int_equal(run(&p, ev, 16), 4);
    assert_int_equal(workload_faults(&p), 2);
}

static void test_churn_exact_first_events(void **state)
{
    struct wl_params p;
    workload_defaults(&p, WL_CHURN, 2);
    p.cycles = 2;
    p.think_ns = 1000000;
    p.hold_ns = 500;
    p.seed = 42;
    struct wl_event ev[16];
    assert_int_equal(run(&p, ev, 16), 10);
    /* The think times are the first two exponential draws of seed 42. */
    struct wl_rng r;
    wl_rng_seed(&r, 42);
    uint64_t d1 = wl_exp_ns(&r, p.think_ns), d2 = wl_exp_ns(&r, p.think_ns);
    assert_int_equal(d1, 2478571); /* 1e6 * -ln(U), U = 1546998764402558742 / 2^64 */
    assert_int_equal(d2, 970271);  /* U = 6990951692964543102 / 2^64 */
    expect(&ev[0], WL_IDLE, 0, d1, 0, 0, 0);
    expect(&ev[1], WL_FAULT, d1, 0, 0, 0, 0);
    expect(&ev[2], WL_FAULT, d1, 0, 1, 0, 0);
    expect(&ev[3], WL_FREE, d1 + 500, 0, 0, 0, 0);
    expect(&ev[4], WL_FREE, d1 + 500, 0, 1, 0, 0);
    expect(&ev[5], WL_IDLE, d1 + 500, d2, 0, 0, 1);
    expect(&ev[6], WL_FAULT, d1 + 500 + d2, 0, 0, 0, 1);
    expect(&ev[9], WL_FREE, d1 + 1000 + d2, 0, 1, 0, 1);
}

/* Think times of a 50-cycle churn run. */
static void churn_thinks(uint64_t seed, uint64_t out[50])
{
    struct wl_params p;
    workload_defaults(&p, WL_CHURN, 1);
    p.cycles = 50;
    p.seed = seed;
    struct wl_gen g;
    assert_int_equal(workload_init(&g, &p, NULL), WL_OK);
    struct wl_event e;
    int k = 0;
    while (workload_next(&g, &e))
        if (e.op == WL_IDLE)
            out[k++] = e.arg;
    assert_int_equal(k, 50);
}

static void test_seeds_reproduce_and_differ(void **state)
{
    uint64_t a[50], b[50], c[50];
    churn_thinks(5, a);
    churn_thinks(5, b);
    churn_thinks(6, c);
    assert_memory_equal(a, b, sizeof a);
    int same = 0;
    for (int i = 0; i < 50; i++)
        same += a[i] == c[i];
    assert_int_equal(same, 0);
}

static void test_bad_params_are_named(void **state)
{
    struct wl_params p;
    struct wl_gen g;
    struct wl_event e;
    const char *why;
    workload_defaults(&p, WL_CHURN, 0);
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "pages");
    assert_false(workload_next(&g, &e));
    p.pages = UINT32_MAX;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    p.pages = 4;
    p.cpus = 0;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "cpus");
    p.cpus = 1;
    p.cycles = 0;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "cycles");
    assert_int_equal(workload_faults(&p), 0);
    p.kind = WL_VM_BOOT; /* vm_boot has no cycles */
    assert_int_equal(workload_init(&g, &p, &why), WL_OK);
    assert_int_equal(workload_faults(&p), 4);
    p.kind = WL_CHURN;
    p.cycles = 1;
    p.think_ns = WL_MAX_NS + 1;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "think_ns");
    p.think_ns = WL_MAX_NS;
    p.hold_ns = UINT64_MAX;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "hold_ns");
    p.hold_ns = 0;
    p.idle_ns = WL_MAX_NS + 1;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "idle_ns");
    p.idle_ns = 0;
    p.kind = (enum wl_kind)WL_NKINDS;
    assert_int_equal(workload_init(&g, &p, &why), WL_EINVAL);
    assert_string_equal(why, "kind");
    assert_int_equal(workload_init(&g, NULL, &why), WL_EINVAL);
    assert_string_equal(why, "params");
}

static void test_nominal_time_saturates(void **state)
{
    struct wl_params p;
    workload_defaults(&p, WL_RESTART, 1);
    p.cycles = 10000;
    p.hold_ns = WL_MAX_NS;
    p.idle_ns = WL_MAX_NS; /* 2^51 per cycle: 2^64 after 8192 cycles */
    struct wl_gen g;
    assert_int_equal(workload_init(&g, &p, NULL), WL_OK);
    struct wl_event e;
    uint64_t last = 0, n = 0;
    while (workload_next(&g, &e)) {
        assert_true(e.at_ns >= last);
        last = e.at_ns;
        n++;
    }
    assert_int_equal(last, UINT64_MAX);
    assert_int_equal(n, 1 + 10000 * 3);
}

/* A tenant writes a non-zero word into every 64-byte line (issue 12: one
 * word per 4 KiB left a reused frame ~98% zero), and nothing past the end. */
static void test_tenant_dirties_every_line(void **state)
{
    static uint64_t page[(64 * 1024 + 64) / 8];
    const uint64_t bytes = 64 * 1024;
    memset(page, 0, sizeof(page));
    wl_tenant_dirty(page, bytes);
    for (uint64_t line = 0; line < bytes / 64; line++) {
        const uint64_t *w = &page[line * 8];
        assert_int_equal(w[0], WL_TENANT_WORD ^ (line * 64));
        assert_true(w[0] != 0);
        for (int k = 1; k < 8; k++) /* one word per line is enough */
            assert_int_equal(w[k], 0);
    }
    for (size_t i = bytes / 8; i < sizeof(page) / 8; i++)
        assert_int_equal(page[i], 0);
    memset(page, 0, sizeof(page)); /* a partial line at the end stays untouched */
    wl_tenant_dirty(page, 100);
    assert_true(page[0] != 0 && page[1] == 0);
    for (size_t i = 2; i < 64 / 8 * 2; i++)
        assert_int_equal(page[i], 0);
}

static void test_names(void **state)
{
    assert_string_equal(wl_kind_names[WL_VM_BOOT], "vm_boot");
    assert_string_equal(wl_kind_names[WL_BURST], "burst");
    assert_null(wl_kind_names[WL_NKINDS]);
    assert_string_equal(wl_op_name(WL_ZERO_REQUEST), "zero_request");
    assert_string_equal(wl_op_name(WL_NOPS), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_reference),
        cmocka_unit_test(test_xoshiro256starstar_reference),
        cmocka_unit_test(test_neg_ln_matches_libm),
        cmocka_unit_test(test_exp_draws_match_inverse_cdf),
        cmocka_unit_test(test_exp_mean_and_shape),
        cmocka_unit_test(test_vm_boot_interleaves_cpu_ranges),
        cmocka_unit_test(test_vm_boot_covers_each_page_once),
        cmocka_unit_test(test_restart_shape),
        cmocka_unit_test(test_burst_shape),
        cmocka_unit_test(test_churn_exact_first_events),
        cmocka_unit_test(test_seeds_reproduce_and_differ),
        cmocka_unit_test(test_bad_params_are_named),
        cmocka_unit_test(test_nominal_time_saturates),
        cmocka_unit_test(test_tenant_dirties_every_line),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
