/*
 * kernel/scenario.h - what a run does after start-up. Each subsystem
 * registers its scenarios where it lives with HZ_SCENARIO(); `run=` picks a
 * comma-separated list of them (in registry order), `run=default` (the
 * default) every scenario marked default in the reduced profile,
 * `run=full` the same scenarios in the exhaustive profile (lib/plan.h), an
 * explicit list its scenarios in the full profile, `run=none` nothing.
 */
#ifndef HZ_KERNEL_SCENARIO_H
#define HZ_KERNEL_SCENARIO_H

#include <stdbool.h>

#include "lib/plan.h"

struct scenario {
    const char *name;  /* "clear", "fault", ... */
    void (*run)(void); /* reports through lib/results.h */
    const char *help;  /* one line for docs/options.md and `help` */
    int order;         /* run order: lower first */
    bool in_default;   /* part of run=default */
    /* Its planned duration under profile p (with the options given), priced
     * with m (lib/plan.h), from the same size and cell rules its run uses
     * (one function, called by both); takes nothing, boot CPU, after
     * start-up. NULL: not priced (the plan line names it). */
    void (*plan)(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out);
};

/* At most this many HZ_SCENARIO rows: the run's per-scenario arrays
 * (kernel/scenario.c) have room for them; linker.ld ASSERTs the
 * hz_scenarios section against it (through kernel/registry.c's
 * hz_scenarios_cap), so one more row fails the link. No two rows share a
 * .name or an .order (kernel/registry.h refuses the image at start-up). */
#define HZ_MAX_SCENARIOS 32

#define HZ_SCENARIO(var_, ...)                                                                     \
    static const struct scenario var_                                                              \
        __attribute__((used, section("hz_scenarios"), aligned(8))) = {__VA_ARGS__}

/* The run's profile: the reduced one for run=default, else the full one.
 * Scenarios take their defaults from it where no option overrides them. */
const struct plan_profile *scenario_profile(void);

/* "default", "full", "none" or "list" (scenarios named on the command line). */
const char *scenario_run_name(void);

/* The run= value as the user gave it ("faultclear,clear", "none"; "default"
 * when none was given), which run= accepts back: vd_facts.run. Static text. */
const char *scenario_run_text(void);

/* The names of the scenarios started so far, comma-separated in run order
 * ("clear,fault,smp"; "" before the first): vd_facts.ran. Static text. */
const char *scenario_ran(void);

/* Run the scenarios `run=` selected, lowest order first. Before the first,
 * measures this machine's rates (kernel/calibrate.h) and prints the planned
 * duration of this run (the sum of its scenarios' `.plan` hooks priced
 * with them) and, for run=default and run=full, of the other profile too
 * (lib/plan.h), and a `plan` record whose kstart_ms is the time since
 * kmain_tsc (the TSC at kmain's entry). After each scenario a `scenario`
 * record and line (wall time, time in timed regions, duty cycle, plan);
 * after the last a `plan_check` record and line. run=none: nothing. */
void scenarios_run(uint64_t kmain_tsc);

/* Add `cycles` TSC cycles spent inside a timed region whose figure a
 * scenario keeps (a fenced tsc_start()/tsc_stop() interval, arch/tsc.h;
 * for work on several CPUs at once the interval's wall time, once) to the
 * running scenario's duty cycle: its timed time over its wall time. Any
 * CPU, any CPL (an atomic add), outside the timed region itself. */
void scenario_timed(uint64_t cycles);

/* True when the run selects scenario `name` (run=default and run=full:
 * the default scenarios; run=none: none). After options_parse(). */
bool scenario_selected(const char *name);

/* Print the scenario list (for `help`). */
void scenarios_print_help(void);

#endif /* HZ_KERNEL_SCENARIO_H */
