/*
 * tests/unit/test_verdict.c - lib/verdict.c on fixture cell sets (issue 13):
 * a Milan-like set where REP STOSB in 1 GiB calls wins, a Sapphire
 * Rapids-like set where non-temporal stores win, a noisy set that is not
 * decided, a TCG set, an empty run, and the fault and VM-start arithmetic.
 * GB/s figures of the Milan and SPR sets follow the published clear_pages()
 * figures (Arora; docs/validation.md) and the README's Intel column.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

static struct vd_cell cells[64];
static size_t ncells;
static uint64_t samples[16];

/* 11 samples spread evenly over +-spread_pct % around median_ns (the
 * middle one). */
static void fill(struct vd_cell *c, uint64_t median_ns, unsigned spread_pct)
{
    for (int k = 0; k < 11; k++)
        samples[k] =
            median_ns + (uint64_t)((int64_t)median_ns * (int64_t)spread_pct * (k - 5) / 500);
    stats_compute(&c->st, samples, 11);
}

/* A verified cold single-thread cell on the 1 GiB target at `gbps_x10`. */
static void clear_cell(const char *s, bool nt, uint64_t chunk, unsigned gbps_x10, unsigned spread)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = VD_CLEAR,
                          .strategy = s,
                          .nontemporal = nt,
                          .chunk = chunk,
                          .bytes = GIB,
                          .cold = true,
                          .threads = 1,
                          .verified = true};
    fill(c, GIB * 10 / gbps_x10, spread); /* bytes / (GB/s) = ns */
}

static void smp_cell(const char *s, unsigned threads, unsigned gbps_x10)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = VD_SMP,
                          .strategy = s,
                          .nontemporal = true,
                          .chunk = 2 * MIB,
                          .bytes = GIB,
                          .threads = threads,
                          .verified = true};
    fill(c, GIB * 10 / gbps_x10, 2);
}

static void fault_cell(bool prezeroed, uint64_t ns)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){
        .kind = VD_FAULT, .bytes = GIB, .threads = 1, .prezeroed = prezeroed, .verified = true};
    fill(c, ns, 4);
}

static const struct vd_facts kvm = {.run = "default",
                                    .hypervisor = "KVM",
                                    .tsc_source = "hv-leaf",
                                    .tsc_invariant = true,
                                    .backing = "hugetlbfs-2M",
                                    .cpl = 3,
                                    .emulated_ring0 = true,
                                    .steal_known = true,
                                    .steal_x100 = 1};

/* Milan: no AVX-512; REP STOSB 13.7 / 15.1 / 38.1 GB/s at 4K / 2M / 1G. */
static void milan(void)
{
    ncells = 0;
    clear_cell("rep_stosb", false, 4096, 137, 2);
    clear_cell("rep_stosb", false, 2 * MIB, 151, 2);
    clear_cell("rep_stosb", false, GIB, 381, 2);
    clear_cell("rep_stosq", false, 4096, 135, 2);
    clear_cell("rep_stosq", false, 2 * MIB, 150, 2);
    clear_cell("rep_stosq", false, GIB, 370, 2);
    clear_cell("avx_nt", true, 4096, 200, 2);
    clear_cell("avx_nt", true, 2 * MIB, 250, 2);
    clear_cell("avx_nt", true, GIB, 260, 2);
    clear_cell("clzero", true, 4096, 220, 2);
    clear_cell("clzero", true, 2 * MIB, 280, 2);
    clear_cell("clzero", true, GIB, 300, 2);
}

/* Sapphire Rapids: REP STOSB about 10 GB/s at any extent, AVX-512 NT 23. */
static void spr(void)
{
    ncells = 0;
    clear_cell("rep_stosb", false, 4096, 99, 2);
    clear_cell("rep_stosb", false, 2 * MIB, 105, 2);
    clear_cell("rep_stosb", false, GIB, 121, 2);
    clear_cell("rep_stosq", false, 4096, 98, 2);
    clear_cell("rep_stosq", false, 2 * MIB, 104, 2);
    clear_cell("rep_stosq", false, GIB, 119, 2);
    clear_cell("avx512_nt", true, 4096, 150, 2);
    clear_cell("avx512_nt", true, 2 * MIB, 220, 2);
    clear_cell("avx512_nt", true, GIB, 233, 2);
}

static struct vd_item it[VD_NITEMS];
static struct vd_trust tr;

