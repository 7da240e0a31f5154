/*
 * tests/unit/test_clear.c - every clear strategy the host CPU supports, over
 * many sizes and alignments inside a guarded buffer; contract violations
 * (rejected, nothing written) for every strategy; the support decision on
 * made-up machines; the dirty/verify/guard helpers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/clear.h"
#include "arch/cpu.h"

#define GUARD 256 /* guard bytes each side of the target */
#define GUARD_BYTE 0xa5
#define MAX_OFF 256    /* dst offsets tried: 0 .. MAX_OFF in steps of align */
#define BIG (2u << 20) /* largest size tried: 2 MiB (+ a few lines) */
#define BUF_BYTES (GUARD + MAX_OFF + BIG + 4096 + GUARD)

static uint8_t *buf; /* 4 KiB aligned, BUF_BYTES */

/* Clear `bytes` at buf + GUARD + off; check all zero and guards intact. */
static void run_one(const struct clear_strategy *s, size_t off, size_t bytes, uint64_t seed)
{
    uint8_t *dst = buf + GUARD + off;
    size_t before = GUARD + off, first = 0;

    clear_guard_fill(buf, before + bytes + GUARD, GUARD_BYTE);
    clear_dirty(dst, bytes, seed);
    if (bytes) {
        assert_false(clear_verify_zero(dst, bytes, &first));
        assert_int_equal(first, 0);
    }
    assert_int_equal(clear_checked(s, dst, bytes), 0);
    if (!clear_verify_zero(dst, bytes, &first))
        fail_msg("%s off %zu bytes %zu: byte %zu is 0x%02x", s->name, off, bytes, first,
                 dst[first]);
    if (!clear_guard_check(buf, before, GUARD_BYTE, &first))
        fail_msg("%s off %zu bytes %zu: wrote %zu bytes before dst", s->name, off, bytes,
                 before - first);
    if (!clear_guard_check(dst + bytes, GUARD, GUARD_BYTE, &first))
        fail_msg("%s off %zu bytes %zu: wrote byte %zu past the end", s->name, off, bytes, first);
}

static void test_zeroes(void **state)
{
    const struct clear_strategy *s = *state;
    const char *missing = "?";

    if (!clear_supported(s, &missing)) {
        print_message("[  SKIP    ] %s: missing %s\n", s->name, missing);
        skip();
    }
    assert_null(missing);
    uint64_t seed = 1;
    size_t m = s->multiple;
    size_t small = m == 1 ? 300 : 40 * m; /* every allowed size up to here */
    for (size_t off = 0; off <= MAX_OFF; off += s->align)
        for (size_t bytes = 0; bytes <= small; bytes += m)
            run_one(s, off, bytes, seed++);
    static const size_t big[] = {4096, 4096 + 64, 65536, BIG, BIG + 192};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        run_one(s, 0, big[i], seed++);
        run_one(s, MAX_OFF, big[i], seed++);
        if (m == 1)
            run_one(s, 1, big[i] + 7, seed++);
    }
}

/* Rejected with -1 and not one byte changed. */
static void expect_rejected(const struct clear_strategy *s, size_t off, size_t bytes)
{
    static uint8_t snap[GUARD + MAX_OFF + 4096 + GUARD];
    size_t span = GUARD + off + bytes + GUARD;
    assert_true(span <= sizeof(snap));
    clear_dirty(buf, span, off * 131 + bytes);
    memcpy(snap, buf, span);
    assert_false(clear_contract_ok(s, buf + GUARD + off, bytes));
    assert_int_equal(clear_checked(s, buf + GUARD + off, bytes), -1);
    assert_memory_equal(buf, snap, span);
}

