/*
 * tests/unit/test_frames_layout.c - mm/frames_layout.c: the 1 GiB frame
 * list built from QEMU-like maps and exclusions, the reasons recorded for
 * rejected windows, the list cap, and the layout text (including the
 * 2 MiB fallback summary).
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_q35_frames_and_rejects),
        cmocka_unit_test(test_layout_lines),
        cmocka_unit_test(test_fallback_to_2m),
        cmocka_unit_test(test_big_exclusion_and_list_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
