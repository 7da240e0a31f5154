/*
 * scenarios/clear/race.h - what the clear cells race for (issue 20 §3) and the
 * A/A and A/B controls (§5, docs/validation.md "Controls"), private to
 * scenarios/clear/run.c and scenarios/clear/cells.c.
 *
 * Racing: at each look of the interleaved rounds (lib/interleave.h
 * ilv_look(), n = 10, 20, 30, 40) the verdict's comparisons are made from
 * the samples so far (lib/verdict.h verdict_open()) and only the cells of a
 * comparison still undecided get more rounds. The decision runs at the
 * measurement CPL (arch/user.h user_run): on a host that emulates ring 0 a
 * sort of 1600 pairwise ratios costs tens of ms there.
 *
 * Controls: `aa=STRATEGY` measures each of that strategy's cells twice in
 * one run, as two interleaved cells (a twin with nothing added);
 * `ab_delay=STRATEGY:PCT` adds a twin whose every timed clear is followed,
 * inside the timed interval, by a TSC spin of PCT % of that clear's own
 * cycles (measure/memop.h delay_pct). Each pair is compared with
 * lib/compare.h cmp_compare_sides() (B = the twin) and raced like a verdict
 * comparison; a `control` record per pair says what came out. The pairs
 * and the verdict's comparisons take the run's round factors out
 * (scenarios/clear/cells.h clear_cells_factors(), recomputed at every look:
 * rule "rounds removed"). Twins give
 * no `clear` record and never reach the verdict.
 */
#ifndef HZ_SCENARIOS_CLEAR_RACE_H
#define HZ_SCENARIOS_CLEAR_RACE_H

#include <stdbool.h>
#include <stddef.h>

#include "scenarios/clear/cells.h"

/*
 * Append the twins the control options ask for (one per cell of the named
 * strategy, after every cell of its own). A control whose strategy has no
 * cell in this run (not selected, not supported, failed its correctness
 * check) ends the run with a config error; so does one past
 * CLEAR_MAX_CELLS. Returns the number of twins added.
 */
size_t clear_race_twins(struct clear_cells *cs);

/*
 * ilv_run() settle callback (arg: the struct clear_cells): open[i] for
 * every cell of a still undecided verdict comparison (none under TCG, where
 * the verdict decides nothing) and both cells of an undecided or too-short
 * control pair. Runs the decision at the measurement CPL. Boot CPU, CPL 0.
 */
void clear_race_settle(void *arg, bool *open);

/* Emit a `control` record and console line per twin (scenarios/clear/records.md
 * `control`), after the rounds. */
void clear_race_report(const struct clear_cells *cs);

#endif /* HZ_SCENARIOS_CLEAR_RACE_H */
