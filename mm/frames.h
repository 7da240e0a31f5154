/*
 * mm/frames.h - physical frames for the zeroing tests: the list of 1 GiB
 * frames (1 GiB-aligned, wholly inside usable RAM, touching no exclusion)
 * and an allocator of 2 MiB and 4 KiB frames from the rest of usable RAM.
 *
 * Input is the normalised memory map (mm/memmap.h) and a list of exclusions
 * (kernel image, boot information, modules, first MiB, AP trampoline...).
 * Everything is bounded and static: the caller owns one `struct frames`
 * (about 40 KiB, put it in .bss). Portable C; prints nothing: the layout is
 * returned as text lines (frames_layout_line) that the kernel prints.
 *
 * Order of use:
 *   frames_init(f, map, excl, n)     free memory = usable map - exclusions
 *   frames_alloc()/frames_free()     any time after init (page tables, stacks)
 *   frames_build_1g(f)               once: moves whole free 1 GiB frames into
 *                                    the 1 GiB list; the small pool keeps the rest
 *   frames_1g_take()/_put()/_split() the 1 GiB list
 * Allocations made before frames_build_1g() avoid 1 GiB windows that could
 * still become 1 GiB frames whenever other memory fits, so early page-table
 * pages do not cost a 1 GiB frame.
 *
 * Addresses are physical, in bytes; ranges are [base, end), end exclusive.
 */
#ifndef HZ_MM_FRAMES_H
#define HZ_MM_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/memmap.h"

struct numa_range; /* a NUMA node's memory range, arch/numa.h */

#define FRAMES_MAX_1G 1024     /* 1 GiB frames listed (1 TiB) */
#define FRAMES_MAX_EXTENTS 512 /* free extents of the small pool */
#define FRAMES_MAX_EXCL 64     /* exclusions */
#define FRAMES_MAX_REJECT 64   /* records of rejected 1 GiB windows */
#define FRAMES_REASON_LEN 32   /* exclusion reason, NUL included (longer is cut) */
#define FRAMES_NO_LIMIT UINT64_MAX

/* Results: 0 or one of these. */
enum {
    FRAMES_OK = 0,
    FRAMES_EINVAL = -1,    /* bad argument: end < base, bad size or alignment, bad index */
    FRAMES_EBADMAP = -2,   /* map not normalised: unsorted, overlapping or empty ranges */
    FRAMES_ENOMEM = -3,    /* no free frame fits */
    FRAMES_EFULL = -4,     /* a fixed-size table is full (exclusions, extents) */
    FRAMES_ESTATE = -5,    /* wrong order: not initialised, built twice, frame not taken */
    FRAMES_ENOTALLOC = -6, /* free of memory the allocator did not hand out (or twice) */
    FRAMES_ENODE = -7      /* nothing of that size free inside the given (node's) ranges */
};

/* State of a listed 1 GiB frame. */
enum frame1g_state { FRAME1G_FREE = 0, FRAME1G_TAKEN = 1, FRAME1G_SPLIT = 2 };

/* Why 1 GiB windows that hold usable RAM were not listed. */
enum frames_why {
    FRAMES_WHY_NONUSABLE = 1, /* crosses a non-usable map range: what_*, type */
    FRAMES_WHY_HOLE,          /* crosses addresses absent from the map: what_* */
    FRAMES_WHY_EXCLUDED,      /* overlaps exclusion number `excl`: what_* */
    FRAMES_WHY_IN_USE,        /* holds frames allocated before frames_build_1g(): what_* */
    FRAMES_WHY_UNMANAGED,     /* part of it was dropped at init (extent table full): what_* */
    FRAMES_WHY_LIST_FULL,     /* not examined: FRAMES_MAX_1G frames listed already */
    FRAMES_WHY_EXTENTS_FULL,  /* carving it out needed an extent slot and none was free */
};

/* `count` consecutive 1 GiB windows from `base` rejected for one reason. */
struct frames_reject {
    uint64_t base, count;
    uint64_t what_base, what_end; /* the range in the way (0, 0 when none; an
                                   * end of UINT64_MAX stands for 2^64) */
    uint32_t why;                 /* enum frames_why */
    uint32_t type;                /* map type for FRAMES_WHY_NONUSABLE */
    uint32_t excl;                /* exclusion index for FRAMES_WHY_EXCLUDED */
};

struct frame_extent {
    uint64_t base, end;
};

