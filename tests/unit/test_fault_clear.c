/*
 * tests/unit/test_fault_clear.c - measure/fault_clear: the process_huge_page
 * order against hand-derived permutations, the sequence of clear calls each
 * model makes (offsets, sizes, the 1 GiB-style two-level hot-last order,
 * the `from` cut), that every model leaves the frame zero with the dirty
 * frames around it untouched (REP STOSB, REP STOSQ and, when the CPU has
 * it, a non-temporal row), clear_dirty_check() (run=faultclear's check of
 * the unfaulted frame), and the `fault_clear=` parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cpu.h"
#include "measure/fault_clear.h"
#include "measure/memop.h"

#define PG FAULT_CLEAR_PAGE
#define MAXCALLS 4096

static uint64_t offs[MAXCALLS], lens[MAXCALLS];
static size_t ncalls;
static uint8_t *base;

static void recording_fn(void *dst, size_t bytes)
{
    assert_true(ncalls < MAXCALLS);
    offs[ncalls] = (uint64_t)((uint8_t *)dst - base);
    lens[ncalls++] = bytes;
    memset(dst, 0, bytes);
}

static const struct clear_strategy recording = {.name = "recording", .fn = recording_fn};

static void run(struct fault_clear m, uint8_t *frame, uint64_t bytes, uint64_t from, uint64_t hint)
{
    struct fault_clear_job job = {&m, &recording, frame, bytes, from, hint, 0, 0};
    base = frame;
    ncalls = 0;
    fault_clear_run(&job);
    assert_int_equal(job.calls, ncalls);
}

static void test_hot_order_by_hand(void **state)
{
    /* Worked from process_huge_page (v4.14): nr 8, target t. */
    static const uint32_t want[8][8] = {
        {7, 6, 5, 4, 3, 2, 1, 0}, /* t 0: the end first, downwards */
        {7, 6, 5, 4, 3, 2, 0, 1}, {7, 6, 5, 4, 0, 3, 1, 2},
        {7, 6, 0, 5, 1, 4, 2, 3}, {0, 7, 1, 6, 2, 5, 3, 4}, /* t 4: 2t = nr, pairs only */
        {0, 1, 2, 7, 3, 6, 4, 5}, {0, 1, 2, 3, 4, 7, 5, 6},
        {0, 1, 2, 3, 4, 5, 6, 7}, /* t 7: address order */
    };
    for (uint32_t t = 0; t < 8; t++)
        for (uint32_t i = 0; i < 8; i++)
            assert_int_equal(fault_clear_hot_order(8, t, i), want[t][i]);
    /* Odd nr 5, t 3: b = 1: 0, then (1, 4), (2, 3). */
    static const uint32_t odd[5] = {0, 1, 4, 2, 3};
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(fault_clear_hot_order(5, 3, i), odd[i]);
}

static void test_hot_order_is_permutation(void **state)
{
    for (uint32_t t = 0; t < 512; t++) {
        uint8_t seen[512] = {0};
        for (uint32_t i = 0; i < 512; i++) {
            uint32_t p = fault_clear_hot_order(512, t, i);
            assert_true(p < 512);
            assert_int_equal(seen[p]++, 0);
        }
        assert_int_equal(fault_clear_hot_order(512, t, 511), t); /* the target last */
    }
}

