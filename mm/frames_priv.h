/*
 * mm/frames_priv.h - private to mm/frames.c and mm/frames_layout.c: the
 * rounding helpers and the two extent operations the 1 GiB scan shares with
 * the allocator. Other code uses mm/frames.h only.
 *
 * Extents are [base, end) in bytes, sorted, disjoint and never adjacent
 * (struct frames, field ext). Sizes passed to down() and up() are powers of 2.
 */
#ifndef HZ_MM_FRAMES_PRIV_H
#define HZ_MM_FRAMES_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/frames.h"

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
/* Round x down to a (a power of 2). */
static inline uint64_t down(uint64_t x, uint64_t a) { return x & ~(a - 1); }

/* Round x up to a (a power of 2); false when that passes 2^64 - 1. */
static inline bool up(uint64_t x, uint64_t a, uint64_t *out)
{
    if (x > UINT64_MAX - (a - 1))
        return false;
    *out = (x + a - 1) & ~(a - 1);
    return true;
}

/* Index of the extent in e[0..n) that wholly contains [a, end); -1 if none. */
long frames_containing(const struct frame_extent *e, size_t n, uint64_t a, uint64_t end);

/* Remove [a, a + size) from free extent i (the range must lie inside it).
 * FRAMES_OK, or FRAMES_EFULL when a split is needed and the extent table is
 * full (nothing changed then). */
int frames_carve(struct frames *f, size_t i, uint64_t a, uint64_t size);

#endif /* HZ_MM_FRAMES_PRIV_H */
