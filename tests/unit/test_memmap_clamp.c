/*
 * tests/unit/test_memmap_clamp.c - mm/memmap.c: the MAXPHYADDR limit
 * (CPUID 0x80000008 EAX[7:0], SDM Vol. 3A §4.1.4) and cutting a normalised
 * map at it: ranges above removed, a crossing range cut, usable bytes lost
 * counted, other types not counted, the map left normalised.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/memmap.h"

#define GiB (1ull << 30)

static void test_phys_limit(void **state)
{
    (void)state;
    assert_int_equal(memmap_phys_limit(0), 1ull << 36); /* leaf absent */
    assert_int_equal(memmap_phys_limit(36), 1ull << 36);
    assert_int_equal(memmap_phys_limit(40), 1ull << 40);
    assert_int_equal(memmap_phys_limit(48), 1ull << 48);
    assert_int_equal(memmap_phys_limit(52), 1ull << 52);
    assert_int_equal(memmap_phys_limit(57), 1ull << 52); /* never past 52 bits */
    assert_int_equal(memmap_phys_limit(255), 1ull << 52);
    assert_int_equal(memmap_phys_limit(20), 1ull << 32); /* a 64-bit CPU has 32 at least */
}

/* The q35 map of a 10 GiB guest: RAM to 2 GiB, PCI hole, RAM 4-12 GiB, and
 * a reserved range at 1 TiB - 12 GiB (AMD HyperTransport window). */
static void q35_10g(struct memmap *m)
{
    memmap_init(m);
    memmap_add(m, 0, 0x9f000, MEM_USABLE);
    memmap_add(m, 0x100000, 2 * GiB - 0x100000, MEM_USABLE);
    memmap_add(m, 0xb0000000, 0x10000000, MEM_RESERVED);
    memmap_add(m, 4 * GiB, 8 * GiB, MEM_USABLE);
    memmap_add(m, 0xfd00000000ull, 12 * GiB, MEM_RESERVED);
    memmap_normalise(m);
    assert_int_equal(m->n, 5);
}

static void test_clamp_cuts_ram_across_the_limit(void **state)
{
    (void)state;
    struct memmap m;
    q35_10g(&m);
    uint64_t before = memmap_usable_bytes(&m);
    assert_int_equal(memmap_clamp(&m, 1ull << 33), 4 * GiB); /* 8-12 GiB gone */
    assert_int_equal(m.n, 4);
    assert_int_equal(m.r[3].base, 4 * GiB);
    assert_int_equal(m.r[3].end, 8 * GiB);
    assert_int_equal(m.r[3].type, MEM_USABLE);
    assert_int_equal(memmap_usable_bytes(&m), before - 4 * GiB);
    assert_int_equal(memmap_count_1g(&m), 1 + 4); /* 1-2 GiB and 4-8 GiB */
    /* Idempotent, and already normalised. */
    assert_int_equal(memmap_clamp(&m, 1ull << 33), 0);
    struct memmap copy = m;
    memmap_normalise(&copy);
    assert_memory_equal(&copy, &m, sizeof m);
}

static void test_clamp_at_32_bits_keeps_only_low_ram(void **state)
{
    (void)state;
    struct memmap m;
    q35_10g(&m);
    assert_int_equal(memmap_clamp(&m, memmap_phys_limit(32)), 8 * GiB);
    assert_int_equal(m.n, 3);
    for (size_t i = 0; i < m.n; i++)
        assert_true(m.r[i].end <= 1ull << 32);
}

static void test_clamp_counts_only_usable_bytes(void **state)
{
    (void)state;
    struct memmap m;
    q35_10g(&m);
    /* 40 bits (1 TiB) cuts only the reserved window's part past 1 TiB: none. */
    assert_int_equal(memmap_clamp(&m, 1ull << 40), 0);
    assert_int_equal(m.n, 5);
    /* 39 bits removes the reserved window: no RAM lost. */
    assert_int_equal(memmap_clamp(&m, 1ull << 39), 0);
    assert_int_equal(m.n, 4);
    assert_int_equal(m.r[3].end, 12 * GiB);
}

static void test_clamp_edges(void **state)
{
    (void)state;
    struct memmap m;
    memmap_init(&m);
    memmap_add(&m, 4 * GiB, 4 * GiB, MEM_USABLE); /* ends exactly at 8 GiB */
    memmap_add(&m, 8 * GiB, 4 * GiB, MEM_ACPI);   /* starts exactly there */
    memmap_normalise(&m);
    assert_int_equal(memmap_clamp(&m, 8 * GiB), 0);
    assert_int_equal(m.n, 1);
    assert_int_equal(m.r[0].end, 8 * GiB);
    /* A limit below everything empties the map. */
    assert_int_equal(memmap_clamp(&m, 1 * GiB), 4 * GiB);
    assert_int_equal(m.n, 0);
    /* An empty map stays empty; the 2^64 edge never wraps. */
    assert_int_equal(memmap_clamp(&m, 1ull << 52), 0);
    memmap_add(&m, 0xfffff00000000000ull, 0x100000000000ull, MEM_USABLE);
    memmap_normalise(&m);
    assert_int_equal(m.n, 1);
    assert_int_equal(memmap_clamp(&m, memmap_phys_limit(52)),
                     MEMMAP_END_MAX - 0xfffff00000000000ull);
    assert_int_equal(m.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phys_limit),
        cmocka_unit_test(test_clamp_cuts_ram_across_the_limit),
        cmocka_unit_test(test_clamp_at_32_bits_keeps_only_low_ram),
        cmocka_unit_test(test_clamp_counts_only_usable_bytes),
        cmocka_unit_test(test_clamp_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