static void test_call_sequences(void **state)
{
    uint64_t bytes = 4 * FAULT_CLEAR_UNIT; /* 8 MiB: four 2 MiB units, like a 1 GiB frame */
    uint8_t *f = aligned_alloc(PG, bytes);
    assert_non_null(f);

    run((struct fault_clear){FAULT_CLEAR_EXTENT, 0}, f, bytes, 0, 0);
    assert_int_equal(ncalls, 1);
    assert_int_equal(lens[0], bytes);

    run((struct fault_clear){FAULT_CLEAR_LINUX_4K, 0}, f, bytes, 0, 12345);
    assert_int_equal(ncalls, bytes / PG);
    for (size_t i = 0; i < ncalls; i++)
        assert_true(offs[i] == i * PG && lens[i] == PG);

    run((struct fault_clear){FAULT_CLEAR_LINUX_BATCH, 3 << 20}, f, bytes, 0, 0);
    assert_int_equal(ncalls, 3); /* 3 + 3 + 2 MiB */
    assert_true(offs[1] == 3 << 20 && lens[1] == 3 << 20 && lens[2] == 2 << 20);

    /* Hot-last on 8 MiB, fault in unit 1 at subpage 3: units 3, 2, 0, 1,
     * each's subpages in process_huge_page(512, 3) order. */
    uint64_t hint = FAULT_CLEAR_UNIT + 3 * PG + 100;
    run((struct fault_clear){FAULT_CLEAR_LINUX_HOT_LAST, 0}, f, bytes, 0, hint);
    assert_int_equal(ncalls, bytes / PG);
    static const uint32_t units[4] = {3, 2, 0, 1};
    for (size_t i = 0; i < ncalls; i++) {
        uint64_t want = units[i / 512] * FAULT_CLEAR_UNIT +
                        fault_clear_hot_order(512, 3, (uint32_t)(i % 512)) * PG;
        assert_true(offs[i] == want && lens[i] == PG);
    }
    assert_int_equal(offs[ncalls - 1], hint / PG * PG); /* the faulting subpage last */

    /* 2 MiB frame, fault at subpage 509: 0..505, then (506, 511), (507, 510), (508, 509). */
    run((struct fault_clear){FAULT_CLEAR_LINUX_HOT_LAST, 0}, f, FAULT_CLEAR_UNIT, 0, 509 * PG);
    assert_int_equal(ncalls, 512);
    assert_true(offs[505] == 505 * PG && offs[506] == 506 * PG && offs[507] == 511 * PG);
    assert_int_equal(offs[511], 509 * PG);

    /* from: a background zeroer already cleared the first 5 MiB. */
    run((struct fault_clear){FAULT_CLEAR_LINUX_BATCH, 4 << 20}, f, bytes, 5 << 20, 0);
    assert_int_equal(ncalls, 1);
    assert_true(offs[0] == 5 << 20 && lens[0] == 3 << 20);
    run((struct fault_clear){FAULT_CLEAR_LINUX_4K, 0}, f, bytes, bytes - 2 * PG, 0);
    assert_int_equal(ncalls, 2);
    free(f);
}

/* Every model with real strategies: the frame reads back zero and the
 * dirty guard frames on both sides (2 MiB-sized neighbours, as the pool's
 * other frames) still hold their pattern byte for byte. */
static void test_models_zero_and_guard(void **state)
{
    const uint64_t guard = FAULT_CLEAR_UNIT, bytes = 2 * FAULT_CLEAR_UNIT;
    uint8_t *buf = aligned_alloc(PG, bytes + 2 * guard);
    assert_non_null(buf);
    uint8_t *f = buf + guard;
    const char *names[] = {"rep_stosb", "rep_stosq", "avx512_nt", "clzero", "sse2_nt"};
    struct fault_clear models[] = {{FAULT_CLEAR_EXTENT, 0},
                                   {FAULT_CLEAR_LINUX_4K, 0},
                                   {FAULT_CLEAR_LINUX_HOT_LAST, 0},
                                   {FAULT_CLEAR_LINUX_BATCH, FAULT_CLEAR_BATCH_DEFAULT},
                                   {FAULT_CLEAR_LINUX_BATCH, 64 << 10}};
    int ran = 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        const struct clear_strategy *s = clear_find(names[k]);
        assert_non_null(s);
        if (!clear_supported(s, NULL))
            continue;
        for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
            clear_dirty(buf, bytes + 2 * guard, m + 1);
            struct fault_clear_job job = {&models[m], s, f, bytes, 0, bytes / 3, 0, 0};
            fault_clear_run(&job);
            size_t at;
            assert_true(memop_verify_zero(f, bytes, MEMOP_EXACT, NULL));
            assert_true(clear_dirty_check(buf, guard, m + 1, &at));
            assert_true(clear_dirty_check(f + bytes, guard, m + 1, &at));
            ran++;
        }
    }
    assert_true(ran >= 2 * 5); /* REP STOSB and REP STOSQ run everywhere */
    free(buf);
}

/* clear_dirty_check() finds one changed byte anywhere, at any alignment,
 * even one changed to another non-zero value. */
