/*
 * tests/unit/test_verdict_source.c - lib/verdict.c's framework (issue 24):
 * every item names the scenario and cells it came from, an item whose
 * scenario did not run says "not measured: run=X measures it", and the
 * fault item's run=faultclear figures (the predicted clear_pages() gain and
 * what is left for pre-zeroing, at 95 %).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_text.h"
#include "tests/unit/verdict_fixture.h"

static const char *const LINUX_4K = "linux_4k", *const BATCH = "linux_batch=32M";

/* Milan's published 1 GiB hugetlb faults: 17.3 GB/s page at a time, 42.2
 * with clear_pages() (docs/validation.md); the clear is 24 ms of the 25.4. */
static void milan_faultclear(void)
{
    faultclear_cell(LINUX_4K, false, GIB, 62066000);
    faultclear_cell(BATCH, false, GIB, 25444000);
    faultclear_cell(BATCH, true, GIB, 1444000);
}

static const struct vd_extra *extra(const struct vd_item *i, const char *name)
{
    for (unsigned k = 0; k < i->nextra; k++)
        if (strcmp(i->extra[k].name, name) == 0)
            return &i->extra[k];
    return 0;
}

/* vd_item_source() of item i. */
static const char *source(size_t i)
{
    static char b[256];
    vd_item_source(&it[i], b, sizeof(b));
    return b;
}

static void test_items_name_their_source(void **state)
{
    milan();
    decide(&kvm);
    const struct vd_item *c = &it[at("clear_1g")];
    assert_true(c->measured);
    assert_string_equal(c->measured_by, "clear");
    assert_string_equal(c->cell_run[0], "clear");
    assert_string_equal(c->cell_short[0], "rep_stosb/1G cold");
    assert_string_equal(source(at("clear_1g")), "run=clear: rep_stosb/1G cold, rep_stosb/4K cold");
    assert_int_equal(strncmp(source(at("nontemporal")), "run=clear: ", 11), 0);
    assert_int_equal(strncmp(source(at("idle")), "run=clear: ", 11), 0);
    assert_null(strstr(rendered(at("clear_1g")), "run=")); /* the console names no cell */
    /* an item left undecided names its cells too */
    noisy();
    decide(&kvm);
    assert_false(it[at("nontemporal")].decided);
    assert_string_equal(source(at("nontemporal")),
                        "run=clear: avx512_nt/1G cold, rep_stosb/1G cold");
}

static void test_not_measured(void **state)
{
    struct vd_facts f = kvm;
    f.ran = "clear";
    milan();
    decide(&f);
    assert_false(it[at("fault")].measured);
    assert_int_equal(it[at("fault")].reason, VD_R_NOT_IN_RUN);
    assert_int_equal(it[at("vmstart")].reason, VD_R_NOT_IN_RUN);
    assert_string_equal(source(at("fault")), "");
    /* ran, but gave nothing usable: not "not measured" */
    f.ran = "clear,fault";
    decide(&f);
    assert_true(it[at("fault")].measured);
    assert_false(it[at("fault")].decided);
    assert_int_equal(it[at("fault")].reason, VD_R_NO_CELL);
    /* the scenarios that ran decide, not the cells: clear cells but run=fault */
    f.ran = "fault";
    decide(&f);
    assert_false(it[at("clear_1g")].measured);
    assert_int_equal(it[at("clear_1g")].reason, VD_R_NOT_IN_RUN);
    /* also under TCG */
    f.tcg = true;
    decide(&f);
    assert_int_equal(it[at("clear_1g")].reason, VD_R_NOT_IN_RUN);
    assert_int_equal(it[at("fault")].reason, VD_R_TCG);
}

static void test_trust_without_cells(void **state)
{
    ncells = 0;
    decide(&kvm);
    assert_non_null(strstr(rendered(at("trust")), ", 0/0 cells out\n"));
    assert_int_equal(tr.worst_cv_x100, 0);
    milan();
    decide(&kvm);
    assert_non_null(strstr(rendered(at("trust")), ", 0/12 cells out\n"));
    assert_true(tr.worst_cv_x100 > 0);
}

