/*
 * tests/unit/test_frames.c - mm/frames.c: the 1 GiB frame list (QEMU-like
 * maps, exclusions, reasons for rejected windows, caps), the 2 MiB / 4 KiB
 * allocator (alignment, limits, preference for windows that cannot be
 * 1 GiB frames, free validation, full extent table) and the layout text.
 */
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
static void map_of(const uint64_t (*r)[3], size_t n)
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

static void setup_q35(void)
{
    map_of(q35_6g, sizeof q35_6g / sizeof q35_6g[0]);
    assert_int_equal(frames_init(&F, &M, q35_excl, 3), FRAMES_OK);
}

static void test_q35_frames_and_rejects(void **state)
{
    setup_q35();
    /* Free: [1M,2M) and [kernel end rounded up, 0x7ffe0000) and [4G, 8G). */
    assert_int_equal(frames_free_bytes(&F), MiB + (0x7ffe0000 - 0x5a3000) + 4 * GiB);
    assert_int_equal(frames_count_2m(&F), 1020 + 2048);
    assert_int_equal(frames_1g_count(&F), 0);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_build_1g(&F), FRAMES_ESTATE);
    assert_int_equal(frames_1g_count(&F), 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(frames_1g_base(&F, i), 4 * GiB + i * GiB);
    assert_int_equal(frames_1g_base(&F, 4), UINT64_MAX);
    assert_int_equal(frames_count_2m(&F), 1020);
    assert_int_equal(frames_free_bytes(&F), MiB + (0x7ffe0000 - 0x5a3000));

    char buf[160];
    assert_int_equal(frames_reject_count(&F), 2);
    const struct frames_reject *r = frames_reject_get(&F, 0);
    assert_int_equal(r->base, 0);
    assert_int_equal(r->count, 1);
    assert_int_equal(r->why, FRAMES_WHY_HOLE); /* usable was trimmed to 0x9f000 */
    frames_reject_text(&F, 0, buf, sizeof buf);
    assert_string_equal(buf, "crosses 0x9f000-0x9fc00, absent from the memory map");
    r = frames_reject_get(&F, 1);
    assert_int_equal(r->base, GiB);
    assert_int_equal(r->why, FRAMES_WHY_NONUSABLE);
    frames_reject_text(&F, 1, buf, sizeof buf);
    assert_string_equal(buf, "crosses non-usable range 0x7ffe0000-0x80000000 (reserved)");
    assert_null(frames_reject_get(&F, 2));
    assert_int_equal(frames_reject_text(&F, 2, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

static void test_layout_lines(void **state)
{
    static const char *const want[] = {
        "frames: 3 usable ranges (6143 MiB), 3 exclusions, 2043 MiB in the small pool",
        "  usable  0x0-0x9f000 636 KiB",
        "  usable  0x100000-0x7ffe0000 2046 MiB",
        "  usable  0x100000000-0x200000000 4 GiB",
        "  exclude 0x0-0x100000 first MiB (1 MiB)",
        "  exclude 0x10000-0x12000 boot information (8 KiB)",
        "  exclude 0x200000-0x5a3000 kernel image (3 MiB)",
        "  1G frames #0-#3: 0x100000000-0x200000000 (4)",
        "  1G reject 0x0 (1 window): crosses 0x9f000-0x9fc00, absent from the memory map",
        ("  1G reject 0x40000000 (1 window): crosses non-usable range 0x7ffe0000-0x80000000 "
         "(reserved)"),
        "frames: 4 x 1 GiB frames, 1020 x 2 MiB frames free",
    };
    char buf[200];
    size_t it = 0, n = 0;
    setup_q35();
    assert_true(frames_layout_line(&F, &it, buf, sizeof buf));
    assert_string_equal(
        buf, "frames: 3 usable ranges (6143 MiB), 3 exclusions, 6139 MiB in the small pool");
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    it = 0;
    while (frames_layout_line(&F, &it, buf, sizeof buf)) {
        assert_true(n < sizeof want / sizeof want[0]);
        assert_string_equal(buf, want[n]);
        n++;
    }
    assert_int_equal(n, sizeof want / sizeof want[0]);
    assert_false(frames_layout_line(&F, &it, buf, sizeof buf)); /* stays at the end */
}

/* -m 1G: no 1 GiB frame, the summary says so and 2 MiB frames remain. */
static void test_fallback_to_2m(void **state)
{
    static const uint64_t m1g[][3] = {{0, 0x9fc00, MEM_USABLE},
                                      {0x100000, 0x3ffe0000, MEM_USABLE},
                                      {0x3ffe0000, 0x40000000, MEM_RESERVED}};
    static const struct frame_excl x[] = {{0, 0x100000, "first MiB"},
                                          {0x200000, 0x400000, "kernel image"}};
    map_of(m1g, 3);
    assert_int_equal(frames_init(&F, &M, x, 2), FRAMES_OK);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_count(&F), 0);
    size_t idx = 99;
    assert_int_equal(frames_1g_take(&F, &idx), FRAMES_ENOMEM);
    assert_int_equal(idx, 99);
    assert_int_equal(frames_count_2m(&F), (0x3fe00000 - 0x400000) / (2 * MiB));
    char buf[120], last[120] = "";
    size_t it = 0;
    while (frames_layout_line(&F, &it, buf, sizeof buf))
        memcpy(last, buf, sizeof buf);
    assert_string_equal(last, "frames: no 1 GiB frame: falling back to 2 MiB frames (509)");
    /* The fallback takes every 2 MiB frame. */
    uint64_t p, prev = 0, n = 0;
    while (frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p) == FRAMES_OK) {
        assert_int_equal(p % (2 * MiB), 0);
        assert_true(p > prev);
        prev = p;
        n++;
    }
    assert_int_equal(n, 509);
    assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p), FRAMES_ENOMEM);
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(p, 0x100000);
}

