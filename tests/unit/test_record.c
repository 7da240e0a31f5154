/*
 * tests/unit/test_record.c - lib/record.c (the "@hz {json}" writer,
 * docs/results.md): exact lines for every member type, escaping, nesting,
 * overflow of small buffers, depth limits and unbalanced calls. Every line
 * produced is also run through a small strict JSON validator below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/record.h"

/* A strict JSON validator (RFC 8259 grammar, no whitespace) for every line. */
static bool j_value(const char **p, int depth);

static bool j_string(const char **p)
{
    const char *s = *p;
    if (*s++ != '"')
        return false;
    for (; *s != '"'; s++) {
        if ((unsigned char)*s < 0x20) /* includes the NUL: unterminated string */
            return false;
        if (*s != '\\')
            continue;
        if (*++s == 'u') {
            for (int i = 0; i < 4; i++)
                if (!strchr("0123456789abcdefABCDEF", *++s) || !*s)
                    return false;
        } else if (!*s || !strchr("\"\\/bfnrt", *s)) {
            return false;
        }
    }
    *p = s + 1;
    return true;
}

static size_t j_digits(const char **s)
{
    size_t n = strspn(*s, "0123456789");
    *s += n;
    return n;
}

/* An integer or a decimal fraction (no exponent: the writer never uses one). */
static bool j_number(const char **p)
{
    const char *s = *p + (**p == '-');
    if (s[0] == '0' && s[1] >= '0' && s[1] <= '9')
        return false; /* no leading zeros */
    if (!j_digits(&s) || (*s == '.' && (++s, !j_digits(&s))))
        return false;
    *p = s;
    return true;
}

static bool j_container(const char **p, int depth, char close)
{
    const char *s = *p + 1;
    if (*s != close)
        do {
            if (close == '}' && (!j_string(&s) || *s++ != ':'))
                return false;
            if (!j_value(&s, depth + 1))
                return false;
        } while (*s == ',' && s++);
    if (*s != close)
        return false;
    *p = s + 1;
    return true;
}

static bool j_value(const char **p, int depth)
{
    static const char *const lit[] = {"true", "false", "null"};
    if (depth > 64)
        return false;
    if (**p == '{' || **p == '[')
        return j_container(p, depth, **p == '{' ? '}' : ']');
    if (**p == '"')
        return j_string(p);
    for (int i = 0; i < 3; i++)
        if (strncmp(*p, lit[i], strlen(lit[i])) == 0) {
            *p += strlen(lit[i]);
            return true;
        }
    return j_number(p);
}

/* A record line: the prefix, then exactly one JSON object. */
static bool valid_line(const char *line)
{
    if (strncmp(line, HZ_RECORD_PREFIX, strlen(HZ_RECORD_PREFIX)) != 0)
        return false;
    const char *p = line + strlen(HZ_RECORD_PREFIX);
    return *p == '{' && j_value(&p, 0) && *p == 0;
}

static void test_validator(void **state)
{
    assert_true(valid_line("@hz {}"));
    assert_true(valid_line("@hz {\"a\":[1,-2.50,\"x\\u00ff\\\"\",{},[]],\"b\":null}"));
    static const char *const bad[][3] = {
        {"@hz {", "@hz {\"a\":1,}", "@hz {\"a\":[1}"},
        {"@hz {\"a\":\"x}", "@hz {\"a\":\"\\u00\"}", "@hz {1}"},
        {"@hz {\"a\":[\"k\":1]}", "@hz {\"a\":01}", "@hz {\"a\":\"\n\"}"},
        {"@hz {}}", "{}", "@hz {\"a\":1.}"},
        {"@hz {\"a\":-}", "@hz {\"a\":tru}", "@hz {\"a\"1}"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0][0]); i++)
        if (valid_line(bad[i / 3][i % 3]))
            fail_msg("accepted: %s", bad[i / 3][i % 3]);
}

#define GUARD 'Z'

/* Fill buf (cap + 1 bytes) with the guard and begin a record in its cap bytes. */
static void start(struct rec *r, char *buf, size_t cap, const char *type)
{
    memset(buf, GUARD, cap + 1);
    rec_begin(r, buf, cap, type);
}

/* Check the finished line: exact text, valid JSON, and nothing past cap. */
static void expect_line(const char *line, const char *buf, size_t cap, const char *want)
{
    assert_ptr_equal(line, buf);
    assert_string_equal(line, want);
    assert_true(valid_line(line));
    assert_true(strlen(line) < cap);
    assert_int_equal(buf[cap], GUARD);
}