/* Runs for every row, supported or not: rejection never executes the routine. */
static void test_contract(void **state)
{
    const struct clear_strategy *s = *state;
    size_t a = s->align, m = s->multiple;

    for (size_t off = 1; off < a; off++)
        expect_rejected(s, off, 2 * m);
    for (size_t r = 1; r < m; r++) {
        expect_rejected(s, 0, r);
        expect_rejected(s, a, 2 * m + r);
    }
    assert_int_equal(clear_checked(s, NULL, 64), -1);
    assert_int_equal(clear_checked(s, NULL, 0), 0);    /* nothing to write */
    assert_int_equal(clear_checked(s, buf + 1, 0), 0); /* even misaligned */
    uintptr_t top = (UINTPTR_MAX - 63) & ~(uintptr_t)(a - 1);
    assert_false(clear_contract_ok(s, (void *)top, 128)); /* would wrap */
    assert_true(clear_contract_ok(s, (void *)top, 64));   /* ends exactly at the top */
    assert_int_equal(clear_checked(NULL, buf, 64), -1);
    assert_true(clear_contract_ok(s, buf + GUARD, 4 * 64));
}

static void test_table(void **state)
{
    assert_true(clear_strategy_count > 0); /* rows vs files and docs: tests/tools/test_docs.py */
    for (size_t i = 0; i < clear_strategy_count; i++) {
        const struct clear_strategy *s = &clear_strategies[i];
        assert_ptr_equal(clear_find(s->name), s);
        assert_non_null(s->fn);
        assert_true(s->align && (s->align & (s->align - 1)) == 0 && s->align <= 64);
        assert_true(s->multiple && 64 % s->multiple == 0);
        assert_true(s->n_need <= CLEAR_MAX_NEED && s->n_fast <= CLEAR_MAX_FAST);
        if (s->xcr0)
            assert_true(s->simd);
    }
    assert_null(clear_find(NULL));
    assert_null(clear_find(""));
    assert_null(clear_find("REP_STOSB"));
    assert_null(clear_find("rep_stosb "));
    assert_null(clear_find("rep_stos"));

    const struct clear_strategy *z = clear_find("avx512_nt");
    assert_int_equal(z->xcr0, 0xe6);
    assert_string_equal(z->need[0].name, "avx512f");
    assert_int_equal(clear_find("avx_store")->xcr0, 0x6);
    assert_string_equal(clear_find("clzero")->need[0].name, "clzero");
    assert_int_equal(clear_find("clzero")->need[0].leaf, 0x80000008u);
    assert_string_equal(clear_find("movdir64b")->need[0].name, "movdir64b");
    assert_false(clear_find("movdir64b")->simd);
    assert_int_equal(clear_find("rep_stosb")->n_need, 0);
    assert_string_equal(clear_find("rep_stosb")->fast[0].name, "erms");
    assert_int_equal(clear_find("mov_loop")->align, 1);
    assert_int_equal(clear_find("mov_loop")->multiple, 1);
}

/* Made-up machines for clear_supported_env(). */
static const char *absent; /* the one feature name the fake CPU lacks, or NULL */
static bool fake_has(struct cpu_feature f) { return !absent || strcmp(f.name, absent) != 0; }

static const char *why(const char *name, const struct clear_env *env)
{
    const char *m = "unset";
    bool ok = clear_supported_env(clear_find(name), env, &m);
    assert_true(ok == (m == NULL));
    return m ? m : "ok";
}