/* Early allocations go to windows that cannot become 1 GiB frames. */
static void test_early_alloc_spares_1g_windows(void **state)
{
    static const uint64_t m[][3] = {{0x100000, 0x140000000, MEM_USABLE}};
    static const struct frame_excl x[] = {{0x200000, 0x400000, "kernel image"}};
    uint64_t p;
    map_of(m, 1);
    assert_int_equal(frames_init(&F, &M, x, 1), FRAMES_OK);
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(p, 0x100000);
    assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(p, 0x400000);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_count(&F), 4);
    assert_int_equal(frames_1g_base(&F, 0), GiB);
    /* Only RAM: [1 GiB, 2.5 GiB). The top of window 2 is taken first. */
    static const uint64_t m2[][3] = {{GiB, 0xa0000000, MEM_USABLE}};
    map_of(m2, 1);
    assert_int_equal(frames_init(&F, &M, NULL, 0), FRAMES_OK);
    assert_int_equal(frames_alloc(&F, 4 * KiB, 0x100000000, &p), FRAMES_OK);
    assert_int_equal(p, 0x9ffff000);
    assert_int_equal(frames_alloc(&F, 2 * MiB, 0x100000000, &p), FRAMES_OK);
    assert_int_equal(p, 0x9fc00000);
    /* With a limit of 2 GiB only window 1 fits: its lowest page is used. */
    assert_int_equal(frames_alloc(&F, 4 * KiB, 2 * GiB, &p), FRAMES_OK);
    assert_int_equal(p, GiB);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_count(&F), 0);
    char buf[160];
    frames_reject_text(&F, 0, buf, sizeof buf);
    assert_string_equal(buf, "0x40000000-0x40001000 allocated before the 1 GiB list was built");
    /* Nothing below the limit: ENOMEM, phys untouched. */
    p = 7;
    assert_int_equal(frames_alloc(&F, 4 * KiB, GiB, &p), FRAMES_ENOMEM);
    assert_int_equal(frames_alloc(&F, 4 * KiB, GiB + 4 * KiB, &p), FRAMES_ENOMEM);
    assert_int_equal(p, 7);
    assert_int_equal(frames_alloc(&F, 8 * KiB, FRAMES_NO_LIMIT, &p), FRAMES_EINVAL);
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, NULL), FRAMES_EINVAL);
}

