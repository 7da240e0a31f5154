/*
 * scenarios/numa/plan.h - the cells of the `numa` clearing matrix (scenarios/numa/run.c):
 * for every pair (CPU node, memory node), nodes with CPUs as rows and nodes
 * with memory as columns (a memory-only node, e.g. a CXL expander, is a
 * target only; a CPU-only node a row only, like Intel MLC's
 * --bandwidth_matrix), each variant (a strategy and call size) at 1 thread
 * and at all threads of the CPU node, and for every remote cell the local
 * cell it is compared with; and run=numa's rounds under each run profile
 * (lib/plan.h). Kept apart so the host unit tests can check the planning
 * exactly. Portable C; prints nothing.
 */
#ifndef HZ_SCENARIOS_NUMA_PLAN_H
#define HZ_SCENARIOS_NUMA_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct numa_settings {
    struct plan_rounds rounds; /* timed rounds of a group (numa_repeats=), most, budget each */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct numa_settings *numa_settings_get(const struct plan_profile *p);

#define NPLAN_MAX_NODES 8 /* = arch/numa.h NUMA_MAX_NODES (scenarios/numa/run.c asserts it) */

enum {
    NPLAN_OK = 0,
    NPLAN_EINVAL = -1,  /* NULL, no node, more than NPLAN_MAX_NODES, no variant */
    NPLAN_ENOCPU = -2,  /* no node has a CPU to clear with */
    NPLAN_ENOMEM = -3,  /* no node has memory to clear */
    NPLAN_ETOOMANY = -4 /* more cells than the caller's room (*ncells says how many) */
};

/* What the plan needs to know of a node. */
struct nplan_node {
    unsigned ncpus;       /* online CPUs of the node (0: memory-only or offline) */
    bool memory;          /* the node has memory to clear (frames free in its ranges) */
    uint32_t unreachable; /* bit m: memory node m is unreachable from this node's CPUs
                             (SLIT distance 255, ACPI 6.5 §5.2.17): no cell */
};

/* One cell of the matrix. */
struct nplan_cell {
    unsigned variant;  /* 0..nvariants-1 (the caller's strategy x call size) */
    unsigned tidx;     /* 0: one thread, 1: every CPU of the node */
    unsigned threads;  /* 1, or the node's ncpus */
    unsigned cpu, mem; /* node indices: where the clearing CPUs run, where the memory is */
    int local;         /* the cell of (variant, tidx, cpu, cpu) when cpu has memory and
                          mem != cpu; -1 for a local cell and when cpu has no memory */
    unsigned rivals;   /* remote cells compared with the same local cell (Bonferroni) */
};

/*
 * Thread counts of a node with ncpus CPUs into out[0..2): 1, and ncpus when
 * it is more than 1. Returns how many (0 for ncpus == 0).
 */
unsigned nplan_threads(unsigned ncpus, unsigned out[2]);

/*
 * Plan the cells of n nodes and nvariants variants into out[0..cap): for
 * every variant, every thread index, every node with CPUs (rows, in index
 * order) and every node with memory (columns, in index order) that the
 * row's `unreachable` does not exclude, one cell, in that nesting (variant
 * outermost). A remote cell's rivals are the other remote cells of its row. Returns NPLAN_OK with
 * *ncells, or an error: NPLAN_EINVAL, NPLAN_ENOCPU, NPLAN_ENOMEM, NPLAN_ETOOMANY (then *ncells is
 * the number needed and out is untouched).
 */
int nplan_build(const struct nplan_node *node, unsigned n, unsigned nvariants,
                struct nplan_cell *out, size_t cap, size_t *ncells);

/*
 * The end (exclusive) of the group of cells that starts at `start` in
 * c[0..n) and is run interleaved together: as many whole variants as fit
 * in max cells; when not even c[start]'s variant fits, the cells of its
 * (variant, tidx); when those do not fit either, max cells. Cells of one
 * comparison (a remote cell and its local one) are always in one group
 * when max >= NPLAN_MAX_NODES^2. start >= n or max == 0 returns n.
 */
size_t nplan_group_end(const struct nplan_cell *c, size_t n, size_t start, size_t max);

/* "ok", "invalid argument", ... for an NPLAN_* code. */
const char *nplan_strerror(int err);

#endif /* HZ_SCENARIOS_NUMA_PLAN_H */
