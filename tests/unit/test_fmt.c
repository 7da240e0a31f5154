/*
 * tests/unit/test_fmt.c - lib/fmt.c (hz_snprintf, fmt_fixed) against exact
 * expected strings: conversions, flags, widths, precision, length modifiers,
 * extreme values, truncation and malformed format strings; fmt_ns against
 * the shared vectors of tests/vectors/format_ns.txt (tests/tools/test_fmtns.py
 * reads the same file), fmt_ci_label of lib/stats.c's coverage against
 * tests/vectors/ci_label.txt (tests/tools/test_compare_stat.py reads it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/fmt.h"
#include "lib/stats.h"

/*
 * hz_snprintf without the printf format attribute, so that deliberately
 * malformed formats ("%q", a trailing '%') compile under -Werror.
 */
static int fmt_raw(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = hz_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

/* Format into a roomy buffer and compare text and returned length. */
#define EXPECT_WITH(fn, want, ...)                                                                 \
    do {                                                                                           \
        char b_[128];                                                                              \
        memset(b_, 'Z', sizeof(b_));                                                               \
        int n_ = fn(b_, sizeof(b_), __VA_ARGS__);                                                  \
        assert_string_equal(b_, want);                                                             \
        assert_int_equal(n_, strlen(want));                                                        \
    } while (0)
#define EXPECT(want, ...) EXPECT_WITH(hz_snprintf, want, __VA_ARGS__)
/* For formats gcc's printf checker warns about (still valid for hz_snprintf). */
#define EXPECT_RAW(want, ...) EXPECT_WITH(fmt_raw, want, __VA_ARGS__)

static void test_integers(void **state)
{
    EXPECT("0", "%d", 0);
    EXPECT("-1 42 7", "%d %i %u", -1, 42, 7u);
    EXPECT("2147483647 -2147483648", "%d %d", INT32_MAX, INT32_MIN);
    EXPECT("4294967295", "%u", UINT32_MAX);
    EXPECT("ff FF 0 deadbeef", "%x %X %x %x", 255u, 255u, 0u, 0xdeadbeefu);
    EXPECT("-9223372036854775808", "%lld", (long long)INT64_MIN);
    EXPECT("9223372036854775807", "%lld", (long long)INT64_MAX);
    EXPECT("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
    EXPECT("ffffffffffffffff", "%llx", (unsigned long long)UINT64_MAX);
    EXPECT("-9223372036854775808", "%ld", (long)INT64_MIN);
    EXPECT("18446744073709551615 FFFFFFFFFFFFFFFF", "%lu %lX", (unsigned long)UINT64_MAX,
           (unsigned long)UINT64_MAX);
    EXPECT("18446744073709551615 ffffffffffffffff", "%zu %zx", (size_t)SIZE_MAX, (size_t)SIZE_MAX);
    /* Without a modifier only the low 32 bits are read. */
    EXPECT("-1 4294967295", "%d %u", (int)-1, (unsigned)-1);
}

static void test_width_and_flags(void **state)
{
    EXPECT("   42|42   |00042", "%5d|%-5d|%05d", 42, 42, 42);
    EXPECT("  ff|00ff|ff  ", "%4x|%04x|%-4x", 255u, 255u, 255u);
    EXPECT("123456", "%3d", 123456); /* width smaller than the text */
    EXPECT("   -7|-7   ", "%5d|%-5d", -7, -7);
    /* '0' pads after the sign, as C does. */
    EXPECT("-0042|-42", "%05d|%03d", -42, -42);
    EXPECT("-0000000000000000001", "%020lld", -1ll);
    /* '-' wins over '0': padding on the right is always spaces. */
    EXPECT_RAW("42   |-42  ", "%-05d|%0-5d", 42, -42);
    EXPECT("0000000000000000000018446744073709551615", "%040llu", (unsigned long long)UINT64_MAX);
}

/* C11 7.21.6.1p8: an integer's precision is its least number of digits;
 * 0 with precision 0 is no digit at all; a precision turns '0' off. */
static void test_integer_precision(void **state)
{
    (void)state;
    EXPECT("frames", "frames%.0d", 0);
    EXPECT("node 3", "node %.0d", 3);
    EXPECT("[  007]", "[%5.3d]", 7);
    EXPECT_RAW("[  -07]", "[%05.2d]", -7);
    EXPECT("00ff", "%.4x", 255u);
    EXPECT("[   ]", "[%3.0u]", 0u);
    EXPECT("[-12  ]", "[%-5.1lld]", -12ll);
    EXPECT("0x0", "%p", (void *)0);
}

static void test_strings_chars(void **state)
{
    EXPECT("hello", "%s", "hello");
    EXPECT("[  abc][abc  ]", "[%5s][%-5s]", "abc", "abc");
    EXPECT_RAW("[  abc]", "[%05s]", "abc"); /* strings never pad with zeros */
    EXPECT("he|hello|", "%.2s|%.9s|%.0s", "hello", "hello", "hello");
    EXPECT("hel|   he", "%.*s|%5.*s", 3, "hello", 2, "hello");
    EXPECT("hello", "%.*s", -1, "hello"); /* negative precision: none */
    char b[16];
    /* Through fmt_raw: the compiler rejects a literal NULL for %s. */
    assert_int_equal(fmt_raw(b, sizeof(b), "%s", (char *)NULL), 6);
    assert_string_equal(b, "(null)");
    assert_int_equal(fmt_raw(b, sizeof(b), "[%.3s]", (char *)NULL), 5);
    assert_string_equal(b, "[(nu]");
    EXPECT("", "%s", "");
    EXPECT("x|  y|z  ", "%c|%3c|%-3c", 'x', 'y', 'z');
    EXPECT("100%", "%d%%", 100);
    EXPECT("%%", "%%%%");
    EXPECT("a%b", "a%%b");

    char buf[8];
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, sizeof(buf), "a%cb", 0), 3); /* embedded NUL */
    assert_int_equal(buf[0], 'a');
    assert_int_equal(buf[1], 0);
    assert_int_equal(buf[2], 'b');
    assert_int_equal(buf[3], 0);
}

