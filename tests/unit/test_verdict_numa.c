/*
 * tests/unit/test_verdict_numa.c - scenarios/numa/verdict.c, the `numa` verdict
 * item: one node, remote slower (the pre-zeroer belongs on the memory's
 * node), a tie on equal nodes, a memory-only node, cells left out, and not
 * measured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_text.h"
#include "tests/unit/verdict_fixture.h"

/* A verified run=numa cell of 256 MiB, 12 samples spread +-spread %. */
static struct vd_cell *ncell(const char *s, uint64_t chunk, unsigned threads, unsigned cpu,
                             unsigned mem, unsigned gbps_x10, unsigned spread)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = &numa_kind,
                          .strategy = s,
                          .chunk = chunk,
                          .bytes = 256 * MIB,
                          .threads = threads,
                          .verified = true,
                          .cpu_node = cpu,
                          .mem_node = mem};
    fill(c, 256 * MIB * 10 / gbps_x10, spread, 12, 0);
    return c;
}

static void test_one_node(void **state)
{
    struct vd_facts tcg = kvm;
    tcg.tcg = true;
    ncells = 0;
    ncell("rep_stosb", 4096, 1, 0, 0, 100, 2);
    ncell("rep_stosb", 4096, 2, 0, 0, 180, 2);
    decide(&kvm);
    assert_true(it[at("numa")].decided);
    assert_string_equal(it[at("numa")].item, "numa");
    assert_string_equal(rendered(at("numa")),
                        "  NUMA         one node: where pre-zeroing runs cannot matter\n");
    assert_string_equal(it[at("numa")].answer, "one node");
    decide(&tcg); /* said under TCG too: it needs no timing */
    assert_string_equal(rendered(at("numa")),
                        "  NUMA         one node: where pre-zeroing runs cannot matter\n");
    assert_int_equal(it[at("clear_1g")].reason, VD_R_NOT_IN_RUN);
}

static void test_remote_slower(void **state)
{
    /* node 1's memory clears at 6.2 GB/s from node 0 against 10.0 local */
    ncells = 0;
    ncell("rep_stosb", 4096, 1, 0, 0, 100, 2);
    ncell("rep_stosb", 4096, 1, 0, 1, 62, 2);
    ncell("rep_stosb", 4096, 1, 1, 1, 100, 2);
    ncell("rep_stosb", 4096, 1, 1, 0, 64, 2);
    ncell("movnti", 4096, 1, 0, 0, 80, 2); /* slower locally: not the chosen variant */
    ncell("movnti", 4096, 1, 0, 1, 80, 2);
    decide(&kvm);
    const struct vd_item *i = &it[at("numa")];
    assert_true(i->decided);
    assert_int_equal(i->outcome, CMP_SLOWER);
    assert_string_equal(i->answer, "own node");
    assert_string_equal(rendered(at("numa")),
                        "  NUMA         own node: remote is 0.62x [0.61..0.63] the "
                        "speed of local (rep_stosb 4K)\n");
    assert_int_equal(i->ratio_x1000, 620);
    assert_int_equal(i->rmin_x1000, 620);
    assert_int_equal(i->rmax_x1000, 640);
    assert_true(i->rlo_x1000 < 620 && i->rhi_x1000 > 620);
    assert_string_equal(i->baseline, "local node 0");
    /* both pairs logged at the z of one rival (2 memory nodes) */
    assert_int_equal(logged(at("numa"), 0, 1)->c.z_x1000, cmp_z_bonferroni_x1000(1));
    assert_int_equal(logged(at("numa"), 2, 3)->c.outcome, CMP_SLOWER);
    assert_string_equal(i->cells[0], "numa/rep_stosb/4K/1T/n0-n0/256M");
}

static void test_tie(void **state)
{
    /* two nodes backed by the same host memory: within +-1 % */
    ncells = 0;
    ncell("rep_stosb", 2 * MIB, 1, 0, 0, 100, 1);
    ncell("rep_stosb", 2 * MIB, 1, 0, 1, 101, 1);
    ncell("rep_stosb", 2 * MIB, 1, 1, 1, 100, 1);
    ncell("rep_stosb", 2 * MIB, 1, 1, 0, 99, 1);
    decide(&kvm);
    const struct vd_item *i = &it[at("numa")];
    assert_true(i->decided);
    assert_int_equal(i->outcome, CMP_TIE);
    assert_string_equal(i->answer, "any node");
    assert_string_equal(rendered(at("numa")),
                        "  NUMA         any node: remote is 0.99-1.01x [0.98..1.02] "
                        "of local (rep_stosb 2M), within +-5%\n");
}

static void test_memory_only_node(void **state)
{
    /* nodes 0 and 1 tie, node 2 (memory-only, CXL-like) at 0.4x: slower */
    ncells = 0;
    for (unsigned c = 0; c < 2; c++)
        for (unsigned m = 0; m < 3; m++)
            ncell("rep_stosb", 4096, 1, c, m, m == 2 ? 40 : 100, 1);
    decide(&kvm);
    const struct vd_item *i = &it[at("numa")];
    assert_int_equal(i->outcome, CMP_SLOWER);
    assert_int_equal(i->ratio_x1000, 400);
    assert_string_equal(i->cells[i->ncells - 1], "numa/rep_stosb/4K/1T/n1-n2/256M");
    /* three memory nodes: each local cell has 2 rivals */
    assert_int_equal(logged(at("numa"), 0, 2)->c.z_x1000, cmp_z_bonferroni_x1000(2));
}

static void test_undecided_and_left_out(void **state)
{
    /* +-30 % spread: the interval straddles the tolerance */
    ncells = 0;
    ncell("rep_stosb", 4096, 1, 0, 0, 100, 30);
    ncell("rep_stosb", 4096, 1, 0, 1, 100, 30);
    decide(&kvm);
    assert_false(it[at("numa")].decided);
    assert_int_equal(it[at("numa")].outcome, CMP_UNDECIDED);
    assert_int_equal(it[at("numa")].reason, VD_R_STRADDLES);
    assert_string_equal(rendered(at("numa")),
                        "  NUMA         open: remote 1.00x [0.79..1.27] of local "
                        "(n=12)\n");
    /* the remote cell unverified: no pair */
    cells[1].verified = false;
    decide(&kvm);
    assert_false(it[at("numa")].decided);
    assert_int_equal(it[at("numa")].reason, VD_R_NO_REMOTE);
    assert_string_equal(it[at("numa")].cells[0], "numa/rep_stosb/4K/1T/n0-n0/256M");
    /* no local cell: a CPU node without memory of its own */
    ncells = 0;
    ncell("rep_stosb", 4096, 1, 1, 0, 100, 2);
    decide(&kvm);
    assert_string_equal(rendered(at("numa")), "  NUMA         not decided: no usable one-thread "
                                              "local numa cell\n");
    /* no numa cells at all */
    ncells = 0;
    clear_cell("rep_stosb", false, 4096, 100);
    decide(&kvm);
    assert_string_equal(rendered(at("numa")), "  NUMA         not measured (run=numa)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_node),
        cmocka_unit_test(test_remote_slower),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_memory_only_node),
        cmocka_unit_test(test_undecided_and_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
