/*
 * scenarios/interference/kind.c - the cells run=interference hands the
 * verdict (lib/verdict.h struct vd_kind): samples = ns of victim `victim` (a
 * set of `bytes`) per round while zeroer `strategy` ("none": alone) ran on
 * `threads` other CPUs at rate_pct % of its peak (100: unthrottled). Ids past
 * "interference/": "nt/25%/chase_4llc" (zeroer/rate/victim). Sizes as
 * lib/fmt.h fmt_size() writes them. Portable C: the host verdict tests link
 * it (VERDICT_C).
 */
#include "lib/fmt.h"
#include "lib/verdict.h"
#include "scenarios/interference/interference.h"

static void interference_id(const struct vd_cell *c, char *buf, size_t cap)
{
    hz_snprintf(buf, cap, "%s/%u%%/%s", c->strategy, c->rate_pct, c->victim);
}

HZ_CELL_KIND(interference_kind, .run = "interference", .id = interference_id);