static void test_free_validation(void **state)
{
    uint64_t a, b, c, big;
    setup_q35();
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    const uint64_t before = frames_free_bytes(&F);
    const size_t exts = F.next;
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &a), FRAMES_OK);
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &b), FRAMES_OK);
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &c), FRAMES_OK);
    assert_int_equal(a, 0x100000);
    assert_int_equal(b, 0x101000);
    assert_int_equal(c, 0x102000);
    assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &big), FRAMES_OK);
    assert_int_equal(big, 0x600000);
    assert_int_equal(frames_free(&F, b, 4 * KiB), FRAMES_OK); /* a hole between a and c */
    assert_int_equal(F.next, exts + 2);
    assert_int_equal(frames_free(&F, b, 4 * KiB), FRAMES_ENOTALLOC); /* twice */
    assert_int_equal(frames_free(&F, a, 4 * KiB), FRAMES_OK);
    assert_int_equal(frames_free(&F, c, 4 * KiB), FRAMES_OK);
    assert_int_equal(F.next, exts + 1);
    assert_int_equal(frames_free(&F, big + 4 * KiB, 4 * KiB), FRAMES_OK); /* part of 2 MiB */
    assert_int_equal(frames_free(&F, big, 2 * MiB), FRAMES_ENOTALLOC);    /* overlaps free */
    assert_int_equal(frames_free(&F, big, 4 * KiB), FRAMES_OK);
    assert_int_equal(frames_free(&F, big + 8 * KiB, 4 * KiB), FRAMES_OK);
    for (uint64_t p = big + 12 * KiB; p < big + 2 * MiB; p += 4 * KiB)
        assert_int_equal(frames_free(&F, p, 4 * KiB), FRAMES_OK);
    assert_int_equal(frames_free_bytes(&F), before);
    assert_int_equal(F.next, exts);
    /* Bad alignment and size, memory never managed, a listed 1 GiB frame. */
    assert_int_equal(frames_free(&F, 0x101800, 4 * KiB), FRAMES_EINVAL);
    assert_int_equal(frames_free(&F, 0x700000, 2 * MiB), FRAMES_EINVAL);
    assert_int_equal(frames_free(&F, 0x600000, 8 * KiB), FRAMES_EINVAL);
    assert_int_equal(frames_free(&F, UINT64_MAX - 4095, 4 * KiB), FRAMES_EINVAL);
    assert_int_equal(frames_free(&F, 0x300000, 4 * KiB), FRAMES_ENOTALLOC);   /* kernel */
    assert_int_equal(frames_free(&F, 0x90000000, 4 * KiB), FRAMES_ENOTALLOC); /* hole */
    assert_int_equal(frames_free(&F, 5 * GiB, 2 * MiB), FRAMES_ENOTALLOC);
}

static void test_1g_take_put_split(void **state)
{
    size_t i;
    uint64_t p;
    setup_q35();
    assert_int_equal(frames_1g_take(&F, &i), FRAMES_ESTATE);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_find(&F, 6 * GiB), 2);
    assert_int_equal(frames_1g_find(&F, 6 * GiB + 4096), -1);
    assert_int_equal(frames_1g_find(&F, 0), -1);
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(frames_1g_take(&F, &i), FRAMES_OK);
        assert_int_equal(i, k);
        assert_int_equal(frames_1g_state(&F, k), FRAME1G_TAKEN);
    }
    assert_int_equal(frames_1g_take(&F, &i), FRAMES_ENOMEM);
    assert_int_equal(frames_1g_free_count(&F), 0);
    assert_int_equal(frames_1g_put(&F, 2), FRAMES_OK);
    assert_int_equal(frames_1g_put(&F, 2), FRAMES_ESTATE);
    assert_int_equal(frames_1g_put(&F, 4), FRAMES_EINVAL);
    assert_int_equal(frames_1g_state(&F, 4), -1);
    assert_int_equal(frames_1g_split(&F, 1), FRAMES_ESTATE); /* taken */
    assert_int_equal(frames_1g_split(&F, 2), FRAMES_OK);
    assert_int_equal(frames_1g_state(&F, 2), FRAME1G_SPLIT);
    assert_int_equal(frames_1g_split(&F, 2), FRAMES_ESTATE);
    assert_int_equal(frames_1g_take(&F, &i), FRAMES_ENOMEM);
    assert_int_equal(frames_count_2m(&F), 1020 + 512);
    /* Low memory still comes first; the split frame serves 2 MiB frames after. */
    for (int k = 0; k < 1020; k++)
        assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(p, 6 * GiB);
    assert_int_equal(frames_free(&F, p, 2 * MiB), FRAMES_OK);
    assert_int_equal(frames_free(&F, 5 * GiB, 2 * MiB), FRAMES_ENOTALLOC); /* frame 1 */
}

