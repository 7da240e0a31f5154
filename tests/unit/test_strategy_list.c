/*
 * tests/unit/test_strategy_list.c - measure/strategy_list.c: the rows in
 * the list's order, repeats, and every error with its message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "measure/strategy_list.h"

static void test_rows_in_order(void **state)
{
    const struct clear_strategy *out[4];
    char err[64] = "";
    assert_int_equal(strategy_list_parse("rep_stosb,movnti,rep_stosb", out, 4, err, sizeof(err)),
                     3);
    assert_ptr_equal(out[0], clear_find("rep_stosb"));
    assert_ptr_equal(out[1], clear_find("movnti"));
    assert_ptr_equal(out[2], clear_find("rep_stosb"));
    assert_string_equal(err, "");
    assert_int_equal(strategy_list_parse("movnti", out, 1, err, sizeof(err)), 1);
}

static void test_errors(void **state)
{
    const struct clear_strategy *out[2];
    char err[64];
    assert_int_equal(strategy_list_parse("rep_stosb,nope", out, 2, err, sizeof(err)), -1);
    assert_string_equal(err, "no strategy 'nope'");
    assert_int_equal(strategy_list_parse("", out, 2, err, sizeof(err)), -1);
    assert_string_equal(err, "no strategy ''");
    assert_int_equal(strategy_list_parse("rep_stosb,", out, 2, err, sizeof(err)), -1);
    assert_string_equal(err, "no strategy ''");
    assert_int_equal(strategy_list_parse("movnti,movnti,movnti", out, 2, err, sizeof(err)), -1);
    assert_string_equal(err, "more than 2 strategies");
    /* a name longer than any row is unknown, not cut to a known one */
    assert_int_equal(
        strategy_list_parse("rep_stosbxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", out, 2, err, sizeof(err)),
        -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_in_order),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
