/*
 * mm/frames_layout.c - the 1 GiB side of mm/frames.h: frames_build_1g()
 * scans every 1 GiB window of usable RAM against the memory map, the
 * exclusions and the free extents, lists the whole free windows and records
 * why the others were rejected; frames_reject_text() and
 * frames_layout_line() turn the result into text for the kernel to print.
 * A window is 1 GiB-aligned (the size of a 1 GiB page, SDM Vol. 3A §4.5)
 * and handled as [w, wl] with wl = w + 2^30 - 1 inclusive, so the window
 * ending at 2^64 is represented without overflow.
 */
#include "mm/frames.h"

#include "lib/fmt.h"
#include "mm/frames_priv.h"
#include "mm/paging.h"

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
                } else if ((e = frames_containing(f->ext, f->next, w, wl)) < 0 ||
                           frames_carve(f, (size_t)e, w, PAGE_SIZE_1G) != FRAMES_OK) {
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
