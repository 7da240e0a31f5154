/*
 * mm/memmap.c - collect and normalise the physical memory map (mm/memmap.h).
 * Range types are the ACPI address range types (ACPI 6.5 §15, "Address Range
 * Types"), the same numbers as BIOS INT 15h E820, Multiboot2 tag 6 (§3.6.8)
 * and Xen's hvm_memmap_table_entry.
 *
 * Normalisation works in place on the fixed table (no allocation, no
 * recursion, O(n^2) for n <= MEMMAP_MAX):
 *   1. drop empty entries, clip ends past MEMMAP_END_MAX, insertion-sort by base;
 *   2. walk the sorted table; while entry i overlaps entry i+1, resolve that
 *      pair: same type -> union; otherwise the losing type gives up the
 *      shared bytes (trimmed, removed, or split in two around the winner);
 *   3. merge touching ranges of one type;
 *   4. shrink usable ranges inward to 4 KiB and drop the ones that vanish.
 * Invariant of step 2: entries before i are disjoint from every later entry,
 * and bases only ever grow, so the table stays sorted from i on.
 */
#include "mm/memmap.h"

#include "lib/kstring.h"

#define PAGE_4K 4096ull

void memmap_init(struct memmap *m) { memset(m, 0, sizeof(*m)); }

int memmap_add(struct memmap *m, uint64_t base, uint64_t len, uint32_t type)
{
    if (len == 0)
        return MEMMAP_EMPTY;
    if (len - 1 > UINT64_MAX - base) /* base + len > 2^64 */
        return MEMMAP_OVERFLOW;
    uint64_t end = base + len; /* 0 when the range ends exactly at 2^64 */
    if (end == 0 || end > MEMMAP_END_MAX)
        end = MEMMAP_END_MAX;
    if (base >= end)
        return MEMMAP_EMPTY;
    if (m->n > 0) {
        struct mem_range *last = &m->r[m->n - 1];
        if (last->type == type && last->end == base) {
            last->end = end;
            return MEMMAP_OK;
        }
    }
    if (m->n >= MEMMAP_MAX) {
        m->dropped++;
        return MEMMAP_FULL;
    }
    m->r[m->n++] = (struct mem_range){.base = base, .end = end, .type = type};
    return MEMMAP_OK;
}

/* Precedence of a type when two ranges claim one byte (see memmap.h). */
static int type_rank(uint32_t type)
{
    switch (type) {
    case MEM_USABLE:
        return 0;
    case MEM_PMEM:
        return 1;
    case MEM_ACPI:
        return 2;
    case MEM_NVS:
        return 4;
    case MEM_BAD:
        return 5;
    default: /* MEM_RESERVED, MEM_DISABLED, unknown loader values */
        return 3;
    }
}

/* Does type a win a byte that type b also claims? (a != b) */
static bool type_beats(uint32_t a, uint32_t b)
{
    int ra = type_rank(a), rb = type_rank(b);
    return ra != rb ? ra > rb : a < b;
}

static void remove_at(struct memmap *m, size_t i)
{
    memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(m->r[0]));
    m->n--;
}

/* Entry i's base grew: move it forward to keep the table sorted by base. */
static void sink(struct memmap *m, size_t i)
{
    struct mem_range t = m->r[i];
    while (i + 1 < m->n && m->r[i + 1].base < t.base) {
        m->r[i] = m->r[i + 1];
        i++;
    }
    m->r[i] = t;
}

/* Insert t at its sorted place at or after index `from` (needs n < MAX). */
static void insert_sorted(struct memmap *m, struct mem_range t, size_t from)
{
    size_t p = from;
    while (p < m->n && m->r[p].base < t.base)
        p++;
    memmove(&m->r[p + 1], &m->r[p], (m->n - p) * sizeof(m->r[0]));
    m->r[p] = t;
    m->n++;
}

static void clean_and_sort(struct memmap *m)
{
    size_t w = 0;
    for (size_t i = 0; i < m->n; i++) {
        struct mem_range t = m->r[i];
        if (t.end > MEMMAP_END_MAX)
            t.end = MEMMAP_END_MAX;
        if (t.base >= t.end)
            continue;
        size_t p = w++;
        while (p > 0 && (m->r[p - 1].base > t.base ||
                         (m->r[p - 1].base == t.base && m->r[p - 1].end > t.end))) {
            m->r[p] = m->r[p - 1];
            p--;
        }
        m->r[p] = t;
    }
    m->n = w;
}

