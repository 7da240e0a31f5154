/*
 * tests/unit/test_results.c - lib/results.c: the pass/fail/skip records as
 * they reach the print sink (lib/print.h), their counts, and the exit status
 * result_status() derives from them (docs/results.md "Exit status").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/results.h"
#include "tests/unit/print_capture.h"

static void counts(unsigned p, unsigned f, unsigned s)
{
    unsigned gp, gf, gs;
    result_counts(&gp, &gf, &gs);
    assert_int_equal(gp, p);
    assert_int_equal(gf, f);
    assert_int_equal(gs, s);
}

/* One test: the counters are the module's, in the order these run. */
static void test_results(void **state)
{
    (void)state;
    print_set_sink(&sink);
    assert_int_equal(result_status(), HZ_PASS); /* nothing reported */
    result_skip("a.skip", "no %s here", "thing");
    assert_string_equal(out, "skip: a.skip: no thing here\r\n"
                             "@hz {\"t\":\"skip\",\"v\":1,\"seq\":0,\"name\":\"a.skip\","
                             "\"reason\":\"no thing here\"}\r\n");
    assert_int_equal(result_status(), HZ_SKIPPED); /* skipped, nothing passed */
    nout = 0;
    result_pass("b.pass");
    assert_string_equal(out, "@hz {\"t\":\"pass\",\"v\":1,\"seq\":1,\"name\":\"b.pass\"}\r\n");
    assert_int_equal(result_status(), HZ_PASS);
    counts(1, 0, 1);
    nout = 0;
    result_fail("c.fail", "%d of %d", 3, 4);
    assert_string_equal(out, "fail: c.fail: 3 of 4\r\n"
                             "@hz {\"t\":\"fail\",\"v\":1,\"seq\":2,\"name\":\"c.fail\","
                             "\"reason\":\"3 of 4\"}\r\n");
    assert_int_equal(result_status(), HZ_FAIL);
    result_pass("d.pass");
    assert_int_equal(result_status(), HZ_FAIL); /* a failure stays */
    counts(2, 1, 1);
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(status_name(HZ_PASS), "pass");
    assert_string_equal(status_name(HZ_FAIL), "fail");
    assert_string_equal(status_name(HZ_SKIPPED), "skipped");
    assert_string_equal(status_name(HZ_CONFIG), "config");
    assert_string_equal(status_name(HZ_CRASH), "crash");
    assert_string_equal(status_name((enum hz_status)5), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
