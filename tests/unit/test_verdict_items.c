/*
 * tests/unit/test_verdict_items.c - lib/verdict.c beyond the clear items:
 * fault (VM start: tests/unit/test_verdict_vm.c), the trust item,
 * the tolerance, verdict_open() for the racing loop and cell ids.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_text.h"
#include "tests/unit/verdict_fixture.h"

static void test_trust(void **state)
{
    noisy();
    cells[3].steal_x100 = 420; /* avx512_nt/4K: 4.2 % steal */
    cells[6].steal_x100 = 35;
    /* rep_stosb/4K: 2 fast and 2 slow outliers of 12, more than a quarter */
    static const uint64_t odd[12] = {44000, 20000, 44100, 44200, 90000, 44300,
                                     44400, 21000, 44500, 44600, 88000, 44700};
    memcpy(store[0], odd, sizeof(odd));
    uint64_t tmp[12];
    memcpy(tmp, odd, sizeof(odd));
    stats_compute(&cells[0].st, tmp, 12);
    cells[0].nsamples = 12;
    decide(&kvm);
    assert_int_equal(tr.worst_steal_x100, 420);
    assert_string_equal(tr.worst_steal_cell, "clear/avx512_nt/4K/cold/1G");
    assert_int_equal(tr.outlier_cells, 1);
    assert_string_equal(tr.outlier_cell, "clear/rep_stosb/4K/cold/1G");
    assert_string_equal(rendered(at("trust")),
                        "  trust        KVM, TSC invariant, ring 0 emulated, RAM "
                        "hugetlbfs-2M, steal 0.01%, 0/9 cells out\n");
}

/* Cells with SMIs or TSC gaps (measure/time_lost.h) are summed into the
 * trust item, the longest gap named, and its line gets a continuation. */
static void test_trust_time_lost(void **state)
{
    noisy();
    cells[2].smi = 4;
    cells[5].smi = 1;
    cells[3].gaps = 1, cells[3].gap_max_ns = 5012000000ull; /* avx512_nt/4K: a 5 s stop */
    cells[6].gaps = 2, cells[6].gap_max_ns = 23400000ull;
    decide(&kvm);
    assert_int_equal(tr.smi, 5);
    assert_int_equal(tr.smi_cells, 2);
    assert_int_equal(tr.gap_cells, 2);
    assert_int_equal(tr.gap_max_ns, 5012000000ull);
    assert_string_equal(tr.gap_max_cell, "avx512_nt/4K cold");
    assert_string_equal(rendered(at("trust")),
                        "  trust        KVM, TSC invariant, ring 0 emulated, RAM hugetlbfs-2M, "
                        "steal 0.01%, 0/9 cells out\n               SMIs 5 in 2 cells, gaps > 10 "
                        "ms in 2 cells (longest 5.01 s, avx512_nt/4K cold)\n");
}

static void test_fault(void **state)
{
    ncells = 0;
    fault_cell(false, 16700000); /* 16.7 ms zeroing in the fault */
    fault_cell(true, 275000);    /* 275 us pre-zeroed */
    decide(&kvm);
    assert_true(it[at("fault")].decided);
    assert_int_equal(it[at("fault")].fig_x1000, 16700);
    assert_int_equal(it[at("fault")].base_x1000, 275);
    assert_int_equal(it[at("fault")].ratio_x1000, 60727); /* 16.7 / 0.275 */
    assert_int_equal(it[at("fault")].outcome, CMP_SLOWER);
    assert_string_equal(it[at("fault")].answer, "prezero pays");
    assert_string_equal(rendered(at("fault")),
                        "  fault        prezero pays 98.4% [98.3..98.4] of a 1G fault's 16.7 ms\n");
    assert_int_equal(logged(at("fault"), 1, 0)->c.outcome, CMP_SLOWER);
    /* run=smp cells no longer decide VM start (scenarios/vmstart/verdict.c, run=vmstart) */
    assert_false(it[at("vmstart")].decided);
    /* a fault without its pre-zeroed counterpart is not decided */
    ncells = 0;
    fault_cell(false, 16700000);
    decide(&kvm);
    assert_false(it[at("fault")].decided);
    assert_int_equal(it[at("fault")].reason, VD_R_NO_CELL);
}

/* The fault item names its fault path: hugezero's own extent clear gets the
 * Linux-faithful linux_4k fault beside it; the clear_pages() gain names its
 * preemption model and, on Milan's family, the published gain for it. */
