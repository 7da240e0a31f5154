/*
 * tests/unit/test_verdict_vm.c - the verdict's VM start item
 * (scenarios/vmstart/verdict.c) on fixture cells of run=vmstart's qemu rows: the
 * ceiling B measured at a plateau (decided), given by bw_ceiling= (model (B
 * given), never decided) or unknown (not decided: a lower bound, what a
 * larger host would settle), the Amdahl figure of a sub-linear knee, and
 * the clear_pages() gain.
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

/* The text of item v's argument `key` (a number as decimal), or "". */
static const char *arg(const struct vd_item *v, const char *key)
{
    static char b[32];
    for (unsigned i = 0; i < v->nargs; i++)
        if (strcmp(v->args[i].key, key) == 0) {
            if (v->args[i].s)
                return v->args[i].s;
            snprintf(b, sizeof(b), "%llu", (unsigned long long)v->args[i].u);
            return b;
        }
    return "";
}

/* A verified qemu row cell (1 GiB, 11 samples +-2 %) under `model`. */
static struct vd_cell *qemu(const char *model, unsigned threads, unsigned gbps_x10, uint64_t ceil)
{
    smp_cell(&vmstart_kind, strncmp(model, "linux_4k", 8) == 0 ? "qemu_4k" : "qemu_batch", threads,
             gbps_x10);
    cells[ncells - 1].model = model;
    cells[ncells - 1].ceiling_x1000 = ceil;
    return &cells[ncells - 1];
}

/* A qemu_4k curve at T=1 and 2 (rates GB/s x 10, bw_ceiling= ceil) decided
 * under f: the VM start item. */
static struct vd_item *curve(unsigned r1_x10, unsigned r2_x10, uint64_t ceil,
                             const struct vd_facts *f)
{
    ncells = 0;
    qemu("linux_4k", 1, r1_x10, ceil);
    qemu("linux_4k", 2, r2_x10, ceil);
    decide(f);
    return &it[at("vmstart")];
}

/* T=2 no faster than T=1 (10.0 vs 10.1 GB/s): a plateau, B = 10.1 GB/s
 * measured; 2 x 10^12 / 10.1e9 = 198.0 s. */
static void test_plateau(void **state)
{
    struct vd_item *v = curve(100, 101, 0, &kvm);
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

/* T=2 faster, 1.90x [1.87..1.93]: no plateau, and the whole interval below
 * linear 2.00x (sub-linear: S(2) = 1.9 fits serial 5.3 %, S(16) = 8.94,
 * 22.4 s); without bw_ceiling= the item is
 * not decided, gives the lower bound 2 x 10^12 / (16 x 10 GB/s) = 12.5 s,
 * and on 2 CPUs says a 16-CPU host would settle B. */
static void test_unknown(void **state)
{
    struct vd_item *v = curve(100, 190, 0, &kvm);
    assert_false(v->decided);
    assert_true(v->model);
    assert_int_equal(v->outcome, -1);
    assert_int_equal((v->fig_x1000 + 50) / 100, 125);
    assert_int_equal(v->reason, VD_R_FEW_CPUS);
    assert_string_equal(arg(v, "cpus"), "2");
    assert_string_equal(arg(v, "want"), "16");
    assert_string_equal(arg(v, "scaling"), "sublinear");
    assert_string_equal(
        rendered(at("vmstart")),
        "  VM start     2 TB, 16 threads >= 12.5 s linear model; 22.4 s Amdahl model, "
        "serial 5.3%\n"
        "               open: T=1..2 here; a 16-CPU host settles B; T=2 vs T=1 "
        "1.90x [1.87..1.93] sublinear\n");
}

/* bw_ceiling= given and no plateau: a model (B given), never decided,
 * whatever B is (issue 32: no "decided" rests on a guess); the given B caps
 * the Amdahl figure of the sub-linear step as it caps the linear one. */
static void test_b_given(void **state)
{
    struct vd_item *v = curve(100, 190, 50000, &kvm);
    assert_false(v->decided);
    assert_true(v->model);
    assert_int_equal(v->reason, VD_R_B_GIVEN);
    assert_string_equal(arg(v, "b_source"), "option");
    /* 16 x 10 = 160 capped at 50 -> 40.0 s */
    assert_int_equal((v->fig_x1000 + 50) / 100, 400);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads 40.0 s model (B given: 50.0 GB/s); 40.0 s "
                        "Amdahl model, serial 5.3%\n"
                        "               not decided: B is bw_ceiling=, not measured; T=2 vs "
                        "T=1 1.90x [1.87..1.93] sublinear\n");
    /* a ceiling above 16 x r1: the threads set it, 12.5 s; still not decided */
    cells[0].ceiling_x1000 = cells[1].ceiling_x1000 = 500000;
    decide(&kvm);
    assert_false(v->decided);
    assert_int_equal(v->reason, VD_R_B_GIVEN);
    assert_int_equal((v->fig_x1000 + 50) / 100, 125);
    /* a measured plateau beside a given B: the plateau is B, decided */
    cells[1].ceiling_x1000 = 50000;
    fill(&cells[1], GIB * 10 / 101, 2, 11, 0);
    decide(&kvm);
    assert_true(v->decided);
    assert_string_equal(arg(v, "b_source"), "measured");
}

/* A measured sub-linear knee changes the VM-start line: the same T=1 rate
 * with T=2 at 2.00x (linear: no Amdahl figure) and at 1.20x (sub-linear: the
 * Amdahl fit's 16-thread time beside the same linear lower bound). */
