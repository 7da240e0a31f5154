/*
 * kernel/scenario.h - what a run does after start-up. Each subsystem
 * registers its scenarios where it lives with HZ_SCENARIO(); `run=` picks a
 * comma-separated list of them (in registry order), `run=default` (the
 * default) every scenario marked default, `run=none` nothing.
 */
#ifndef HZ_KERNEL_SCENARIO_H
#define HZ_KERNEL_SCENARIO_H

#include <stdbool.h>

struct scenario {
    const char *name;  /* "clear", "fault", ... */
    void (*run)(void); /* reports through kernel/results.h */
    const char *help;  /* one line for docs/options.md and `help` */
    int order;         /* run order: lower first */
    bool in_default;   /* part of run=default */
};

#define HZ_SCENARIO(var_, ...)                                                                     \
    static const struct scenario var_                                                              \
        __attribute__((used, section("hz_scenarios"), aligned(8))) = {__VA_ARGS__}

/* Run the scenarios `run=` selected, lowest order first. */
void scenarios_run(void);

/* Print the scenario list (for `help`). */
void scenarios_print_help(void);

#endif /* HZ_KERNEL_SCENARIO_H */
