/*
 * tests/unit/test_verdict_idle.c - the idle zeroer item (scenarios/interference/verdict.c)
 * on fixture run=interference cells: the highest harmless rate wins, ties
 * at that rate go to the least CPU per GiB and the others are named; a rate
 * that missed its target and the spin control are never the answer; an
 * open comparison is named with its interval and n, the one on an
 * LLC-resident victim at the lowest rate that keeps up first; every rate
 * harmful is decided "none"; with no LLC-resident victim no rate is called
 * harmless (NO_LLC); a spin control that already slows a victim becomes the
 * baseline (CPU contention, not zeroing); the host check's cells alone
 * (run=interference stopped) give CONTENTION or NO_LLC with the host that
 * can answer; the CPU per GiB is given with its call size; without
 * run=interference the clear-based answer says the neighbour cost is not
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

/* A verified interference cell: 10 rounds spread +-spread % around ns. */
static struct vd_cell *icell(const char *zeroer, unsigned rate, const char *victim,
                             const char *level, uint64_t ns, unsigned spread, uint64_t cpu_ms)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = &interference_kind,
                          .strategy = zeroer,
                          .victim = victim,
                          .level = level,
                          .rate_pct = rate,
                          .threads = strcmp(zeroer, "none") ? 1 : 0,
                          .bytes = 16 * MIB,
                          .verified = true,
                          .cpu_ns_per_gib = cpu_ms * 1000000};
    fill(c, ns, spread, 10, 0);
    return c;
}

static const char *llc_class; /* where the residency phase put chase_llc_half */

static void alone(const char *llc_level)
{
    ncells = 0;
    llc_class = llc_level;
    icell("none", 0, "chase_llc_half", llc_level, 150000, 2, 0);
    icell("none", 0, "stream_4llc", "DRAM", 600000, 2, 0);
}

/* Both victims' cells of one zeroer at one rate, slowed by pct % each. */
static void pair(const char *z, unsigned rate, unsigned pct_llc, unsigned pct_dram, uint64_t cpu_ms)
{
    icell(z, rate, "chase_llc_half", llc_class, 150000 * (100 + pct_llc) / 100, 2, cpu_ms);
    icell(z, rate, "stream_4llc", "DRAM", 600000 * (100 + pct_dram) / 100, 2, cpu_ms);
}

/* The spin control's cells, chase_llc_half slowed by pct %. */
static void spin(unsigned pct_llc)
{
    icell("spin", 100, "chase_llc_half", llc_class, 150000 * (100 + pct_llc) / 100, 2, 0)->control =
        true;
    icell("spin", 100, "stream_4llc", "DRAM", 600000, 2, 0)->control = true;
}

static void test_highest_harmless_rate(void **state)
{
    (void)state;
    alone("LLC");
    pair("temporal", 100, 40, 20, 120);
    pair("temporal", 25, 1, 1, 120); /* harmless at 25 %, but more CPU */
    pair("nt", 100, 30, 25, 95);
    pair("nt", 25, 1, 0, 95); /* harmless at 25 % */
    pair("nt", 10, 0, 0, 95);
    spin(0);
    for (size_t k = 0; k < ncells; k++) /* the call size each issued */
        cells[k].chunk = cells[k].rate_pct == 25 ? 184320 : cells[k].rate_pct ? 2 * MIB : 0;
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_true(i->decided);
    assert_string_equal(i->answer, "nt<=25%");
    assert_string_equal(i->unit, "ms/GiB");
    assert_int_equal(i->fig_x1000, 95000);
    assert_int_equal(i->outcome, CMP_TIE);
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  harmless: nt<=25%, 95.0 ms/GiB CPU: chase_llc_half +1.0% "
                        "[-0.4..+2.3] vs alone\n"
                        "               that CPU per GiB in 180K calls, the size it issued\n");
    assert_string_equal(i->cells[0], "interference/nt/25%/chase_llc_half");
    /* one compare record: the comparison the text quotes, not all of them */
    size_t n = 0;
    for (size_t k = 0; k < lg.n; k++)
        n += strcmp(lg.v[k].item, "idle") == 0;
    assert_int_equal(n, 1);
    assert_int_equal(logged(at("idle"), 0, 8)->c.outcome, CMP_TIE); /* alone vs nt/25%/chase_llc */
}

static void test_rate_miss_is_left_out(void **state)
{
    (void)state;
    alone("LLC");
    pair("nt", 25, 0, 0, 95);
    cells[ncells - 1].rate_miss = true;
    pair("temporal", 10, 0, 1, 120);
    decide(&kvm);
    assert_true(it[at("idle")].decided);
    assert_string_equal(it[at("idle")].answer, "temporal<=10%");
    assert_int_equal(it[at("idle")].reason, VD_R_NONE);
}

