/*
 * measure/round_options.h - the options every scenario that runs its cells in
 * interleaved rounds (lib/interleave.h) shares: `seed=`, the seed of the
 * per-round cell order, and `clear_ci=`, the stable median's interval
 * half-width. run=clear and run=faultclear read them (docs/options.md).
 */
#ifndef HZ_MEASURE_ROUND_OPTIONS_H
#define HZ_MEASURE_ROUND_OPTIONS_H

#include <stdint.h>

/* `seed=`: 0 when not given (the caller then seeds from the TSC and records
 * the seed it used), else the value given (any 64-bit value). */
uint64_t round_seed_option(void);

/* `clear_ci=`: the stable median interval half-width, percent x 100
 * (1..10000; default 200 = 2 %). */
unsigned round_ci_option(void);

#endif /* HZ_MEASURE_ROUND_OPTIONS_H */
