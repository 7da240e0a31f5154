/*
 * kernel/lava.h - `results=lava`: headline figures as LAVA measurement
 * lines at the end of a run (docs/results.md "LAVA result lines").
 *
 * LAVA's `test: monitors:` action matches one regex per line and cannot
 * compute a best or a median over many `@hz` records, so with `results=lava`
 * the runners hand their headline figures here and hz_exit() prints them,
 * after the `summary` record and before the final status line:
 *
 *   hugezero: lava: checks end
 *   hugezero: lava: measurements
 *   <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=clear.best_gbps.4K.warm RESULT=pass MEASUREMENT=9.915
 * UNITS=GB/s>
 *
 * in the key=value form of LAVA's own lava-test-case signal. The `@hz`
 * records are unchanged; without `results=lava` nothing is stored or printed.
 */
#ifndef HZ_KERNEL_LAVA_H
#define HZ_KERNEL_LAVA_H

#include <stdbool.h>
#include <stdint.h>

/* How a second figure for the same case id is merged. */
enum lava_merge {
    LAVA_MAX, /* keep the largest (best GB/s) */
    LAVA_MIN, /* keep the smallest (best time) */
};

/* True when `results=lava` was given. */
bool lava_enabled(void);

/*
 * Store a figure for case `id_fmt` (printf-style; LAVA keeps [A-Za-z0-9_.]
 * and turns anything else into `_`, so ids use those characters only).
 * value_x1000 is the figure in `units` times 1000 (printed with three
 * decimals); units is a static string such as "GB/s", "ms", "us", "s/TiB".
 * A case already stored is merged as `merge` says. Does nothing without
 * `results=lava`. At most 64 cases: later new ids are counted and reported
 * as dropped by lava_print(). Boot CPU only (the runners call it there).
 */
void lava_measure(enum lava_merge merge, uint64_t value_x1000, const char *units,
                  const char *id_fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Print the two marker lines and one line per stored case, in the order the
 * cases were first stored (hz_exit, after the summary record). Does nothing
 * without `results=lava`.
 */
void lava_print(void);

#endif /* HZ_KERNEL_LAVA_H */
