/*
 * tests/unit/test_steal_area.c - arch/steal_area.c: where a KVM steal-time
 * record may be placed (64-byte aligned, inside the kernel's own block),
 * the read-back check of MSR_KVM_STEAL_TIME that catches a record moved
 * elsewhere (issue 23: CPU 0's record in pool frame 0x100000000 passed every
 * check of run=fault verify=full), and the padding checksum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/steal_area.h"

#define OWN 0x2e5880ull /* the kernel's block: 4 records */
#define OWN_END (OWN + 4 * STEAL_REC_BYTES)
#define POOL_FRAME 0x100000000ull /* the first 1 GiB pool frame of a 6 GiB guest */

static void test_placement(void **state)
{
    (void)state;
    assert_null(steal_area_refusal(OWN, OWN, OWN_END));
    assert_null(steal_area_refusal(OWN_END - STEAL_REC_BYTES, OWN, OWN_END));
    assert_non_null(strstr(steal_area_refusal(OWN + 8, OWN, OWN_END), "64-byte aligned"));
    assert_non_null(strstr(steal_area_refusal(OWN + 1, OWN, OWN_END), "64-byte aligned"));
    /* one record hanging past the end, below the start, a pool frame, past RAM */
    assert_non_null(strstr(steal_area_refusal(OWN_END, OWN, OWN_END), "outside"));
    assert_non_null(strstr(steal_area_refusal(OWN - STEAL_REC_BYTES, OWN, OWN_END), "outside"));
    assert_non_null(strstr(steal_area_refusal(POOL_FRAME, OWN, OWN_END), "pool"));
    assert_non_null(steal_area_refusal(1ull << 45, OWN, OWN_END));
    assert_non_null(steal_area_refusal(UINT64_MAX & ~63ull, OWN, OWN_END)); /* no wrap-around */
    assert_non_null(steal_area_refusal(OWN, OWN, OWN));                     /* empty block */
}

static void test_msr_readback(void **state)
{
    (void)state;
    char why[160];
    assert_int_equal(steal_msr_check(OWN | 1, OWN, why, sizeof(why)), 0);
    /* the mutation: the host was told to write into pool frame 0x100000000 */
    assert_int_equal(steal_msr_check(POOL_FRAME | 1, OWN, why, sizeof(why)), -1);
    assert_string_equal(why, "the host writes steal time at 0x100000000, not at its own record "
                             "0x2e5880");
    assert_int_equal(steal_msr_check(OWN, OWN, why, sizeof(why)), -1); /* enable bit clear */
    assert_non_null(strstr(why, "disabled"));
    assert_int_equal(steal_msr_check(OWN | 3, OWN, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "reserved bits 5:1"));
    assert_int_equal(steal_msr_check(0, OWN, why, sizeof(why)), -1);
}

static void test_pad_sum(void **state)
{
    (void)state;
    _Alignas(64) uint8_t rec[STEAL_REC_BYTES] = {0};
    uint64_t sum = steal_pad_sum(rec);
    memset(rec, 0xa5, STEAL_PAD_FROM); /* the host's fields: steal, version, flags, preempted */
    assert_true(steal_pad_sum(rec) == sum);
    for (unsigned i = STEAL_PAD_FROM; i < STEAL_REC_BYTES; i++) {
        rec[i] = 1;
        assert_true(steal_pad_sum(rec) != sum);
        rec[i] = 0;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_msr_readback),
        cmocka_unit_test(test_pad_sum),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
