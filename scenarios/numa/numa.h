/*
 * scenarios/numa/numa.h - what the `numa` scenario's files share (scenarios/numa/run.c:
 * options, targets, the interleaved cells; scenarios/numa/table.c: the
 * matrices, the remote/local ratios and their records). Not a public
 * interface.
 */
#ifndef HZ_SCENARIOS_NUMA_NUMA_H
#define HZ_SCENARIOS_NUMA_NUMA_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/clear.h"
#include "arch/numa.h"
#include "lib/compare.h"
#include "lib/plan.h"
#include "lib/stats.h"
#include "measure/smp_rounds.h"
#include "scenarios/numa/plan.h"

#define NUMA_CELLS_MAX 192 /* cells of one run (scenarios/numa/plan.h) */

/* One cell of the matrix after its rounds. */
struct numa_cell {
    struct nplan_cell p; /* variant, threads, CPU node, memory node, local cell */
    const struct clear_strategy *s;
    uint64_t chunk; /* bytes per call of s->fn */
    uint64_t bytes; /* cleared per repeat (the memory node's target) */
    struct smp_series ser;
    struct stats st;
    uint64_t steal_x100;
    uint64_t gbps_x1000, gbps_lo_x1000, gbps_hi_x1000; /* median and its 95 % interval */
    bool verified; /* every repeat read back zero on every CPU */
    bool ran;      /* its group's rounds completed */
    struct cmp cm; /* remote cells with a local one: B = this, A = the local cell */
    bool has_cmp;
};

/* The run's cells and what the report needs of the topology. */
struct numa_run {
    const struct numa_topo *t;
    struct numa_cell cell[NUMA_CELLS_MAX];
    size_t ncells;
    unsigned nvariants;
    uint64_t frame_bytes[NUMA_MAX_NODES];           /* each memory node's target frames, 0: none */
    unsigned node_cpu[NUMA_MAX_NODES][HZ_MAX_CPUS]; /* online CPUs by node, index order */
    unsigned tol_x100;
};

/* The remote cell c (c->p.local >= 0) against its local cell: B/A of time
 * per byte (lib/compare.h cmp_compare) at the Bonferroni z for the local
 * cell's remote rivals and r->tol_x100, into *out. Any CPL; one static
 * scratch area (not reentrant). */
void numa_cell_compare(const struct numa_run *r, const struct numa_cell *c, struct cmp *out);

/* After the rounds: each cell's figures and `numa_clear` record, its
 * verdict cell, the remote/local comparisons and `numa_ratio` records, and
 * the console matrices (scenarios/numa/table.c). Boot CPU. */
void numa_matrix_report(struct numa_run *r);

/* Its options (scenarios/numa/run.c) that its plan reads too. */
struct numa_options {
    uint64_t repeats; /* numa_repeats= (when given) */
};
extern struct numa_options numa_opts;

/* Timed rounds every cell gets at least under run profile p: numa_repeats=,
 * else p's (scenarios/numa/plan.c). */
unsigned numa_repeats_of(const struct plan_profile *p);

/* Bytes a cell clears on each memory node: numa_bytes=, else 256 MiB (16
 * MiB under TCG), whole 2 MiB frames. */
uint64_t numa_want_bytes(void);

/* The planner's view of the matrix numa_scenario() will build, taking no
 * memory: each node of numa_get() into pn[0..NUMA_MAX_NODES) (its online
 * CPUs, the memory nodes it cannot reach, and memory when the node has
 * ranges). Returns the variants (strategies x chunks). Boot CPU. */
unsigned numa_plan_view(struct nplan_node *pn);

/* The `.plan` hook (kernel/scenario.h): the matrix numa_scenario() will
 * build (its strategies, chunks, nodes and bytes; a node is a target when
 * it has memory ranges) priced group by group as measure/smp_rounds runs
 * them (lib/plan.h). Boot CPU, after start-up. */
void numa_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out);

/* Its cells' kind (scenarios/numa/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind numa_kind;

#endif /* HZ_SCENARIOS_NUMA_NUMA_H */
