/*
 * tests/unit/test_memmap.c - mm/memmap.c: adding, normalising (overlaps,
 * precedence, merging, 4 KiB trimming, 2^64 edge, full table) and counting.
 * Randomised comparisons against a page-by-page model cover the overlap
 * resolution beyond the hand-written cases. Maps are written as text:
 * "usable:0-0x9f000 reserved:0x9fc00-0xa0000", a type being a
 * mem_type_name() or a number, ranges [base, end).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mm/memmap.h"

#define GiB (1ull << 30)
#define PG 4096ull

static struct memmap M; /* the map under test */

static const char *parse_range(const char *s, struct mem_range *r)
{
    char *e;
    while (*s == ' ')
        s++;
    if (*s >= '0' && *s <= '9') {
        r->type = (uint32_t)strtoul(s, &e, 0);
    } else {
        e = strchr(s, ':');
        assert_non_null(e);
        for (r->type = 1; r->type < 8; r->type++)
            if (strlen(mem_type_name(r->type)) == (size_t)(e - s) &&
                strncmp(s, mem_type_name(r->type), (size_t)(e - s)) == 0)
                break;
        assert_true(r->type < 8);
    }
    assert_int_equal(*e, ':');
    r->base = strtoull(e + 1, &e, 0);
    assert_int_equal(*e, '-');
    r->end = strtoull(e + 1, &e, 0);
    return e;
}

/* Fresh map with the ranges of `spec` added in order. */
static struct memmap *build(const char *spec)
{
    memmap_init(&M);
    for (const char *s = spec; *s;) {
        struct mem_range r;
        s = parse_range(s, &r);
        assert_int_equal(memmap_add(&M, r.base, r.end - r.base, r.type), MEMMAP_OK);
    }
    return &M;
}

static struct memmap *normalised(const char *spec)
{
    memmap_normalise(build(spec));
    return &M;
}

static void check_map(const struct memmap *m, const char *spec)
{
    size_t i = 0;
    for (const char *s = spec; *s; i++) {
        struct mem_range r;
        s = parse_range(s, &r);
        assert_true(i < m->n);
        assert_int_equal(m->r[i].base, r.base);
        assert_int_equal(m->r[i].end, r.end);
        assert_int_equal(m->r[i].type, r.type);
    }
    assert_int_equal(m->n, i);
}

static void add_ok(struct memmap *m, uint64_t base, uint64_t end, uint32_t type)
{
    assert_int_equal(memmap_add(m, base, end - base, type), MEMMAP_OK);
}

static void test_qemu_8g(void **state)
{
    /* QEMU -m 8G (pc machine) E820, in the order SeaBIOS reports it */
    struct memmap *m =
        normalised("usable:0-0x9fc00 reserved:0x9fc00-0xa0000 reserved:0xf0000-0x100000 "
                   "usable:0x100000-0xbffe0000 reserved:0xbffe0000-0xc0000000 "
                   "reserved:0xfeffc000-0xff000000 reserved:0xfffc0000-0x100000000 "
                   "usable:0x100000000-0x240000000");
    check_map(m, "usable:0-0x9f000 reserved:0x9fc00-0xa0000 reserved:0xf0000-0x100000 "
                 "usable:0x100000-0xbffe0000 reserved:0xbffe0000-0xc0000000 "
                 "reserved:0xfeffc000-0xff000000 reserved:0xfffc0000-0x100000000 "
                 "usable:0x100000000-0x240000000");
    assert_int_equal(m->dropped, 0);
    assert_int_equal(memmap_usable_bytes(m), 0x9f000 + 0xbfee0000 + 0x140000000);
    /* [1G,2G) below the hole ([2G,3G) ends at 0xbffe0000), [4G,9G) above */
    assert_int_equal(memmap_count_1g(m), 6);

    struct memmap again = *m;
    memmap_normalise(&again);
    assert_memory_equal(&again, m, sizeof(again));
}

