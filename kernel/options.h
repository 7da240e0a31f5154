/*
 * kernel/options.h - the kernel's option table (every HZ_OPTION in the
 * image, collected from the hz_options section) and the run-wide options.
 * docs/options.md documents each option.
 */
#ifndef HZ_KERNEL_OPTIONS_H
#define HZ_KERNEL_OPTIONS_H

#include "lib/cmdline.h"

/* Exceptions the `selftest=` option raises on purpose. */
enum selftest_kind {
    SELFTEST_NONE,
    SELFTEST_UD,
    SELFTEST_PF,
    SELFTEST_GP,
    SELFTEST_DE,
    SELFTEST_BP
};

extern const char *const selftest_names[]; /* indexed by enum selftest_kind */
extern int opt_selftest;                   /* enum selftest_kind */
extern bool opt_help;

/*
 * Parse cmdline against every option. On error, print a human error line
 * naming the option and its accepted form, and a `config` record; return -1
 * (the caller ends the run with HZ_CONFIG).
 */
int options_parse(const char *cmdline);

/*
 * Report an option that parsed but cannot be honoured here (e.g. apic=x2apic
 * on a CPU without x2APIC): the same human line and `config` record as a
 * parse error. `accepted` may be NULL (unknown option). The caller ends the
 * run with HZ_CONFIG.
 */
void options_config_error(const char *option, const char *value, const char *reason,
                          const char *accepted);

/* True when `name=` was given on the command line options_parse() read
 * (a run profile's default yields to it, lib/plan.h). */
bool option_given(const char *name);

/* Print every option with its accepted form and help line (`help`). */
void options_print_help(void);

#endif /* HZ_KERNEL_OPTIONS_H */
