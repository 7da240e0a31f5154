/*
 * tests/unit/test_verdict_vm.c - the verdict's VM start item
 * (scenarios/vmstart/verdict.c) on fixture cells of run=vmstart's qemu rows: the
 * ceiling B measured at a plateau, taken from bw_ceiling=, or unknown (not
 * decided, a lower bound and what is open), and the clear_pages() gain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_text.h"
#include "tests/unit/verdict_fixture.h"

/* A verified qemu row cell (1 GiB, 11 samples +-2 %) under `model`. */
static struct vd_cell *qemu(const char *model, unsigned threads, unsigned gbps_x10, uint64_t ceil)
{
    smp_cell(VD_VM, strncmp(model, "linux_4k", 8) == 0 ? "qemu_4k" : "qemu_batch", threads,
             gbps_x10);
    cells[ncells - 1].model = model;
    cells[ncells - 1].ceiling_x1000 = ceil;
    return &cells[ncells - 1];
}

/* T=2 no faster than T=1 (10.0 vs 10.1 GB/s): a plateau, B = 10.1 GB/s
 * measured; 2 x 10^12 / 10.1e9 = 198.0 s. */
static void test_plateau(void **state)
{
    ncells = 0;
    qemu("linux_4k", 1, 100, 0);
    qemu("linux_4k", 2, 101, 0);
    decide(&kvm);
    struct vd_item *v = &it[at("vmstart")];
    assert_true(v->decided);
    assert_true(v->model);
    assert_int_equal(v->outcome, CMP_TIE);
    assert_string_equal(v->unit, "s");
    assert_int_equal((v->fig_x1000 + 50) / 100, 1980);
    assert_string_equal(v->cells[0], "vmstart/qemu_4k/1T/1G");
    assert_string_equal(v->cells[1], "vmstart/qemu_4k/2T/1G");
    assert_string_equal(v->baseline, "T=1");
    assert_string_equal(v->extra[0].name, "ceiling");
    assert_int_equal(v->extra[0].x1000, 10100);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads 198 s (model, B 10.1 GB/s "
                        "measured)\n");
}

/* T=2 faster: no plateau; without bw_ceiling= the item is not decided and
 * gives the lower bound 2 x 10^12 / (16 x 10 GB/s) = 12.5 s. */
static void test_unknown(void **state)
{
    ncells = 0;
    qemu("linux_4k", 1, 100, 0);
    qemu("linux_4k", 2, 190, 0);
    decide(&kvm);
    struct vd_item *v = &it[at("vmstart")];
    assert_false(v->decided);
    assert_int_equal(v->outcome, -1);
    assert_int_equal((v->fig_x1000 + 50) / 100, 125);
    assert_int_equal(v->reason, VD_R_CEILING_OPEN);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads >= 12.5 s [12.3..12.7] "
                        "(model); ceiling open\n               open: T=2 vs "
                        "T=1: 1.90x [1.87..1.93] (n=11), no plateau\n");
    /* the same with bw_ceiling=50: 16 x 10 = 160 capped at 50 -> 40.0 s */
    cells[0].ceiling_x1000 = cells[1].ceiling_x1000 = 50000;
    decide(&kvm);
    assert_true(v->decided);
    assert_int_equal((v->fig_x1000 + 50) / 100, 400);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads 40.0 s (model, B 50.0 GB/s "
                        "option)\n");
    /* a ceiling above 16 x r1: the threads set it, 12.5 s */
    cells[0].ceiling_x1000 = 500000;
    decide(&kvm);
    assert_true(v->decided);
    assert_int_equal((v->fig_x1000 + 50) / 100, 125);
    assert_int_equal(v->extra[0].x1000, 500000);
}

/* One thread count: no plateau can be measured; only policy-none cells
 * (no fault_clear model): not decided, says the qemu row is missing. */
static void test_open_parts(void **state)
{
    ncells = 0;
    qemu("linux_4k", 1, 100, 0);
    decide(&kvm);
    assert_false(it[at("vmstart")].decided);
    assert_int_equal(it[at("vmstart")].reason, VD_R_CEILING_OPEN);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads >= 12.5 s [12.3..12.7] "
                        "(model); ceiling open\n");
    ncells = 0;
    smp_cell(VD_VM, "none", 1, 100);
    smp_cell(VD_VM, "none", 2, 101);
    decide(&kvm);
    assert_false(it[at("vmstart")].decided);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     not decided: no usable qemu_4k cell at "
                        "T=1\n");
    /* an unverified T=1 qemu cell is not used */
    ncells = 0;
    qemu("linux_4k", 1, 100, 0)->verified = false;
    qemu("linux_4k", 2, 101, 0);
    decide(&kvm);
    assert_int_equal(it[at("vmstart")].reason, VD_R_NO_CELL);
}

/* linux_batch beside linux_4k: the clear_pages() gain at the top T, an
 * extra figure with its 95 % interval (2.0x here). */
static void test_batch_gain(void **state)
{
    ncells = 0;
    qemu("linux_4k", 1, 100, 0);
    qemu("linux_4k", 2, 101, 0);
    qemu("linux_batch=32M", 1, 200, 0);
    qemu("linux_batch=32M", 2, 202, 0);
    decide(&kvm);
    struct vd_item *v = &it[at("vmstart")];
    assert_true(v->decided);
    assert_int_equal(v->nextra, 2); /* and the ceiling */
    assert_string_equal(v->extra[0].name, "clear_pages_gain");
    assert_int_equal((v->extra[0].x1000 + 50) / 100, 20);
    assert_int_equal(v->extra[0].outcome, CMP_FASTER);
    assert_int_equal(v->extra[0].cover_x100, 9500);
    assert_string_equal(v->cells[2], "vmstart/qemu_batch/2T/1G");
    /* the gain stands in the line too, not only in the record's figures */
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads 198 s (model, B 10.1 GB/s "
                        "measured); clear_pages() 2.0x\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plateau),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_open_parts),
        cmocka_unit_test(test_batch_gain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