static void test_member_types(void **state)
{
    char buf[HZ_RECORD_MAX + 1];
    struct rec r;
    start(&r, buf, HZ_RECORD_MAX, "run");
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX, "@hz {\"t\":\"run\",\"v\":1}");

    start(&r, buf, HZ_RECORD_MAX, "all");
    rec_str(&r, "s", "abc");
    rec_str(&r, "e", "");
    rec_u64(&r, "u", UINT64_MAX);
    rec_u64(&r, "u0", 0);
    rec_i64(&r, "i", INT64_MIN);
    rec_i64(&r, "j", 5);
    rec_bool(&r, "b", true);
    rec_bool(&r, "f", false);
    rec_hex(&r, "h", 0xdeadbeef);
    rec_hex(&r, "hz", 0);
    rec_hex(&r, "hm", UINT64_MAX);
    rec_fixed(&r, "x", 12345, 3);
    rec_fixed(&r, "x0", 7, 0);
    rec_fixed(&r, "x9", 5, 9);
    rec_str(&r, "n", NULL);
    rec_u64_opt(&r, "ok", true, 42);
    rec_u64_opt(&r, "no", false, 42);
    assert_false(r.overflow);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"all\",\"v\":1,\"s\":\"abc\",\"e\":\"\",\"u\":18446744073709551615,"
                "\"u0\":0,\"i\":-9223372036854775808,\"j\":5,\"b\":true,\"f\":false,"
                "\"h\":\"0xdeadbeef\",\"hz\":\"0x0\",\"hm\":\"0xffffffffffffffff\","
                "\"x\":12.345,\"x0\":7,\"x9\":0.000000005,\"n\":null,\"ok\":42,\"no\":null}");

    /* Signed fixed point: sign, magnitude, INT64_MIN. */
    start(&r, buf, HZ_RECORD_MAX, "sfx");
    rec_sfixed(&r, "n", -1250, 2);
    rec_sfixed(&r, "p", 1250, 2);
    rec_sfixed(&r, "s", -5, 3);
    rec_sfixed(&r, "z", 0, 2);
    rec_sfixed(&r, "m", INT64_MIN, 0);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"sfx\",\"v\":1,\"n\":-12.50,\"p\":12.50,\"s\":-0.005,\"z\":0.00,"
                "\"m\":-9223372036854775808}");

    /* digits > 9 cannot be written: the member is dropped, trunc set. */
    start(&r, buf, HZ_RECORD_MAX, "fx");
    rec_fixed(&r, "bad", 1, 10);
    rec_u64(&r, "ok", 1);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"fx\",\"v\":1,\"ok\":1,\"trunc\":true}");

    /* Escaping of type, keys and values. */
    start(&r, buf, HZ_RECORD_MAX, "ty\"pe");
    rec_str(&r, "q", "a\"b\\c\n\t\x01\x1f\x7f\xc3\xa9/");
    rec_u64(&r, "k\\\"", 1);
    rec_str(&r, "\r", "\r");
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"ty\\\"pe\",\"v\":1,"
                "\"q\":\"a\\\"b\\\\c\\u000a\\u0009\\u0001\\u001f\x7f\xc3\xa9/\","
                "\"k\\\\\\\"\":1,\"\\u000d\":\"\\u000d\"}");
}

static void test_nesting(void **state)
{
    char buf[HZ_RECORD_MAX + 1];
    struct rec r;
    start(&r, buf, HZ_RECORD_MAX, "nest");
    rec_obj_begin(&r, "o");
    rec_u64(&r, "a", 1);
    rec_arr_begin(&r, "l");
    rec_u64(&r, NULL, 1);
    rec_str(&r, NULL, "x");
    rec_str(&r, NULL, NULL);
    rec_obj_begin(&r, NULL);
    rec_bool(&r, "t", true);
    rec_obj_end(&r);
    rec_arr_begin(&r, NULL);
    rec_arr_end(&r);
    rec_arr_end(&r);
    rec_obj_end(&r);
    rec_arr_begin(&r, "e");
    rec_arr_end(&r);
    rec_obj_begin(&r, "eo");
    rec_obj_end(&r);
    /* Left open: rec_end closes them without marking truncation. */
    rec_obj_begin(&r, "p");
    rec_arr_begin(&r, "q");
    rec_i64(&r, NULL, -3);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"nest\",\"v\":1,\"o\":{\"a\":1,\"l\":[1,\"x\",null,{\"t\":true},[]]},"
                "\"e\":[],\"eo\":{},\"p\":{\"q\":[-3]}}");
}