static void test_milan_rep_stosb_wins(void **state)
{
    milan();
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_string_equal(it[VD_CLEAR_1G].item, "clear_1g");
    assert_true(it[VD_CLEAR_1G].decided);
    assert_string_equal(it[VD_CLEAR_1G].answer, "rep_stosb/1G");
    assert_int_equal(it[VD_CLEAR_1G].ratio_x100, 278); /* 38.1 / 13.7 */
    assert_string_equal(it[VD_CLEAR_1G].baseline, "rep_stosb/4K");
    assert_non_null(strstr(it[VD_CLEAR_1G].text, "38.1 GB/s"));
    assert_string_equal(it[VD_CLEAR_1G].cells[0], "clear/rep_stosb/1G/cold/1G");
    /* a 2 MiB page: chunks up to 2M only, CLZERO leads there */
    assert_true(it[VD_CLEAR_2M].decided);
    assert_string_equal(it[VD_CLEAR_2M].answer, "clzero/2M");
    /* NT leads at 4K and 2M but loses at 1G: it does not pay from any extent */
    assert_true(it[VD_NONTEMPORAL].decided);
    assert_string_equal(it[VD_NONTEMPORAL].answer, "no");
    assert_string_equal(it[VD_NONTEMPORAL].baseline, "rep_stosb/1G");
    /* idle: 2^30 B at 38.1 GB/s = 28.2 ms per GiB */
    assert_true(it[VD_IDLE].decided);
    assert_int_equal((it[VD_IDLE].fig_x1000 + 50) / 100, 282);
    assert_string_equal(it[VD_IDLE].unit, "ms/GiB");
    /* not measured in this fixture */
    assert_false(it[VD_FAULT_ITEM].decided);
    assert_string_equal(it[VD_FAULT_ITEM].reason, "not measured in this run (run=default)");
    assert_false(it[VD_VMSTART].decided);
    assert_true(it[VD_TRUST].decided);
    assert_int_equal(tr.cells, 12);
    assert_int_equal(tr.noisy_cells, 0);
}

static void test_spr_nontemporal_wins(void **state)
{
    spr();
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_true(it[VD_CLEAR_1G].decided);
    assert_string_equal(it[VD_CLEAR_1G].answer, "avx512_nt/1G");
    assert_int_equal(it[VD_CLEAR_1G].ratio_x100, 235); /* 23.3 / 9.9 */
    assert_string_equal(it[VD_CLEAR_2M].answer, "avx512_nt/2M");
    assert_true(it[VD_NONTEMPORAL].decided);
    assert_string_equal(it[VD_NONTEMPORAL].answer, "from 4K");
    assert_non_null(strstr(it[VD_NONTEMPORAL].text, "pay"));
}

static void test_noisy_not_decided(void **state)
{
    milan();
    fill(&cells[2], GIB * 10 / 381, 40); /* rep_stosb/1G: CV about 23 % */
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_false(it[VD_CLEAR_1G].decided);
    assert_non_null(strstr(it[VD_CLEAR_1G].reason, "not decided: too noisy"));
    assert_non_null(strstr(it[VD_CLEAR_1G].reason, "clear/rep_stosb/1G/cold/1G"));
    assert_false(it[VD_IDLE].decided); /* it rests on the 1 GiB winner */
    assert_false(it[VD_NONTEMPORAL].decided);
    assert_true(it[VD_CLEAR_2M].decided); /* untouched by the noisy 1G cell */
    assert_int_equal(tr.noisy_cells, 1);
    assert_string_equal(tr.worst[0], "clear/rep_stosb/1G/cold/1G");
    assert_true(tr.worst_cv_x100 > 1000);
    /* A noisy rival that might beat the winner blocks it too; a slow one does not. */
    milan();
    fill(&cells[11], GIB * 10 / 370, 40); /* clzero/1G: 37.0, interval reaching past 38.1 */
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_false(it[VD_CLEAR_1G].decided);
    assert_non_null(strstr(it[VD_CLEAR_1G].reason, "clzero/1G"));
    milan();
    fill(&cells[9], GIB * 10 / 220, 40); /* clzero/4K: far below 38.1 */
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_true(it[VD_CLEAR_1G].decided);
    /* unverified and too few repeats are "too noisy" as well */
    milan();
    cells[2].verified = false;
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_string_equal(it[VD_CLEAR_1G].answer, "rep_stosq/1G"); /* rep_stosb/1G cannot win */
    assert_true(it[VD_CLEAR_1G].decided); /* nor block: a broken strategy has no speed */
    milan();
    fill(&cells[2], GIB * 10 / 381, 2);
    stats_compute(&cells[2].st, samples + 3, 5); /* its middle five */
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_non_null(strstr(it[VD_CLEAR_1G].reason, "5 repeats"));
}

/* A small guest (MEM=64M): the cold target is 2 MiB, so no cell says how
 * to clear a 1 GiB page; the 2 MiB item is still decided from it. */