static void test_open_comparison_named(void **state)
{
    (void)state;
    alone("LLC");
    pair("nt", 100, 30, 30, 95);
    icell("nt", 25, "chase_llc_half", "LLC", 150000 * 104 / 100, 12, 95); /* straddles 5 % */
    icell("nt", 25, "stream_4llc", "DRAM", 600000, 2, 95);
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_false(i->decided);
    assert_int_equal(i->reason, VD_R_STRADDLES);
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  open: nt at 25% on chase_llc_half: +4.0% "
                        "[-3.6..+11.4] vs alone (n=10)\n");
    /* the cells named are the open comparison's */
    assert_string_equal(i->cells[0], "interference/nt/25%/chase_llc_half");
}

static void test_every_rate_harmful(void **state)
{
    (void)state;
    alone("LLC");
    pair("nt", 100, 30, 30, 95);
    pair("nt", 1, 10, 12, 95);
    pair("clzero", 1, 20, 20, 80);
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_true(i->decided);
    assert_string_equal(i->answer, "none");
    assert_int_equal(i->outcome, CMP_SLOWER);
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  none: every rate costs; least, nt at 1%: "
                        "stream_4llc +12.0% [+10.5..+13.5]\n");
}

/* This host overcommitted: the spin control alone costs +100 % on one
 * victim. Against alone every zeroer would look harmful ("none" would
 * blame zeroing for CPU contention); against the spin control (both keep
 * the sibling busy) nt at 25 % costs nothing more and is the answer, while
 * nt at 100 % stays slower and clzero at 10 % is slower on one victim. */
static void test_contention_compares_with_the_spin_control(void **state)
{
    (void)state;
    alone("LLC");
    pair("nt", 100, 120, 30, 28);
    pair("nt", 25, 100, 0, 28);
    pair("clzero", 10, 100, 20, 75);
    spin(100);
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_true(i->decided);
    assert_string_equal(i->answer, "nt<=25%");
    assert_string_equal(i->baseline, "spin control");
    assert_int_equal(i->outcome, CMP_TIE);
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  harmless: nt<=25%, 28.0 ms/GiB CPU: chase_llc_half "
                        "+0.0% [-1.4..+1.3] vs spin control\n");
    assert_string_equal(i->cells[0], "interference/spin/100%/chase_llc_half");
    /* without the spin control's baseline (against alone) nt/25% is +100 %: "none" */
    for (size_t k = 0; k < ncells; k++)
        if (cells[k].control)
            cells[k].control = false, cells[k].strategy = "none";
    ncells -= 2; /* the spin cells would be second "alone" cells: drop them */
    decide(&kvm);
    assert_string_equal(it[at("idle")].answer, "none");
}

/* The open comparison quoted is the thread's question: an LLC-resident
 * victim, at the lowest rate that keeps up (the least CPU among equals);
 * not nt at 25 % (the highest open rate), not rep_stosb or sse2_nt at 10 %
 * (less CPU, but open on a DRAM victim only), not clzero's open DRAM
 * victim, not nt at 1 % (missed its rate), not temporal at 1 % (slower). */
static void test_open_llc_lowest_rate(void **state)
{
    (void)state;
    alone("LLC");
    icell("rep_stosb", 10, "chase_llc_half", "LLC", 150000, 2, 50);
    icell("rep_stosb", 10, "stream_4llc", "DRAM", 600000 * 104 / 100, 12, 50); /* open, DRAM */
    icell("nt", 25, "chase_llc_half", "LLC", 150000 * 104 / 100, 12, 95); /* open, higher rate */
    icell("nt", 25, "stream_4llc", "DRAM", 600000, 2, 95);
    icell("nt", 10, "chase_llc_half", "LLC", 150000 * 104 / 100, 12, 95);
    icell("nt", 10, "stream_4llc", "DRAM", 600000, 2, 95);
    icell("clzero", 10, "stream_4llc", "DRAM", 600000 * 104 / 100, 12, 80); /* open on both */
    icell("clzero", 10, "chase_llc_half", "LLC", 150000 * 104 / 100, 12, 80);
    icell("nt", 1, "chase_llc_half", "LLC", 150000 * 104 / 100, 12, 95)->rate_miss = true;
    icell("nt", 1, "stream_4llc", "DRAM", 600000, 2, 95);
    icell("sse2_nt", 10, "chase_llc_half", "LLC", 150000, 2, 40);
    icell("sse2_nt", 10, "stream_4llc", "DRAM", 600000 * 104 / 100, 12, 40); /* open, DRAM */
    icell("none", 0, "tenant_llc", "LLC", 400000, 2, 0);
    icell("temporal", 1, "chase_llc_half", "LLC", 150000 * 104 / 100, 12, 120); /* open, but */
    icell("temporal", 1, "tenant_llc", "LLC", 400000 * 130 / 100, 2, 120);      /* slower */
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_false(i->decided);
    assert_int_equal(i->reason, VD_R_STRADDLES);
    assert_string_equal(i->cells[0], "interference/clzero/10%/chase_llc_half");
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  open: clzero at 10% on chase_llc_half: "
                        "+4.0% [-3.6..+11.4] vs alone (n=10)\n");
    /* clzero missing its rate too: nt at 10 % */
    cells[9].rate_miss = true;
    decide(&kvm);
    assert_string_equal(it[at("idle")].cells[0], "interference/nt/10%/chase_llc_half");
}