static void test_fault_with_faultclear(void **state)
{
    ncells = 0;
    fault_cell(false, 16700000); /* 16.7 ms zeroing in the fault */
    fault_cell(true, 275000);    /* 275 us pre-zeroed */
    milan_faultclear();
    decide(&kvm);
    const struct vd_item *f = &it[at("fault")];
    assert_true(f->decided);
    assert_int_equal(f->ratio_x1000, 60727); /* the main comparison is run=fault's */
    assert_string_equal(f->answer, "prezero pays");
    const struct vd_extra *g = extra(f, "clear_pages_gain"), *l = extra(f, "left_for_prezero"),
                          *la = extra(f, "left_after_clear_pages");
    assert_non_null(g);
    assert_non_null(l);
    assert_non_null(la);
    assert_string_equal(g->unit, "x");
    assert_int_equal(g->cover_x100, 9500);
    assert_int_equal(g->outcome, CMP_SLOWER); /* linux_4k slower: a gain */
    assert_in_range(g->x1000, 2400, 2480);    /* 62.07 / 25.44 = 2.44 */
    assert_true(g->lo_x1000 < g->x1000 && g->x1000 < g->hi_x1000);
    assert_in_range(g->lo_x1000, 2200, 2440);
    /* pre-zeroing takes 1 - 0.275 / 16.7 = 98.4 % of run=fault's fault out */
    assert_in_range(l->x1000, 98200, 98500);
    assert_true(l->lo_x1000 <= l->x1000 && l->x1000 <= l->hi_x1000 && l->hi_x1000 <= 100000);
    /* and 1 - 1.444 / 25.444 = 94.3 % of a clear_pages() fault */
    assert_in_range(la->x1000, 94000, 94600);
    assert_int_equal(la->cover_x100, 9500);
    assert_string_equal(rendered(at("fault")),
                        "  fault        prezero pays 98.4% [98.3..98.4] of a 1G "
                        "fault's 16.7 ms\n               clear_pages() 2.4x [2.4..2.5]; then "
                        "prezero pays 94.3%\n");
    assert_string_equal(source(at("fault")), "run=fault: sync/1G, prezeroed/1G; run=faultclear: "
                                             "linux_4k/rep_stosb/1G, linux_batch=32M/rep_stosb/1G, "
                                             "linux_batch=32M/rep_stosb/1G prezeroed");
    assert_int_equal(f->ncells, 5);
    /* the 95 % comparisons are logged (a compare record each), at z 1.960 */
    unsigned z95 = 0;
    for (size_t i = 0; i < lg.n; i++)
        z95 += strcmp(lg.v[i].item, "fault") == 0 && lg.v[i].c.z_x1000 == CMP_Z95_X1000;
    assert_int_equal(z95, 3);
}

static void test_fault_from_faultclear_alone(void **state)
{
    ncells = 0;
    milan_faultclear();
    decide(&kvm);
    const struct vd_item *f = &it[at("fault")];
    assert_true(f->decided);
    assert_string_equal(f->answer, "prezero pays");
    assert_int_equal(f->fig_x1000, 25444); /* the linux_batch=32M fault, ms x 1000 */
    assert_int_equal(f->base_x1000, 1444);
    assert_string_equal(rendered(at("fault")),
                        "  fault        prezero pays 94.3% [94.2..94.5] of a 1G "
                        "fault's 25.4 ms after clear_pages() 2.4x\n");
    assert_non_null(extra(f, "clear_pages_gain"));
    assert_null(extra(f, "left_for_prezero"));
    assert_string_equal(source(at("fault")), "run=faultclear: linux_4k/rep_stosb/1G, "
                                             "linux_batch=32M/rep_stosb/1G, "
                                             "linux_batch=32M/rep_stosb/1G prezeroed");
    assert_int_equal(f->ncells, 3); /* the pre-zeroed cell serves two comparisons, named once */
    /* run=fault alone: the gain is not measured, and says by what */
    ncells = 0;
    fault_cell(false, 16700000);
    fault_cell(true, 275000);
    decide(&kvm);
    assert_true(it[at("fault")].decided);
    assert_null(extra(&it[at("fault")], "clear_pages_gain"));
    assert_non_null(extra(&it[at("fault")], "left_for_prezero"));
    /* 1 GiB cells with too few samples (-m 4G: one fault a round): the 2 MiB gain */
    ncells = 0;
    milan_faultclear();
    for (size_t i = 0; i < 3; i++)
        cells[i].nsamples = 5;
    faultclear_cell(LINUX_4K, false, 2 * MIB, 160000);
    faultclear_cell(BATCH, false, 2 * MIB, 100000);
    faultclear_cell(BATCH, true, 2 * MIB, 40000);
    decide(&kvm);
    assert_true(it[at("fault")].decided);
    assert_non_null(extra(&it[at("fault")], "clear_pages_gain"));
    assert_non_null(strstr(source(at("fault")), "linux_4k/rep_stosb/2M"));
    assert_null(strstr(source(at("fault")), "/1G"));
    /* a 2 MiB-only run=faultclear (no free 1 GiB frame) gives the 2 MiB gain */
    ncells = 0;
    faultclear_cell(LINUX_4K, false, 2 * MIB, 160000);
    faultclear_cell(BATCH, false, 2 * MIB, 100000);
    decide(&kvm);
    assert_false(it[at("fault")].decided); /* no main comparison: what is open */
    assert_int_equal(it[at("fault")].reason, VD_R_NO_CELL);
    assert_string_equal(rendered(at("fault")),
                        "  fault        not decided: no usable pre-zeroed cell; "
                        "clear_pages() 1.60x\n");
}

