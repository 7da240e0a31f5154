/*
 * kernel/lava.c - `results=lava`: the headline figures of a run, kept until
 * the end and printed as LAVA measurement lines (kernel/lava.h,
 * docs/results.md "LAVA result lines", lab/lava/ for the job templates).
 */
#include "kernel/lava.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"

#include <stdarg.h>

enum { RESULTS_HZ, RESULTS_LAVA };
static const char *const results_choices[] = {"hz", "lava", 0};
static int results_mode = RESULTS_HZ;
HZ_OPTION(opt_results, .name = "results", .kind = OPT_ENUM, .dest = &results_mode,
          .choices = results_choices, .accepted = "hz|lava",
          .help = "lava: also print headline figures as LAVA measurement lines at the end");

#define LAVA_MAX_CASES 64
#define LAVA_ID_LEN 64

static struct lava_case {
    char id[LAVA_ID_LEN];
    const char *units;
    uint64_t value_x1000;
} cases[LAVA_MAX_CASES];
static unsigned ncases, ndropped;

bool lava_enabled(void) { return results_mode == RESULTS_LAVA; }

void lava_measure(enum lava_merge merge, uint64_t value_x1000, const char *units,
                  const char *id_fmt, ...)
{
    if (!lava_enabled())
        return;
    char id[LAVA_ID_LEN];
    va_list ap;
    va_start(ap, id_fmt);
    hz_vsnprintf(id, sizeof(id), id_fmt, ap);
    va_end(ap);
    for (unsigned i = 0; i < ncases; i++) {
        struct lava_case *c = &cases[i];
        if (strcmp(c->id, id) != 0)
            continue;
        if ((merge == LAVA_MAX && value_x1000 > c->value_x1000) ||
            (merge == LAVA_MIN && value_x1000 < c->value_x1000))
            c->value_x1000 = value_x1000;
        return;
    }
    if (ncases == LAVA_MAX_CASES) {
        ndropped++;
        return;
    }
    struct lava_case *c = &cases[ncases++];
    memcpy(c->id, id, sizeof(id));
    c->units = units;
    c->value_x1000 = value_x1000;
}

void lava_print(void)
{
    if (!lava_enabled())
        return;
    kprintf("hugezero: lava: checks end\n");
    kprintf("hugezero: lava: measurements\n");
    for (unsigned i = 0; i < ncases; i++) {
        char v[32];
        fmt_fixed(v, sizeof(v), cases[i].value_x1000, 3);
        kprintf("<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=pass MEASUREMENT=%s UNITS=%s>\n",
                cases[i].id, v, cases[i].units);
    }
    if (ndropped)
        kprintf("hugezero: lava: %u more measurement cases dropped (at most %d)\n", ndropped,
                LAVA_MAX_CASES);
}
