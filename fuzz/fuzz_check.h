/*
 * fuzz/fuzz_check.h - invariant checks shared by the fuzz harnesses: a
 * normalised memory map (mm/memmap.h), a parsed boot information structure
 * (boot/bootinfo.h) and a frame allocator set up from them (mm/frames.h).
 * Each check (and FUZZ_CHECK, for any harness) calls abort() on a
 * violation, which libFuzzer reports as a crash with the input that caused
 * it.
 */
#ifndef HZ_FUZZ_CHECK_H
#define HZ_FUZZ_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bootinfo.h"
#include "mm/frames.h"
#include "mm/memmap.h"
#include "mm/paging.h"

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

/* Sorted, disjoint, non-empty ranges below MEMMAP_END_MAX; usable ranges
 * 4 KiB-aligned; no two touching ranges of one type. */
static inline void fuzz_check_map(const struct memmap *m)
{
    FUZZ_CHECK(m->n <= MEMMAP_MAX);
    for (size_t i = 0; i < m->n; i++) {
        const struct mem_range *r = &m->r[i];
        FUZZ_CHECK(r->base < r->end && r->end <= MEMMAP_END_MAX);
        if (r->type == MEM_USABLE)
            FUZZ_CHECK((r->base | r->end) % PAGE_SIZE_4K == 0);
        if (i > 0) {
            FUZZ_CHECK(m->r[i - 1].end <= r->base);
            FUZZ_CHECK(m->r[i - 1].end < r->base || m->r[i - 1].type != r->type);
        }
    }
}

static inline void fuzz_check_str(const char *s, size_t cap) { FUZZ_CHECK(memchr(s, 0, cap)); }

/* Strings terminated, counts within their tables, the map normalised. */
static inline void fuzz_check_bootinfo(const struct bootinfo *bi)
{
    fuzz_check_str(bi->cmdline, sizeof(bi->cmdline));
    fuzz_check_str(bi->loader, sizeof(bi->loader));
    FUZZ_CHECK(bi->map_source != NULL);
    FUZZ_CHECK(bi->ndiag <= BOOT_DIAG_MAX && bi->nmodules <= BOOT_MODULES_MAX);
    FUZZ_CHECK(bi->rsdp_len <= sizeof(bi->rsdp));
    for (size_t i = 0; i < bi->ndiag; i++)
        fuzz_check_str(bi->diag[i], BOOT_DIAG_LEN);
    for (size_t i = 0; i < bi->nmodules; i++) {
        FUZZ_CHECK(bi->modules[i].start <= bi->modules[i].end);
        fuzz_check_str(bi->modules[i].cmdline, sizeof(bi->modules[i].cmdline));
    }
    fuzz_check_map(&bi->map);
}

static inline bool fuzz_overlaps(uint64_t a, uint64_t ae, uint64_t b, uint64_t be)
{
    return a < be && b < ae;
}

/* [base, end) lies wholly inside one usable range of m and overlaps no
 * exclusion of x (with x[i] grown outward to 4 KiB as frames_init does). */
static inline void fuzz_check_owned(const struct memmap *m, const struct frame_excl *x, size_t nx,
                                    uint64_t base, uint64_t end)
{
    bool inside = false;
    for (size_t i = 0; i < m->n; i++)
        if (m->r[i].type == MEM_USABLE && m->r[i].base <= base && end <= m->r[i].end)
            inside = true;
    FUZZ_CHECK(inside);
    for (size_t i = 0; i < nx; i++) {
        uint64_t xb = x[i].base & ~(PAGE_SIZE_4K - 1), xe = x[i].end;
        if (x[i].end > x[i].base)
            FUZZ_CHECK(!fuzz_overlaps(base, end, xb, xe));
    }
}

#define FUZZ_ALLOCS 24

/*
 * frames_init(map, x) must accept any exclusion list with end >= base.
 * Then allocate 4 KiB and 2 MiB frames (below `limit` for some), build the
 * 1 GiB list and check that every frame is aligned, owned (fuzz_check_owned),
 * disjoint from every other, and that the 1 GiB list is sorted; free the
 * small frames again and walk the layout text. `pattern` chooses sizes.
 */
static inline void fuzz_check_frames(struct frames *f, const struct memmap *m,
                                     const struct frame_excl *x, size_t nx, uint32_t pattern)
{
    FUZZ_CHECK(frames_init(f, m, x, nx) == FRAMES_OK);
    uint64_t got[FUZZ_ALLOCS], sz[FUZZ_ALLOCS];
    size_t n = 0;
    for (unsigned i = 0; i < FUZZ_ALLOCS; i++) {
        uint64_t size = (pattern >> i) & 1 ? PAGE_SIZE_2M : PAGE_SIZE_4K;
        uint64_t limit = (pattern >> (i + 8)) & 1 ? 1ull << 32 : FRAMES_NO_LIMIT;
        uint64_t a;
        int rc = frames_alloc(f, size, limit, &a);
        FUZZ_CHECK(rc == FRAMES_OK || rc == FRAMES_ENOMEM || rc == FRAMES_EFULL);
        if (rc != FRAMES_OK)
            continue;
        FUZZ_CHECK(a % size == 0 && (limit == FRAMES_NO_LIMIT || a + size <= limit));
        fuzz_check_owned(m, x, nx, a, a + size);
        for (size_t k = 0; k < n; k++)
            FUZZ_CHECK(!fuzz_overlaps(a, a + size, got[k], got[k] + sz[k]));
        got[n] = a, sz[n++] = size;
    }
    FUZZ_CHECK(frames_build_1g(f) == FRAMES_OK);
    for (size_t i = 0; i < frames_1g_count(f); i++) {
        uint64_t b = frames_1g_base(f, i);
        FUZZ_CHECK(b % PAGE_SIZE_1G == 0);
        FUZZ_CHECK(i == 0 || b > frames_1g_base(f, i - 1));
        fuzz_check_owned(m, x, nx, b, b + PAGE_SIZE_1G);
        for (size_t k = 0; k < n; k++)
            FUZZ_CHECK(!fuzz_overlaps(b, b + PAGE_SIZE_1G, got[k], got[k] + sz[k]));
    }
    for (size_t k = 0; k < n; k++) {
        int rc = frames_free(f, got[k], sz[k]);
        FUZZ_CHECK(rc == FRAMES_OK || rc == FRAMES_EFULL);
    }
    char line[160];
    for (size_t it = 0; frames_layout_line(f, &it, line, sizeof(line));)
        fuzz_check_str(line, sizeof(line));
}

#endif /* HZ_FUZZ_CHECK_H */
