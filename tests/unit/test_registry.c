/*
 * tests/unit/test_registry.c - lib/registry.h: the first twin in a
 * registry of each kind the kernel checks (options by .name, scenarios by
 * .name and .order, verdict items by .key and .order), at the first, last
 * and adjacent rows; none in a registry without one, an empty one or one
 * of a single row; and a key's text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/registry.h"
#include "lib/verdict.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct reg_key opt_name = REG_STR_KEY(struct option, name);
static const struct reg_key sc_name = REG_STR_KEY(struct scenario, name);
static const struct reg_key sc_order = REG_INT_KEY(struct scenario, order);
static const struct reg_key vd_key = REG_STR_KEY(struct vd_item_def, key);
static const struct reg_key vd_order = REG_INT_KEY(struct vd_item_def, order);

/* The twin reg_first_twin() finds, as first * 100 + second; -1 for none
 * (and then *out untouched). */
static long twin(const void *rows, size_t n, size_t stride, const struct reg_key *k)
{
    struct reg_twin t = {777, 777};
    if (!reg_first_twin(rows, n, stride, k, &t)) {
        assert_int_equal(t.first, 777);
        assert_int_equal(t.second, 777);
        return -1;
    }
    assert_true(t.first < t.second);
    return (long)(t.first * 100 + t.second);
}

static void test_options(void **state)
{
    (void)state;
    struct option o[] = {{.name = "smp"},
                         {.name = "run"},
                         {.name = "smp_batch"},
                         {.name = "nosmp"},
                         {.name = "help"}};
    assert_int_equal(twin(o, N(o), sizeof(o[0]), &opt_name), -1); /* prefixes are not twins */
    o[4].name = "smp";                                            /* first and last */
    assert_int_equal(twin(o, N(o), sizeof(o[0]), &opt_name), 4);
    o[2].name = "run"; /* adjacent rows: a lower second row than the first-and-last pair */
    assert_int_equal(twin(o, N(o), sizeof(o[0]), &opt_name), 102);
    assert_int_equal(twin(o, 0, sizeof(o[0]), &opt_name), -1); /* empty */
    assert_int_equal(twin(o, 1, sizeof(o[0]), &opt_name), -1); /* one row */
    assert_int_equal(twin(o, 2, sizeof(o[0]), &opt_name), -1);
}

static void test_scenarios(void **state)
{
    (void)state;
    struct scenario s[] = {{.name = "clear", .order = 10},
                           {.name = "fault", .order = 20},
                           {.name = "smp", .order = -5},
                           {.name = "numa", .order = 40}};
    assert_int_equal(twin(s, N(s), sizeof(s[0]), &sc_name), -1);
    assert_int_equal(twin(s, N(s), sizeof(s[0]), &sc_order), -1);
    s[3].name = "smp"; /* adjacent, last: the name only */
    assert_int_equal(twin(s, N(s), sizeof(s[0]), &sc_name), 203);
    assert_int_equal(twin(s, N(s), sizeof(s[0]), &sc_order), -1);
    s[1].order = -5; /* the order only, a negative one */
    assert_int_equal(twin(s, N(s), sizeof(s[0]), &sc_order), 102);
    s[0].order = -5; /* three alike: the first two */
    assert_int_equal(twin(s, N(s), sizeof(s[0]), &sc_order), 1);
}

static void test_verdict_items(void **state)
{
    (void)state;
    struct vd_item_def d[] = {{.key = "clear_1g", .order = 10},
                              {.key = "clear_2m", .order = 11},
                              {.key = "fault", .order = 30},
                              {.key = "trust", .order = 1000},
                              {.key = "hello", .order = 80}};
    assert_int_equal(twin(d, N(d), sizeof(d[0]), &vd_key), -1);
    assert_int_equal(twin(d, N(d), sizeof(d[0]), &vd_order), -1);
    d[4].key = "fault"; /* the throw-away item that hid the fault answer */
    assert_int_equal(twin(d, N(d), sizeof(d[0]), &vd_key), 204);
    d[1].key = "clear_1g"; /* an earlier second row wins */
    assert_int_equal(twin(d, N(d), sizeof(d[0]), &vd_key), 1);
    d[3].order = 10; /* the order twin, apart from the keys */
    assert_int_equal(twin(d, N(d), sizeof(d[0]), &vd_order), 3);
    assert_int_equal(twin(d, 3, sizeof(d[0]), &vd_order), -1); /* n bounds the rows read */
}

/* A NULL string key equals only another NULL. */
static void test_null_keys(void **state)
{
    (void)state;
    struct option o[] = {{.name = "a"}, {.name = 0}, {.name = "b"}};
    assert_int_equal(twin(o, N(o), sizeof(o[0]), &opt_name), -1);
    o[2].name = 0;
    assert_int_equal(twin(o, N(o), sizeof(o[0]), &opt_name), 102);
}

static void test_key_text(void **state)
{
    (void)state;
    char b[16];
    struct scenario s = {.name = "faultclear", .order = -7};
    struct vd_item_def d = {.key = 0, .order = 4000000000u};
    assert_string_equal(reg_key_text(&s, &sc_name, b, sizeof(b)), "faultclear");
    assert_string_equal(reg_key_text(&s, &sc_order, b, sizeof(b)), "-7");
    assert_string_equal(reg_key_text(&d, &vd_key, b, sizeof(b)), "(null)");
    assert_string_equal(reg_key_text(&d, &vd_order, b, sizeof(b)), "-294967296"); /* signed */
    assert_string_equal(reg_key_text(&s, &sc_name, b, 6), "fault");               /* cut to fit */
    assert_string_equal(sc_order.field, "order");
    assert_int_equal(sc_order.size, sizeof(int));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),       cmocka_unit_test(test_scenarios),
        cmocka_unit_test(test_verdict_items), cmocka_unit_test(test_null_keys),
        cmocka_unit_test(test_key_text),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
