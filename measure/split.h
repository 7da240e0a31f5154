/*
 * measure/split.h - sharing a clear target out among CPUs: the arithmetic
 * behind the multi-threaded benchmarks (scenarios/smp/run.c), kept apart so
 * the host unit tests can check it exactly. Portable C; prints nothing.
 *
 * The target is a list of physical extents (1 GiB frames, or runs of 2 MiB
 * frames), each tagged with its ACPI SRAT proximity domain (ACPI 6.5
 * §5.2.16.2; -1 when unknown). Offsets below are positions in the
 * concatenation of the extents in list order ("target space"), in bytes. A
 * participant's piece is one contiguous range of target space, which maps to
 * one or more physically contiguous parts (split_iter).
 */
#ifndef HZ_MEASURE_SPLIT_H
#define HZ_MEASURE_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SPLIT_OK = 0,
    SPLIT_EINVAL = -1,    /* n == 0, unit == 0, a size not a multiple of unit, sums past 2^64 */
    SPLIT_ENOSPACE = -2,  /* the extents (or one domain's extents) hold fewer bytes than needed */
    SPLIT_EORDER = -3,    /* a domain's extents are not consecutive in the list */
    SPLIT_ENODOMAIN = -4, /* a participant's domain has no extent at all */
};

struct split_extent {
    uint64_t base;  /* physical address, bytes */
    uint64_t bytes; /* length, bytes */
    int32_t domain; /* proximity domain, -1 unknown */
};

/* One participant's share, in target space. */
struct split_piece {
    uint64_t off, bytes;
};

/*
 * Share i (0-based) of n when `total` bytes are dealt out in whole units of
 * `unit` bytes as evenly as possible: each share gets floor(U / n) units,
 * the first U mod n shares one more (U = total / unit); shares lie back to
 * back from offset 0, so share sizes differ by at most one unit and shares
 * may be empty when U < n. Returns SPLIT_OK with *off and *bytes, or
 * SPLIT_EINVAL (outputs untouched) for n == 0, i >= n, unit == 0 or total
 * not a multiple of unit.
 */
int split_even(uint64_t total, uint64_t unit, unsigned n, unsigned i, uint64_t *off,
               uint64_t *bytes);

/*
 * Plan n participants' pieces of `total` bytes over ext[0..next): piece i
 * has the size of split_even share i. With domain == NULL (flat placement)
 * the pieces lie back to back from offset 0. Otherwise participant i's piece
 * lies inside the extents of its own domain domain[i]: the participants of
 * one domain, in index order, take consecutive ranges from the start of
 * that domain's extents (which must be consecutive in the list). Every
 * extent size must be a multiple of unit (so pieces start unit-aligned).
 * Returns SPLIT_OK with out[0..n), else an error code (out then
 * unspecified): SPLIT_EINVAL (also for NULL ext/out or next == 0),
 * SPLIT_ENOSPACE (flat: total above the extents' sum; per domain: a domain's
 * pieces above its extents' sum), SPLIT_EORDER, SPLIT_ENODOMAIN.
 */
int split_plan(uint64_t total, uint64_t unit, unsigned n, const int32_t *domain,
               const struct split_extent *ext, size_t next, struct split_piece *out);

/* Walks the physically contiguous parts of a target-space range. */
struct split_iter {
    const struct split_extent *ext;
    size_t next, i;
    uint64_t skip; /* target-space bytes still to pass over before the range */
    uint64_t left; /* range bytes not yet returned */
};

/* Start walking [off, off + bytes) of target space over ext[0..next). */
void split_iter_init(struct split_iter *it, const struct split_extent *ext, size_t next,
                     uint64_t off, uint64_t bytes);

/*
 * Next part: true with *base (physical) and *bytes (> 0). False when the
 * range is done, or when it runs past the last extent: it->left is then the
 * number of range bytes that lie beyond the extents (0 when done).
 */
bool split_iter_next(struct split_iter *it, uint64_t *base, uint64_t *bytes);

/* "ok", "invalid argument", ... for a SPLIT_* code. */
const char *split_strerror(int err);

#endif /* HZ_MEASURE_SPLIT_H */
