/*
 * tests/unit/test_registry_check.c - kernel/registry.h on real linker
 * sections: this test's own rows, one of each registry, and a planted
 * twin (two verdict items with .key "fault", as the throw-away item that
 * once hid the fault answer). registries_check() refuses the image and
 * says so: the console line and the `registry` record name the section,
 * the field, the value and both rows with their addresses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "kernel/registry.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/verdict.h"
#include "tests/unit/print_capture.h"

HZ_OPTION(opt_a, .name = "alpha", .kind = OPT_FLAG);
HZ_OPTION(opt_b, .name = "beta", .kind = OPT_FLAG);
HZ_SCENARIO(scenario_a, .name = "clear", .order = 10);
HZ_SCENARIO(scenario_b, .name = "fault", .order = 20);
HZ_VERDICT_ITEM(item_a, .key = "fault", .label = "fault", .order = 30);
HZ_VERDICT_ITEM(item_b, .key = "fault", .label = "hello", .order = 80);

static void test_twin_refused(void **state)
{
    (void)state;
    char want[1024];
    /* rows lie in the section in link order; this file's order is the compiler's */
    uintptr_t a = (uintptr_t)&item_a, b = (uintptr_t)&item_b;
    uintptr_t lo = a < b ? a : b, hi = a < b ? b : a;
    print_set_sink(&sink);
    assert_int_equal(registries_check(), -1);
    snprintf(want, sizeof(want),
             "hugezero: broken build: registry hz_verdict_items has two rows with .key = fault "
             "(rows 0 and 1 in link order, at 0x%llx and 0x%llx: build/hugezero.sym names "
             "them); nothing is run\r\n"
             "@hz {\"t\":\"registry\",\"v\":1,\"seq\":0,\"registry\":\"hz_verdict_items\","
             "\"field\":\"key\",\"value\":\"fault\",\"row_a\":0,\"row_b\":1,"
             "\"addr_a\":\"0x%llx\",\"addr_b\":\"0x%llx\"}\r\n",
             (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)lo,
             (unsigned long long)hi);
    assert_string_equal(out, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_twin_refused)};
    return cmocka_run_group_tests(tests, 0, 0);
}