static void test_dirty_check(void **state)
{
    uint8_t b[256];
    size_t at = 0;
    for (size_t off = 0; off < 9; off++) {
        clear_dirty(b + off, 200, 7);
        assert_true(clear_dirty_check(b + off, 200, 7, &at));
        assert_false(clear_dirty_check(b + off, 200, 8, &at)); /* another seed */
        for (size_t i = 0; i < 200; i += 13) {
            b[off + i] ^= 0x02; /* bit 0 stays set: still no zero byte */
            assert_false(clear_dirty_check(b + off, 200, 7, &at));
            assert_int_equal(at, i);
            b[off + i] ^= 0x02;
        }
    }
    assert_true(clear_dirty_check(b, 0, 7, &at));
}

static void test_parse(void **state)
{
    struct fault_clear m = {FAULT_CLEAR_EXTENT, 0};
    char err[80], name[32];
    assert_int_equal(fault_clear_parse("linux_hot_last", &m, err, sizeof(err)), 0);
    assert_int_equal(m.model, FAULT_CLEAR_LINUX_HOT_LAST);
    assert_int_equal(fault_clear_parse("linux_batch", &m, err, sizeof(err)), 0);
    assert_true(m.model == FAULT_CLEAR_LINUX_BATCH && m.batch == 32 << 20);
    fault_clear_name(&m, name, sizeof(name));
    assert_string_equal(name, "linux_batch=32M");
    assert_int_equal(fault_clear_parse("linux_batch=12K", &m, err, sizeof(err)), 0);
    fault_clear_name(&m, name, sizeof(name));
    assert_string_equal(name, "linux_batch=12K");
    assert_int_equal(fault_clear_parse("linux_batch=1G", &m, err, sizeof(err)), 0);
    fault_clear_name(&m, name, sizeof(name));
    assert_string_equal(name, "linux_batch=1G");
    static const char *bad[] = {"",
                                "linux",
                                "linux_4kx",
                                "linux_4k=4K",
                                "linux_batch=",
                                "linux_batch=6000",
                                "linux_batch=2G",
                                "linux_batch=0",
                                "extent=1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct fault_clear before = m;
        assert_int_equal(fault_clear_parse(bad[i], &m, err, sizeof(err)), -1);
        assert_true(err[0] != 0);
        assert_memory_equal(&m, &before, sizeof(m));
    }
}

/* Each model names the Linux build it stands for, by frame size: before the
 * series 1 GiB went through clear_gigantic_page() (linux_4k) and 2 MiB
 * through process_huge_page() (linux_hot_last); with it 1 GiB is cleared in
 * 32 MiB batches under preempt=none/voluntary and in one extent under
 * full/lazy, and 2 MiB in one extent under any model. */
static void test_linux_labels(void **state)
{
    static const struct {
        struct fault_clear m;
        uint64_t bytes;
        const char *kernel, *preempt;
    } t[] = {
        {{FAULT_CLEAR_LINUX_4K, 0}, 1ull << 30, "before_series", "any"},
        {{FAULT_CLEAR_LINUX_4K, 0}, 2ull << 20, "none", "-"},
        {{FAULT_CLEAR_LINUX_HOT_LAST, 0}, 2ull << 20, "before_series", "any"},
        {{FAULT_CLEAR_LINUX_HOT_LAST, 0}, 1ull << 30, "none", "-"},
        {{FAULT_CLEAR_LINUX_BATCH, 32ull << 20}, 1ull << 30, "series", "none/voluntary"},
        {{FAULT_CLEAR_LINUX_BATCH, 32ull << 20}, 2ull << 20, "series", "any"},
        {{FAULT_CLEAR_LINUX_BATCH, 8ull << 20}, 1ull << 30, "none", "-"},
        {{FAULT_CLEAR_EXTENT, 0}, 1ull << 30, "series", "full/lazy"},
        {{FAULT_CLEAR_EXTENT, 0}, 2ull << 20, "series", "any"},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        struct fault_clear_linux l = fault_clear_linux(&t[i].m, t[i].bytes);
        assert_string_equal(l.kernel, t[i].kernel);
        assert_string_equal(l.preempt, t[i].preempt);
    }
}

static uint64_t gain_scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];

/* Milan's published 1 GiB faults (17.3 -> 42.2 GB/s, docs/validation.md):
 * the predicted gain and what is left for pre-zeroing, at 95 %. */
