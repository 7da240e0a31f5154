/*
 * tests/unit/test_verdict_item.c - the verdict's item registry
 * (lib/verdict.h HZ_VERDICT_ITEM): the project's items come in their
 * order, each once, trust last but for this test's own items; an item
 * added the way a scenario adds one (the row below, its decide function and
 * its template rows, nothing else of the verdict changed) is decided after
 * trust, gets its record key and label, renders, and writes its rows as
 * its record's `templates`; one whose rows pass VD_TEMPLATES_MAX is not
 * decided (reason TEMPLATES) and carries none; what a record says beyond
 * the common members comes from the item's row (.model, .facts), never
 * from its key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/record.h"
#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"
#include "scenarios/clear/cells.h"

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

/* Rows of 1025 bytes of template alone: past VD_TEMPLATES_MAX (1024). */
#define T16 "{a:cells} cells "
#define T256 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16 T16
static const struct vd_template long_text[] = {
    {"long:none", T256 T256 T256 T256 "!"},
    {0, 0},
};
_Static_assert(sizeof(T256 T256 T256 T256 "!") - 1 > VD_TEMPLATES_MAX, "long_text: too short");
HZ_VERDICT_ITEM(item_long, .key = "long", .label = "long", .form = "long", .runs = "", .tcg = true,
                .decide = decide_cells, .order = 2001, .templates = long_text);

static uint64_t ns[8] = {10, 11, 12, 13, 14, 15, 16, 17};
static struct vd_cell cells[2] = {
    {.kind = &clear_kind,
     .strategy = "rep_stosb",
     .chunk = 4096,
     .bytes = 1u << 20,
     .cold = true,
     .threads = 1,
     .verified = true,
     .samples = ns,
     .nsamples = 8},
    {.kind = &clear_kind,
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
    /* the shipped items in their order; a scenario added later may sit
     * anywhere between them, so only their relative order is fixed */
    static const char *const want[] = {"clear_1g", "clear_2m", "nontemporal", "fault", "idle",
                                       "vmstart",  "numa",     "trust",       "cells", "long"};
    struct vd_facts f = {.run = "list", .tcg = true, .hypervisor = "TCG"};
    static struct vd_item items[VD_MAX_ITEMS];
    struct vd_trust t;
    size_t n = verdict_decide(cells, 2, &f, items, &t, 0);
    size_t w = 0;
    assert_true(n < VD_MAX_ITEMS); /* the registry fits, with room */
    for (size_t i = 0; i < n; i++) {
        assert_non_null(items[i].def); /* the row a record's extra members come from */
        assert_string_equal(items[i].def->key, items[i].item);
        if (i > 0) /* ascending, each order once */
            assert_true(items[i - 1].def->order < items[i].def->order);
        for (size_t j = 0; j < i; j++) /* each key once */
            assert_string_not_equal(items[j].item, items[i].item);
        if (w < sizeof(want) / sizeof(want[0]) && strcmp(items[i].item, want[w]) == 0) {
            assert_int_equal(items[i].def->model, strcmp(want[w], "vmstart") == 0);
            assert_int_equal(items[i].def->facts, strcmp(want[w], "trust") == 0);
            w++;
        }
    }
    assert_int_equal(w, sizeof(want) / sizeof(want[0])); /* every one, in that order */
    assert_string_equal(vd_item_find(items, n, "fault")->def->key, "fault");
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

/* The cells item's rows as its record carries them; the long item's are
 * refused (and the others decided as before). */
static void test_own_rows(void **state)
{
    (void)state;
    struct vd_facts f = {.run = "list", .tcg = true, .hypervisor = "TCG"};
    static struct vd_item items[VD_MAX_ITEMS];
    struct vd_trust t;
    char buf[HZ_RECORD_MAX], lines[VD_LINES_MAX];
    struct rec r;
    size_t n = verdict_decide(cells, 2, &f, items, &t, 0);
    const struct vd_item *c = vd_item_find(items, n, "cells"), *l = vd_item_find(items, n, "long");
    assert_ptr_equal(c->templates, cells_text);
    rec_begin(&r, buf, sizeof(buf), "verdict");
    vd_templates_rec(&r, c->templates);
    assert_string_equal(rec_end(&r), "@hz {\"t\":\"verdict\",\"v\":1,\"templates\":{\"cells:none\":"
                                     "\"{a:cells} cells handed in, {a:usable} usable\"}}");
    assert_false(l->decided);
    assert_int_equal(l->reason, VD_R_TEMPLATES);
    assert_true(l->measured);
    assert_null(l->templates);
    assert_int_equal(l->nargs, 1);
    assert_string_equal(l->args[0].key, "max");
    assert_int_equal(l->args[0].u, VD_TEMPLATES_MAX);
    vd_item_lines(l, &f, &t, lines, sizeof(lines));
    assert_string_equal(
        lines, "  long         not decided: its own template rows take more than 1024 bytes\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_order),
        cmocka_unit_test(test_extra_item),
        cmocka_unit_test(test_own_rows),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
