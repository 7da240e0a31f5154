/*
 * scenarios/clear/cells.h - the cells of the single-thread clear benchmark and
 * how they are run (private to scenarios/clear/run.c).
 *
 * A cell is one (strategy, chunk, target, cache state). clear_cells_run()
 * interleaves them (lib/interleave.h): one untimed warm-up round, then
 * rounds in which every cell gets one repeat, in a seeded random order per
 * round, until the rule says stop. One repeat, all of its memory work at
 * the measurement CPL (arch/user.h): dirty the target with a non-zero
 * pattern (zero-store elimination), for cold cells evict and probe it
 * (measure/evict.h), clear it timed (tsc_start/tsc_stop around all the
 * calls), check every byte is zero. The steal time (arch/steal.h) is read
 * before the dirtying and after the check: KVM credits steal at the vCPU's
 * next entry, so a window as short as one clear would be charged for
 * preemption just before it; the whole repeat is the window, and the
 * cell's steal share is stolen / window time. Without KVM steal time each
 * timed repeat is followed by a CLEAR_GAP_WINDOW_NS TSC-poll window that
 * looks for gaps instead. (Measured under PVM: steal read around a 140 us
 * clear alone summed to more than those clears' own time in some cells, so
 * steal is indeed credited late; per repeat, only the window's is kept.)
 */
#ifndef HZ_SCENARIOS_CLEAR_CELLS_H
#define HZ_SCENARIOS_CLEAR_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"
#include "lib/interleave.h"
#include "lib/stats.h"
#include "lib/verdict.h"
#include "measure/evict.h"
#include "measure/time_lost.h"
#include "mm/frames.h"

#define CLEAR_MAX_ROUNDS 100
#define CLEAR_MAX_CELLS 256
#define CLEAR_EVICT_FRAMES 64         /* 2 MiB frames of LLC read buffer at most */
#define CLEAR_GAP_WINDOW_NS 100000ull /* TSC-poll window per repeat (fallback) */

struct clear_cell {
    const struct clear_strategy *s;
    uint8_t *dst;
    uint64_t bytes, chunk;
    const char *cache; /* "warm" or "cold" */
    size_t n;          /* timed repeats so far */
    uint64_t ns[CLEAR_MAX_ROUNDS];
    uint32_t ratio_x100[CLEAR_MAX_ROUNDS]; /* cold cells: cold / warm probe time x 100 */
    uint64_t min_cyc;                      /* fewest TSC cycles of a timed repeat */
    uint64_t steal_ns, base_ns;            /* stolen (or gap) ns during base_ns of window */
    uint32_t steal_rep[CLEAR_MAX_ROUNDS];  /* KVM steal of each timed repeat's window, ns */
    int16_t prev[CLEAR_MAX_ROUNDS];        /* the cell that ran just before it, -1: none */
    bool ok;                               /* every repeat read back all zero */
    struct time_lost lost;                 /* SMIs and large gaps (measure/time_lost.h) */
    int twin_of; /* a control's twin (scenarios/clear/race.h): the cell it copies; -1: none */
    unsigned delay_pct; /* the A/B control's delay of each timed clear (measure/memop.h) */
    /* filled by the caller after the run */
    struct stats st;
    uint64_t steal_x100;
    int cache_check; /* CACHE_* of measure/clear_record.h */
};

struct clear_cells {
    struct clear_cell cell[CLEAR_MAX_CELLS];
    size_t n;
    uint64_t seed; /* of the per-round orders */
    enum evict_flush flush;
    uint64_t evict_frames[CLEAR_EVICT_FRAMES]; /* the LLC read pass buffer */
    size_t nevict;
    enum ilv_verdict stop[CLEAR_MAX_CELLS]; /* why each cell stopped taking repeats */
    /* the run's round factors so far (clear_cells_factors()); nfactors 0: none */
    uint64_t factor_x1e6[CLEAR_MAX_ROUNDS];
    size_t nfactors;
};