static void test_pointers(void **state)
{
    EXPECT("0x0", "%p", (void *)0);
    EXPECT("0x1000", "%p", (void *)0x1000);
    EXPECT("0xffffffffffffffff", "%p", (void *)UINTPTR_MAX);
    EXPECT("  0x10|0x10  ", "%6p|%-6p", (void *)16, (void *)16);
}

static void test_truncation(void **state)
{
    char buf[16];

    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, 5, "%s", "abcdefgh"), 8);
    assert_string_equal(buf, "abcd");
    assert_int_equal(buf[5], 'Z'); /* nothing past cap */

    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, 4, "%d", -12345), 6);
    assert_string_equal(buf, "-12");

    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, 6, "%-8s|", "ab"), 9);
    assert_string_equal(buf, "ab   ");

    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, 1, "%s", "xyz"), 3); /* cap 1: only the NUL */
    assert_int_equal(buf[0], 0);
    assert_int_equal(buf[1], 'Z');

    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, 0, "%llu", (unsigned long long)UINT64_MAX), 20);
    assert_int_equal(buf[0], 'Z'); /* cap 0: nothing written */
    assert_int_equal(hz_snprintf(NULL, 0, "%s-%d", "abc", 12), 6);

    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(hz_snprintf(buf, 6, "%s", "abcde"), 5); /* exact fit */
    assert_string_equal(buf, "abcde");
    assert_int_equal(hz_snprintf(buf, 5, "%s", "abcde"), 5); /* one short */
    assert_string_equal(buf, "abcd");
}

static void test_unknown_conversions(void **state)
{
    char buf[64];
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(fmt_raw(buf, sizeof(buf), "a%qb"), 4);
    assert_string_equal(buf, "a%qb");
    /* An unknown conversion consumes no argument: %d still sees 5. */
    assert_int_equal(fmt_raw(buf, sizeof(buf), "%q %d", 5), 4);
    assert_string_equal(buf, "%q 5");
    assert_int_equal(fmt_raw(buf, sizeof(buf), "%-08w!"), 6);
    assert_string_equal(buf, "%-08w!");
    assert_int_equal(fmt_raw(buf, sizeof(buf), "end%"), 4);
    assert_string_equal(buf, "end%");
    assert_int_equal(fmt_raw(buf, sizeof(buf), "%"), 1);
    assert_string_equal(buf, "%");
    assert_int_equal(fmt_raw(buf, sizeof(buf), "w%12"), 4);
    assert_string_equal(buf, "w%12");
    assert_int_equal(fmt_raw(buf, sizeof(buf), "x%ll"), 4);
    assert_string_equal(buf, "x%ll");
    assert_int_equal(fmt_raw(buf, sizeof(buf), ""), 0);
    assert_string_equal(buf, "");
    /* Truncated while copying an unknown conversion. */
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(fmt_raw(buf, 3, "a%qb"), 4);
    assert_string_equal(buf, "a%");
}