/* A huge exclusion rejects many windows in one record; build stays bounded. */
static void test_big_exclusion_and_list_cap(void **state)
{
    static const uint64_t m[][3] = {{GiB, 10 * GiB, MEM_USABLE}};
    static const struct frame_excl x[] = {{2 * GiB, 6 * GiB - 1, "ramdisk"}};
    char buf[160];
    map_of(m, 1);
    assert_int_equal(frames_init(&F, &M, x, 1), FRAMES_OK);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_count(&F), 5);
    assert_int_equal(frames_1g_base(&F, 1), 6 * GiB);
    assert_int_equal(frames_reject_count(&F), 1);
    assert_int_equal(frames_reject_get(&F, 0)->count, 4);
    frames_reject_text(&F, 0, buf, sizeof buf);
    assert_string_equal(buf, "overlaps ramdisk 0x80000000-0x180000000");
    size_t it = 0, seen = 0;
    while (frames_layout_line(&F, &it, buf, sizeof buf))
        seen += !strcmp(buf, "  1G frame  #0: 0x40000000-0x80000000") +
                !strcmp(buf, "  1G frames #1-#4: 0x180000000-0x280000000 (4)") +
                !strcmp(buf, "  1G reject 0x80000000 (4 windows): overlaps ramdisk "
                             "0x80000000-0x180000000");
    assert_int_equal(seen, 3);

    /* RAM from 4 KiB up to 2^64 - 4 KiB, a 16 EiB exclusion in the middle. */
    static const uint64_t all[][3] = {{0x1000, UINT64_MAX, MEM_USABLE}};
    static const struct frame_excl xx[] = {{2 * GiB, 0xffff000000000000, "everything"}};
    map_of(all, 1);
    assert_int_equal(M.r[0].end, MEMMAP_END_MAX);
    assert_int_equal(frames_init(&F, &M, xx, 1), FRAMES_OK);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_count(&F), FRAMES_MAX_1G);
    assert_int_equal(frames_1g_base(&F, 0), GiB);
    assert_int_equal(frames_1g_base(&F, 1), 0xffff000000000000);
    assert_int_equal(frames_1g_base(&F, 1023), 0xffff000000000000 + 1022 * GiB);
    assert_int_equal(frames_reject_count(&F), 3);
    assert_int_equal(frames_reject_get(&F, 0)->why, FRAMES_WHY_HOLE);
    assert_int_equal(frames_reject_get(&F, 1)->count, (1ULL << 34) - (1ULL << 18) - 2);
    assert_int_equal(frames_reject_get(&F, 2)->why, FRAMES_WHY_LIST_FULL);
    assert_int_equal(frames_reject_get(&F, 2)->count, (1ULL << 18) - 1023);
    assert_int_equal(F.g1_unexamined, (1ULL << 18) - 1023);
    frames_reject_text(&F, 2, buf, sizeof buf);
    assert_string_equal(buf, "not examined: 1 GiB list full (1024 frames)");
    /* The last window, past the list: not listed, no wrap-around. */
    assert_int_equal(frames_1g_find(&F, 0xffffffffc0000000), -1);
}

