/*
 * tests/unit/test_smp_plan.c - kernel/smp_plan.c: which MADT entries SMP
 * start-up starts and with which CPU index, at server scale (up to
 * ACPI_CPUS_MAX entries, HZ_MAX_CPUS CPUs), with the BSP anywhere in the
 * table, duplicates, disabled entries, the smp= limit and xAPIC addressing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "kernel/smp_priv.h"

static struct acpi_madt madt;
static struct smp_start_log plan_log;

/* n enabled entries with APIC IDs first, first + stride, ... */
static void make_madt(size_t n, uint32_t first, uint32_t stride)
{
    madt.present = true;
    madt.ncpu = n;
    for (size_t k = 0; k < n; k++)
        madt.cpu[k] = (struct acpi_cpu){.apic_id = first + (uint32_t)k * stride,
                                        .uid = (uint32_t)k,
                                        .x2apic = first + k * stride > 0xfe,
                                        .enabled = true};
}

static unsigned plan(uint32_t bsp, unsigned limit, bool x2apic)
{
    plan_log.limit = limit;
    return smp_plan(&plan_log, &madt, bsp, x2apic);
}

static void test_1024_cpus(void **state)
{
    /* 1024 CPUs with x2APIC IDs 0, 2, 4, ... (SMT off): all planned, in order */
    make_madt(1024, 0, 2);
    assert_int_equal(plan(0, HZ_MAX_CPUS, true), 1023);
    assert_int_equal(plan_log.fate[0], SMP_FATE_BSP);
    assert_int_equal(plan_log.cpu[0], 0);
    for (size_t k = 1; k < 1024; k++) {
        assert_int_equal(plan_log.fate[k], SMP_FATE_PLANNED);
        assert_int_equal(plan_log.cpu[k], (int)k);
    }
}

static void test_cap_beyond_1024(void **state)
{
    /* 1100 enabled entries: the BSP and 1023 APs, then 76 at the cap */
    make_madt(1100, 0, 1);
    assert_int_equal(plan(0, HZ_MAX_CPUS, true), HZ_MAX_CPUS - 1);
    assert_int_equal(plan_log.fate[1023], SMP_FATE_PLANNED);
    assert_int_equal(plan_log.cpu[1023], 1023);
    for (size_t k = 1024; k < 1100; k++) {
        assert_int_equal(plan_log.fate[k], SMP_FATE_LIMIT);
        assert_int_equal(plan_log.cpu[k], -1);
    }
    /* a limit above the cap is clamped to it */
    assert_int_equal(plan(0, 5000, true), HZ_MAX_CPUS - 1);
}

static void test_bsp_in_the_middle(void **state)
{
    /* BSP is APIC ID 5 (entry 5): APs before and after it get 1..7 */
    make_madt(8, 0, 1);
    assert_int_equal(plan(5, 64, false), 7);
    int want[8] = {1, 2, 3, 4, 5, 0, 6, 7};
    for (size_t k = 0; k < 8; k++)
        assert_int_equal(plan_log.cpu[k], want[k]);
    assert_int_equal(plan_log.fate[5], SMP_FATE_BSP);
}

static void test_limit_counts_the_bsp(void **state)
{
    /* smp=3 with the BSP last: two APs, the rest limited */
    make_madt(6, 10, 1);
    assert_int_equal(plan(15, 3, false), 2);
    assert_int_equal(plan_log.fate[0], SMP_FATE_PLANNED);
    assert_int_equal(plan_log.fate[1], SMP_FATE_PLANNED);
    for (size_t k = 2; k < 5; k++)
        assert_int_equal(plan_log.fate[k], SMP_FATE_LIMIT);
    assert_int_equal(plan_log.fate[5], SMP_FATE_BSP);
    /* nosmp (limit 1): nothing */
    assert_int_equal(plan(15, 1, false), 0);
    /* a limit of 0 is clamped to 1 */
    assert_int_equal(plan(15, 0, false), 0);
}

static void test_duplicates_and_disabled(void **state)
{
    make_madt(6, 0, 1);
    madt.cpu[2].apic_id = 1;     /* duplicate of entry 1 */
    madt.cpu[3].enabled = false; /* disabled ... */
    madt.cpu[4].apic_id = 3;     /* ... so its ID is not a duplicate for entry 4 */
    madt.cpu[5].apic_id = 0;     /* a second BSP ID: duplicate, not a second CPU 0 */
    assert_int_equal(plan(0, 64, false), 2);
    assert_int_equal(plan_log.fate[1], SMP_FATE_PLANNED);
    assert_int_equal(plan_log.fate[2], SMP_FATE_DUPLICATE);
    assert_int_equal(plan_log.fate[3], SMP_FATE_DISABLED);
    assert_int_equal(plan_log.fate[4], SMP_FATE_PLANNED);
    assert_int_equal(plan_log.cpu[4], 2);
    assert_int_equal(plan_log.fate[5], SMP_FATE_DUPLICATE);
    assert_int_equal(plan_log.cpu[5], -1);
    /* IDs above the bitmap (2^16) use the scan: still found */
    make_madt(3, 0x20000, 0);
    madt.cpu[0].apic_id = 0;
    assert_int_equal(plan(0, 64, true), 1);
    assert_int_equal(plan_log.fate[1], SMP_FATE_PLANNED);
    assert_int_equal(plan_log.fate[2], SMP_FATE_DUPLICATE);
}

static void test_xapic_addressing(void **state)
{
    /* IDs 250..259: in xAPIC mode 0xff and above cannot be addressed */
    make_madt(10, 250, 1);
    assert_int_equal(plan(250, 64, false), 4); /* 251..254 */
    assert_int_equal(plan_log.fate[4], SMP_FATE_PLANNED);
    assert_int_equal(plan_log.fate[5], SMP_FATE_NOADDR);
    assert_int_equal(plan_log.cpu[5], -1);
    assert_int_equal(plan(250, 64, true), 9); /* x2APIC: all */
    assert_int_equal(plan_log.cpu[9], 9);
}

static void test_table_full(void **state)
{
    /* ACPI_CPUS_MAX entries (the parser keeps no more): each seen once */
    make_madt(ACPI_CPUS_MAX, 0, 1);
    for (size_t k = 0; k < ACPI_CPUS_MAX; k++)
        madt.cpu[k].enabled = k % 2 == 0; /* every other one disabled */
    assert_int_equal(plan(0, HZ_MAX_CPUS, true), ACPI_CPUS_MAX / 2 - 1);
    assert_int_equal(plan_log.cpu[ACPI_CPUS_MAX - 2], ACPI_CPUS_MAX / 2 - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1024_cpus),
        cmocka_unit_test(test_cap_beyond_1024),
        cmocka_unit_test(test_bsp_in_the_middle),
        cmocka_unit_test(test_limit_counts_the_bsp),
        cmocka_unit_test(test_duplicates_and_disabled),
        cmocka_unit_test(test_xapic_addressing),
        cmocka_unit_test(test_table_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
