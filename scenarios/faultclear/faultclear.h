/*
 * scenarios/faultclear/faultclear.h - what run=faultclear's files share
 * (scenarios/faultclear/run.c: the rounds; scenarios/faultclear/report.c: the
 * records, the table, the gain and the verdict's cells). Not a public
 * interface.
 */
#ifndef HZ_SCENARIOS_FAULTCLEAR_FAULTCLEAR_H
#define HZ_SCENARIOS_FAULTCLEAR_FAULTCLEAR_H

#include <stddef.h>
#include <stdint.h>

#include "lib/interleave.h"
#include "lib/plan.h"
#include "lib/stats.h"
#include "measure/fault_clear.h"

#define FC_STRATS 3
#define FC_CELLS (FAULT_CLEAR_NMODELS * FC_STRATS)
#define FC_MAX_ROUNDS 50
#define FC_MAX_PAGES 64
#define FC_MAX_SAMPLES (FC_MAX_ROUNDS * FC_MAX_PAGES)

struct fc_cell {
    struct fault_clear m;
    const struct clear_strategy *s;
    size_t n, bad;
    size_t unnested;             /* samples whose clear window was not inside the service one */
    uint64_t calls;              /* strategy calls per fault (the last round's) */
    uint64_t steal_ns, base_ns;  /* KVM steal time during the cell's faults, and their span */
    struct stats st;             /* service time, after the rounds */
    uint64_t ns[FC_MAX_SAMPLES]; /* service times, ns */
    uint64_t clear_ns[FC_MAX_SAMPLES]; /* the clear inside each, ns: ns[i]'s pair, never sorted */
    enum ilv_verdict stop;             /* why it stopped taking repeats */
};

/* What a profile runs, where no option overrides it
 * (scenarios/faultclear/plan.c). */
struct faultclear_settings {
    struct plan_rounds rounds; /* timed rounds, most, budget seconds per frame size */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct faultclear_settings *faultclear_settings_get(const struct plan_profile *p);

/* Its options (scenarios/faultclear/run.c), which its plan reads too. */
struct faultclear_options {
    uint64_t rounds, max_rounds; /* faultclear_rounds=, faultclear_max_rounds= (when given) */
    uint64_t budget_s;           /* faultclear_budget=, seconds per frame size (when given) */
    uint64_t pages;              /* faultclear_pages=; 0: 2 of 1 GiB, 16 of 2 MiB */
    int strategies;              /* 0: all three, 1: rep_stosb only (Linux's clear_page_erms) */
};
extern struct faultclear_options fc_opts;

/* The rounds under run profile p: faultclear_rounds=, faultclear_max_rounds=
 * and faultclear_budget= where given, else p's; the most never below the
 * minimum. */
struct plan_rounds fc_rounds_of(const struct plan_profile *p);

/* The non-temporal row to compare with: the last one of arch/clear.c's table
 * (cheapest first) that this CPU supports. NULL when there is none. */
const struct clear_strategy *fc_best_nt(void);

/* Faults per cell and round on frames of fb bytes: faultclear_pages=, else
 * 2 of 1 GiB, 16 of 2 MiB. */
size_t fc_pages_of(uint64_t fb);

/* The `.plan` hook (kernel/scenario.h): per frame size the run measures (1
 * GiB when one is free, 2 MiB), its pool of pages + 1 frames and cells; a
 * repeat dirties the pool, then faults `pages` frames, each cleared and
 * checked. Boot CPU, after start-up. */
void faultclear_plan(const struct plan_profile *p, const struct plan_machine *m,
                     struct plan_part *out);

/* Steal share of the cell's faults, percent x 100 (0 without steal time). */
uint64_t fc_steal_x100(const struct fc_cell *c);

/* The cell's stats (c->st, from its service times), `faultclear` record and
 * table line, for frames of fb bytes. */
void fc_emit_cell(struct fc_cell *c, uint64_t fb);

/* The prediction per strategy of cells[FC_CELLS] (model-major, FC_STRATS
 * strategies each; a NULL strategy is skipped) on frames of fb bytes:
 * measure/fault_clear.h fault_clear_gain(), its `faultclear_gain` record and
 * two console lines (the gain, what is left for pre-zeroing), and Linux's
 * clear_page strategy's cells for the verdict. */
void fc_emit_gain(const struct fc_cell *cells, uint64_t fb);

/* Its cells' kind (scenarios/faultclear/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind faultclear_kind;

#endif /* HZ_SCENARIOS_FAULTCLEAR_FAULTCLEAR_H */