static void test_unsorted(void **state)
{
    check_map(normalised("usable:0x800000-0x1000000 acpi:0x100000-0x200000 "
                         "usable:0x400000-0x600000 reserved:0-0x10000"),
              "reserved:0-0x10000 acpi:0x100000-0x200000 usable:0x400000-0x600000 "
              "usable:0x800000-0x1000000");
}

static void test_reserved_inside_usable(void **state)
{
    /* a hole inside, an overlap at the end, a sub-page hole */
    struct memmap *m = normalised("usable:0-0x1000000 reserved:0x400000-0x500000 "
                                  "acpi:0xf00000-0x1400000 nvs:0x3000-0x3800");
    check_map(m, "usable:0-0x3000 nvs:0x3000-0x3800 usable:0x4000-0x400000 "
                 "reserved:0x400000-0x500000 usable:0x500000-0xf00000 acpi:0xf00000-0x1400000");
    assert_int_equal(memmap_usable_bytes(m), 0x3000 + 0x3fc000 + 0xa00000);
}

/* Every precedence rule at once: BAD > NVS > RESERVED > ACPI > PMEM > USABLE. */
static void test_nested_and_chained(void **state)
{
    /* pages: usable 0-100, reserved 10-50, bad 20-30, nvs 25-60, acpi 40-70,
     * pmem 0-5 and 65-75 */
    check_map(normalised("usable:0-0x64000 reserved:0xa000-0x32000 bad:0x14000-0x1e000 "
                         "nvs:0x19000-0x3c000 acpi:0x28000-0x46000 pmem:0-0x5000 "
                         "pmem:0x41000-0x4b000"),
              "pmem:0-0x5000 usable:0x5000-0xa000 reserved:0xa000-0x14000 bad:0x14000-0x1e000 "
              "nvs:0x1e000-0x3c000 acpi:0x3c000-0x46000 pmem:0x46000-0x4b000 "
              "usable:0x4b000-0x64000");
}

/* Equal precedence (reserved 2, disabled 6, unknown 9): lower number wins. */
static void test_equal_rank_ties(void **state)
{
    check_map(normalised("9:0xc000-0x14000 disabled:0x5000-0xf000 reserved:0-0xa000 "
                         "usable:0-0x1e000"),
              "reserved:0-0xa000 disabled:0xa000-0xf000 9:0xf000-0x14000 usable:0x14000-0x1e000");
    assert_string_equal(mem_type_name(M.r[2].type), "other");
}

static void test_adjacent_merge(void **state)
{
    /* sorted and touching: memmap_add extends the last entry */
    check_map(build("usable:0-0x100000 usable:0x100000-0x200000"), "usable:0-0x200000");
    /* touching out of order, overlapping same type, touching another type */
    struct memmap *m = build("usable:0-0x200000 usable:0x300000-0x400000 "
                             "usable:0x200000-0x300000 usable:0x380000-0x600000 "
                             "reserved:0x600000-0x700000 reserved:0x800000-0x900000 "
                             "reserved:0x700000-0x800000");
    assert_int_equal(m->n, 7);
    memmap_normalise(m);
    check_map(m, "usable:0-0x600000 reserved:0x600000-0x900000");
}

static void test_tiny_ranges(void **state)
{
    /* no whole page; [0x3000,0x4000) inside; end rounds down to base;
     * tiny non-usable kept as is; an exact page kept */
    struct memmap *m = normalised("usable:0x1234-0x1800 usable:0x2001-0x4fff "
                                  "usable:0x6000-0x6fff reserved:0x8000-0x8010 "
                                  "usable:0x9000-0xa000");
    check_map(m, "usable:0x3000-0x4000 reserved:0x8000-0x8010 usable:0x9000-0xa000");
    assert_int_equal(memmap_usable_bytes(m), 2 * PG);
    assert_int_equal(memmap_count_1g(m), 0);
}