static void test_short_ids(void **state)
{
    char b[VD_ID_MAX];
    struct vd_cell c = {.kind = &faultclear_kind,
                        .strategy = "rep_stosb",
                        .model = BATCH,
                        .bytes = GIB,
                        .prezeroed = true};
    vd_cell_id(&c, b, sizeof(b));
    assert_string_equal(b, "faultclear/linux_batch=32M/rep_stosb/1G/prezeroed");
    vd_cell_short(&c, b, sizeof(b));
    assert_string_equal(b, "linux_batch=32M/rep_stosb/1G prezeroed");
    c = (struct vd_cell){.kind = &vmstart_kind, .strategy = "none", .threads = 2, .bytes = 4 * GIB};
    vd_cell_short(&c, b, sizeof(b));
    assert_string_equal(b, "none/2T/4G");
    c.kind = &clear_kind; /* the clear kind's own short id */
    c.chunk = 2 * MIB;
    c.cold = true;
    vd_cell_short(&c, b, sizeof(b));
    assert_string_equal(b, "none/2M cold");
    vd_cell_id(&c, b, 12); /* cut to fit, NUL-terminated */
    assert_string_equal(b, "clear/none/");
}

extern const struct vd_kind __start_hz_cell_kinds[], __stop_hz_cell_kinds[];

/* Every cell kind the build links (the hz_cell_kinds section: each
 * scenario's HZ_CELL_KIND row) names its scenario, once, and an id whose
 * first part is that name. */
static void test_every_kind_named(void **state)
{
    (void)state;
    const struct vd_kind *k0 = __start_hz_cell_kinds, *k1 = __stop_hz_cell_kinds;
    const struct vd_kind *project[] = {&clear_kind,       &smp_kind,        &fault_kind,
                                       &vmstart_kind,     &faultclear_kind, &numa_kind,
                                       &interference_kind};
    for (size_t i = 0; i < sizeof(project) / sizeof(project[0]); i++)
        assert_true(project[i] >= k0 && project[i] < k1); /* the section holds it */
    for (const struct vd_kind *k = k0; k < k1; k++) {
        char id[VD_ID_MAX];
        struct vd_cell c = {.kind = k, .strategy = "s", .model = "m", .victim = "v"};
        assert_non_null(k->run);
        assert_non_null(k->id);
        vd_cell_id(&c, id, sizeof(id));
        assert_int_equal(strncmp(id, k->run, strlen(k->run)), 0);
        assert_int_equal(id[strlen(k->run)], '/');
        for (const struct vd_kind *j = k0; j < k; j++)
            assert_string_not_equal(j->run, k->run);
    }
    assert_string_equal(clear_kind.run, "clear");
    assert_string_equal(interference_kind.run, "interference");
    /* vd_cell_cpus(): threads for the kinds whose samples clear `bytes` */
    for (size_t i = 0; i < sizeof(project) / sizeof(project[0]); i++)
        assert_int_equal(project[i]->clears, i == 0 || i == 1 || i == 5); /* clear smp numa */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_items_name_their_source),
        cmocka_unit_test(test_not_measured),
        cmocka_unit_test(test_trust_without_cells),
        cmocka_unit_test(test_fault_with_faultclear),
        cmocka_unit_test(test_fault_from_faultclear_alone),
        cmocka_unit_test(test_short_ids),
        cmocka_unit_test(test_every_kind_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