/* Allocator state. Read it through the functions below; fields are private. */
struct frames {
    bool ready, built;
    struct mem_range map[MEMMAP_MAX];
    size_t nmap;
    struct {
        uint64_t base, end; /* rounded outward to 4 KiB */
        char reason[FRAMES_REASON_LEN];
    } excl[FRAMES_MAX_EXCL];
    size_t nexcl;
    struct frame_extent home[FRAMES_MAX_EXTENTS]; /* free memory right after init */
    size_t nhome;
    struct frame_extent ext[FRAMES_MAX_EXTENTS]; /* free now: sorted, disjoint, not adjacent */
    size_t next;
    uint64_t g1_base[FRAMES_MAX_1G];
    uint8_t g1_state[FRAMES_MAX_1G];
    size_t n1g;
    struct frames_reject rej[FRAMES_MAX_REJECT];
    size_t nrej;
    uint64_t rej_windows;   /* 1 GiB windows rejected, all reasons */
    size_t rej_dropped;     /* reject records lost (FRAMES_MAX_REJECT) */
    uint64_t g1_unexamined; /* windows not examined: list full */
    uint64_t capped_bytes;  /* free bytes dropped at init: extent table full */
    uint64_t lost_bytes;    /* bytes freed while the extent table was full */
};

/*
 * Set up f from a normalised map (sorted, disjoint, non-empty ranges; see
 * memmap_normalise) and `nx` exclusions. Usable ranges are shrunk inward and
 * exclusions grown outward to 4 KiB; an exclusion with end == base excludes
 * nothing (it is still listed); one ending past 2^64 - 4096 is clipped there.
 * Returns FRAMES_OK; FRAMES_EINVAL for a NULL argument or an exclusion with
 * end < base (the usual sign of base + len overflowing); FRAMES_EFULL for
 * nx > FRAMES_MAX_EXCL; FRAMES_EBADMAP for a map that is not normalised.
 * On error f is left unusable (every later call returns FRAMES_ESTATE).
 * When free memory has more pieces than FRAMES_MAX_EXTENTS, the extra ones
 * are dropped and counted (frames_capped_bytes) but init still succeeds.
 */
int frames_init(struct frames *f, const struct memmap *m, const struct frame_excl *x, size_t nx);

/*
 * Allocate one frame of `size` bytes (PAGE_SIZE_4K or PAGE_SIZE_2M),
 * aligned to its size, lying wholly below `limit` (exclusive; pass
 * FRAMES_NO_LIMIT, or 1ULL << 32 for memory the boot identity map reaches).
 * Policy: extents are tried by address, and in each the lowest and the
 * highest fitting frame (the ones that need no split, usually). First pass:
 * only frames in 1 GiB windows that are not wholly free, so frames that
 * could still become 1 GiB frames are used last; second pass: any. The
 * memory is not zeroed. On success stores the address in *phys and returns
 * FRAMES_OK; FRAMES_ESTATE before a successful frames_init; FRAMES_EINVAL
 * for another size or NULL phys; FRAMES_ENOMEM when nothing fits (*phys
 * untouched); FRAMES_EFULL when only frames that would split an extent fit
 * and the extent table is full.
 */
int frames_alloc(struct frames *f, uint64_t size, uint64_t limit, uint64_t *phys);

/*
 * frames_alloc() from one NUMA node: a frame of `size` (PAGE_SIZE_4K or
 * PAGE_SIZE_2M), aligned to it, lying wholly inside one of r[0..nr) (a
 * node's ranges, arch/numa.h; a range running past 2^64 is cut there), with
 * frames_alloc()'s policy inside each range. FRAMES_ENODE when nothing
 * fits inside the ranges (also for nr 0): another node's memory is never
 * used. FRAMES_ESTATE, FRAMES_EINVAL (also NULL r with nr > 0) and
 * FRAMES_EFULL as frames_alloc().
 */
int frames_alloc_in(struct frames *f, uint64_t size, const struct numa_range *r, size_t nr,
                    uint64_t *phys);

/*
 * Return a frame to the small pool. phys must be aligned to size (4 KiB or
 * 2 MiB; any 4 KiB part of a 2 MiB allocation may be returned alone).
 * FRAMES_EINVAL for bad size/alignment; FRAMES_ENOTALLOC when the range is
 * not wholly inside memory the allocator manages, lies in a listed 1 GiB
 * frame, or is (partly) free already; FRAMES_EFULL when the extent table is
 * full: the memory is then lost and counted in frames_lost_bytes().
 */
int frames_free(struct frames *f, uint64_t phys, uint64_t size);