static void test_bad_input(void **state)
{
    static const uint64_t m[][3] = {{0x100000, 4 * GiB, MEM_USABLE}};
    struct frame_excl x[FRAMES_MAX_EXCL + 1];
    uint64_t p;
    map_of(m, 1);
    for (size_t i = 0; i <= FRAMES_MAX_EXCL; i++)
        x[i] = (struct frame_excl){i * 8192, i * 8192 + 4096, "x"};
    assert_int_equal(frames_init(&F, &M, x, FRAMES_MAX_EXCL + 1), FRAMES_EFULL);
    assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &p), FRAMES_ESTATE);
    assert_int_equal(frames_build_1g(&F), FRAMES_ESTATE);
    assert_int_equal(frames_init(&F, &M, x, FRAMES_MAX_EXCL), FRAMES_OK);
    /* base + len wrapped: end < base. */
    x[3] = (struct frame_excl){0xfffffffffffff000, 0x1000, "wrapped"};
    assert_int_equal(frames_init(&F, &M, x, 4), FRAMES_EINVAL);
    assert_int_equal(frames_free(&F, 0x200000, 4 * KiB), FRAMES_ESTATE);
    assert_int_equal(frames_init(&F, NULL, x, 1), FRAMES_EINVAL);
    assert_int_equal(frames_init(&F, &M, NULL, 1), FRAMES_EINVAL);
    assert_int_equal(frames_init(NULL, &M, NULL, 0), FRAMES_EINVAL);
    /* Maps that are not normalised. */
    struct memmap bad = {.n = 2};
    bad.r[0] = (struct mem_range){GiB, 2 * GiB, MEM_USABLE};
    bad.r[1] = (struct mem_range){0, GiB / 2, MEM_USABLE};
    assert_int_equal(frames_init(&F, &bad, NULL, 0), FRAMES_EBADMAP);
    bad.r[1] = (struct mem_range){2 * GiB - 4096, 3 * GiB, MEM_RESERVED};
    assert_int_equal(frames_init(&F, &bad, NULL, 0), FRAMES_EBADMAP);
    bad.r[1] = (struct mem_range){3 * GiB, 3 * GiB, MEM_USABLE};
    assert_int_equal(frames_init(&F, &bad, NULL, 0), FRAMES_EBADMAP);
    bad.n = MEMMAP_MAX + 1;
    assert_int_equal(frames_init(&F, &bad, NULL, 0), FRAMES_EBADMAP);
    /* Rounding: unaligned exclusions grow to 4 KiB, empty ones exclude nothing,
     * one reaching 2^64 is clipped; a long reason is cut. */
    x[0] = (struct frame_excl){0x200123, 0x300001, "a reason far longer than 31 characters"};
    x[1] = (struct frame_excl){0x500800, 0x500800, NULL};
    x[2] = (struct frame_excl){0xfffffffffffff800, UINT64_MAX, "top"};
    assert_int_equal(frames_init(&F, &M, x, 3), FRAMES_OK);
    assert_int_equal(F.nexcl, 3);
    assert_int_equal(F.excl[0].base, 0x200000);
    assert_int_equal(F.excl[0].end, 0x301000);
    assert_string_equal(F.excl[0].reason, "a reason far longer than 31 cha");
    assert_string_equal(F.excl[1].reason, "unnamed");
    assert_int_equal(F.excl[1].base, 0x500800);
    assert_int_equal(F.excl[1].end, 0x500800);
    assert_int_equal(F.excl[2].base, MEMMAP_END_MAX);
    assert_int_equal(F.excl[2].end, MEMMAP_END_MAX);
    assert_int_equal(frames_free_bytes(&F), 4 * GiB - 0x100000 - 0x101000);
    assert_string_equal(frames_strerror(FRAMES_EBADMAP), "memory map not normalised");
    assert_string_equal(frames_strerror(-7), "unknown error");
    assert_string_equal(frames_strerror(1), "unknown error");
}

/* Fragmentation fills the extent table: frees and splitting allocations
 * then fail with FRAMES_EFULL and the loss is counted. */
