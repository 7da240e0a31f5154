/*
 * mm/frames.c - the 1 GiB frame list and the 2 MiB / 4 KiB frame allocator
 * (see mm/frames.h). Free memory is an array of extents, sorted, disjoint
 * and never adjacent (adjacent pieces are merged), carved as frames are
 * handed out. No bitmap, no malloc: every table has a fixed size.
 */
#include "mm/frames.h"

#include "kernel/fmt.h"
#include "kernel/kstring.h"
#include "mm/paging.h"

#define LAST_PAGE MEMMAP_END_MAX /* 2^64 - 4096: the highest end of a range */

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t down(uint64_t x, uint64_t a) { return x & ~(a - 1); }

/* Round x up to a; false when that passes 2^64 - 1. */
static bool up(uint64_t x, uint64_t a, uint64_t *out)
{
    if (x > UINT64_MAX - (a - 1))
        return false;
    *out = (x + a - 1) & ~(a - 1);
    return true;
}

/* Append [base, end) to a sorted extent list, merging with its last piece.
 * Returns false (dropping the piece) when the list is full. */
static bool push_extent(struct frame_extent *e, size_t *n, uint64_t base, uint64_t end)
{
    if (*n > 0 && e[*n - 1].end == base) {
        e[*n - 1].end = end;
        return true;
    }
    if (*n == FRAMES_MAX_EXTENTS)
        return false;
    e[*n].base = base;
    e[*n].end = end;
    (*n)++;
    return true;
}

static int check_map(const struct memmap *m)
{
    if (m->n > MEMMAP_MAX)
        return FRAMES_EBADMAP;
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].end <= m->r[i].base)
            return FRAMES_EBADMAP;
        if (i > 0 && m->r[i].base < m->r[i - 1].end)
            return FRAMES_EBADMAP;
    }
    return FRAMES_OK;
}

/* Copy, round and sort (by base; insertion sort, n <= 64) the exclusions. */
static int take_exclusions(struct frames *f, const struct frame_excl *x, size_t nx)
{
    for (size_t i = 0; i < nx; i++) {
        if (x[i].end < x[i].base)
            return FRAMES_EINVAL;
        uint64_t base = x[i].base, end = x[i].end;
        if (end > base) {
            base = down(base, PAGE_SIZE_4K);
            if (!up(end, PAGE_SIZE_4K, &end) || end > LAST_PAGE)
                end = LAST_PAGE;
            if (base >= end) /* only when base was in the last page */
                base = end;
        }
        size_t j = f->nexcl++;
        while (j > 0 && f->excl[j - 1].base > base) {
            f->excl[j] = f->excl[j - 1];
            j--;
        }
        f->excl[j].base = base;
        f->excl[j].end = end;
        const char *r = x[i].reason ? x[i].reason : "unnamed";
        size_t len = strlen(r);
        if (len >= FRAMES_REASON_LEN)
            len = FRAMES_REASON_LEN - 1;
        memcpy(f->excl[j].reason, r, len);
        f->excl[j].reason[len] = '\0';
    }
    return FRAMES_OK;
}

int frames_init(struct frames *f, const struct memmap *m, const struct frame_excl *x, size_t nx)
{
    if (!f)
        return FRAMES_EINVAL;
    memset(f, 0, sizeof *f);
    if (!m || (nx > 0 && !x))
        return FRAMES_EINVAL;
    if (nx > FRAMES_MAX_EXCL)
        return FRAMES_EFULL;
    int err = check_map(m);
    if (err == FRAMES_OK)
        err = take_exclusions(f, x, nx);
    if (err != FRAMES_OK) {
        f->nexcl = 0;
        return err;
    }
    memcpy(f->map, m->r, m->n * sizeof m->r[0]);
    f->nmap = m->n;

    /* Free memory: each usable range (shrunk to 4 KiB) minus the exclusions. */
    for (size_t i = 0; i < f->nmap; i++) {
        uint64_t cur, end = down(f->map[i].end, PAGE_SIZE_4K);
        if (f->map[i].type != MEM_USABLE || !up(f->map[i].base, PAGE_SIZE_4K, &cur))
            continue;
        for (size_t k = 0; k < f->nexcl && cur < end; k++) {
            const uint64_t xb = f->excl[k].base, xe = f->excl[k].end;
            if (xe <= cur || xb >= end || xb == xe)
                continue;
            if (xb > cur && !push_extent(f->home, &f->nhome, cur, xb))
                f->capped_bytes += xb - cur;
            cur = xe;
        }
        if (cur < end && !push_extent(f->home, &f->nhome, cur, end))
            f->capped_bytes += end - cur;
    }
    memcpy(f->ext, f->home, f->nhome * sizeof f->home[0]);
    f->next = f->nhome;
    f->ready = true;
    return FRAMES_OK;
}

