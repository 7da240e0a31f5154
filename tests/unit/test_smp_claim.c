/*
 * tests/unit/test_smp_claim.c - the AP slot claim (TRAMP_CLAIM in
 * arch/trampoline_claim.inc, the instructions every AP runs before it has a
 * stack): a CPU takes only the slot with its own APIC ID, only while it is
 * OPEN, and two CPUs racing for one slot never both win. Threads stand in
 * for APs, with the real LOCK CMPXCHG. test_race is a smoke test, not a
 * proof: on this 2-core host a plain check-then-store claim also passed it
 * (the threads rarely meet inside the few-instruction window); atomicity
 * rests on LOCK CMPXCHG itself (SDM Vol. 3A §9.1.2.2).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "arch/trampoline.h"
#include "kernel/smp.h" /* HZ_MAX_CPUS */

struct tramp_slot *tramp_claim(struct tramp_slot *table, uint32_t n, uint32_t apic_id);

static struct tramp_slot slots[HZ_MAX_CPUS];

/* Slots 0..n-1 for APIC IDs 3, 5, 7, ... (sparse, like SMT-off x2APIC IDs). */
static void fill(unsigned n, uint32_t claim)
{
    for (unsigned i = 0; i < n; i++)
        slots[i] = (struct tramp_slot){
            .apic_id = 3 + 2 * i, .claim = claim, .stack = 0x100000 + 0x14000ull * i, .cpu = i};
}

static void test_claims_own_slot(void **state)
{
    fill(HZ_MAX_CPUS, TRAMP_SLOT_OPEN);
    struct tramp_slot *s = tramp_claim(slots, HZ_MAX_CPUS, 3 + 2 * 700);
    assert_ptr_equal(s, &slots[700]);
    assert_int_equal(s->claim, TRAMP_SLOT_TAKEN);
    assert_int_equal(s->cpu, 700);
    /* the same ID again (a second SIPI, a duplicate): refused */
    assert_null(tramp_claim(slots, HZ_MAX_CPUS, 3 + 2 * 700));
    /* the neighbours are untouched */
    assert_int_equal(slots[699].claim, TRAMP_SLOT_OPEN);
    assert_int_equal(slots[701].claim, TRAMP_SLOT_OPEN);
    /* the last slot, and IDs not in the table (even, or past the end) */
    assert_ptr_equal(tramp_claim(slots, HZ_MAX_CPUS, 3 + 2 * (HZ_MAX_CPUS - 1)),
                     &slots[HZ_MAX_CPUS - 1]);
    assert_null(tramp_claim(slots, HZ_MAX_CPUS, 4));
    assert_null(tramp_claim(slots, HZ_MAX_CPUS, 3 + 2 * HZ_MAX_CPUS));
    /* an empty table */
    assert_null(tramp_claim(slots, 0, 3));
}

static void test_closed_and_unused_stay(void **state)
{
    fill(8, TRAMP_SLOT_OPEN);
    slots[2].claim = TRAMP_SLOT_CLOSED; /* the BSP gave up on APIC ID 7 */
    slots[3].claim = TRAMP_SLOT_UNUSED; /* not being started */
    assert_null(tramp_claim(slots, 8, 7));
    assert_int_equal(slots[2].claim, TRAMP_SLOT_CLOSED);
    assert_null(tramp_claim(slots, 8, 9));
    assert_int_equal(slots[3].claim, TRAMP_SLOT_UNUSED);
    /* a late AP never falls through to the next CPU's slot */
    assert_int_equal(slots[4].claim, TRAMP_SLOT_OPEN);
}

#define THREADS 8
#define ROUNDS 2000

struct racer {
    uint32_t apic_id;
    pthread_barrier_t *go;
    unsigned wins;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    for (unsigned round = 0; round < ROUNDS; round++) {
        pthread_barrier_wait(r->go); /* the main thread opened the slots */
        r->wins += tramp_claim(slots, 16, r->apic_id) != NULL;
        pthread_barrier_wait(r->go); /* done: the main thread checks */
    }
    return NULL;
}

static void test_race(void **state)
{
    /* 8 threads, pairs with the same APIC ID (3, 5, 7, 9): each round
     * exactly one of each pair takes the slot */
    pthread_barrier_t go;
    pthread_t t[THREADS];
    struct racer r[THREADS];
    pthread_barrier_init(&go, NULL, THREADS + 1);
    for (unsigned i = 0; i < THREADS; i++) {
        r[i] = (struct racer){.apic_id = 3 + 2 * (i / 2), .go = &go};
        pthread_create(&t[i], NULL, race, &r[i]);
    }
    for (unsigned round = 0; round < ROUNDS; round++) {
        fill(16, TRAMP_SLOT_OPEN);
        pthread_barrier_wait(&go);
        pthread_barrier_wait(&go);
        for (unsigned i = 0; i < 4; i++)
            assert_int_equal(slots[i].claim, TRAMP_SLOT_TAKEN);
        for (unsigned i = 4; i < 16; i++)
            assert_int_equal(slots[i].claim, TRAMP_SLOT_OPEN);
    }
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (unsigned p = 0; p < THREADS / 2; p++)
        assert_int_equal(r[2 * p].wins + r[2 * p + 1].wins, ROUNDS);
    pthread_barrier_destroy(&go);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claims_own_slot),
        cmocka_unit_test(test_closed_and_unused_stay),
        cmocka_unit_test(test_race),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
