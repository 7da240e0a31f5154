/*
 * lib/results.h - pass/fail/skip bookkeeping and the exit status
 * (docs/results.md "Exit status"); the end of a run is kernel/exit.h.
 * Counters are atomic: any CPU may report.
 */
#ifndef HZ_LIB_RESULTS_H
#define HZ_LIB_RESULTS_H

#include <stdbool.h>

enum hz_status { HZ_PASS = 0, HZ_FAIL = 1, HZ_SKIPPED = 2, HZ_CONFIG = 3, HZ_CRASH = 4 };

/* Emit a `pass`, `fail` or `skip` record for check `name` (and a human line
 * for fail/skip); `reason` is printf-style. */
void result_pass(const char *name);
void result_fail(const char *name, const char *reason_fmt, ...)
    __attribute__((format(printf, 2, 3)));
void result_skip(const char *name, const char *reason_fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* HZ_FAIL if any fail, else HZ_SKIPPED if something was skipped and nothing
 * passed, else HZ_PASS. */
enum hz_status result_status(void);

/* "pass", "fail", "skipped", "config", "crash". */
const char *status_name(enum hz_status s);

/* The counts so far: checks that passed, failed, were skipped. */
void result_counts(unsigned *pass, unsigned *fail, unsigned *skip);

#endif /* HZ_LIB_RESULTS_H */
