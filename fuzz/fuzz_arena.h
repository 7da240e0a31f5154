/*
 * fuzz/fuzz_arena.h - the "physical memory" of harnesses whose input holds
 * physical addresses (PVH start_info, ACPI tables): the kernel identity-maps
 * them, so the parsers dereference any address below their `limit`.
 * Physical [0, FUZZ_ARENA_SIZE) is a read/write window at host address
 * HZ_PHYS_OFFSET (set for every fuzz object by fuzz/rules.mk, and used by
 * arch/acpi_priv.h acpi_ptr()), followed by an inaccessible guard page.
 * fuzz_arena_load() puts the input at the window's end, so a read past the
 * limit faults, and zeroes what an earlier input left.
 *
 * The PVH parser reads through plain pointers (host = physical there):
 * fuzz_arena_addr() turns the low addresses a host cannot map into offsets
 * from the input's start.
 */
#ifndef HZ_FUZZ_ARENA_H
#define HZ_FUZZ_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sanitizer/asan_interface.h>

/* Inside ASan's low application memory (below 0x7fff8000 on x86-64). */
#define FUZZ_ARENA_LO ((uint64_t)HZ_PHYS_OFFSET)
#define FUZZ_ARENA_SIZE (1ull << 20)
#define FUZZ_ARENA_END (FUZZ_ARENA_LO + FUZZ_ARENA_SIZE)

static size_t fuzz_arena_used = FUZZ_ARENA_SIZE; /* zero everything the first time */

/* Copy data (at most FUZZ_ARENA_SIZE bytes are used) to end at
 * FUZZ_ARENA_END; returns its host address. *size is cut to fit. */
static inline uint64_t fuzz_arena_load(const uint8_t *data, size_t *size)
{
    static int mapped;
    if (!mapped) {
        void *m =
            mmap((void *)(uintptr_t)FUZZ_ARENA_LO, FUZZ_ARENA_SIZE + 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m != (void *)(uintptr_t)FUZZ_ARENA_LO ||
            mprotect((void *)(uintptr_t)FUZZ_ARENA_END, 4096, PROT_NONE) != 0)
            abort();
        mapped = 1;
    }
    if (*size > FUZZ_ARENA_SIZE)
        *size = FUZZ_ARENA_SIZE;
    void *old = (void *)(uintptr_t)(FUZZ_ARENA_END - fuzz_arena_used);
    ASAN_UNPOISON_MEMORY_REGION(old, fuzz_arena_used); /* gaps a harness poisoned */
    memset(old, 0, fuzz_arena_used);
    fuzz_arena_used = *size;
    uint64_t base = FUZZ_ARENA_END - *size;
    memcpy((void *)(uintptr_t)base, data, *size);
    return base;
}

/* A PVH address from the input: 0 stays 0 (NULL), addresses inside or
 * above the window stay, lower ones become base + p. */
static inline uint64_t fuzz_arena_addr(uint64_t base, uint64_t p)
{
    return p == 0 || p >= FUZZ_ARENA_LO ? p : base + p;
}

#endif /* HZ_FUZZ_ARENA_H */
