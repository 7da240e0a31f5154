/*
 * mm/frames.c - the 1 GiB frame list and the 2 MiB / 4 KiB frame allocator
 * (see mm/frames.h). Free memory is an array of extents, sorted, disjoint
 * and never adjacent (adjacent pieces are merged), carved as frames are
 * handed out. No bitmap, no malloc: every table has a fixed size. The scan
 * that builds the 1 GiB list and the layout text are in mm/frames_layout.c.
 */
#include "mm/frames.h"

#include "arch/numa.h"
#include "lib/kstring.h"
#include "mm/frames_priv.h"
#include "mm/paging.h"

#define LAST_PAGE MEMMAP_END_MAX /* 2^64 - 4096: the highest end of a range */

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

/* End of range r, cut at 2^64 - 1. */
static uint64_t range_end(const struct numa_range *r)
{
    return r->base + r->length < r->base ? UINT64_MAX : r->base + r->length;
}

bool frames_in_ranges(const struct numa_range *r, size_t nr, uint64_t a, uint64_t size)
{
    if (!r || nr == 0)
        return false;
    uint64_t cur = a, end = a + size;
    bool moved = true;
    while (cur < end && moved) {
        moved = false;
        for (size_t k = 0; k < nr; k++)
            if (r[k].base <= cur && cur < range_end(&r[k])) {
                cur = range_end(&r[k]);
                moved = true;
            }
    }
    return cur >= end;
}

/* Remove [a, a + size) from extent i. FRAMES_EFULL when a split is needed
 * and the table is full. */
int frames_carve(struct frames *f, size_t i, uint64_t a, uint64_t size)
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

/* One pass of the allocation policy over [from, limit): pass 0 takes only
 * frames in 1 GiB windows that cannot be 1 GiB frames. *full is set when a
 * fitting frame needed an extent slot and none was free. */
static bool alloc_pass(struct frames *f, uint64_t size, uint64_t from, uint64_t limit, int pass,
                       bool *full, uint64_t *phys)
{
    for (size_t i = 0; i < f->next; i++) {
        const struct frame_extent *e = &f->ext[i];
        uint64_t lo, hi = min_u64(e->end, limit);
        if (!up(e->base > from ? e->base : from, size, &lo) || lo >= hi || hi - lo < size)
            continue;
        const uint64_t cand[2] = {lo, down(hi - size, size)};
        for (int c = 0; c < 2; c++) {
            if (pass == 0 && window_whole(e, cand[c]))
                continue;
            if (frames_carve(f, i, cand[c], size) == FRAMES_OK) {
                *phys = cand[c];
                return true;
            }
            *full = true;
        }
    }
    return false;
}

static int alloc_check(const struct frames *f, uint64_t size, const uint64_t *phys)
{
    if (!f || !f->ready)
        return FRAMES_ESTATE;
    if ((size != PAGE_SIZE_4K && size != PAGE_SIZE_2M) || !phys)
        return FRAMES_EINVAL;
    return FRAMES_OK;
}

int frames_alloc(struct frames *f, uint64_t size, uint64_t limit, uint64_t *phys)
{
    int err = alloc_check(f, size, phys);
    if (err != FRAMES_OK)
        return err;
    bool full = false;
    for (int pass = 0; pass < 2; pass++)
        if (alloc_pass(f, size, 0, limit, pass, &full, phys))
            return FRAMES_OK;
    return full ? FRAMES_EFULL : FRAMES_ENOMEM;
}

int frames_alloc_in(struct frames *f, uint64_t size, const struct numa_range *r, size_t nr,
                    uint64_t *phys)
{
    int err = alloc_check(f, size, phys);
    if (err != FRAMES_OK)
        return err;
    if (nr > 0 && !r)
        return FRAMES_EINVAL;
    bool full = false;
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < nr; k++)
            if (alloc_pass(f, size, r[k].base, range_end(&r[k]), pass, &full, phys))
                return FRAMES_OK;
    return full ? FRAMES_EFULL : FRAMES_ENODE;
}

/* Index of the extent in e[0..n) that wholly contains [a, end); -1 if none. */
long frames_containing(const struct frame_extent *e, size_t n, uint64_t a, uint64_t end)
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
    if (frames_containing(f->home, f->nhome, phys, end) < 0)
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

size_t frames_1g_count(const struct frames *f) { return f ? f->n1g : 0; }

size_t frames_1g_free_count(const struct frames *f)
{
    size_t n = 0;
    for (size_t i = 0; f && i < f->n1g; i++)
        n += f->g1_state[i] == FRAME1G_FREE;
    return n;
}

size_t frames_1g_free_count_in(const struct frames *f, const struct numa_range *r, size_t nr)
{
    size_t n = 0;
    for (size_t i = 0; f && r && i < f->n1g; i++)
        n += f->g1_state[i] == FRAME1G_FREE && frames_in_ranges(r, nr, f->g1_base[i], PAGE_SIZE_1G);
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

/* Take the lowest free listed frame inside r[0..nr), or any when r is NULL. */
static int take_1g(struct frames *f, const struct numa_range *r, size_t nr, size_t *idx)
{
    if (!f || !idx)
        return FRAMES_EINVAL;
    if (!f->built)
        return FRAMES_ESTATE;
    for (size_t i = 0; i < f->n1g; i++) {
        if (f->g1_state[i] == FRAME1G_FREE &&
            (!r || frames_in_ranges(r, nr, f->g1_base[i], PAGE_SIZE_1G))) {
            f->g1_state[i] = FRAME1G_TAKEN;
            *idx = i;
            return FRAMES_OK;
        }
    }
    return r ? FRAMES_ENODE : FRAMES_ENOMEM;
}

int frames_1g_take(struct frames *f, size_t *idx) { return take_1g(f, NULL, 0, idx); }

int frames_1g_take_in(struct frames *f, const struct numa_range *r, size_t nr, size_t *idx)
{
    static const struct numa_range none;
    if (nr > 0 && !r)
        return FRAMES_EINVAL;
    return take_1g(f, nr ? r : &none, nr, idx);
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
const char *frames_strerror(int err)
{
    static const char *const text[] = {
        "ok",         "invalid argument", "memory map not normalised", "no free frame fits",
        "table full", "wrong state",      "not allocated memory",      "nothing free on that node"};
    return err <= 0 && -err < (int)(sizeof text / sizeof text[0]) ? text[-err] : "unknown error";
}