static void test_sublinear_knee(void **state)
{
    struct vd_item *v = curve(100, 200, 0, &kvm);
    assert_string_equal(arg(v, "scaling"), "linear");
    assert_int_equal(v->nextra, 0);
    char lin[VD_LINES_MAX];
    strcpy(lin, rendered(at("vmstart")));
    assert_string_equal(lin, "  VM start     2 TB, 16 threads >= 12.5 s [12.3..12.7] linear "
                             "model\n               open: T=1..2 here; a 16-CPU host settles "
                             "B; T=2 vs T=1 2.0x [2.0..2.0] linear\n");
    curve(100, 120, 0, &kvm);
    assert_string_equal(arg(v, "scaling"), "sublinear");
    assert_int_equal((v->fig_x1000 + 50) / 100, 125); /* the lower bound is unchanged */
    /* S(2) = 1.2: serial s = 2/1.2 - 1 = 0.667; S(16) = 16 / (16 s + 1 - s) = 1.45:
     * 2 x 10^12 / 14.5e9 = 138 s */
    assert_string_equal(v->extra[0].name, "amdahl");
    assert_int_equal((v->extra[0].x1000 + 500) / 1000, 138);
    assert_true(v->extra[0].lo_x1000 < v->extra[0].x1000);
    assert_true(v->extra[0].hi_x1000 > v->extra[0].x1000);
    assert_string_equal(v->extra[1].name, "amdahl_serial");
    assert_int_equal((v->extra[1].x1000 + 50) / 100, 667);
    assert_string_not_equal(rendered(at("vmstart")), lin);
    assert_string_equal(
        rendered(at("vmstart")),
        "  VM start     2 TB, 16 threads >= 12.5 s linear model; 138 s [133..143] Amdahl model, "
        "serial 66.7%\n               open: T=1..2 here; a 16-CPU host settles "
        "B; T=2 vs T=1 1.20x [1.18..1.22] sublinear\n");
}

/* Under TCG the item keeps its model figures but decides nothing and opens
 * no comparison to race for: a plateau gives reason TCG, an open item says
 * its timings are TCG's, on the figure's own line. */
static void test_tcg(void **state)
{
    struct vd_facts tcg = kvm;
    tcg.tcg = true;
    struct vd_item *v = curve(100, 101, 0, &tcg);
    assert_false(v->decided);
    assert_int_equal(v->reason, VD_R_TCG);
    assert_int_equal((v->fig_x1000 + 50) / 100, 1980); /* the model's figure stays */
    assert_string_equal(arg(v, "timings"), "TCG");
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads 198 s (TCG model, B 10.1 GB/s measured)\n"
                        "               not decided: TCG, emulator timings\n");
    bool open[64];
    fill(&cells[1], GIB * 10 / 105, 30, 11, 0); /* +5 % +-30 %: undecided, raced under KVM */
    assert_true(verdict_open(cells, ncells, &kvm, open) > 0);
    assert_true(open[0] && open[1]);
    assert_int_equal(verdict_open(cells, ncells, &tcg, open), 0);
    assert_false(open[0] || open[1]);
    curve(100, 120, 0, &tcg);
    assert_false(v->decided);
    assert_int_equal(v->reason, VD_R_FEW_CPUS);
    assert_string_equal(arg(v, "timings"), "TCG");
    assert_non_null(strstr(rendered(at("vmstart")), "linear model (TCG);"));
    assert_non_null(strstr(rendered(at("vmstart")), "\n               open: T=1..2 here"));
}

/* 16 CPUs measured without a plateau (T=16 vs T=15 faster, 1.5x): the
 * ceiling is what is open, no larger host is asked for. */
static void test_ceiling_open(void **state)
{
    ncells = 0;
    for (unsigned t = 1; t <= 15; t++)
        qemu("linux_4k", t, 100 * t, 0);
    qemu("linux_4k", 16, 2250, 0);
    decide(&kvm);
    struct vd_item *v = &it[at("vmstart")];
    assert_false(v->decided);
    assert_int_equal(v->reason, VD_R_CEILING_OPEN);
    assert_string_equal(arg(v, "scaling"), "linear");
    assert_non_null(strstr(rendered(at("vmstart")), "ceiling open"));
    assert_null(strstr(rendered(at("vmstart")), "would settle"));
}

/* One thread count: no plateau can be measured; only policy-none cells
 * (no fault_clear model): not decided, says the qemu row is missing. */
static void test_open_parts(void **state)
{
    ncells = 0;
    qemu("linux_4k", 1, 100, 0);
    decide(&kvm);
    assert_false(it[at("vmstart")].decided);
    assert_int_equal(it[at("vmstart")].reason, VD_R_FEW_CPUS);
    assert_string_equal(rendered(at("vmstart")),
                        "  VM start     2 TB, 16 threads >= 12.5 s [12.3..12.7] linear "
                        "model\n               open: T=1..1 here; a 16-CPU host settles B\n");
    ncells = 0;
    smp_cell(&vmstart_kind, "none", 1, 100);
    smp_cell(&vmstart_kind, "none", 2, 101);
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
        cmocka_unit_test(test_plateau),      cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_b_given),      cmocka_unit_test(test_sublinear_knee),
        cmocka_unit_test(test_ceiling_open), cmocka_unit_test(test_tcg),
        cmocka_unit_test(test_open_parts),   cmocka_unit_test(test_batch_gain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
