/*
 * tests/unit/test_paging.c - mm/paging.h: table indices, offsets, canonical
 * addresses, entry makers (alignment and reserved-bit checks), address
 * fields and PAT index bits, with exact values (SDM Vol. 3A §4.5, §11.12.3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/paging.h"

static void test_indices_and_offsets(void **state)
{
    const uint64_t hh = 0xffff800000000000ULL; /* start of the higher half */
    assert_int_equal(va_pml4_index(hh), 256);
    assert_int_equal(va_pdpt_index(hh), 0);
    assert_int_equal(va_pd_index(hh), 0);
    assert_int_equal(va_pt_index(hh), 0);

    const uint64_t top = 0x00007fffffffffffULL; /* last lower-half byte */
    assert_int_equal(va_pml4_index(top), 255);
    assert_int_equal(va_pdpt_index(top), 511);
    assert_int_equal(va_pd_index(top), 511);
    assert_int_equal(va_pt_index(top), 511);
    assert_int_equal(va_offset_4k(top), 0xfff);
    assert_int_equal(va_offset_2m(top), 0x1fffff);
    assert_int_equal(va_offset_1g(top), 0x3fffffff);

    const uint64_t va = 0x0000123456789abcULL; /* 0001 0010 0011 0100 0101 ... */
    assert_int_equal(va_pml4_index(va), 0x24); /* bits 47:39 */
    assert_int_equal(va_pdpt_index(va), 0xd1); /* bits 38:30 */
    assert_int_equal(va_pd_index(va), 0xb3);   /* bits 29:21 */
    assert_int_equal(va_pt_index(va), 0x189);  /* bits 20:12 */
    assert_int_equal(va_offset_4k(va), 0xabc);
    assert_int_equal(va_offset_2m(va), 0x189abc);
    assert_int_equal(va_offset_1g(va), 0x16789abc);
    assert_int_equal(va_make(0x24, 0xd1, 0xb3, 0x189, 0xabc), va);

    assert_int_equal(va_index(va, 0), 0);
    assert_int_equal(va_index(va, 5), 0);
    assert_int_equal(va_index(va, PT_LEVEL_PML4), 0x24);
    assert_int_equal(pt_level_size(PT_LEVEL_PT), 4096);
    assert_int_equal(pt_level_size(PT_LEVEL_PD), 2 * 1024 * 1024);
    assert_int_equal(pt_level_size(PT_LEVEL_PDPT), 1ULL << 30);
    assert_int_equal(pt_level_size(PT_LEVEL_PML4), 1ULL << 39);
    assert_int_equal(pt_level_size(0), 0);
    assert_int_equal(pt_level_size(5), 0);
}

static void test_canonical(void **state)
{
    assert_true(va_is_canonical(0));
    assert_true(va_is_canonical(0x00007fffffffffffULL));
    assert_true(va_is_canonical(0xffff800000000000ULL));
    assert_true(va_is_canonical(0xffffffffffffffffULL));
    assert_false(va_is_canonical(0x0000800000000000ULL));
    assert_false(va_is_canonical(0xffff7fffffffffffULL));
    assert_false(va_is_canonical(0x0001000000000000ULL));
    assert_false(va_is_canonical(0x8000000000000000ULL));
    assert_int_equal(va_canonical(0x0000800000000000ULL), 0xffff800000000000ULL);
    assert_int_equal(va_canonical(0x0000ffffffffffffULL), 0xffffffffffffffffULL);
    assert_int_equal(va_canonical(0xfffe000000001000ULL), 0x1000);
    assert_int_equal(va_canonical(0x00007fffffffffffULL), 0x00007fffffffffffULL);
    /* The walk ignores bits 63:48: a non-canonical address indexes like its
     * sign-extended form. */
    assert_int_equal(va_pml4_index(0x0000800000000000ULL), 256);
    assert_int_equal(va_make(256, 0, 0, 0, 0), 0xffff800000000000ULL);
    assert_int_equal(va_make(511, 510, 0, 0, 0), 0xffffffff80000000ULL); /* -2 GiB */
    assert_int_equal(va_make(512, 512, 512, 512, 0x1000), 0);            /* masked */
}