/* b = r[i + 1] beats a = r[i] and starts inside it: a gives up [b.base, b.end). */
static void yield_to_next(struct memmap *m, size_t i)
{
    struct mem_range *a = &m->r[i], *b = &m->r[i + 1];
    struct mem_range tail = {.base = b->end, .end = a->end, .type = a->type};
    bool has_head = a->base < b->base, has_tail = tail.base < tail.end;

    if (!has_head && !has_tail) {
        remove_at(m, i);
    } else if (!has_head) {
        *a = tail;
        sink(m, i);
    } else {
        a->end = b->base;
        if (!has_tail)
            return;
        if (m->n < MEMMAP_MAX) {
            insert_sorted(m, tail, i + 2);
        } else if (tail.type == MEM_USABLE) {
            m->dropped++; /* full: forget the usable tail (never unsafe) */
        } else {
            b->end = tail.end; /* full: the stronger type takes the tail */
            m->dropped++;
        }
    }
}

static void resolve_overlaps(struct memmap *m)
{
    for (size_t i = 0; i < m->n; i++) {
        while (i + 1 < m->n && m->r[i + 1].base < m->r[i].end) {
            struct mem_range *a = &m->r[i], *b = &m->r[i + 1];
            if (a->type == b->type) {
                if (b->end > a->end)
                    a->end = b->end;
                remove_at(m, i + 1);
            } else if (type_beats(a->type, b->type)) {
                if (b->end <= a->end) {
                    remove_at(m, i + 1);
                } else {
                    b->base = a->end;
                    sink(m, i + 1);
                }
            } else {
                yield_to_next(m, i);
            }
        }
    }
}

static void merge_and_trim(struct memmap *m)
{
    size_t w = 0;
    for (size_t i = 0; i < m->n; i++) {
        struct mem_range t = m->r[i];
        if (w > 0 && m->r[w - 1].type == t.type && m->r[w - 1].end == t.base)
            m->r[w - 1].end = t.end;
        else
            m->r[w++] = t;
    }
    m->n = w;

    w = 0;
    for (size_t i = 0; i < m->n; i++) {
        struct mem_range t = m->r[i];
        if (t.type == MEM_USABLE) {
            /* end <= MEMMAP_END_MAX, so rounding base up cannot wrap */
            t.base = (t.base + PAGE_4K - 1) & ~(PAGE_4K - 1);
            t.end &= ~(PAGE_4K - 1);
            if (t.base >= t.end)
                continue;
        }
        m->r[w++] = t;
    }
    m->n = w;
}

void memmap_normalise(struct memmap *m)
{
    clean_and_sort(m);
    resolve_overlaps(m);
    merge_and_trim(m);
}

uint64_t memmap_usable_bytes(const struct memmap *m)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->r[i].type == MEM_USABLE)
            sum += m->r[i].end - m->r[i].base;
    return sum;
}

uint64_t memmap_phys_limit(unsigned bits)
{
    if (bits == 0)
        bits = MEMMAP_PHYS_BITS_DEFAULT;
    if (bits < 32)
        bits = 32;
    if (bits > MEMMAP_PHYS_BITS_MAX)
        bits = MEMMAP_PHYS_BITS_MAX;
    return 1ull << bits;
}

uint64_t memmap_clamp(struct memmap *m, uint64_t limit)
{
    uint64_t cut = 0;
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) {
        struct mem_range r = m->r[i];
        if (r.end > limit) {
            uint64_t from = r.base > limit ? r.base : limit;
            if (r.type == MEM_USABLE)
                cut += r.end - from;
            r.end = from;
        }
        if (r.end > r.base)
            m->r[k++] = r;
    }
    m->n = k;
    return cut;
}

uint64_t memmap_count_1g(const struct memmap *m)
{
    const uint64_t g = 1ull << 30;
    uint64_t frames = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct mem_range *r = &m->r[i];
        if (r->type != MEM_USABLE || r->end - r->base < g)
            continue;
        uint64_t first = (r->base + g - 1) & ~(g - 1); /* base < 2^64 - 1 GiB here */
        uint64_t last = r->end & ~(g - 1);
        if (last > first)
            frames += (last - first) >> 30;
    }
    return frames;
}

const char *mem_type_name(uint32_t type)
{
    switch (type) {
    case MEM_USABLE:
        return "usable";
    case MEM_RESERVED:
        return "reserved";
    case MEM_ACPI:
        return "acpi";
    case MEM_NVS:
        return "nvs";
    case MEM_BAD:
        return "bad";
    case MEM_DISABLED:
        return "disabled";
    case MEM_PMEM:
        return "pmem";
    default:
        return "other";
    }
}