static void test_zero_overflow_and_2_64(void **state)
{
    struct memmap *m = &M;
    memmap_init(m);
    assert_int_equal(memmap_add(m, 0x1000, 0, MEM_USABLE), MEMMAP_EMPTY);
    assert_int_equal(memmap_add(m, UINT64_MAX - 10, 20, MEM_USABLE), MEMMAP_OVERFLOW);
    assert_int_equal(memmap_add(m, 1ull << 63, UINT64_MAX, MEM_USABLE), MEMMAP_OVERFLOW);
    assert_int_equal(memmap_add(m, UINT64_MAX, 2, MEM_RESERVED), MEMMAP_OVERFLOW);
    /* ending exactly at 2^64 is not an overflow; nothing is left below the clip */
    assert_int_equal(memmap_add(m, UINT64_MAX, 1, MEM_RESERVED), MEMMAP_EMPTY);
    assert_int_equal(memmap_add(m, 0 - PG, PG, MEM_RESERVED), MEMMAP_EMPTY);
    assert_int_equal(m->n + m->dropped, 0);
    memmap_normalise(m);
    assert_int_equal(m->n + memmap_usable_bytes(m) + memmap_count_1g(m), 0);

    assert_int_equal(MEMMAP_END_MAX, 0xfffffffffffff000ull);
    assert_int_equal(memmap_add(m, 1ull << 63, 1ull << 63, MEM_USABLE), MEMMAP_OK);
    memmap_normalise(m);
    check_map(m, "usable:0x8000000000000000-0xfffffffffffff000");
    assert_int_equal(memmap_usable_bytes(m), (1ull << 63) - PG);
    assert_int_equal(memmap_count_1g(m), (1ull << 33) - 1);
    /* ends just below 2^64, past the clip; swallows everything */
    assert_int_equal(memmap_add(m, 0, UINT64_MAX, MEM_RESERVED), MEMMAP_OK);
    assert_int_equal(m->r[1].end, MEMMAP_END_MAX);
    add_ok(m, 0x1000, 0x2000, MEM_USABLE);
    memmap_normalise(m);
    check_map(m, "reserved:0-0xfffffffffffff000");
}

/* normalise() also copes with entries written by hand (no memmap_add). */
static void test_hand_filled(void **state)
{
    memmap_init(&M);
    M.r[0] = (struct mem_range){5 * PG, 5 * PG, MEM_USABLE};
    M.r[1] = (struct mem_range){10 * PG, 2 * PG, MEM_RESERVED};
    M.r[2] = (struct mem_range){PG, UINT64_MAX, MEM_ACPI};
    M.r[3] = (struct mem_range){0, 3 * PG, MEM_USABLE};
    M.n = 4;
    memmap_normalise(&M);
    check_map(&M, "usable:0-0x1000 acpi:0x1000-0xfffffffffffff000");
}

static void test_count_1g(void **state)
{
    /* [1G,2G); [3G-4K,4G+4K) -> [3G,4G); [5G+4K,7G) -> [6G,7G); [8G,9G-4K) none;
     * [10G,12G) with a hole at 11G -> [10G,11G) */
    struct memmap *m =
        normalised("usable:0x40000000-0x80000000 usable:0xbffff000-0x100001000 "
                   "usable:0x140001000-0x1c0000000 usable:0x200000000-0x23ffff000 "
                   "usable:0x280000000-0x300000000 reserved:0x2c0000000-0x2c0001000");
    assert_int_equal(m->n, 7);
    assert_int_equal(memmap_count_1g(m), 4);
}

static void test_table_full(void **state)
{
    struct memmap *m = &M;
    memmap_init(m);
    for (uint64_t i = 0; i < MEMMAP_MAX; i++)
        add_ok(m, 2 * i * PG, (2 * i + 1) * PG, MEM_USABLE);
    assert_int_equal(memmap_add(m, 1 * GiB, PG, MEM_USABLE), MEMMAP_FULL);
    assert_int_equal(memmap_add(m, 2 * GiB, PG, MEM_RESERVED), MEMMAP_FULL);
    assert_int_equal(m->dropped, 2);
    add_ok(m, 511 * PG, 512 * PG, MEM_USABLE); /* continues the last entry: no slot needed */
    assert_int_equal(m->n, MEMMAP_MAX);
    assert_int_equal(m->r[MEMMAP_MAX - 1].end, 512 * PG);
    memmap_normalise(m);
    assert_int_equal(m->n, MEMMAP_MAX);
    assert_int_equal(memmap_usable_bytes(m), 257 * PG);
}