static void test_support_decision(void **state)
{
    struct clear_env env = {
        .has = fake_has, .sse_on = true, .osxsave = true, .xcr0 = 0xe7, .clflush_line = 64};

    absent = NULL;
    for (size_t i = 0; i < clear_strategy_count; i++)
        assert_true(clear_supported_env(&clear_strategies[i], &env, NULL));

    absent = "avx512f";
    assert_string_equal(why("avx512_store", &env), "avx512f");
    assert_string_equal(why("avx512_nt", &env), "avx512f");
    assert_string_equal(why("avx_store", &env), "ok");
    absent = "clzero";
    assert_string_equal(why("clzero", &env), "clzero");
    absent = NULL;

    env.xcr0 = 0x3; /* SSE only: the OS never enabled YMM */
    assert_string_equal(why("avx_store", &env), "xcr0-ymm");
    assert_string_equal(why("avx512_store", &env), "xcr0-ymm");
    assert_string_equal(why("sse2_nt", &env), "ok");
    env.xcr0 = 0x5; /* AVX without SSE state is not XCR0[2:1] = 11b */
    assert_string_equal(why("avx_nt", &env), "xcr0-ymm");
    env.xcr0 = 0x7;
    assert_string_equal(why("avx_nt", &env), "ok");
    assert_string_equal(why("avx512_nt", &env), "xcr0-zmm");
    env.xcr0 = 0x67; /* Hi16_ZMM (bit 7) missing */
    assert_string_equal(why("avx512_store", &env), "xcr0-zmm");

    env.xcr0 = 0;
    env.osxsave = false;
    assert_string_equal(why("avx_store", &env), "osxsave");
    assert_string_equal(why("sse2_store", &env), "ok");

    env.sse_on = false;
    assert_string_equal(why("sse2_store", &env), "sse-disabled");
    assert_string_equal(why("avx_store", &env), "sse-disabled");
    assert_string_equal(why("movnti", &env), "ok"); /* general-register store */
    assert_string_equal(why("movdir64b", &env), "ok");
    assert_string_equal(why("rep_stosb", &env), "ok");

    env.clflush_line = 128;
    assert_string_equal(why("clzero", &env), "line-not-64");
    assert_string_equal(why("movdir64b", &env), "ok");
}

/* A dirtying routine writes a non-zero byte at every offset of [p, p + n)
 * and nothing outside it, for every start alignment and length. */
static void check_fill(void (*fill)(void *, size_t, uint64_t))
{
    uint8_t *p = buf + GUARD;
    for (size_t off = 0; off < 9; off++) {
        for (size_t n = 0; n < 150; n += 13) {
            clear_guard_fill(buf, GUARD + off + n + GUARD, 0);
            fill(p + off, n, 7);
            for (size_t i = 0; i < n; i++)
                assert_int_not_equal(p[off + i], 0);
            assert_true(clear_verify_zero(buf, GUARD + off, NULL));
            assert_true(clear_verify_zero(p + off + n, GUARD, NULL));
        }
    }
}

/* On this host: supported exactly when CPUID has every needed bit (and if a
 * bit is absent, that is the name reported). */
static void test_support_host(void **state)
{
    for (size_t i = 0; i < clear_strategy_count; i++) {
        const struct clear_strategy *s = &clear_strategies[i];
        const char *missing = NULL;
        bool ok = clear_supported(s, &missing);
        for (unsigned k = 0; k < s->n_need; k++)
            if (!cpu_has(s->need[k])) {
                assert_false(ok);
                assert_string_equal(missing, s->need[k].name);
            }
        if (s->n_need == 0 && !s->simd)
            assert_true(ok);
    }
}

static void test_helpers(void **state)
{
    uint8_t *p = buf + GUARD;
    size_t first = 99;

    assert_true(clear_verify_zero(p, 0, &first));
    assert_int_equal(first, 99);
    for (size_t off = 0; off < 9; off++) {
        for (size_t k = 0; k < 300; k += 7) {
            memset(p, 0, 400);
            assert_true(clear_verify_zero(p + off, 300, NULL));
            p[off + k] = 0x80;
            if (k + 50 < 300)
                p[off + k + 50] = 1; /* a later one must not win */
            assert_false(clear_verify_zero(p + off, 300, &first));
            assert_int_equal(first, k);
            assert_true(clear_verify_zero(p + off, k, NULL)); /* stops before it */
        }
    }

    /* dirty: every byte non-zero, exactly [p, p + n), same seed same bytes */
    check_fill(clear_dirty);
    uint8_t a[64], b[64];
    clear_dirty(p, 64, 7);
    memcpy(a, p, 64);
    clear_dirty(p, 64, 7);
    assert_memory_equal(a, p, 64);
    clear_dirty(p, 64, 8);
    memcpy(b, p, 64);
    assert_memory_not_equal(a, b, 64);

    clear_guard_fill(p, 100, 0x5a);
    assert_true(clear_guard_check(p, 100, 0x5a, NULL));
    p[63] = 0;
    assert_false(clear_guard_check(p, 100, 0x5a, &first));
    assert_int_equal(first, 63);
    assert_true(clear_guard_check(p, 63, 0x5a, NULL));
}