static void test_fault_path(void **state)
{
    struct vd_facts milan_host = kvm;
    milan_host.cpu_vendor = "AuthenticAMD";
    milan_host.cpu_family = 0x19;
    milan_host.cpu_model = 0x01;
    ncells = 0;
    fault_cell(false, 36000000); /* 36.0 ms: one REP STOSB call over the frame */
    fault_cell(true, 275000);
    cells[0].model = cells[1].model = "extent";
    faultclear_cell("linux_4k", false, GIB, 105000000);
    faultclear_cell("linux_batch=32M", false, GIB, 73000000);
    faultclear_cell("linux_batch=32M", true, GIB, 600000);
    cells[2].preempt = "any";
    cells[3].preempt = cells[4].preempt = "none/voluntary";
    decide(&milan_host);
    const struct vd_item *f = &it[at("fault")];
    assert_true(f->decided);
    assert_int_equal(f->fig_x1000, 36000); /* the figure stays run=fault's */
    bool seen[3] = {false};
    for (unsigned i = 0; i < f->nargs; i++) {
        if (strcmp(f->args[i].key, "path") == 0)
            seen[0] = strcmp(f->args[i].s, "hugezero_extent") == 0;
        if (strcmp(f->args[i].key, "gain_preempt") == 0)
            seen[1] = strcmp(f->args[i].s, "none/voluntary") == 0;
        if (strcmp(f->args[i].key, "published_cpu") == 0)
            seen[2] = strcmp(f->args[i].s, "milan") == 0;
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    assert_string_equal(
        rendered(at("fault")),
        "  fault        prezero pays 99.2% of a 1G hugezero_extent fault's 36.0 ms; "
        "linux_4k 105 ms\n               clear_pages() 1.44x at "
        "preempt=none/voluntary, published milan v8 1.05x in 8M batches\n");
    /* the same run on a Linux fault path: no second figure; another CPU
     * family: no published figure */
    cells[0].model = cells[1].model = "linux_4k";
    milan_host.cpu_family = 0x17;
    decide(&milan_host);
    assert_null(strstr(rendered(at("fault")), "linux_4k 105 ms"));
    assert_non_null(strstr(rendered(at("fault")), "1G linux fault's 36.0 ms"));
    assert_null(strstr(rendered(at("fault")), "published"));
    assert_non_null(strstr(rendered(at("fault")), "at preempt=none/voluntary"));
}

/* verdict_open(): the cells of undecided comparisons, nothing else. */
static void test_open(void **state)
{
    bool open[64];
    milan();
    assert_int_equal(verdict_open(cells, ncells, &kvm, open), 0);
    for (size_t i = 0; i < ncells; i++)
        assert_false(open[i]);
    noisy();
    unsigned n = verdict_open(cells, ncells, &kvm, open);
    decide(&kvm);
    unsigned undecided = 0;
    for (size_t i = 0; i < lg.n; i++)
        undecided += lg.v[i].c.outcome == CMP_UNDECIDED &&
                     !(strcmp(lg.v[i].item, "nontemporal") == 0 && lg.v[i].b != 7);
    assert_int_equal(n, undecided);
    assert_true(n > 0);
    /* the large-call leaders race (not separated), so does the 1G
     * non-temporal pair; the 4K non-temporal pair is information only */
    assert_true(open[4] && open[5] && open[6] && open[7] && open[8]);
    assert_false(open[2]);
    assert_false(open[3]);
}

static void test_tolerance(void **state)
{
    struct vd_facts wide = kvm;
    wide.tol_x100 = 1000; /* 10 %: 38.1 vs 35.0 (8.9 %) is within it */
    milan();
    nit = verdict_decide(cells, ncells, &wide, it, &tr, &lg);
    assert_string_equal(it[at("clear_1g")].set, "not separated");
    char head[128];
    vd_header_line(&wide, head, sizeof(head));
    assert_non_null(strstr(head, "tolerance +-10%)"));
}

static void test_cell_ids(void **state)
{
    char id[VD_ID_MAX];
    struct vd_cell c = {.kind = &clear_kind,
                        .strategy = "movnti",
                        .chunk = 32 * MIB,
                        .bytes = 64 * MIB,
                        .cold = false};
    vd_cell_id(&c, id, sizeof(id));
    assert_string_equal(id, "clear/movnti/32M/warm/64M");
    c.chunk = 6144;
    vd_cell_id(&c, id, sizeof(id));
    assert_string_equal(id, "clear/movnti/6K/warm/64M");
    c.chunk = 100;
    vd_cell_id(&c, id, sizeof(id));
    assert_string_equal(id, "clear/movnti/100/warm/64M");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trust),    cmocka_unit_test(test_trust_time_lost),
        cmocka_unit_test(test_fault),    cmocka_unit_test(test_fault_path),
        cmocka_unit_test(test_open),     cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_cell_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