/* One outer range with 255 holes needs 511 pieces. A usable tail that does
 * not fit is forgotten, never left covering a hole; a non-usable one is
 * taken by the stronger type. */
static void test_split_overflow(void **state)
{
    for (int usable = 1; usable >= 0; usable--) {
        struct memmap *m = &M;
        memmap_init(m);
        add_ok(m, 0, 512 * PG, usable ? MEM_USABLE : MEM_ACPI);
        for (uint64_t i = 0; i < MEMMAP_MAX - 1; i++)
            add_ok(m, (2 * i + 1) * PG, (2 * i + 2) * PG, usable ? MEM_RESERVED : MEM_BAD);
        memmap_normalise(m);
        assert_int_equal(m->dropped, 1);
        if (!usable) {
            check_map(m, "acpi:0-0x1000 bad:0x1000-0x200000");
            continue;
        }
        assert_int_equal(m->n, MEMMAP_MAX);
        assert_int_equal(memmap_usable_bytes(m), PG);
        for (size_t i = 0; i < m->n; i++) {
            assert_int_equal(m->r[i].type, i == 0 ? MEM_USABLE : MEM_RESERVED);
            assert_int_equal(m->r[i].base, i == 0 ? 0 : (2 * i - 1) * PG);
            assert_int_equal(m->r[i].end, i == 0 ? PG : 2 * i * PG);
        }
    }
}

/* Page-by-page model of the documented precedence (memmap.h). */
static int model_rank(uint32_t t)
{
    static const int rank[] = {
        [MEM_USABLE] = 0,   [MEM_PMEM] = 1, [MEM_ACPI] = 2, [MEM_RESERVED] = 3,
        [MEM_DISABLED] = 3, [MEM_NVS] = 4,  [MEM_BAD] = 5};
    return t < 8 && t != 0 ? rank[t] : 3;
}

/* Pages [a, a + len) are also claimed by type t (0 in page[]: unclaimed). */
static void paint(uint32_t *page, uint32_t a, uint32_t len, uint32_t t)
{
    for (uint32_t p = a; p < a + len; p++) {
        uint32_t o = page[p];
        int rt = model_rank(t), ro = model_rank(o);
        if (o == 0 || rt > ro || (rt == ro && t < o))
            page[p] = t;
    }
}

static uint64_t lcg_state = 0x2545f4914f6cdd1dull;
static uint32_t lcg(uint32_t n)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(lcg_state >> 33) % n;
}

#define UNIVERSE 96

static void test_random_against_model(void **state)
{
    static const uint32_t types[] = {MEM_USABLE, MEM_USABLE, MEM_USABLE,   MEM_RESERVED, MEM_ACPI,
                                     MEM_NVS,    MEM_BAD,    MEM_DISABLED, MEM_PMEM,     12};
    for (int iter = 0; iter < 20000; iter++) {
        uint32_t page[UNIVERSE] = {0}; /* 0: no range covers the page */
        struct memmap m;
        memmap_init(&m);
        uint32_t n = 1 + lcg(iter < 10000 ? 12 : 60);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t a = lcg(UNIVERSE), len = 1 + lcg(iter % 2 ? 8 : UNIVERSE - a);
            if (a + len > UNIVERSE)
                len = UNIVERSE - a;
            uint32_t t = types[lcg(10)];
            add_ok(&m, a * PG, (a + len) * PG, t);
            paint(page, a, len, t);
        }
        memmap_normalise(&m);

        size_t idx = 0;
        for (uint32_t p = 0; p < UNIVERSE;) {
            if (page[p] == 0) {
                p++;
                continue;
            }
            uint32_t q = p;
            while (q < UNIVERSE && page[q] == page[p])
                q++;
            assert_true(idx < m.n);
            assert_int_equal(m.r[idx].base, p * PG);
            assert_int_equal(m.r[idx].end, q * PG);
            assert_int_equal(m.r[idx].type, page[p]);
            idx++;
            p = q;
        }
        assert_int_equal(m.n, idx);
        assert_int_equal(m.dropped, 0);

        struct memmap again = m;
        memmap_normalise(&again);
        assert_memory_equal(&again, &m, sizeof(m));
    }
}