static void test_gain(void **state)
{
    uint64_t a[11], b[11], c[11], p[11];
    for (int i = 0; i < 11; i++) { /* rank r = 4 i mod 11: run order, not sorted */
        int r = 4 * i % 11;
        a[i] = 62066000 + (uint64_t)(r - 5) * 200000;
        b[i] = 25444000 + (uint64_t)(r - 5) * 100000;
        c[i] = 24000000 + (uint64_t)(r - 5) * 90000; /* the clear inside */
    }
    assert_int_equal(fault_clear_taken_out(b, c, 11, p), 0); /* every clear nested */
    assert_int_equal(p[4], 1444000);                         /* rank 5: 4 x 4 mod 11 */
    /* A clear longer than its fault (the nesting failed): counted, and the
     * sample keeps its whole service time, never 0 (the floored difference
     * made the pre-zeroed fault look free) nor a wrap. */
    uint64_t svc[3] = {5, 7, 9}, clr[3] = {9, 7, 4}, z[3];
    assert_int_equal(fault_clear_taken_out(svc, clr, 3, z), 1);
    assert_int_equal(z[0], 5);
    assert_int_equal(z[1], 0); /* nested, equal: nothing left is a real 0 */
    assert_int_equal(z[2], 5);
    struct fault_clear_gain g;
    fault_clear_gain(a, 11, b, p, 11, 500, gain_scratch, &g);
    assert_int_equal(g.cover_x100, 9500);
    assert_int_equal(g.gain.z_x1000, 1960);
    assert_int_equal(g.gain.k, cmp_moses_k(11, 11, 1960, 1000, 1000));
    assert_in_range(g.gain.ratio_x1e6, 2430000, 2450000); /* 62.07 / 25.44 = 2.44 */
    assert_true(g.gain.lo_x1e6 < g.gain.ratio_x1e6 && g.gain.ratio_x1e6 < g.gain.hi_x1e6);
    assert_int_equal(g.gain.outcome, CMP_SLOWER);    /* linux_4k slower: a gain */
    assert_in_range(g.left_pct_x1000, 94200, 94400); /* 1 - 1.444 / 25.444 = 94.3 % */
    assert_true(g.left_lo_x1000 <= g.left_pct_x1000 && g.left_pct_x1000 <= g.left_hi_x1000);
    assert_int_equal(cmp_saved_pct_x1000(250000), 75000);
    assert_int_equal(cmp_saved_pct_x1000(1200000), 0);
    /* too few samples: an outcome that says so */
    fault_clear_gain(a, 3, b, p, 3, 500, gain_scratch, &g);
    assert_int_equal(g.gain.outcome, CMP_TOO_FEW);
}

/* The gain interval's coverage is the 95 % it is labelled with: 2000
 * simulated runs of 10 + 10 skewed fault times (a lognormal-like shared
 * host: most near the median, a long slow tail) with a true gain of 2.0;
 * Moses' exact coverage at 10 x 10 with k = 24 is 95.7 %. */
static void test_gain_coverage(void **state)
{
    uint64_t x = 88172645463325252ull, a[10], b[10], p[10];
    unsigned covered = 0, trials = 2000;
    for (unsigned t = 0; t < trials; t++) {
        for (int i = 0; i < 20; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;           /* xorshift64 */
            uint64_t u = x % 1000, slow = u * u * u / 4000000; /* 0..250 us of tail */
            uint64_t ns = 1000000 + u * 100 + slow * 1000;
            if (i < 10)
                b[i] = ns, p[i] = ns / 2;
            else
                a[i - 10] = 2 * ns;
        }
        struct fault_clear_gain g;
        fault_clear_gain(a, 10, b, p, 10, 500, gain_scratch, &g);
        covered += g.gain.lo_x1e6 <= 2000000 && 2000000 <= g.gain.hi_x1e6;
    }
    assert_in_range(covered * 1000 / trials, 940, 975); /* 95 %, not 98 % (z 2.361) or more */
}

int main(void)
{
    cpu_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hot_order_by_hand), cmocka_unit_test(test_hot_order_is_permutation),
        cmocka_unit_test(test_call_sequences),    cmocka_unit_test(test_models_zero_and_guard),
        cmocka_unit_test(test_dirty_check),       cmocka_unit_test(test_parse),
        cmocka_unit_test(test_linux_labels),      cmocka_unit_test(test_gain),
        cmocka_unit_test(test_gain_coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
