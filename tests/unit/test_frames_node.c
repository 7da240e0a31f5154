/*
 * tests/unit/test_frames_node.c - mm/frames.c from one NUMA node:
 * frames_in_ranges(), frames_1g_take_in(), frames_1g_free_count_in() and
 * frames_alloc_in() give
 * frames inside the node's ranges (arch/numa.h) or FRAMES_ENODE, never
 * another node's frame, on the QEMU q35 -m 6G layout split in two nodes
 * ([0, 5 GiB) and [5 GiB, 8 GiB)).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/numa.h"
#include "mm/frames.h"
#include "mm/paging.h"
#include "tests/unit/frames_build.h"

#define R(b, l)                                                                                    \
    {                                                                                              \
        .base = (b), .length = (l)                                                                 \
    }

static const struct numa_range node0[] = {R(0, 0xa0000), R(0x100000, 2 * GiB - 0x100000),
                                          R(4 * GiB, GiB)};
static const struct numa_range node1[] = {R(5 * GiB, 3 * GiB)};

static bool inside(const struct numa_range *r, size_t nr, uint64_t a, uint64_t size)
{
    for (size_t k = 0; k < nr; k++)
        if (a >= r[k].base && a + size <= r[k].base + r[k].length)
            return true;
    return false;
}

static void test_1g_take_in(void **state)
{
    size_t idx = 99;
    setup_q35();
    assert_int_equal(frames_1g_take_in(&F, node0, 3, &idx), FRAMES_ESTATE);
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    assert_int_equal(frames_1g_count(&F), 4); /* 4, 5, 6, 7 GiB */
    assert_int_equal(frames_1g_free_count_in(&F, node0, 3), 1);
    assert_int_equal(frames_1g_free_count_in(&F, node1, 1), 3);
    assert_int_equal(frames_1g_free_count_in(&F, node1, 0), 0);
    assert_int_equal(frames_1g_take_in(&F, node1, 1, &idx), FRAMES_OK);
    assert_int_equal(frames_1g_base(&F, idx), 5 * GiB); /* not 4 GiB, node 0's */
    assert_int_equal(frames_1g_take_in(&F, node0, 3, &idx), FRAMES_OK);
    assert_int_equal(frames_1g_base(&F, idx), 4 * GiB);
    idx = 99;
    assert_int_equal(frames_1g_take_in(&F, node0, 3, &idx), FRAMES_ENODE); /* node 1 has two */
    assert_int_equal(idx, 99);
    assert_int_equal(frames_1g_free_count(&F), 2);
    assert_int_equal(frames_1g_take_in(&F, node1, 0, &idx), FRAMES_ENODE); /* no memory */
    assert_int_equal(frames_1g_take_in(&F, NULL, 1, &idx), FRAMES_EINVAL);
    assert_int_equal(frames_1g_take_in(&F, node1, 1, NULL), FRAMES_EINVAL);
    assert_int_equal(frames_1g_take_in(NULL, node1, 1, &idx), FRAMES_EINVAL);
    assert_int_equal(frames_1g_put(&F, (size_t)frames_1g_find(&F, 4 * GiB)), FRAMES_OK);
    assert_int_equal(frames_1g_take_in(&F, node0, 3, &idx), FRAMES_OK);
    assert_int_equal(frames_1g_base(&F, idx), 4 * GiB);

    /* A frame across two adjacent ranges of one node is inside the node;
     * one only half inside is not. A range past 2^64 is cut there. */
    setup_q35();
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    static const struct numa_range halves[] = {R(6 * GiB + GiB / 2, GiB / 2), R(6 * GiB, GiB / 2)};
    static const struct numa_range half[] = {R(4 * GiB + GiB / 2, GiB)};
    static const struct numa_range top[] = {R(7 * GiB, UINT64_MAX)};
    assert_int_equal(frames_1g_take_in(&F, halves, 2, &idx), FRAMES_OK);
    assert_int_equal(frames_1g_base(&F, idx), 6 * GiB);
    assert_int_equal(frames_1g_take_in(&F, half, 1, &idx), FRAMES_ENODE);
    assert_int_equal(frames_1g_take_in(&F, top, 1, &idx), FRAMES_OK);
    assert_int_equal(frames_1g_base(&F, idx), 7 * GiB);
}