/* Misuse: unbalanced ends and keys in the wrong place are ignored (trunc). */
static void test_misuse(void **state)
{
    char buf[HZ_RECORD_MAX + 1];
    struct rec r;
    start(&r, buf, HZ_RECORD_MAX, "u");
    rec_obj_end(&r); /* nothing open */
    assert_true(r.overflow);
    rec_arr_begin(&r, "a");
    rec_obj_end(&r); /* wrong kind */
    rec_u64(&r, NULL, 1);
    rec_arr_end(&r);
    rec_arr_end(&r); /* one too many */
    rec_u64(&r, "b", 2);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"u\",\"v\":1,\"a\":[1],\"b\":2,\"trunc\":true}");

    /* A key inside an array or a missing key inside an object would break
     * the JSON: such members are dropped and the record marked truncated. */
    start(&r, buf, HZ_RECORD_MAX, "keys");
    rec_u64(&r, NULL, 1);
    rec_arr_begin(&r, "a");
    rec_u64(&r, "k", 2);
    rec_obj_begin(&r, "o");
    rec_obj_end(&r);
    rec_u64(&r, NULL, 3);
    rec_obj_begin(&r, NULL);
    rec_str(&r, NULL, "x");
    rec_obj_end(&r);
    rec_arr_end(&r);
    rec_arr_begin(&r, NULL);
    rec_arr_end(&r);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"keys\",\"v\":1,\"a\":[3,{}],\"trunc\":true}");
}

static void test_overflow(void **state)
{
    char buf[200];
    struct rec r;

    /* cap 64: 20 bytes of header, 15 reserved for "}" ",\"trunc\":true" NUL. */
    start(&r, buf, 64, "ovf");
    rec_u64(&r, "aaaa", 1);                           /* 29 bytes */
    rec_str(&r, "s", "a string far too long to fit"); /* dropped whole */
    rec_u64(&r, "c", 1);                              /* still fits: 35 */
    rec_u64(&r, "bbbbbbb", 123);                      /* 49 = 64 - 15: fits exactly */
    rec_u64(&r, "d", 1);                              /* no room left */
    rec_bool(&r, NULL, true);
    expect_line(rec_end(&r), buf, 64,
                "@hz {\"t\":\"ovf\",\"v\":1,\"aaaa\":1,\"c\":1,\"bbbbbbb\":123,\"trunc\":true}");
    assert_int_equal(strlen(buf), 63); /* the whole buffer, NUL last */

    /* An escaped string is measured escaped: 4 raw bytes need 24. */
    start(&r, buf, 64, "esc");
    rec_str(&r, "k", "\x01\x02\x03\x04\x05");
    rec_str(&r, "k2", "\x01\x02");
    expect_line(rec_end(&r), buf, 64,
                "@hz {\"t\":\"esc\",\"v\":1,\"k2\":\"\\u0001\\u0002\",\"trunc\":true}");

    /* cap 96 with containers: open ones keep room for their closers. */
    start(&r, buf, 96, "box");
    rec_obj_begin(&r, "o");
    rec_arr_begin(&r, "l");
    for (uint64_t i = 0; i < 40; i++)
        rec_u64(&r, NULL, 1000 + i);
    rec_arr_end(&r);
    rec_u64(&r, "n", 9); /* needs 6 bytes, 4 are left */
    rec_obj_end(&r);
    rec_u64(&r, "z", 7);
    expect_line(rec_end(&r), buf, 96,
                "@hz {\"t\":\"box\",\"v\":1,\"o\":{\"l\":[1000,1001,1002,1003,1004,1005,1006,"
                "1007,1008]},\"trunc\":true}");
    assert_int_equal(strlen(buf), 91); /* 75 at the last element + 2 closers + 14 */

    /* A container that does not fit is dropped with everything inside. */
    start(&r, buf, 64, "drop");
    rec_str(&r, "pad", "012345678901"); /* 42 bytes: 7 left */
    rec_arr_begin(&r, "arr");
    rec_u64(&r, NULL, 1);
    rec_obj_begin(&r, NULL);
    rec_obj_end(&r);
    rec_arr_end(&r);
    rec_u64(&r, "x", 2);
    expect_line(rec_end(&r), buf, 64,
                "@hz {\"t\":\"drop\",\"v\":1,\"pad\":\"012345678901\",\"x\":2,\"trunc\":true}");

    /* The opening bracket fits exactly but its closer would not: the container
     * must be refused, or rec_end writes one byte past cap. */
    start(&r, buf, 64, "abcdefghijklmnopqrstuvwxyz"); /* 43 bytes */
    rec_arr_begin(&r, "a");                           /* would end at 49 = 64 - 15 */
    rec_u64(&r, NULL, 1);
    rec_arr_end(&r);
    expect_line(rec_end(&r), buf, 64,
                "@hz {\"t\":\"abcdefghijklmnopqrstuvwxyz\",\"v\":1,\"trunc\":true}");

    start(&r, buf, 65, "abcdefghijklmnopqrstuvwxyz"); /* one more byte: it fits */
    rec_arr_begin(&r, "a");
    rec_u64(&r, NULL, 1);
    expect_line(rec_end(&r), buf, 65,
                "@hz {\"t\":\"abcdefghijklmnopqrstuvwxyz\",\"v\":1,\"a\":[],\"trunc\":true}");
    assert_int_equal(strlen(buf), 64);
}

