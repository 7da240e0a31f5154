/*
 * tests/unit/test_clear_record.c - the `clear` record (bench/clear_record.h):
 * every member, the derived GB/s and cycles per byte, and an all-zero cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bench/clear_record.h"

static void test_record(void **state)
{
    struct clear_result r = {.strategy = "rep_stosb",
                             .chunk = 2097152,
                             .bytes = 1073741824,
                             .cache = "warm",
                             .threads = 1,
                             .repeats = 5,
                             .ns = {.n = 5,
                                    .min = 100000000,
                                    .median = 110000000,
                                    .max = 130000000,
                                    .mean = 112000000,
                                    .cv_x100 = 1234},
                             .min_cyc = 300000000,
                             .verified = true,
                             .source = "linux"};
    char line[512];
    assert_string_equal(clear_record(line, sizeof(line), &r),
                        "@hz {\"t\":\"clear\",\"v\":1,\"strategy\":\"rep_stosb\",\"chunk\":2097152,"
                        "\"bytes\":1073741824,\"cache\":\"warm\",\"threads\":1,\"repeats\":5,"
                        "\"min_ns\":100000000,\"median_ns\":110000000,\"max_ns\":130000000,"
                        "\"gbps\":10.737,\"gbps_median\":9.761,\"cpb\":0.279,\"cv_pct\":12.34,"
                        "\"verified\":true,\"source\":\"linux\"}");

    struct clear_result z = {.strategy = "avx512_nt", .cache = "cold", .source = "hugezero"};
    assert_string_equal(
        clear_record(line, sizeof(line), &z),
        "@hz {\"t\":\"clear\",\"v\":1,\"strategy\":\"avx512_nt\",\"chunk\":0,\"bytes\":0,"
        "\"cache\":\"cold\",\"threads\":0,\"repeats\":0,\"min_ns\":0,\"median_ns\":0,"
        "\"max_ns\":0,\"gbps\":0.000,\"gbps_median\":0.000,\"cpb\":0.000,\"cv_pct\":0.00,"
        "\"verified\":false,\"source\":\"hugezero\"}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_record)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