static void test_target_smaller_than_the_page(void **state)
{
    milan();
    for (size_t i = 0; i < ncells; i++)
        if (cells[i].chunk <= 2 * MIB)
            cells[i].bytes = 2 * MIB;
        else
            cells[i].kind = VD_SMP; /* no 1 GiB call on a 2 MiB target */
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_false(it[VD_CLEAR_1G].decided);
    assert_string_equal(it[VD_CLEAR_1G].reason,
                        "not measured: the largest cold target was 2M, smaller than a 1G page");
    assert_true(it[VD_CLEAR_2M].decided);
    assert_false(it[VD_IDLE].decided);
}

static void test_tcg_says_so(void **state)
{
    struct vd_facts tcg = kvm;
    tcg.tcg = true;
    spr();
    verdict_decide(cells, ncells, &tcg, it, &tr);
    for (unsigned i = 0; i < VD_TRUST; i++) {
        assert_false(it[i].decided);
        assert_string_equal(it[i].reason, "TCG: no timing");
    }
    assert_true(it[VD_TRUST].decided);
    assert_non_null(strstr(it[VD_TRUST].text, "TCG"));
}

static void test_empty_run(void **state)
{
    verdict_decide(cells, 0, &kvm, it, &tr);
    for (unsigned i = 0; i < VD_TRUST; i++) {
        assert_false(it[i].decided);
        assert_string_equal(it[i].reason, "not measured in this run (run=default)");
    }
    assert_non_null(strstr(it[VD_TRUST].text, "KVM, TSC hv-leaf invariant, guest RAM hugetlbfs-2M, "
                                              "CPL 3, ring 0 emulated, steal 0.01%"));
    assert_int_equal(tr.cells, 0);
}

static void test_fault_and_vmstart(void **state)
{
    ncells = 0;
    fault_cell(false, 16700000); /* 16.7 ms zeroing in the fault */
    fault_cell(true, 275000);    /* 275 us pre-zeroed */
    smp_cell("avx512_nt", 1, 400);
    smp_cell("avx512_nt", 2, 800);
    smp_cell("sse2_nt", 2, 880);
    smp_cell("sse2_nt", 1, 300);
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_true(it[VD_FAULT_ITEM].decided);
    assert_int_equal(it[VD_FAULT_ITEM].fig_x1000, 16700);
    assert_int_equal(it[VD_FAULT_ITEM].base_x1000, 275);
    assert_string_equal(it[VD_FAULT_ITEM].answer, "prezero pays");
    assert_non_null(strstr(it[VD_FAULT_ITEM].text, "ring 0 emulated"));
    /* peak sse2_nt 88.0 at 2 threads; 16 x 30.0 per thread > 88: 2^40 / 88e9 = 12.49 s */
    assert_true(it[VD_VMSTART].decided);
    assert_true(it[VD_VMSTART].model);
    assert_int_equal((it[VD_VMSTART].fig_x1000 + 5) / 10, 1249);
    assert_string_equal(it[VD_VMSTART].cells[0], "smp/sse2_nt/1T/1G");
    assert_string_equal(it[VD_VMSTART].cells[1], "smp/sse2_nt/2T/1G");
    assert_non_null(strstr(it[VD_VMSTART].text, "min(16 x 30.0 GB/s per thread"));
    /* a wide machine: 16 x 5.0 = 80 GB/s below the 100 GB/s peak -> 13.74 s */
    ncells = 0;
    smp_cell("avx512_nt", 1, 50);
    smp_cell("avx512_nt", 32, 1000);
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_int_equal((it[VD_VMSTART].fig_x1000 + 5) / 10, 1374);
    /* a fault without its pre-zeroed counterpart is not decided */
    ncells = 0;
    fault_cell(false, 16700000);
    verdict_decide(cells, ncells, &kvm, it, &tr);
    assert_false(it[VD_FAULT_ITEM].decided);
    assert_non_null(strstr(it[VD_FAULT_ITEM].reason, "not measured"));
}

static void test_cell_ids(void **state)
{
    char id[VD_ID_MAX];
    struct vd_cell c = {.kind = VD_CLEAR,
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
        cmocka_unit_test(test_milan_rep_stosb_wins),
        cmocka_unit_test(test_spr_nontemporal_wins),
        cmocka_unit_test(test_noisy_not_decided),
        cmocka_unit_test(test_target_smaller_than_the_page),
        cmocka_unit_test(test_tcg_says_so),
        cmocka_unit_test(test_empty_run),
        cmocka_unit_test(test_fault_and_vmstart),
        cmocka_unit_test(test_cell_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
