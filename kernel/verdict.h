/*
 * kernel/verdict.h - the run's verdict (issue 13, docs/results.md
 * `verdict`): scenarios hand over the cells they measured, and at the end of
 * the run the items are decided by lib/verdict.c and printed as a block on
 * the console and as one `verdict` record each. Also the `backing=` option:
 * how the host backs guest RAM, which the guest cannot see.
 */
#ifndef HZ_KERNEL_VERDICT_H
#define HZ_KERNEL_VERDICT_H

#include "lib/results.h"
#include "lib/verdict.h"

#define VERDICT_MAX_CELLS 320

/* Keep a copy of cell c and of its samples (up to CMP_MAX_N; the caller's
 * array need not outlive the call; its strategy string must outlive the
 * run). Boot CPU only. Cells past VERDICT_MAX_CELLS are counted and left
 * out (the trust item then covers fewer cells; the block says how many). */
void verdict_add(const struct vd_cell *c);

/* The `tolerance=` option (percent, default 5) as percent x 100, for
 * vd_facts.tol_x100. */
unsigned verdict_tolerance_x100(void);

/* The facts of this run as verdict_report() hands them to lib/verdict.c
 * (TCG, hypervisor, TSC, backing, CPL, steal so far, tolerance): what a
 * caller of verdict_open() passes. f->run points at static text. */
void verdict_facts(struct vd_facts *f);

/*
 * Guest RAM backing for the header and the trust item: `given` is the
 * backing= value from the command line, or NULL/"" when absent; absent is
 * "unknown" under a hypervisor and "bare metal" without one (CPUID 1
 * ECX[31]).
 */
const char *verdict_backing(const char *given);

/* Decide, print the block and the `verdict` records (verdict_at_exit()
 * calls it). */
void verdict_report(void);

/* kernel/main.c: every scenario returned; a verdict without this call is
 * the verdict of a run ended early (hz_exit from inside a scenario). */
void verdict_run_complete(void);

/*
 * The verdict at the end of every run: hz_exit()'s hook (kernel/exit.h
 * hz_exit_set_hook, set first thing in kmain), called after the PV
 * teardown's `steal` records, so its steal facts cover the whole run, and
 * before the `summary`. Made (verdict_report) when scenarios ran, the
 * status is pass or fail and the call is on the boot CPU; when the run
 * ended early, from the cells measured before, said on the console. Else a
 * `== verdict: none (run=X): why` line (none at all when no scenario ran).
 * *state gets "made", "partial" or "none" (the summary's `verdict`); returns
 * NULL when made whole, else why (static text, the summary's
 * `verdict_why`).
 */
const char *verdict_at_exit(enum hz_status s, const char **state);

/* True once scenarios ran (set by scenarios_run()). */
void verdict_arm(void);
bool verdict_armed(void);

#endif /* HZ_KERNEL_VERDICT_H */
