/*
 * tests/unit/test_frames.c - mm/frames.c: the 2 MiB / 4 KiB allocator
 * (alignment, limits, preference for windows that cannot be 1 GiB frames,
 * free validation, full extent table), taking, returning and splitting
 * 1 GiB frames, and bad input. The 1 GiB scan, reject records and layout
 * text are in tests/unit/test_frames_layout.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mm/frames.h"
#include "mm/paging.h"
#include "tests/unit/frames_build.h"

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
    assert_string_equal(frames_strerror(-8), "unknown error");
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
        cmocka_unit_test(test_early_alloc_spares_1g_windows),
        cmocka_unit_test(test_free_validation),
        cmocka_unit_test(test_1g_take_put_split),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_extent_table_full),
        cmocka_unit_test(test_random_against_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