/*
 * Build the 1 GiB list, once, after frames_init(): every 1 GiB-aligned
 * window wholly inside usable RAM, outside every exclusion and wholly free
 * in the small pool is moved out of the pool into the list (lowest address
 * first, up to FRAMES_MAX_1G). Every other window holding usable RAM is
 * recorded with the reason (frames_reject_get). Returns FRAMES_OK (also
 * when no frame qualifies: check frames_1g_count() and fall back to 2 MiB
 * frames), or FRAMES_ESTATE when not initialised or called twice.
 */
int frames_build_1g(struct frames *f);

/* Number of listed 1 GiB frames (0 before frames_build_1g). */
size_t frames_1g_count(const struct frames *f);
/* Listed frames in state FRAME1G_FREE. */
size_t frames_1g_free_count(const struct frames *f);
/* True when [a, a + size) lies wholly inside the union of r[0..nr) (adjacent
 * ranges count as one; a range running past 2^64 is cut there); false for
 * nr 0 or a NULL r. */
bool frames_in_ranges(const struct numa_range *r, size_t nr, uint64_t a, uint64_t size);

/* Free listed frames lying wholly inside the union of r[0..nr) (0 for nr 0). */
size_t frames_1g_free_count_in(const struct frames *f, const struct numa_range *r, size_t nr);
/* Physical base of frame idx (ascending with idx); UINT64_MAX for a bad idx. */
uint64_t frames_1g_base(const struct frames *f, size_t idx);
/* enum frame1g_state of frame idx; -1 for a bad idx. */
int frames_1g_state(const struct frames *f, size_t idx);
/* Index of the listed frame whose base is `base`; -1 when none. */
long frames_1g_find(const struct frames *f, uint64_t base);

/* Take the lowest free 1 GiB frame: *idx gets its index. FRAMES_ENOMEM when
 * none is free, FRAMES_ESTATE before frames_build_1g, FRAMES_EINVAL NULL. */
int frames_1g_take(struct frames *f, size_t *idx);
/*
 * The same from one NUMA node: the lowest free 1 GiB frame lying wholly
 * inside the union of r[0..nr) (a node's ranges, arch/numa.h; adjacent
 * ranges count as one). FRAMES_ENODE when no free frame lies there (also
 * for nr 0, a node without memory): another node's frame is never given.
 * FRAMES_ESTATE before frames_build_1g, FRAMES_EINVAL for NULL f or idx,
 * or NULL r with nr > 0.
 */
int frames_1g_take_in(struct frames *f, const struct numa_range *r, size_t nr, size_t *idx);

/* Give frame idx back: FRAMES_EINVAL bad idx, FRAMES_ESTATE not taken. */
int frames_1g_put(struct frames *f, size_t idx);
/* Hand free frame idx to the small pool for 2 MiB/4 KiB allocations; it
 * stays listed in state FRAME1G_SPLIT and is never taken again.
 * FRAMES_EINVAL bad idx, FRAMES_ESTATE not free, FRAMES_EFULL no extent slot. */
int frames_1g_split(struct frames *f, size_t idx);

/* Bytes free in the small pool, and how many 2 MiB-aligned 2 MiB frames it
 * holds (what a 2 MiB fallback can use). */
uint64_t frames_free_bytes(const struct frames *f);
uint64_t frames_count_2m(const struct frames *f);
/* Bytes dropped at init (extent table full) and lost on free. */
uint64_t frames_capped_bytes(const struct frames *f);
uint64_t frames_lost_bytes(const struct frames *f);

/* Reject records: count, and record i (NULL for a bad i). */
size_t frames_reject_count(const struct frames *f);
const struct frames_reject *frames_reject_get(const struct frames *f, size_t i);
/* Reason of record i as text, e.g. "overlaps kernel image
 * 0x200000-0x5a3000" or "crosses non-usable range 0x9fc00-0x100000
 * (reserved)". Returns hz_snprintf's length; "" for a bad i. */
int frames_reject_text(const struct frames *f, size_t i, char *buf, size_t cap);

/*
 * The layout as text lines, for the kernel to print: a header, the usable
 * map ranges, the exclusions and why, runs of 1 GiB frames, rejected
 * windows and why, and a summary (2 MiB frame count, caps hit, and "no
 * 1 GiB frame: falling back to 2 MiB frames" when the list is empty after
 * frames_build_1g). Start with *iter = 0; each call writes one line
 * (no newline) and returns true, false after the last line.
 */
bool frames_layout_line(const struct frames *f, size_t *iter, char *buf, size_t cap);

/* "invalid argument", "memory map not normalised", ... for a FRAMES_E* code. */
const char *frames_strerror(int err);

#endif /* HZ_MM_FRAMES_H */