static void test_size(void **state)
{
    char buf[8];
    static const struct {
        uint64_t v;
        const char *s;
    } cases[] = {{4096, "4K"},   {2ull << 20, "2M"}, {1ull << 30, "1G"},    {64ull << 20, "64M"},
                 {6144, "6K"},   {1ull << 40, "1T"}, {1ull << 50, "1024T"}, {100, "100"},
                 {1536, "1536"}, {0, "0"},           {1024, "1K"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_string_equal(fmt_size(buf, sizeof(buf), cases[i].v), cases[i].s);
    assert_string_equal(fmt_size(buf, 3, 12345), "12"); /* cut, still terminated */
}

static void test_fixed(void **state)
{
    char buf[32];
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 123045, 3), 7);
    assert_string_equal(buf, "123.045");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 1005, 3), 5);
    assert_string_equal(buf, "1.005");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 5, 3), 5);
    assert_string_equal(buf, "0.005");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 0, 2), 4);
    assert_string_equal(buf, "0.00");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 42, 0), 2);
    assert_string_equal(buf, "42");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 7, 1), 3);
    assert_string_equal(buf, "0.7");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), UINT64_MAX, 9), 21);
    assert_string_equal(buf, "18446744073.709551615");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), UINT64_MAX, 0), 20);
    assert_string_equal(buf, "18446744073709551615");
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 1, 9), 11);
    assert_string_equal(buf, "0.000000001");

    /* digits > 9 and a cap too small give 0. */
    assert_int_equal(fmt_fixed(buf, sizeof(buf), 1, 10), 0);
    assert_int_equal(fmt_fixed(buf, 5, 1005, 3), 0); /* "1.005" needs 6 bytes */
    assert_int_equal(fmt_fixed(buf, 6, 1005, 3), 5);
    assert_string_equal(buf, "1.005");
    assert_int_equal(fmt_fixed(buf, 1, 0, 0), 0);
    assert_int_equal(fmt_fixed(buf, 2, 0, 0), 1);
    assert_string_equal(buf, "0");
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(fmt_fixed(buf, 0, 12, 1), 0);
    assert_int_equal(buf[0], 'Z');
}

/* Every "number<TAB>text" line of a shared vectors file against
 * fn(number); returns how many there were. */
static unsigned check_vectors(const char *path, const char *(*fn)(char *, size_t, uint64_t))
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[128], buf[32];
    unsigned n = 0;
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        tab[strcspn(tab + 1, "\n") + 1] = 0;
        fn(buf, sizeof(buf), strtoull(line, 0, 10));
        if (strcmp(buf, tab + 1) != 0)
            fail_msg("%s: %s gives \"%s\", want \"%s\"", path, line, buf, tab + 1);
        n++;
    }
    fclose(f);
    return n;
}

/* fmt_ns: every line of the shared vectors, and that there are some. */
static void test_ns_vectors(void **state)
{
    char buf[8];
    assert_true(check_vectors("tests/vectors/format_ns.txt", fmt_ns) >= 20);
    assert_string_equal(fmt_ns(buf, 4, 25080000000ull), "25."); /* cut, NUL-terminated */
}

/* The label of the median's interval of n samples, as the tables print it:
 * fmt_ci_label of stats_median_ci95's coverage. */
static const char *ci_label_of_n(char *buf, size_t cap, uint64_t n)
{
    size_t lo, hi;
    unsigned cover;
    stats_median_ci95(n, &lo, &hi, &cover);
    return fmt_ci_label(buf, cap, cover);
}

/* fmt_ci_label: every line of the shared vectors (n = 2: "min..max, 50%",
 * n = 10: "95% interval"), and a cut label. */
static void test_ci_label_vectors(void **state)
{
    char buf[32];
    assert_true(check_vectors("tests/vectors/ci_label.txt", ci_label_of_n) >= 10);
    assert_string_equal(ci_label_of_n(buf, sizeof(buf), 2), "min..max, 50%");
    assert_string_equal(ci_label_of_n(buf, sizeof(buf), 10), "95% interval");
    assert_string_equal(fmt_ci_label(buf, 8, 5000), "min..ma"); /* cut, NUL-terminated */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_width_and_flags),
        cmocka_unit_test(test_integer_precision),
        cmocka_unit_test(test_strings_chars),
        cmocka_unit_test(test_pointers),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_unknown_conversions),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_ns_vectors),
        cmocka_unit_test(test_ci_label_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
