/*
 * tests/unit/test_registry_check.c - kernel/registry.h on real linker
 * sections: this test's own rows, two in each registry, planted as twins
 * in every field the kernel checks (options .name, scenarios .name and
 * .order, verdict items .key and .order, cell kinds .run; two verdict
 * items with .key "fault", as the throw-away item that once hid the fault
 * answer).
 * registries_check() refuses the image and names each: a console line and
 * a `registry` record with the section, the field, the value and both
 * rows with their addresses, in the order of its table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/registry.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/verdict.h"
#include "tests/unit/print_capture.h"

HZ_OPTION(opt_a, .name = "alpha", .kind = OPT_FLAG);
HZ_OPTION(opt_b, .name = "alpha", .kind = OPT_FLAG);
HZ_SCENARIO(scenario_a, .name = "clear", .order = -10);
HZ_SCENARIO(scenario_b, .name = "clear", .order = -10);
HZ_VERDICT_ITEM(item_a, .key = "fault", .label = "fault", .order = 30);
HZ_VERDICT_ITEM(item_b, .key = "fault", .label = "hello", .order = 30);
HZ_CELL_KIND(kind_a, .run = "numa");
HZ_CELL_KIND(kind_b, .run = "numa");

/* The line and record registries_check() writes for rows a and b (which
 * lie in the section in link order; this file's order is the compiler's),
 * appended to w[0..cap); seq is the record's. */
static void expect(char *w, size_t cap, const char *section, const char *field, const char *value,
                   const void *a, const void *b, int seq)
{
    unsigned long long lo = (uintptr_t)a < (uintptr_t)b ? (uintptr_t)a : (uintptr_t)b;
    unsigned long long hi = (uintptr_t)a < (uintptr_t)b ? (uintptr_t)b : (uintptr_t)a;
    size_t len = strlen(w);
    snprintf(w + len, cap - len,
             "hugezero: broken build: registry %s has two rows with .%s = %s (rows 0 and 1 in "
             "link order, at 0x%llx and 0x%llx: build/hugezero.sym names them); nothing is "
             "run\r\n"
             "@hz {\"t\":\"registry\",\"v\":1,\"seq\":%d,\"registry\":\"%s\",\"field\":\"%s\","
             "\"value\":\"%s\",\"row_a\":0,\"row_b\":1,\"addr_a\":\"0x%llx\","
             "\"addr_b\":\"0x%llx\"}\r\n",
             section, field, value, lo, hi, seq, section, field, value, lo, hi);
}

static void test_twins_refused(void **state)
{
    (void)state;
    char want[sizeof(out)] = "";
    expect(want, sizeof(want), "hz_options", "name", "alpha", &opt_a, &opt_b, 0);
    expect(want, sizeof(want), "hz_scenarios", "name", "clear", &scenario_a, &scenario_b, 1);
    expect(want, sizeof(want), "hz_scenarios", "order", "-10", &scenario_a, &scenario_b, 2);
    expect(want, sizeof(want), "hz_verdict_items", "key", "fault", &item_a, &item_b, 3);
    expect(want, sizeof(want), "hz_verdict_items", "order", "30", &item_a, &item_b, 4);
    expect(want, sizeof(want), "hz_cell_kinds", "run", "numa", &kind_a, &kind_b, 5);
    assert_true(strlen(want) < sizeof(want) - 1); /* nothing cut */
    print_set_sink(&sink);
    assert_int_equal(registries_check(), -1);
    assert_string_equal(out, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_twins_refused)};
    return cmocka_run_group_tests(tests, 0, 0);
}
