/*
 * tests/unit/frames_build.h - shared setup for tests/unit/test_frames.c and
 * tests/unit/test_frames_layout.c: the frames under test, a normalised map
 * built from (base, end, type) triples, and the QEMU q35 -m 6G layout.
 */
#ifndef HZ_TESTS_FRAMES_BUILD_H
#define HZ_TESTS_FRAMES_BUILD_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mm/frames.h"
#include "mm/paging.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)
#define KiB 1024ULL

static struct frames F;
static struct memmap M;

/* Normalised map from (base, end, type) triples. */
static inline void map_of(const uint64_t (*r)[3], size_t n)
{
    memmap_init(&M);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(memmap_add(&M, r[i][0], r[i][1] - r[i][0], (uint32_t)r[i][2]), MEMMAP_OK);
    memmap_normalise(&M);
}

/* QEMU q35 with -m 6G: low RAM to 2 GiB, PCI hole, 4 GiB of RAM above 4 GiB. */
static const uint64_t q35_6g[][3] = {
    {0, 0x9fc00, MEM_USABLE},
    {0x9fc00, 0xa0000, MEM_RESERVED},
    {0xf0000, 0x100000, MEM_RESERVED},
    {0x100000, 0x7ffe0000, MEM_USABLE},
    {0x7ffe0000, 0x80000000, MEM_RESERVED},
    {0xb0000000, 0xc0000000, MEM_RESERVED},
    {0xfffc0000, 0x100000000, MEM_RESERVED},
    {0x100000000, 0x200000000, MEM_USABLE},
};
static const struct frame_excl q35_excl[] = {
    {0, 0x100000, "first MiB"},
    {0x200000, 0x5a2345, "kernel image"},
    {0x10000, 0x12000, "boot information"},
};

static inline void setup_q35(void)
{
    map_of(q35_6g, sizeof q35_6g / sizeof q35_6g[0]);
    assert_int_equal(frames_init(&F, &M, q35_excl, 3), FRAMES_OK);
}

#endif /* HZ_TESTS_FRAMES_BUILD_H */
