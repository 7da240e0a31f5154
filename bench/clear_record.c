/*
 * bench/clear_record.c - format the `clear` record (bench/clear_record.h,
 * docs/results.md).
 */
#include "bench/clear_record.h"
#include "lib/record.h"

const char *clear_record(char *buf, size_t cap, const struct clear_result *c)
{
    struct rec r;

    rec_begin(&r, buf, cap, "clear");
    rec_str(&r, "strategy", c->strategy);
    rec_u64(&r, "chunk", c->chunk);
    rec_u64(&r, "bytes", c->bytes);
    rec_str(&r, "cache", c->cache);
    rec_u64(&r, "threads", c->threads);
    rec_u64(&r, "repeats", c->repeats);
    rec_u64(&r, "min_ns", c->ns.min);
    rec_u64(&r, "median_ns", c->ns.median);
    rec_u64(&r, "max_ns", c->ns.max);
    rec_fixed(&r, "gbps", stats_gbps_x1000(c->bytes, c->ns.min), 3);
    rec_fixed(&r, "gbps_median", stats_gbps_x1000(c->bytes, c->ns.median), 3);
    rec_fixed(&r, "cpb", stats_cpb_x1000(c->min_cyc, c->bytes), 3);
    rec_fixed(&r, "cv_pct", c->ns.cv_x100, 2);
    rec_bool(&r, "verified", c->verified);
    rec_str(&r, "source", c->source);
    return rec_end(&r);
}
