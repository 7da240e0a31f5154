/*
 * measure/round_options.c - `seed=` and `clear_ci=`, shared by the
 * interleaved scenarios (measure/round_options.h).
 */
#include "measure/round_options.h"
#include "lib/cmdline.h"

static uint64_t ci_x100 = 200, seed;

HZ_OPTION(opt_clear_ci, .name = "clear_ci", .kind = OPT_U64, .dest = &ci_x100, .min = 1,
          .max = 10000, .accepted = "1..10000 (percent x 100)",
          .help = "run=faultclear stops adding rounds once every median's 95% interval is "
                  "within +-this; run=clear counts the cells that meet it (default 200 = 2%)");
HZ_OPTION(opt_seed, .name = "seed", .kind = OPT_U64, .dest = &seed, .min = 0, .max = UINT64_MAX,
          .accepted = "0..2^64-1",
          .help = "seed of the per-round cell order of run=clear and run=faultclear (default 0: "
                  "from the TSC; recorded)");

uint64_t round_seed_option(void) { return seed; }

unsigned round_ci_option(void) { return (unsigned)ci_x100; }