/* Full tables under split pressure: whatever is dropped, no byte a range
 * marked non-usable ends up usable or missing, and the result is sorted and
 * disjoint. */
#define BIG_UNIVERSE 2048

static void test_random_full_table_is_safe(void **state)
{
    static uint32_t page[BIG_UNIVERSE];
    size_t total_dropped = 0;
    for (int iter = 0; iter < 300; iter++) {
        struct memmap m;
        memmap_init(&m);
        memset(page, 0, sizeof(page));
        for (uint32_t k = 0; k < MEMMAP_MAX; k++) {
            bool big = k % 8 == 0;
            uint32_t a = lcg(BIG_UNIVERSE - 600), len = big ? 100 + lcg(500) : 1 + lcg(4);
            uint32_t t = big ? MEM_USABLE : (k % 3 ? MEM_RESERVED : MEM_ACPI);
            if (k % 16 == 1)
                t = MEM_NVS; /* small stronger pieces inside weaker ones */
            add_ok(&m, a * PG, (a + len) * PG, t);
            paint(page, a, len, t);
        }
        memmap_normalise(&m);
        total_dropped += m.dropped;
        assert_true(m.n <= MEMMAP_MAX);
        uint32_t got[BIG_UNIVERSE] = {0};
        for (size_t i = 0; i < m.n; i++) {
            assert_true(m.r[i].base < m.r[i].end);
            if (i > 0)
                assert_true(m.r[i - 1].end <= m.r[i].base);
            for (uint64_t p = m.r[i].base / PG; p < m.r[i].end / PG; p++)
                got[p] = m.r[i].type;
        }
        for (uint32_t p = 0; p < BIG_UNIVERSE; p++) {
            if (page[p] == 0)
                assert_int_equal(got[p], 0);
            else if (page[p] == MEM_USABLE) /* usable may only be lost */
                assert_true(got[p] == MEM_USABLE || (got[p] == 0 && m.dropped > 0));
            else if (m.dropped == 0)
                assert_int_equal(got[p], page[p]);
            else /* a stronger non-usable type may have taken it */
                assert_true(got[p] != 0 && got[p] != MEM_USABLE &&
                            model_rank(got[p]) >= model_rank(page[p]));
        }
    }
    assert_true(total_dropped > 0); /* the full-table paths really ran */
}

static void test_type_names(void **state)
{
    static const char *const names[] = {"other", "usable",   "reserved", "acpi", "nvs",
                                        "bad",   "disabled", "pmem",     "other"};
    for (uint32_t t = 0; t < 9; t++)
        assert_string_equal(mem_type_name(t), names[t]);
    assert_string_equal(mem_type_name(0xf0000000u), "other");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qemu_8g),
        cmocka_unit_test(test_unsorted),
        cmocka_unit_test(test_reserved_inside_usable),
        cmocka_unit_test(test_nested_and_chained),
        cmocka_unit_test(test_equal_rank_ties),
        cmocka_unit_test(test_adjacent_merge),
        cmocka_unit_test(test_tiny_ranges),
        cmocka_unit_test(test_zero_overflow_and_2_64),
        cmocka_unit_test(test_hand_filled),
        cmocka_unit_test(test_count_1g),
        cmocka_unit_test(test_table_full),
        cmocka_unit_test(test_split_overflow),
        cmocka_unit_test(test_random_against_model),
        cmocka_unit_test(test_random_full_table_is_safe),
        cmocka_unit_test(test_type_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
