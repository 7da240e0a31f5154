/*
 * tests/unit/test_numa_plan.c - scenarios/numa/plan.c: the cells of the numa
 * clearing matrix cover every (CPU node, memory node) pair once per variant
 * and thread count, memory-only nodes are targets only, CPU-only nodes rows
 * only, every remote cell points at its own local cell, the groups keep a
 * comparison together, and bad input gets its code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scenarios/numa/plan.h"

#define CAP 1024

static struct nplan_cell cells[CAP];

/* Count the cells of (v, ti, cpu, mem). */
static unsigned count(size_t n, unsigned v, unsigned ti, unsigned cpu, unsigned mem)
{
    unsigned k = 0;
    for (size_t i = 0; i < n; i++)
        k += cells[i].variant == v && cells[i].tidx == ti && cells[i].cpu == cpu &&
             cells[i].mem == mem;
    return k;
}

/* Every structural rule, for any topology. */
static void check_plan(const struct nplan_node *node, unsigned nn, unsigned nv, size_t n)
{
    for (unsigned v = 0; v < nv; v++)
        for (unsigned c = 0; c < nn; c++)
            for (unsigned m = 0; m < nn; m++)
                for (unsigned ti = 0; ti < 2; ti++) {
                    unsigned want = node[c].ncpus && node[m].memory &&
                                    !(node[c].unreachable >> m & 1) &&
                                    (ti == 0 || node[c].ncpus > 1);
                    assert_int_equal(count(n, v, ti, c, m), want);
                }
    for (size_t i = 0; i < n; i++) {
        const struct nplan_cell *x = &cells[i];
        assert_true(node[x->cpu].ncpus > 0);
        assert_true(node[x->mem].memory);
        assert_int_equal(x->threads, x->tidx ? node[x->cpu].ncpus : 1);
        if (x->mem == x->cpu || !node[x->cpu].memory) {
            assert_int_equal(x->local, -1);
            assert_int_equal(x->rivals, 0);
            continue;
        }
        assert_true(x->local >= 0 && (size_t)x->local < n);
        const struct nplan_cell *l = &cells[x->local];
        assert_int_equal(l->variant, x->variant);
        assert_int_equal(l->tidx, x->tidx);
        assert_int_equal(l->cpu, x->cpu);
        assert_int_equal(l->mem, x->cpu);
        unsigned cols = 0; /* the row's memory nodes it can reach */
        for (unsigned m = 0; m < nn; m++)
            cols += node[m].memory && !(node[x->cpu].unreachable >> m & 1);
        assert_int_equal(x->rivals, cols - 1);
    }
}

static void test_two_nodes(void **state)
{
    /* 2 nodes of 2 CPUs with memory, 3 variants: 3 x 2 threads x 2 x 2 = 24 */
    const struct nplan_node node[] = {{2, true, 0}, {2, true, 0}};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 2, 3, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(n, 24);
    check_plan(node, 2, 3, n);
    /* order: variant, tidx, cpu row, mem column */
    assert_int_equal(cells[0].cpu, 0);
    assert_int_equal(cells[0].mem, 0);
    assert_int_equal(cells[1].mem, 1);
    assert_int_equal(cells[1].local, 0);
    assert_int_equal(cells[2].cpu, 1);
    assert_int_equal(cells[2].mem, 0);
    assert_int_equal(cells[2].local, 3);
    assert_int_equal(cells[4].tidx, 1);
    assert_int_equal(cells[4].threads, 2);
    assert_int_equal(cells[8].variant, 1);
    assert_int_equal(cells[1].rivals, 1);
}

static void test_memory_only_node(void **state)
{
    /* nodes 0, 1 with 1 CPU each, node 2 memory-only: 1 thread only (1 CPU),
     * 2 rows x 3 columns = 6 cells per variant; node 2 is never a row */
    const struct nplan_node node[] = {{1, true, 0}, {1, true, 0}, {0, true, 0}};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 3, 2, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(n, 12);
    check_plan(node, 3, 2, n);
    for (size_t i = 0; i < n; i++)
        assert_int_not_equal(cells[i].cpu, 2);
    assert_int_equal(count(n, 0, 0, 0, 2), 1);
    assert_int_equal(cells[2].mem, 2);
    assert_int_equal(cells[2].local, 0);
    assert_int_equal(cells[2].rivals, 2);
}

static void test_cpu_only_node(void **state)
{
    /* node 1 has CPUs and no memory: a row with no local cell to compare */
    const struct nplan_node node[] = {{1, true, 0}, {3, false, 0}};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 2, 1, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(n, 3); /* (0,0) 1T, (1,0) 1T, (1,0) 3T */
    check_plan(node, 2, 1, n);
    assert_int_equal(cells[1].cpu, 1);
    assert_int_equal(cells[1].local, -1);
    assert_int_equal(cells[2].threads, 3);
}

static void test_unreachable(void **state)
{
    /* 3 nodes; node 0's CPUs cannot reach node 2 (SLIT 255): no (0, 2) cell,
     * and node 0's one remote cell is its only comparison; node 1 reaches all */
    const struct nplan_node node[] = {{1, true, 1u << 2}, {1, true, 0}, {1, true, 0}};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 3, 1, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(n, 8); /* rows 0: 2 cells, 1: 3, 2: 3 */
    check_plan(node, 3, 1, n);
    assert_int_equal(count(n, 0, 0, 0, 2), 0);
    assert_int_equal(cells[1].mem, 1);
    assert_int_equal(cells[1].rivals, 1);
    assert_int_equal(cells[2].cpu, 1);
    assert_int_equal(cells[2].rivals, 2);
}