static void test_depth_limit(void **state)
{
    char buf[HZ_RECORD_MAX + 1];
    struct rec r;
    start(&r, buf, HZ_RECORD_MAX, "deep");
    rec_arr_begin(&r, "a");
    for (int i = 1; i < HZ_RECORD_DEPTH; i++)
        rec_arr_begin(&r, NULL);
    assert_int_equal(r.depth, HZ_RECORD_DEPTH);
    assert_false(r.overflow);
    rec_obj_begin(&r, NULL); /* ninth level: dropped */
    assert_true(r.overflow);
    rec_u64(&r, "x", 5);
    rec_arr_begin(&r, "y");
    rec_str(&r, NULL, "inside");
    rec_arr_end(&r);
    rec_obj_end(&r);
    rec_u64(&r, NULL, 1); /* back at depth 8: written */
    for (int i = 0; i < HZ_RECORD_DEPTH; i++)
        rec_arr_end(&r);
    rec_u64(&r, "after", 2);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"deep\",\"v\":1,\"a\":[[[[[[[[1]]]]]]]],\"after\":2,\"trunc\":true}");

    /* Dropped containers left open are forgotten by rec_end. */
    start(&r, buf, HZ_RECORD_MAX, "deep2");
    for (int i = 0; i < HZ_RECORD_DEPTH + 3; i++)
        rec_obj_begin(&r, "o");
    rec_u64(&r, "x", 1);
    expect_line(rec_end(&r), buf, HZ_RECORD_MAX,
                "@hz {\"t\":\"deep2\",\"v\":1,\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{"
                "\"o\":{}}}}}}}},\"trunc\":true}");
}

/* Random call sequences into random small buffers: always valid, in bounds. */
static const char *const rnd_strs[] = {NULL, "", "v", "\"\\\"", "\x1f\x02 t", "0123456789abcdef"};
static void op_str(struct rec *r, const char *k, unsigned x) { rec_str(r, k, rnd_strs[x % 6]); }
static void op_u64(struct rec *r, const char *k, unsigned x) { rec_u64(r, k, x * 99991ull); }
static void op_i64(struct rec *r, const char *k, unsigned x) { rec_i64(r, k, -(int64_t)x); }
static void op_bool(struct rec *r, const char *k, unsigned x) { rec_bool(r, k, x & 1); }
static void op_hex(struct rec *r, const char *k, unsigned x) { rec_hex(r, k, x); }
static void op_fixed(struct rec *r, const char *k, unsigned x) { rec_fixed(r, k, x, x % 12); }
static void op_obj(struct rec *r, const char *k, unsigned x) { rec_obj_begin(r, k); }
static void op_arr(struct rec *r, const char *k, unsigned x) { rec_arr_begin(r, k); }
static void op_obj_end(struct rec *r, const char *k, unsigned x) { rec_obj_end(r); }
static void op_arr_end(struct rec *r, const char *k, unsigned x) { rec_arr_end(r); }

static void test_random_sequences(void **state)
{
    static void (*const ops[])(struct rec *, const char *, unsigned) = {
        op_str, op_u64, op_i64, op_bool, op_hex, op_fixed, op_obj, op_arr, op_obj_end, op_arr_end};
    static const char *const keys[] = {NULL, "k", "long_key_name", "q\"\\", "\x01"};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    char buf[512];
    for (int iter = 0; iter < 20000; iter++) {
        size_t cap = 64 + (size_t)(seed >> 40) % 300;
        struct rec r;
        start(&r, buf, cap, iter % 3 ? "rnd" : "a\"much\\longer\ntype");
        for (int op = 0; op < 40; op++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            unsigned x = (unsigned)(seed >> 33);
            ops[(x >> 3) % 10](&r, keys[x % 5], x >> 8);
        }
        const char *line = rec_end(&r);
        if (!valid_line(line) || strlen(line) >= cap || buf[cap] != GUARD)
            fail_msg("iter %d cap %zu: %s", iter, cap, line);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validator),        cmocka_unit_test(test_member_types),
        cmocka_unit_test(test_nesting),          cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_overflow),         cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_random_sequences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