/* True when the 1 GiB window holding address a lies wholly inside e. */
static bool window_whole(const struct frame_extent *e, uint64_t a)
{
    uint64_t w = down(a, PAGE_SIZE_1G);
    return w >= e->base && e->end - w >= PAGE_SIZE_1G;
}

/* Remove [a, a + size) from extent i. FRAMES_EFULL when a split is needed
 * and the table is full. */
static int carve(struct frames *f, size_t i, uint64_t a, uint64_t size)
{
    struct frame_extent *e = &f->ext[i];
    const uint64_t end = a + size;
    if (a == e->base && end == e->end) {
        memmove(e, e + 1, (f->next - i - 1) * sizeof *e);
        f->next--;
    } else if (a == e->base) {
        e->base = end;
    } else if (end == e->end) {
        e->end = a;
    } else {
        if (f->next == FRAMES_MAX_EXTENTS)
            return FRAMES_EFULL;
        memmove(e + 1, e, (f->next - i) * sizeof *e);
        f->next++;
        e[0].end = a;
        e[1].base = end;
    }
    return FRAMES_OK;
}

int frames_alloc(struct frames *f, uint64_t size, uint64_t limit, uint64_t *phys)
{
    if (!f || !f->ready)
        return FRAMES_ESTATE;
    if ((size != PAGE_SIZE_4K && size != PAGE_SIZE_2M) || !phys)
        return FRAMES_EINVAL;
    bool full = false;
    /* Pass 0 only takes frames in windows that cannot be 1 GiB frames. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < f->next; i++) {
            const struct frame_extent *e = &f->ext[i];
            uint64_t lo, hi = min_u64(e->end, limit);
            if (!up(e->base, size, &lo) || lo >= hi || hi - lo < size)
                continue;
            const uint64_t cand[2] = {lo, down(hi - size, size)};
            for (int c = 0; c < 2; c++) {
                if (pass == 0 && window_whole(e, cand[c]))
                    continue;
                if (carve(f, i, cand[c], size) == FRAMES_OK) {
                    *phys = cand[c];
                    return FRAMES_OK;
                }
                full = true;
            }
        }
    }
    return full ? FRAMES_EFULL : FRAMES_ENOMEM;
}

/* Index of the extent in e[0..n) that wholly contains [a, end); -1 if none. */
static long containing(const struct frame_extent *e, size_t n, uint64_t a, uint64_t end)
{
    for (size_t i = 0; i < n; i++)
        if (e[i].base <= a && end <= e[i].end)
            return (long)i;
    return -1;
}

/* Insert [a, end) into the free extents, merging with neighbours. */
static int insert_free(struct frames *f, uint64_t a, uint64_t end)
{
    size_t i = 0;
    while (i < f->next && f->ext[i].base < a)
        i++;
    bool prev = i > 0 && f->ext[i - 1].end == a;
    bool nextm = i < f->next && f->ext[i].base == end;
    if (prev && nextm) {
        f->ext[i - 1].end = f->ext[i].end;
        memmove(&f->ext[i], &f->ext[i + 1], (f->next - i - 1) * sizeof f->ext[0]);
        f->next--;
    } else if (prev) {
        f->ext[i - 1].end = end;
    } else if (nextm) {
        f->ext[i].base = a;
    } else {
        if (f->next == FRAMES_MAX_EXTENTS)
            return FRAMES_EFULL;
        memmove(&f->ext[i + 1], &f->ext[i], (f->next - i) * sizeof f->ext[0]);
        f->ext[i].base = a;
        f->ext[i].end = end;
        f->next++;
    }
    return FRAMES_OK;
}

int frames_free(struct frames *f, uint64_t phys, uint64_t size)
{
    if (!f || !f->ready)
        return FRAMES_ESTATE;
    if ((size != PAGE_SIZE_4K && size != PAGE_SIZE_2M) || (phys & (size - 1)) ||
        phys > UINT64_MAX - size)
        return FRAMES_EINVAL;
    const uint64_t end = phys + size;
    if (containing(f->home, f->nhome, phys, end) < 0)
        return FRAMES_ENOTALLOC;
    long g = frames_1g_find(f, down(phys, PAGE_SIZE_1G));
    if (g >= 0 && f->g1_state[g] != FRAME1G_SPLIT)
        return FRAMES_ENOTALLOC;
    for (size_t i = 0; i < f->next; i++)
        if (f->ext[i].base < end && phys < f->ext[i].end)
            return FRAMES_ENOTALLOC;
    int err = insert_free(f, phys, end);
    if (err != FRAMES_OK)
        f->lost_bytes += size;
    return err;
}

/* First part of window [w, wl] (inclusive) not plain usable RAM in the map:
 * a non-usable range or a hole. Fills r and returns true when there is one. */
static bool window_map_problem(const struct frames *f, uint64_t w, uint64_t wl,
                               struct frames_reject *r)
{
    uint64_t cur = w; /* first byte not yet known usable */
    for (size_t i = 0; i < f->nmap && f->map[i].base <= wl; i++) {
        const struct mem_range *m = &f->map[i];
        if (m->end <= cur)
            continue;
        if (m->base > cur) {
            *r = (struct frames_reject){
                .why = FRAMES_WHY_HOLE, .what_base = cur, .what_end = m->base};
            return true;
        }
        if (m->type != MEM_USABLE) {
            *r = (struct frames_reject){.why = FRAMES_WHY_NONUSABLE,
                                        .what_base = m->base,
                                        .what_end = m->end,
                                        .type = m->type};
            return true;
        }
        if (m->end > wl)
            return false;
        cur = m->end;
    }
    *r = (struct frames_reject){.why = FRAMES_WHY_HOLE,
                                .what_base = cur,
                                .what_end = wl == UINT64_MAX ? UINT64_MAX : wl + 1};
    return true;
}

/* First part of [w, wl] outside the extents e[0..n): true and *a, *b set. */
static bool uncovered(const struct frame_extent *e, size_t n, uint64_t w, uint64_t wl, uint64_t *a,
                      uint64_t *b)
{
    uint64_t cur = w;
    for (size_t i = 0; i < n && e[i].base <= wl; i++) {
        if (e[i].end <= cur)
            continue;
        if (e[i].base > cur) {
            *a = cur;
            *b = e[i].base;
            return true;
        }
        if (e[i].end > wl)
            return false;
        cur = e[i].end;
    }
    *a = cur;
    *b = wl == UINT64_MAX ? UINT64_MAX : wl + 1;
    return true;
}

/* Why window [w, wl] cannot be a 1 GiB frame (r->why set), or r->why = 0. */
static void window_check(const struct frames *f, uint64_t w, uint64_t wl, struct frames_reject *r)
{
    *r = (struct frames_reject){0};
    if (window_map_problem(f, w, wl, r))
        return;
    for (size_t k = 0; k < f->nexcl; k++) {
        if (f->excl[k].base < f->excl[k].end && f->excl[k].base <= wl && f->excl[k].end > w) {
            *r = (struct frames_reject){.why = FRAMES_WHY_EXCLUDED,
                                        .excl = (uint32_t)k,
                                        .what_base = f->excl[k].base,
                                        .what_end = f->excl[k].end};
            return;
        }
    }
    if (uncovered(f->home, f->nhome, w, wl, &r->what_base, &r->what_end))
        r->why = FRAMES_WHY_UNMANAGED;
    else if (uncovered(f->ext, f->next, w, wl, &r->what_base, &r->what_end))
        r->why = FRAMES_WHY_IN_USE;
}

/* Record r for `count` windows from w, extending the previous record when
 * this continues it. */
static void add_reject(struct frames *f, uint64_t w, uint64_t count, struct frames_reject r)
{
    f->rej_windows += count;
    if (f->nrej > 0) {
        struct frames_reject *p = &f->rej[f->nrej - 1];
        if (p->why == r.why && p->what_base == r.what_base && p->what_end == r.what_end &&
            p->excl == r.excl && p->base + p->count * PAGE_SIZE_1G == w) {
            p->count += count;
            return;
        }
    }
    if (f->nrej == FRAMES_MAX_REJECT) {
        f->rej_dropped++;
        return;
    }
    r.base = w;
    r.count = count;
    f->rej[f->nrej++] = r;
}

int frames_build_1g(struct frames *f)
{
    if (!f || !f->ready || f->built)
        return FRAMES_ESTATE;
    f->built = true;
    uint64_t w = 0; /* lowest window not yet considered */
    for (size_t i = 0; i < f->nmap; i++) {
        const struct mem_range *m = &f->map[i];
        if (m->type != MEM_USABLE || m->end - 1 < w)
            continue;
        const uint64_t last = down(m->end - 1, PAGE_SIZE_1G); /* last window of m */
        if (down(m->base, PAGE_SIZE_1G) > w)
            w = down(m->base, PAGE_SIZE_1G);
        for (;;) {
            const uint64_t wl = w + (PAGE_SIZE_1G - 1);
            struct frames_reject r = {0};
            uint64_t n = 1;
            long e;
            if (f->n1g == FRAMES_MAX_1G) {
                r.why = FRAMES_WHY_LIST_FULL;
                n = (last - w) / PAGE_SIZE_1G + 1;
                f->g1_unexamined += n;
            } else {
                window_check(f, w, wl, &r);
                if (r.why) { /* every window of m up to the blocker's end fails */
                    uint64_t bl = min_u64(r.what_end - 1, m->end - 1);
                    if (r.what_end == UINT64_MAX)
                        bl = m->end - 1;
                    n = (down(bl, PAGE_SIZE_1G) - w) / PAGE_SIZE_1G + 1;
                } else if ((e = containing(f->ext, f->next, w, wl)) < 0 ||
                           carve(f, (size_t)e, w, PAGE_SIZE_1G) != FRAMES_OK) {
                    r.why = FRAMES_WHY_EXTENTS_FULL;
                } else {
                    f->g1_base[f->n1g] = w;
                    f->g1_state[f->n1g++] = FRAME1G_FREE;
                }
            }
            if (r.why)
                add_reject(f, w, n, r);
            const uint64_t lastw = w + (n - 1) * PAGE_SIZE_1G;
            if (lastw >= last) {
                w = lastw > UINT64_MAX - PAGE_SIZE_1G ? UINT64_MAX : lastw + PAGE_SIZE_1G;
                break;
            }
            w = lastw + PAGE_SIZE_1G;
        }
    }
    return FRAMES_OK;
}

size_t frames_1g_count(const struct frames *f) { return f ? f->n1g : 0; }

size_t frames_1g_free_count(const struct frames *f)
{
    size_t n = 0;
    for (size_t i = 0; f && i < f->n1g; i++)
        n += f->g1_state[i] == FRAME1G_FREE;
    return n;
}

uint64_t frames_1g_base(const struct frames *f, size_t idx)
{
    return f && idx < f->n1g ? f->g1_base[idx] : UINT64_MAX;
}

int frames_1g_state(const struct frames *f, size_t idx)
{
    return f && idx < f->n1g ? f->g1_state[idx] : -1;
}

long frames_1g_find(const struct frames *f, uint64_t base)
{
    size_t lo = 0, hi = f ? f->n1g : 0; /* bases ascend: binary search */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->g1_base[mid] == base)
            return (long)mid;
        if (f->g1_base[mid] < base)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

int frames_1g_take(struct frames *f, size_t *idx)
{
    if (!f || !idx)
        return FRAMES_EINVAL;
    if (!f->built)
        return FRAMES_ESTATE;
    for (size_t i = 0; i < f->n1g; i++) {
        if (f->g1_state[i] == FRAME1G_FREE) {
            f->g1_state[i] = FRAME1G_TAKEN;
            *idx = i;
            return FRAMES_OK;
        }
    }
    return FRAMES_ENOMEM;
}

int frames_1g_put(struct frames *f, size_t idx)
{
    if (!f || idx >= f->n1g)
        return FRAMES_EINVAL;
    if (f->g1_state[idx] != FRAME1G_TAKEN)
        return FRAMES_ESTATE;
    f->g1_state[idx] = FRAME1G_FREE;
    return FRAMES_OK;
}

int frames_1g_split(struct frames *f, size_t idx)
{
    if (!f || idx >= f->n1g)
        return FRAMES_EINVAL;
    if (f->g1_state[idx] != FRAME1G_FREE)
        return FRAMES_ESTATE;
    int err = insert_free(f, f->g1_base[idx], f->g1_base[idx] + PAGE_SIZE_1G);
    if (err == FRAMES_OK)
        f->g1_state[idx] = FRAME1G_SPLIT;
    return err;
}

uint64_t frames_free_bytes(const struct frames *f)
{
    uint64_t n = 0;
    for (size_t i = 0; f && i < f->next; i++)
        n += f->ext[i].end - f->ext[i].base;
    return n;
}

uint64_t frames_count_2m(const struct frames *f)
{
    uint64_t n = 0, lo;
    for (size_t i = 0; f && i < f->next; i++)
        if (up(f->ext[i].base, PAGE_SIZE_2M, &lo) && lo < f->ext[i].end)
            n += (f->ext[i].end - lo) / PAGE_SIZE_2M;
    return n;
}

uint64_t frames_capped_bytes(const struct frames *f) { return f ? f->capped_bytes : 0; }
uint64_t frames_lost_bytes(const struct frames *f) { return f ? f->lost_bytes : 0; }
size_t frames_reject_count(const struct frames *f) { return f ? f->nrej : 0; }

const struct frames_reject *frames_reject_get(const struct frames *f, size_t i)
{
    return f && i < f->nrej ? &f->rej[i] : NULL;
}

/* "N GiB", "N MiB" (rounded down) or "N KiB". */
static const char *size_text(char *b, size_t cap, uint64_t bytes)
{
    if (bytes >= PAGE_SIZE_1G && bytes % PAGE_SIZE_1G == 0)
        hz_snprintf(b, cap, "%llu GiB", (unsigned long long)(bytes >> 30));
    else if (bytes >= (1ULL << 20))
        hz_snprintf(b, cap, "%llu MiB", (unsigned long long)(bytes >> 20));
    else
        hz_snprintf(b, cap, "%llu KiB", (unsigned long long)(bytes >> 10));
    return b;
}

int frames_reject_text(const struct frames *f, size_t i, char *buf, size_t cap)
{
    const struct frames_reject *r = frames_reject_get(f, i);
    if (!r)
        return hz_snprintf(buf, cap, "%s", "");
    const unsigned long long a = r->what_base, b = r->what_end;
    switch (r->why) {
    case FRAMES_WHY_NONUSABLE:
        return hz_snprintf(buf, cap, "crosses non-usable range 0x%llx-0x%llx (%s)", a, b,
                           mem_type_name(r->type));
    case FRAMES_WHY_HOLE:
        return hz_snprintf(buf, cap, "crosses 0x%llx-0x%llx, absent from the memory map", a, b);
    case FRAMES_WHY_EXCLUDED:
        return hz_snprintf(buf, cap, "overlaps %s 0x%llx-0x%llx", f->excl[r->excl].reason, a, b);
    case FRAMES_WHY_IN_USE:
        return hz_snprintf(buf, cap, "0x%llx-0x%llx allocated before the 1 GiB list was built", a,
                           b);
    case FRAMES_WHY_UNMANAGED:
        return hz_snprintf(buf, cap, "0x%llx-0x%llx dropped: extent table full", a, b);
    case FRAMES_WHY_LIST_FULL:
        return hz_snprintf(buf, cap, "not examined: 1 GiB list full (%d frames)", FRAMES_MAX_1G);
    default:
        return hz_snprintf(buf, cap, "%s", "not carved out: extent table full");
    }
}

/* Number of runs of consecutive 1 GiB frames; with want < runs, also the
 * first and last index of run `want`. */
static size_t g1_runs(const struct frames *f, size_t want, size_t *first, size_t *last)
{
    size_t runs = 0;
    for (size_t i = 0; i < f->n1g; i++) {
        if (i > 0 && f->g1_base[i] == f->g1_base[i - 1] + PAGE_SIZE_1G)
            continue;
        if (runs++ == want) {
            *first = *last = i;
            while (*last + 1 < f->n1g && f->g1_base[*last + 1] == f->g1_base[*last] + PAGE_SIZE_1G)
                (*last)++;
        }
    }
    return runs;
}

bool frames_layout_line(const struct frames *f, size_t *iter, char *buf, size_t cap)
{
    char s1[24], s2[24];
    if (!f || !iter || !buf || cap == 0)
        return false;
    size_t k = (*iter)++, nusable = 0, first = 0, last = 0;
    uint64_t usable = 0;
    for (size_t i = 0; i < f->nmap; i++)
        if (f->map[i].type == MEM_USABLE) {
            nusable++;
            usable += f->map[i].end - f->map[i].base;
        }
    if (k-- == 0) {
        hz_snprintf(buf, cap,
                    "frames: %zu usable ranges (%s), %zu exclusions, %s in the small pool", nusable,
                    size_text(s1, sizeof s1, usable), f->nexcl,
                    size_text(s2, sizeof s2, frames_free_bytes(f)));
        return true;
    }
    for (size_t i = 0; i < f->nmap; i++) {
        const struct mem_range *m = &f->map[i];
        if (m->type == MEM_USABLE && k-- == 0) {
            hz_snprintf(buf, cap, "  usable  0x%llx-0x%llx %s", (unsigned long long)m->base,
                        (unsigned long long)m->end, size_text(s1, sizeof s1, m->end - m->base));
            return true;
        }
    }
    if (k < f->nexcl) {
        hz_snprintf(buf, cap, "  exclude 0x%llx-0x%llx %s (%s)",
                    (unsigned long long)f->excl[k].base, (unsigned long long)f->excl[k].end,
                    f->excl[k].reason, size_text(s1, sizeof s1, f->excl[k].end - f->excl[k].base));
        return true;
    }
    k -= f->nexcl;
    size_t runs = g1_runs(f, k, &first, &last);
    if (k < runs) {
        const unsigned long long b = f->g1_base[first], e = f->g1_base[last] + PAGE_SIZE_1G;
        if (first == last)
            hz_snprintf(buf, cap, "  1G frame  #%zu: 0x%llx-0x%llx", first, b, e);
        else
            hz_snprintf(buf, cap, "  1G frames #%zu-#%zu: 0x%llx-0x%llx (%zu)", first, last, b, e,
                        last - first + 1);
        return true;
    }
    k -= runs;
    if (k < f->nrej) {
        int n = hz_snprintf(
            buf, cap, "  1G reject 0x%llx (%llu window%s): ", (unsigned long long)f->rej[k].base,
            (unsigned long long)f->rej[k].count, f->rej[k].count == 1 ? "" : "s");
        if (n >= 0 && (size_t)n < cap)
            frames_reject_text(f, k, buf + n, cap - (size_t)n);
        return true;
    }
    k -= f->nrej;
    if (k-- == 0) {
        if (!f->built)
            hz_snprintf(buf, cap, "frames: 1 GiB list not built; %llu x 2 MiB frames free",
                        (unsigned long long)frames_count_2m(f));
        else if (f->n1g == 0)
            hz_snprintf(buf, cap, "frames: no 1 GiB frame: falling back to 2 MiB frames (%llu)",
                        (unsigned long long)frames_count_2m(f));
        else
            hz_snprintf(buf, cap, "frames: %zu x 1 GiB frames, %llu x 2 MiB frames free", f->n1g,
                        (unsigned long long)frames_count_2m(f));
        return true;
    }
    if (k == 0 && (f->capped_bytes || f->lost_bytes || f->g1_unexamined || f->rej_dropped)) {
        hz_snprintf(buf, cap,
                    "frames: capped: %llu bytes dropped at init, %llu bytes lost on free, "
                    "%llu windows not examined, %zu reject records dropped",
                    (unsigned long long)f->capped_bytes, (unsigned long long)f->lost_bytes,
                    (unsigned long long)f->g1_unexamined, f->rej_dropped);
        return true;
    }
    return false;
}

const char *frames_strerror(int err)
{
    static const char *const text[] = {
        "ok",         "invalid argument", "memory map not normalised", "no free frame fits",
        "table full", "wrong state",      "not allocated memory"};
    return err <= 0 && -err < (int)(sizeof text / sizeof text[0]) ? text[-err] : "unknown error";
}