static void test_in_ranges(void **state)
{
    static const struct numa_range split[] = {R(2 * GiB, GiB), R(GiB, GiB / 2),
                                              R(GiB + GiB / 2, GiB / 2)};
    assert_true(frames_in_ranges(split, 3, GiB, 2 * GiB)); /* three pieces, any order */
    assert_true(frames_in_ranges(split, 3, GiB + 4 * KiB, 4 * KiB));
    assert_false(frames_in_ranges(split, 3, GiB - 4 * KiB, 8 * KiB));
    assert_false(frames_in_ranges(split, 2, GiB, GiB)); /* the second half is missing */
    assert_false(frames_in_ranges(split, 3, 3 * GiB - 4 * KiB, 8 * KiB));
    assert_false(frames_in_ranges(split, 0, GiB, 4 * KiB));
    assert_false(frames_in_ranges(NULL, 3, GiB, 4 * KiB));
    static const struct numa_range top[] = {R(UINT64_MAX - GiB, UINT64_MAX)};
    assert_true(frames_in_ranges(top, 1, UINT64_MAX - GiB, GiB));
}

static void test_alloc_in(void **state)
{
    uint64_t p = 7;
    setup_q35();
    assert_int_equal(frames_build_1g(&F), FRAMES_OK);
    /* Node 1's memory is all in 1 GiB frames: nothing for the small pool,
     * though node 0 has plenty. */
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, node1, 1, &p), FRAMES_ENODE);
    assert_int_equal(frames_alloc_in(&F, 4 * KiB, node1, 1, &p), FRAMES_ENODE);
    assert_int_equal(p, 7);
    assert_int_equal(frames_alloc(&F, 2 * MiB, FRAMES_NO_LIMIT, &p), FRAMES_OK);
    assert_int_equal(frames_1g_split(&F, (size_t)frames_1g_find(&F, 6 * GiB)), FRAMES_OK);
    for (int i = 0; i < 512; i++) {
        assert_int_equal(frames_alloc_in(&F, 2 * MiB, node1, 1, &p), FRAMES_OK);
        assert_true(p >= 6 * GiB && p < 7 * GiB);
        assert_int_equal(p % (2 * MiB), 0);
    }
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, node1, 1, &p), FRAMES_ENODE);
    assert_int_equal(frames_free(&F, 6 * GiB + 4 * MiB, 2 * MiB), FRAMES_OK);
    assert_int_equal(frames_alloc_in(&F, 4 * KiB, node1, 1, &p), FRAMES_OK);
    assert_int_equal(p, 6 * GiB + 4 * MiB);

    /* Node 0: every frame inside its ranges, down to the last 2 MiB. */
    size_t n = 0;
    while (frames_alloc_in(&F, 2 * MiB, node0, 3, &p) == FRAMES_OK) {
        assert_true(inside(node0, 3, p, 2 * MiB));
        n++;
    }
    assert_true(n > 900);
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, node0, 3, &p), FRAMES_ENODE);
    /* A range where only the kernel image's 2 MiB would fit. */
    static const struct numa_range low[] = {R(0x100000, 0x500000)};
    setup_q35();
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, low, 1, &p), FRAMES_ENODE);
    assert_int_equal(frames_alloc_in(&F, 4 * KiB, low, 1, &p), FRAMES_OK);
    assert_int_equal(p, 0x100000);
    static const struct numa_range top[] = {R(7 * GiB + 4 * KiB, UINT64_MAX)};
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, top, 1, &p), FRAMES_OK);
    assert_true(p >= 7 * GiB + 2 * MiB && p + 2 * MiB <= 8 * GiB);

    assert_int_equal(frames_alloc_in(&F, 2 * MiB, NULL, 1, &p), FRAMES_EINVAL);
    assert_int_equal(frames_alloc_in(&F, 8 * KiB, node0, 3, &p), FRAMES_EINVAL);
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, node0, 3, NULL), FRAMES_EINVAL);
    assert_int_equal(frames_alloc_in(&F, 2 * MiB, node0, 0, &p), FRAMES_ENODE);
    assert_string_equal(frames_strerror(FRAMES_ENODE), "nothing free on that node");
    struct frames blank;
    memset(&blank, 0, sizeof blank);
    assert_int_equal(frames_alloc_in(&blank, 2 * MiB, node0, 3, &p), FRAMES_ESTATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1g_take_in),
        cmocka_unit_test(test_in_ranges),
        cmocka_unit_test(test_alloc_in),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
