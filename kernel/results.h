/*
 * kernel/results.h - pass/fail/skip bookkeeping, the exit status and the way
 * a run ends (docs/results.md "Exit status"). Counters are atomic: any CPU
 * may report.
 */
#ifndef HZ_KERNEL_RESULTS_H
#define HZ_KERNEL_RESULTS_H

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

/*
 * End the run: print the `summary` record and the final status line, then
 * leave as `on_exit=` says (auto: isa-debug-exit port 0xf4 under a
 * hypervisor, then halt; halt; reboot; poweroff). Never returns. Safe to call
 * from any CPU and from the crash path; a second call just halts.
 */
_Noreturn void hz_exit(enum hz_status s);

#endif /* HZ_KERNEL_RESULTS_H */