static void test_extent_table_full(void **state)
{
    static const uint64_t m[][3] = {{0x1000, GiB, MEM_USABLE}};
    uint64_t p;
    map_of(m, 1);
    assert_int_equal(frames_init(&F, &M, NULL, 0), FRAMES_OK);
    for (int i = 0; i < 1200; i++) {
        assert_int_equal(frames_alloc(&F, 4 * KiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
        assert_int_equal(p, 0x1000 + (uint64_t)i * 4096);
    }
    for (int i = 1; i < 2 * (FRAMES_MAX_EXTENTS - 1); i += 2)
        assert_int_equal(frames_free(&F, 0x1000 + (uint64_t)i * 4096, 4 * KiB), FRAMES_OK);
    assert_int_equal(F.next, FRAMES_MAX_EXTENTS);
    const uint64_t lost_page = 0x1000 + (uint64_t)(2 * FRAMES_MAX_EXTENTS + 1) * 4096;
    assert_int_equal(frames_free(&F, lost_page, 4 * KiB), FRAMES_EFULL);
    assert_int_equal(frames_lost_bytes(&F), 4096);
    /* Both fitting 2 MiB frames below 8 MiB would split an extent. */
    assert_int_equal(frames_alloc(&F, 2 * MiB, 0x800000, &p), FRAMES_EFULL);
    assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(p, GiB - 2 * MiB); /* the top of the last extent needs no split */
    assert_int_equal(F.next, FRAMES_MAX_EXTENTS);
    /* Merging still works when full: a page between two free ones. */
    assert_int_equal(frames_free(&F, 0x1000 + 2 * 4096, 4 * KiB), FRAMES_OK);
    assert_int_equal(F.next, FRAMES_MAX_EXTENTS - 1);
    assert_int_equal(frames_alloc(&F, 2 * MiB, 0x800000, &p), FRAMES_OK); /* splits */
    assert_int_equal(p, 0x600000);
    assert_int_equal(F.next, FRAMES_MAX_EXTENTS);
    assert_int_equal(frames_alloc(&F, 2 * MiB, 0xa00000, &p), FRAMES_OK);
    assert_int_equal(p, 0x800000); /* at the base of an extent: no split */
    assert_int_equal(F.next, FRAMES_MAX_EXTENTS);
    char buf[200], last[200] = "";
    size_t it = 0;
    while (frames_layout_line(&F, &it, buf, sizeof buf))
        memcpy(last, buf, sizeof buf);
    assert_string_equal(last, "frames: capped: 0 bytes dropped at init, 4096 bytes lost on "
                              "free, 0 windows not examined, 0 reject records dropped");
}

/* Random allocations and frees against a page-by-page model: frames are
 * aligned, below the limit, inside usable RAM, outside exclusions, never
 * handed out twice; ENOMEM only when the model has no fitting frame; the
 * extents stay sorted, disjoint and non-adjacent. */
static void test_random_against_model(void **state)
{
    enum { PAGES = 32768 };     /* 128 MiB */
    static uint8_t page[PAGES]; /* 0 free, 1 allocated, 2 never free */
    static struct {
        uint64_t p, size;
    } live[4096];
    static const uint64_t m[][3] = {{0x1000, 0x5000000, MEM_USABLE},
                                    {0x5000000, 0x5100000, MEM_RESERVED},
                                    {0x5100000, 0x8000000, MEM_USABLE}};
    static const struct frame_excl x[] = {{0x200000, 0x433000, "kernel image"},
                                          {0x7000000, 0x7001000, "trampoline"}};
    size_t nlive = 0;
    uint64_t rng = 12345;
    map_of(m, 3);
    assert_int_equal(frames_init(&F, &M, x, 2), FRAMES_OK);
    for (size_t i = 0; i < PAGES; i++) {
        uint64_t a = i * 4096;
        page[i] = (a < 0x1000 || (a >= 0x200000 && a < 0x433000) ||
                   (a >= 0x5000000 && a < 0x5100000) || a == 0x7000000)
                      ? 2
                      : 0;
    }
    for (int op = 0; op < 6000; op++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const unsigned r = (unsigned)(rng >> 33);
        if (nlive > 0 && (r % 5 < 2 || nlive == 4096)) {
            size_t k = (r >> 3) % nlive;
            assert_int_equal(frames_free(&F, live[k].p, live[k].size), FRAMES_OK);
            memset(&page[live[k].p / 4096], 0, live[k].size / 4096);
            live[k] = live[--nlive];
        } else {
            const uint64_t size = (r & 8) ? 2 * MiB : 4 * KiB;
            const uint64_t limit = (r & 16) ? FRAMES_NO_LIMIT : ((r >> 5) % 128 + 1) * MiB;
            uint64_t p, fit = 0;
            for (uint64_t a = 0; a + size <= 128 * MiB && a + size <= limit && !fit; a += size)
                fit = memchr(&page[a / 4096], 1, size / 4096) == NULL &&
                      memchr(&page[a / 4096], 2, size / 4096) == NULL;
            int err = frames_alloc(&F, size, limit, &p);
            assert_int_equal(err, fit ? FRAMES_OK : FRAMES_ENOMEM);
            if (err != FRAMES_OK)
                continue;
            assert_int_equal(p % size, 0);
            assert_true(p + size <= limit);
            for (uint64_t a = p; a < p + size; a += 4096)
                assert_int_equal(page[a / 4096], 0);
            memset(&page[p / 4096], 1, size / 4096);
            live[nlive].p = p;
            live[nlive++].size = size;
        }
        uint64_t free_model = 0;
        for (size_t i = 0; i < PAGES; i++)
            free_model += page[i] == 0 ? 4096 : 0;
        assert_int_equal(frames_free_bytes(&F), free_model);
        for (size_t i = 1; i < F.next; i++)
            assert_true(F.ext[i - 1].end < F.ext[i].base);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_q35_frames_and_rejects),
        cmocka_unit_test(test_layout_lines),
        cmocka_unit_test(test_fallback_to_2m),
        cmocka_unit_test(test_early_alloc_spares_1g_windows),
        cmocka_unit_test(test_free_validation),
        cmocka_unit_test(test_1g_take_put_split),
        cmocka_unit_test(test_big_exclusion_and_list_cap),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_extent_table_full),
        cmocka_unit_test(test_random_against_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