/* No LLC-resident victim (an LLC other tenants share): a rate harmless to
 * the victims measured is no answer to "thrashes L3"; every rate slower
 * still is "none". */
static void test_no_llc_victim(void **state)
{
    (void)state;
    alone("DRAM");
    pair("nt", 100, 30, 30, 95);
    pair("nt", 25, 0, 0, 95);
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_false(i->decided);
    assert_int_equal(i->reason, VD_R_NO_LLC);
    assert_string_equal(i->cells[0], "interference/nt/25%/chase_llc_half");
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  not decided: no LLC-resident victim; nt at 25%: "
                        "chase_llc_half +0.0% [-1.4..+1.3]\n"
                        "               needs a host with an unshared LLC (docs/lab.md)\n");
    ncells -= 2;
    pair("nt", 25, 10, 10, 95);
    decide(&kvm);
    assert_true(it[at("idle")].decided);
    assert_string_equal(it[at("idle")].answer, "none");
}

/* run=interference's host check stopped before any zeroer and handed over
 * its cells (the victims alone and with the spin control): the item says
 * why this host cannot answer and what host can. */
static void test_host_cannot_answer(void **state)
{
    (void)state;
    alone("LLC");
    spin(100);
    decide(&kvm);
    const struct vd_item *i = &it[at("idle")];
    assert_false(i->decided);
    assert_int_equal(i->reason, VD_R_CONTENTION);
    assert_int_equal(i->outcome, CMP_SLOWER);
    assert_string_equal(i->cells[0], "interference/spin/100%/chase_llc_half");
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  not decided, CPU contention: spin alone slows "
                        "chase_llc_half +100.0% [+97.3..+102.6]\n"
                        "               needs a host with distinct physical cores (docs/lab.md)\n");
    alone("DRAM");
    spin(100);
    decide(&kvm);
    assert_int_equal(it[at("idle")].reason, VD_R_CONTENTION);
    assert_string_equal(rendered(at("idle")) + 100,
                        "               needs a host with distinct physical cores, an unshared LLC "
                        "(docs/lab.md)\n");
    alone("DRAM");
    spin(0);
    decide(&kvm);
    assert_int_equal(it[at("idle")].reason, VD_R_NO_LLC);
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  not decided: no LLC-resident victim, L3 unseen\n"
                        "               needs a host with an unshared LLC (docs/lab.md)\n");
    alone("LLC");
    spin(0);
    decide(&kvm);
    assert_int_equal(it[at("idle")].reason, VD_R_NO_CELL);
}

static void test_without_interference(void **state)
{
    (void)state;
    milan();
    decide(&kvm);
    assert_true(it[at("idle")].decided);
    assert_string_equal(it[at("idle")].form, "idle_cpu");
    assert_string_equal(it[at("idle")].measured_by, "interference,clear");
    /* only run=interference ran, with no usable cell (2 rounds): says so */
    alone("LLC");
    for (size_t k = 0; k < ncells; k++)
        cells[k].nsamples = 2;
    struct vd_facts f = kvm;
    f.ran = "interference";
    decide(&f);
    assert_false(it[at("idle")].decided);
    assert_true(it[at("idle")].measured);
    assert_string_equal(rendered(at("idle")), "  idle zeroer  not decided: no usable interference "
                                              "cell\n");
    f.ran = "fault";
    decide(&f);
    assert_string_equal(rendered(at("idle")),
                        "  idle zeroer  not measured (run=interference or run=clear)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_highest_harmless_rate),
        cmocka_unit_test(test_rate_miss_is_left_out),
        cmocka_unit_test(test_open_comparison_named),
        cmocka_unit_test(test_every_rate_harmful),
        cmocka_unit_test(test_contention_compares_with_the_spin_control),
        cmocka_unit_test(test_open_llc_lowest_rate),
        cmocka_unit_test(test_no_llc_victim),
        cmocka_unit_test(test_host_cannot_answer),
        cmocka_unit_test(test_without_interference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
