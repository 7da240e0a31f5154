/*
 * tests/unit/test_cmdline_size.c - lib/cmdline.c's sizes: cmdline_parse_size
 * (suffixes, hex, the largest values and what is refused), size lists
 * (cmdline_parse_size_list) and their option form with its alignment rule
 * and messages (cmdline_size_list_opt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/cmdline.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void test_parse_size(void **state)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"0", 0},
        {"4096", 4096},
        {"4K", 4096},
        {"4k", 4096},
        {"2M", 2u << 20},
        {"32m", 32u << 20},
        {"1G", 1u << 30},
        {"1g", 1u << 30},
        {"1T", 1ull << 40},
        {"3t", 3ull << 40},
        {"0x1000", 4096},
        {"0x10K", 16384},
        {"18446744073709551615", UINT64_MAX},
        {"16777215T", UINT64_MAX - ((1ull << 40) - 1)},
        {"17179869183G", UINT64_MAX - ((1ull << 30) - 1)},
    };
    for (size_t i = 0; i < ARRAY_LEN(good); i++) {
        uint64_t v = 1;
        if (cmdline_parse_size(good[i].s, &v) != 0 || v != good[i].v)
            fail_msg("\"%s\" -> %llu", good[i].s, (unsigned long long)v);
    }
    static const char *const bad[] = {
        "",
        "K",
        "0x",
        "4KB",
        "4 K",
        " 4K",
        "1.5M",
        "-1",
        "4P",
        "0xK",
        "18446744073709551616",
        "16777216T",
        "17179869184G",
        "4Kk",
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        uint64_t v = 1234;
        if (cmdline_parse_size(bad[i], &v) != -1 || v != 1234)
            fail_msg("\"%s\" accepted", bad[i]);
    }
}

/* The option form: the alignment rule and both messages. */
static void test_size_list_opt(void **state)
{
    uint64_t out[4];
    char err[96] = "";
    assert_int_equal(cmdline_size_list_opt("4K,2M", out, 4, 4096, err, sizeof(err)), 2);
    assert_int_equal(out[1], 2u << 20);
    assert_string_equal(err, "");
    assert_int_equal(cmdline_size_list_opt("4K,100", out, 4, 64, err, sizeof(err)), -1);
    assert_string_equal(err, "size 100 is not a multiple of 64");
    assert_int_equal(cmdline_size_list_opt("64,128", out, 4, 64, err, sizeof(err)), 2);
    assert_int_equal(cmdline_size_list_opt("4K,2M,1G", out, 2, 4096, err, sizeof(err)), -1);
    assert_string_equal(err, "malformed size list (1..2 non-zero sizes, K/M/G suffixes)");
    assert_int_equal(cmdline_size_list_opt("4K,0", out, 4, 4096, err, sizeof(err)), -1);
    assert_string_equal(err, "malformed size list (1..4 non-zero sizes, K/M/G suffixes)");
}

static void test_parse_size_list(void **state)
{
    uint64_t out[4];
    assert_int_equal(cmdline_parse_size_list("4K,2M,32M,1G", out, 4), 4);
    assert_int_equal(out[0], 4096);
    assert_int_equal(out[1], 2u << 20);
    assert_int_equal(out[2], 32u << 20);
    assert_int_equal(out[3], 1u << 30);
    assert_int_equal(cmdline_parse_size_list("1", out, 4), 1);
    assert_int_equal(out[0], 1);
    assert_int_equal(cmdline_parse_size_list("4K,2M,32M,1G", out, 3), -1); /* too many */
    assert_int_equal(cmdline_parse_size_list("4K", out, 0), -1);
    assert_int_equal(cmdline_parse_size_list("", out, 4), -1);
    assert_int_equal(cmdline_parse_size_list(",4K", out, 4), -1);
    assert_int_equal(cmdline_parse_size_list("4K,", out, 4), -1);
    assert_int_equal(cmdline_parse_size_list("4K,,2M", out, 4), -1);
    assert_int_equal(cmdline_parse_size_list("4K,0", out, 4), -1); /* zero size */
    assert_int_equal(cmdline_parse_size_list("4K,2X", out, 4), -1);
    assert_int_equal(cmdline_parse_size_list("4K 2M", out, 4), -1);
    /* Items of up to 31 characters. */
    char item[40];
    memset(item, '0', 29);
    strcpy(item + 29, "4K");
    assert_int_equal(cmdline_parse_size_list(item, out, 4), 1);
    assert_int_equal(out[0], 4096);
    memmove(item + 1, item, strlen(item) + 1);
    assert_int_equal(strlen(item), 32);
    assert_int_equal(cmdline_parse_size_list(item, out, 4), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_size_list),
        cmocka_unit_test(test_size_list_opt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