static void test_one_node(void **state)
{
    const struct nplan_node node[] = {{4, true, 0}};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 1, 2, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(n, 4);
    check_plan(node, 1, 2, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(cells[i].local, -1);
}

static void test_eight_nodes(void **state)
{
    /* 8 nodes, odd ones memory-only, even ones with 1..4 CPUs */
    struct nplan_node node[8];
    for (unsigned i = 0; i < 8; i++)
        node[i] = (struct nplan_node){i % 2 ? 0 : 1 + i / 2, true, 0};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 8, 4, cells, CAP, &n), NPLAN_OK);
    /* rows: node 0 (1 CPU: 1 count), 2, 4, 6 (2 counts each) = 7 rows x 8 columns x 4 */
    assert_int_equal(n, 7 * 8 * 4);
    check_plan(node, 8, 4, n);
}

static void test_bad_input(void **state)
{
    const struct nplan_node node[] = {{2, true, 0}, {2, true, 0}};
    const struct nplan_node nocpu[] = {{0, true, 0}, {0, true, 0}};
    const struct nplan_node nomem[] = {{2, false, 0}, {1, false, 0}};
    struct nplan_node nine[9] = {{1, true, 0}};
    size_t n = 77;
    assert_int_equal(nplan_build(NULL, 2, 1, cells, CAP, &n), NPLAN_EINVAL);
    assert_int_equal(nplan_build(node, 0, 1, cells, CAP, &n), NPLAN_EINVAL);
    assert_int_equal(nplan_build(nine, 9, 1, cells, CAP, &n), NPLAN_EINVAL);
    assert_int_equal(nplan_build(node, 2, 0, cells, CAP, &n), NPLAN_EINVAL);
    assert_int_equal(nplan_build(node, 2, 1, NULL, CAP, &n), NPLAN_EINVAL);
    assert_int_equal(n, 77);
    assert_int_equal(nplan_build(nocpu, 2, 1, cells, CAP, &n), NPLAN_ENOCPU);
    assert_int_equal(nplan_build(nomem, 2, 1, cells, CAP, &n), NPLAN_ENOMEM);
    memset(cells, 0xab, sizeof(cells[0]) * 8);
    assert_int_equal(nplan_build(node, 2, 2, cells, 15, &n), NPLAN_ETOOMANY);
    assert_int_equal(n, 16);
    assert_int_equal(cells[0].variant, 0xabababab); /* untouched */
    assert_int_equal(nplan_build(node, 2, 2, cells, 16, &n), NPLAN_OK);
    assert_string_equal(nplan_strerror(NPLAN_ETOOMANY), "too many cells");
    assert_string_equal(nplan_strerror(NPLAN_OK), "ok");
    assert_string_equal(nplan_strerror(42), "unknown error");
}

static void test_threads(void **state)
{
    unsigned t[2] = {9, 9};
    assert_int_equal(nplan_threads(0, t), 0);
    assert_int_equal(nplan_threads(1, t), 1);
    assert_int_equal(t[0], 1);
    assert_int_equal(nplan_threads(6, t), 2);
    assert_int_equal(t[1], 6);
}

static void test_groups(void **state)
{
    /* 2 nodes x 2 CPUs, 3 variants: 8 cells per variant, 4 per (variant, tidx) */
    const struct nplan_node node[] = {{2, true, 0}, {2, true, 0}};
    size_t n = 0;
    assert_int_equal(nplan_build(node, 2, 3, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(nplan_group_end(cells, n, 0, 96), 24); /* everything fits: one group */
    assert_int_equal(nplan_group_end(cells, n, 0, 24), 24);
    assert_int_equal(nplan_group_end(cells, n, 0, 23), 16); /* whole variants only */
    assert_int_equal(nplan_group_end(cells, n, 0, 15), 8);
    assert_int_equal(nplan_group_end(cells, n, 8, 15), 16);
    assert_int_equal(nplan_group_end(cells, n, 16, 15), 24);
    assert_int_equal(nplan_group_end(cells, n, 0, 7), 4); /* split by thread count */
    assert_int_equal(nplan_group_end(cells, n, 4, 7), 8);
    assert_int_equal(nplan_group_end(cells, n, 0, 3), 3); /* then by room */
    assert_int_equal(nplan_group_end(cells, n, 24, 96), 24);
    assert_int_equal(nplan_group_end(cells, n, 0, 0), 24);
    /* 8 nodes x 4 CPUs: 128 cells per variant, 64 per (variant, tidx); every
     * remote cell's local one lies in its group */
    struct nplan_node big[8];
    for (unsigned i = 0; i < 8; i++)
        big[i] = (struct nplan_node){4, true, 0};
    assert_int_equal(nplan_build(big, 8, 2, cells, CAP, &n), NPLAN_OK);
    assert_int_equal(n, 256);
    for (size_t s = 0, e; s < n; s = e) {
        e = nplan_group_end(cells, n, s, 96);
        assert_int_equal(e - s, 64);
        for (size_t i = s; i < e; i++)
            if (cells[i].local >= 0)
                assert_true((size_t)cells[i].local >= s && (size_t)cells[i].local < e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_nodes),     cmocka_unit_test(test_memory_only_node),
        cmocka_unit_test(test_cpu_only_node), cmocka_unit_test(test_one_node),
        cmocka_unit_test(test_unreachable),   cmocka_unit_test(test_eight_nodes),
        cmocka_unit_test(test_bad_input),     cmocka_unit_test(test_threads),
        cmocka_unit_test(test_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