/*
 * Take the LLC read pass buffer: 2 x llc bytes (16 MiB when llc is 0) in
 * 2 MiB frames, at most CLEAR_EVICT_FRAMES, 2 under TCG (emulated reads are
 * slow); fewer when memory runs out (cs->nevict says how many). Sets
 * cs->flush from evict_method(). CPL 0.
 */
void clear_cells_evict_take(struct clear_cells *cs, struct frames *f, uint64_t llc);

/* Give the buffer back. */
void clear_cells_evict_put(struct clear_cells *cs, struct frames *f);

/*
 * Run the cells: the warm-up round, then timed rounds until ilv_run()
 * stops, the budget (budget_s seconds of TSC time) counted from the end of
 * the minimum rounds: it is the race's time, as lib/plan.c prices it. race: at each look only the
 * cells scenarios/clear/race.h clear_race_settle() still needs go on (cs->stop says why each
 * stopped); else every cell runs until the stability rule stops (cell.n == *done). *done: timed
 * rounds run, the most any cell got. Boot CPU, CPL 0.
 */
enum ilv_verdict clear_cells_run(struct clear_cells *cs, const struct ilv_rule *rule,
                                 uint64_t budget_s, bool race, unsigned *done);

/*
 * Whether cell c's repeats may decide anything: every one read back zero
 * and, for a cold cell, the median cold/warm probe ratio (into *ratio_x100,
 * 0 for a warm cell) shows the eviction worked (measure/evict.h
 * EVICT_COLD_RATIO_X100, with a flush method, and never under TCG:
 * measure/clear_record.h clear_cache_check()). *check gets the CACHE_* of
 * measure/clear_record.h, *why (may be NULL) its reason when not cold.
 * scratch holds c->n entries. Any CPL.
 */
bool clear_cell_verified(const struct clear_cells *cs, const struct clear_cell *c,
                         uint64_t *scratch, uint64_t *ratio_x100, int *check, const char **why);

/* uint64_t entries of scratch clear_cells_factors() needs. */
#define CLEAR_FACTOR_SCRATCH (2 * CLEAR_MAX_CELLS + CLEAR_MAX_ROUNDS)

/*
 * Each round's shared factor from every cell's samples so far, twins too
 * (lib/interleave.h ilv_round_factors()), into cs->factor_x1e6[0..
 * cs->nfactors), nfactors the most rounds any cell ran; nfactors 0 with
 * fewer than ILV_FACTOR_MIN_CELLS cells (no round has a factor). scratch
 * holds CLEAR_FACTOR_SCRATCH entries. Pure memory work: any CPL.
 */
void clear_cells_factors(struct clear_cells *cs, uint64_t *scratch);

/* The console table of the run (scenarios/clear/table.c): the fastest cold
 * cell of the `big` target per chunk size, then every cell but the control
 * twins by median GB/s. After the cells' stats are filled in. */
void clear_table_print(const struct clear_cells *cs, const uint64_t *chunks, size_t nchunks,
                       uint64_t big, uint64_t min_rounds);

/* The verdict's view of cell c (lib/verdict.h) with its stats st,
 * samples so far (c->ns, c->n) and the run's round factors (cs->factor_x1e6;
 * v borrows them). */
void clear_cell_vd(const struct clear_cells *cs, const struct clear_cell *c, const struct stats *st,
                   bool verified, struct vd_cell *v);

/*
 * One timed clear of [dst, dst + bytes) with s in one call, then the zero
 * check (*zero); TSC cycles. Used for the first touch of fresh memory.
 */
uint64_t clear_cells_once(const struct clear_strategy *s, uint8_t *dst, uint64_t bytes, bool *zero);

/* Its cells' kind (scenarios/clear/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind clear_kind;

#endif /* HZ_SCENARIOS_CLEAR_CELLS_H */
