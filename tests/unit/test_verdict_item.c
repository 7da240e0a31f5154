/*
 * tests/unit/test_verdict_item.c - a verdict item added in a unit-test
 * build only (tests/unit/verdict_item.h): its decide function below, its
 * row of VD_ITEMS and its template row are all it takes; the item is
 * decided after trust, gets its record key and label, and renders.
 */
#include "tests/unit/verdict_item.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"

/* The cells handed in, and how many of them a comparison may use. */
void vd_decide_cells(struct vd_ctx *x, struct vd_item *it)
{
    uint64_t usable = 0;
    for (size_t i = 0; i < x->n; i++)
        usable += vd_cell_usable(&x->v[i]);
    vd_arg_u64(it, "cells", x->n, false);
    vd_arg_u64(it, "usable", usable, false);
    it->decided = true;
}

static void test_extra_item(void **state)
{
    (void)state;
    static uint64_t ns[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    struct vd_cell cells[2] = {
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
    struct vd_facts f = {.run = "list", .tcg = true, .hypervisor = "TCG"};
    static struct vd_item items[VD_NITEMS];
    struct vd_trust t;
    char buf[VD_LINES_MAX];
    assert_int_equal(VD_CELLS_ITEM, VD_TRUST + 1);
    verdict_decide(cells, 2, &f, items, &t, 0);
    assert_string_equal(items[VD_CELLS_ITEM].item, "cells");
    assert_true(items[VD_CELLS_ITEM].decided); /* under TCG too: its row says so */
    vd_item_lines(&items[VD_CELLS_ITEM], &f, &t, buf, sizeof(buf));
    assert_string_equal(buf, "  cells        2 cells handed in, 1 usable\n");
    assert_int_equal(items[VD_CLEAR_1G].reason, VD_R_TCG); /* the others as before */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extra_item),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