static void test_entry_makers(void **state)
{
    assert_int_equal(pte_make_4k(0x1234000, PTE_P | PTE_RW | PTE_NX), 0x8000000001234003ULL);
    assert_int_equal(pte_make_4k(0x1234000, PTE_P | PTE_PAT_4K | PTE_G), 0x1234181);
    assert_int_equal(pte_make_4k(0x000ffffffffff000ULL, PTE_P), 0x000ffffffffff001ULL);
    assert_int_equal(pte_make_4k(0x1234800, PTE_P), 0);                /* misaligned */
    assert_int_equal(pte_make_4k(1ULL << 52, PTE_P), 0);               /* past 52 bits */
    assert_int_equal(pte_make_4k(0x1234000, PTE_P | (1ULL << 20)), 0); /* address bit */

    assert_int_equal(pte_make_2m(0x40200000, PTE_P | PTE_RW), 0x40200083);
    assert_int_equal(pte_make_2m(0x40200000, PTE_P | PTE_RW | PTE_PAT_LARGE), 0x40201083);
    assert_int_equal(pte_make_2m(0x40201000, PTE_P), 0);
    assert_int_equal(pte_make_2m(0x40200000, PTE_P | (1ULL << 13)), 0); /* reserved 20:13 */

    assert_int_equal(pte_make_1g(0x80000000, PTE_P | PTE_RW | PTE_G), 0x80000183);
    assert_int_equal(pte_make_1g(0x000fffffc0000000ULL, PTE_P | PTE_NX), 0x800fffffc0000081ULL);
    assert_int_equal(pte_make_1g(0x80200000, PTE_P), 0);
    assert_int_equal(pte_make_1g(0x80000000, PTE_P | (1ULL << 29)), 0); /* reserved 29:13 */

    assert_int_equal(pte_make_table(0x5000, PTE_P | PTE_RW | PTE_US), 0x5007);
    assert_int_equal(pte_make_table(0x5000, PTE_P | PTE_PS), 0);
    assert_int_equal(pte_make_table(0x5008, PTE_P), 0);
    assert_int_equal(PTE_ADDR_1G, 0x000fffffc0000000ULL);
    assert_int_equal(PTE_ADDR_2M, 0x000fffffffe00000ULL);
    assert_int_equal(PTE_NX, 0x8000000000000000ULL);
}

static void test_entry_fields(void **state)
{
    const uint64_t pde = 0x8000000040201083ULL; /* 2 MiB page, PAT bit 12, NX */
    assert_true(pte_is_leaf(pde, PT_LEVEL_PD));
    assert_int_equal(pte_addr(pde, PT_LEVEL_PD), 0x40200000);
    assert_int_equal(pte_addr(pde, PT_LEVEL_PT), 0x40201000); /* bit 12 is address in a PTE */
    assert_int_equal(pte_addr(0x80000183, PT_LEVEL_PDPT), 0x80000000);
    assert_int_equal(pte_addr(0x80200003, PT_LEVEL_PDPT), 0x80200000); /* table, not page */
    assert_false(pte_is_leaf(0x80200003, PT_LEVEL_PDPT));
    assert_false(pte_is_leaf(0x5083, PT_LEVEL_PML4)); /* PML4Es never map pages */
    assert_int_equal(pte_addr(0x5083, PT_LEVEL_PML4), 0x5000);
    assert_true(pte_is_leaf(0x5083, PT_LEVEL_PT));
    assert_int_equal(pte_addr(pde, 0), 0);
    assert_int_equal(pte_addr(pde, 5), 0);
}

static void test_pat_bits(void **state)
{
    assert_int_equal(pte_pat_flags(0, false), 0);
    assert_int_equal(pte_pat_flags(1, false), PTE_PWT);
    assert_int_equal(pte_pat_flags(2, true), PTE_PCD);
    assert_int_equal(pte_pat_flags(4, false), 0x80);
    assert_int_equal(pte_pat_flags(4, true), 0x1000);
    assert_int_equal(pte_pat_flags(7, true), 0x1018);
    assert_int_equal(pte_pat_flags(9, false), PTE_PWT); /* masked to 3 bits */
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(pte_pat_index(pte_make_4k(0x3000, PTE_P | pte_pat_flags(i, false)), false),
                         i);
        assert_int_equal(pte_pat_index(pte_make_2m(0x200000, PTE_P | pte_pat_flags(i, true)), true),
                         i);
    }
    /* PS (bit 7) of a 2 MiB entry is not its PAT bit. */
    assert_int_equal(pte_pat_index(pte_make_2m(0x200000, PTE_P), true), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_indices_and_offsets),
        cmocka_unit_test(test_canonical),
        cmocka_unit_test(test_entry_makers),
        cmocka_unit_test(test_entry_fields),
        cmocka_unit_test(test_pat_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
