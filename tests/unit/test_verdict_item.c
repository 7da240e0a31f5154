/*
 * tests/unit/test_verdict_item.c - the verdict's item registry
 * (lib/verdict.h HZ_VERDICT_ITEM): the project's items come in their
 * order, each once, trust last but for this test's own item; and an item
 * added the way a scenario adds one (the row below, its decide function and
 * its template rows, nothing else of the verdict changed) is decided after
 * trust, gets its record key and label, and renders.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"

/* The cells handed in, and how many of them a comparison may use. */
static void decide_cells(struct vd_ctx *x, struct vd_item *it)
{
    uint64_t usable = 0;
    for (size_t i = 0; i < x->n; i++)
        usable += vd_cell_usable(&x->v[i]);
    vd_arg_u64(it, "cells", x->n, false);
    vd_arg_u64(it, "usable", usable, false);
    it->decided = true;
}

static const struct vd_template cells_text[] = {
    {"cells:none", "{a:cells} cells handed in, {a:usable} usable"},
    {0, 0},
};
HZ_VERDICT_ITEM(item_cells, .key = "cells", .label = "cells", .form = "cells", .runs = "",
                .tcg = true, .decide = decide_cells, .order = 2000, .templates = cells_text);

static uint64_t ns[8] = {10, 11, 12, 13, 14, 15, 16, 17};
static struct vd_cell cells[2] = {
    {.kind = VD_CLEAR,
     .strategy = "rep_stosb",
     .chunk = 4096,
     .bytes = 1u << 20,
     .cold = true,
     .threads = 1,
     .verified = true,
     .samples = ns,
     .nsamples = 8},
    {.kind = VD_CLEAR,
     .strategy = "rep_stosq",
     .chunk = 4096,
     .bytes = 1u << 20,
     .cold = true,
     .threads = 1,
     .verified = false,
     .samples = ns,
     .nsamples = 8},
};

static void test_registry_order(void **state)
{
    (void)state;
    static const char *const want[] = {"clear_1g", "clear_2m", "nontemporal", "fault", "idle",
                                       "vmstart",  "numa",     "trust",       "cells"};
    struct vd_facts f = {.run = "list", .tcg = true, .hypervisor = "TCG"};
    static struct vd_item items[VD_MAX_ITEMS];
    struct vd_trust t;
    size_t n = verdict_decide(cells, 2, &f, items, &t, 0);
    assert_int_equal(n, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < n; i++)
        assert_string_equal(items[i].item, want[i]);
    assert_ptr_equal(vd_item_find(items, n, "fault"), &items[3]);
    assert_null(vd_item_find(items, n, "nosuch"));
}

static void test_extra_item(void **state)
{
    (void)state;
    struct vd_facts f = {.run = "list", .tcg = true, .hypervisor = "TCG"};
    static struct vd_item items[VD_MAX_ITEMS];
    struct vd_trust t;
    char buf[VD_LINES_MAX];
    size_t n = verdict_decide(cells, 2, &f, items, &t, 0);
    const struct vd_item *c = vd_item_find(items, n, "cells");
    assert_non_null(c);
    assert_string_equal(c[-1].item, "trust");
    assert_true(c->decided); /* under TCG too: its row says so */
    vd_item_lines(c, &f, &t, buf, sizeof(buf));
    assert_string_equal(buf, "  cells        2 cells handed in, 1 usable\n");
    assert_int_equal(vd_item_find(items, n, "clear_1g")->reason, VD_R_TCG); /* the others */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_order),
        cmocka_unit_test(test_extra_item),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