/* clear_evict leaves the content as it was (a write-back, not a clear),
 * including an unaligned start and a part line at the end. */
static void test_evict_keeps_content(void **state)
{
    uint8_t *p = buf + GUARD, want[1000];
    clear_dirty(p, sizeof(want), 3);
    memcpy(want, p, sizeof(want));
    assert_true(clear_evict(p + 5, sizeof(want) - 5, 64));
    assert_true(clear_evict(p, sizeof(want), 0));
    assert_memory_equal(want, p, sizeof(want));
    assert_true(clear_evict(p, 0, 64)); /* nothing to do */
}

/* clear_verify_dirty: the exact zero check, then clear_dirty's bytes, in
 * one pass at any alignment and length; the lowest non-zero byte is found
 * though the pass goes on to dirty the rest. clear_dirty_fast: no byte
 * zero, exactly [p, p + n), its data follows the seed. */
static void test_check_and_dirty(void **state)
{
    uint8_t *p = buf + GUARD, a[64];
    size_t first;
    for (size_t off = 0; off < 70; off += 7) {
        for (size_t n = 0; n < 300; n += 37) {
            clear_guard_fill(buf, GUARD + off + n + GUARD, 0);
            first = 12345;
            assert_true(clear_verify_dirty(p + off, n, 9, &first));
            assert_int_equal(first, 12345);                        /* not written when all zero */
            assert_true(clear_dirty_check(p + off, n, 9, &first)); /* clear_dirty's bytes */
            assert_true(clear_verify_zero(buf, GUARD + off, NULL));
            assert_true(clear_verify_zero(p + off + n, GUARD, NULL));
        }
    }
    for (size_t k = 0; k < 197; k += 17) {
        clear_guard_fill(p, 200, 0);
        p[3 + k] = 1;
        if (k + 70 < 197)
            p[3 + k + 70] = 2; /* a later one does not hide the first */
        assert_false(clear_verify_dirty(p + 3, 197, 5, &first));
        assert_int_equal(first, k);
        assert_true(clear_dirty_check(p + 3, 197, 5, &first)); /* dirty all the same */
    }
    check_fill(clear_dirty_fast);
    clear_dirty_fast(p, 64, 7);
    memcpy(a, p, 64);
    clear_dirty_fast(p, 64, 8);
    assert_memory_not_equal(a, p, 64);
}

static int group_setup(void **state)
{
    cpu_init();
    buf = aligned_alloc(4096, BUF_BYTES);
    return buf ? 0 : -1;
}

static int group_teardown(void **state)
{
    free(buf);
    return 0;
}

/* Room for this many strategies' zeroes/contract tests; main() fails, rather
 * than skipping rows, when the table outgrows it. */
#define MAX_STRATEGIES 32

int main(void)
{
    static struct CMUnitTest tests[2 * MAX_STRATEGIES + 8];
    static char names[2 * MAX_STRATEGIES][40];
    size_t n = 0;

    if (clear_strategy_count > MAX_STRATEGIES) {
        fprintf(stderr, "test_clear: %zu strategies, room for %d: raise MAX_STRATEGIES\n",
                clear_strategy_count, MAX_STRATEGIES);
        return 1;
    }

    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_table);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_support_decision);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_support_host);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_helpers);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_evict_keeps_content);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_check_and_dirty);
    for (size_t i = 0; i < clear_strategy_count; i++) {
        void *s = (void *)&clear_strategies[i];
        snprintf(names[2 * i], sizeof(names[0]), "zeroes.%s", clear_strategies[i].name);
        snprintf(names[2 * i + 1], sizeof(names[0]), "contract.%s", clear_strategies[i].name);
        tests[n++] = (struct CMUnitTest){names[2 * i], test_zeroes, NULL, NULL, s};
        tests[n++] = (struct CMUnitTest){names[2 * i + 1], test_contract, NULL, NULL, s};
    }
    return _cmocka_run_group_tests("clear", tests, n, group_setup, group_teardown);
}
