/*
 * lib/compare_record.h - the members every record carrying a comparison
 * (lib/compare.h) shares: `outcome`, `tol_pct`, `z`, `na`, `nb`, `rule`,
 * `why`, `dependent`, `bad_samples`
 * (docs/results.md `compare`, scenarios/clear/records.md `control`,
 * scenarios/numa/records.md `numa_ratio`). The ratio and its
 * interval stay with each caller, which names them for its record.
 */
#ifndef HZ_LIB_COMPARE_RECORD_H
#define HZ_LIB_COMPARE_RECORD_H

#include "lib/compare.h"
#include "lib/record.h"

/* Append c's outcome name, tolerance (percent, 2 decimals), z (3
 * decimals), sample counts, the statistic and why (cmp_rule_name(),
 * cmp_why_name()), whether a side was widened for serial dependence and
 * the samples left out as impossible (both sides) to r. c must come from
 * cmp_compare() or cmp_compare_sides(). */
static inline void rec_cmp_members(struct rec *r, const struct cmp *c)
{
    rec_str(r, "outcome", cmp_outcome_name(c->outcome));
    rec_fixed(r, "tol_pct", c->tol_x100, 2);
    rec_fixed(r, "z", c->z_x1000, 3);
    rec_u64(r, "na", c->na);
    rec_u64(r, "nb", c->nb);
    rec_str(r, "rule", cmp_rule_name(c->rule));
    rec_str(r, "why", cmp_why_name(c->why));
    rec_bool(r, "dependent", c->fa_x1000 > 1000 || c->fb_x1000 > 1000);
    rec_u64(r, "bad_samples", c->bad_a + c->bad_b);
}

#endif /* HZ_LIB_COMPARE_RECORD_H */
