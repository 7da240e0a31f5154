/*
 * measure/clear_record.c - format the `clear` record (measure/clear_record.h,
 * scenarios/clear/records.md `clear`).
 */
#include "measure/clear_record.h"
#include "lib/compare.h"
#include "lib/record.h"
#include "measure/evict.h"

/* bad_samples, and of the good samples (in run order) dependent (with
 * lag1_r and dep_factor) and burst (issue 30, scenarios/clear/records.md `clear`). */
static void clear_record_quality(struct rec *r, const struct clear_result *c)
{
    uint64_t tmp[CLEAR_RECORD_SAMPLES], good[CLEAR_RECORD_SAMPLES];
    size_t all = c->nsamples < CLEAR_RECORD_SAMPLES ? c->nsamples : CLEAR_RECORD_SAMPLES, n = 0;
    for (size_t i = 0; i < all; i++)
        if (!cmp_bad_sample(c->samples[i], c->bytes, c->threads))
            good[n++] = c->samples[i];
    rec_u64(r, "bad_samples", all - n);
    int r1;
    unsigned f = cmp_lag1(good, n, tmp, &r1);
    rec_bool(r, "dependent", f > 1000);
    if (f > 1000) {
        rec_fixed(r, "lag1_r", (uint64_t)r1, 3);
        rec_fixed(r, "dep_factor", f, 3);
    }
    struct stats_burst b;
    stats_burst_of(good, n, CMP_TOL_X100, tmp, &b);
    if (b.len) {
        rec_obj_begin(r, "burst");
        rec_u64(r, "start", b.start); /* the index into the good samples */
        rec_u64(r, "len", b.len);
        rec_fixed(r, "x", b.x1000, 3);
        rec_obj_end(r);
    }
}

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
    rec_u64(&r, "ci_lo_ns", c->ns.ci_lo);
    rec_u64(&r, "ci_hi_ns", c->ns.ci_hi);
    rec_fixed(&r, "ci_pct", c->ns.ci_cover_x100, 2);
    rec_fixed(&r, "gbps_lo", stats_gbps_x1000(c->bytes, c->ns.ci_hi), 3);
    rec_fixed(&r, "gbps_hi", stats_gbps_x1000(c->bytes, c->ns.ci_lo), 3);
    rec_bool(&r, "noisy", stats_noisy(&c->ns));
    rec_fixed(&r, "peak_gbps", stats_gbps_x1000(c->bytes, c->ns.min), 3);
    rec_bool(&r, "too_few", c->ns.n < CMP_MIN_N);
    rec_obj_begin(&r, "outliers");
    rec_u64(&r, "lo_mild", c->ns.out_lo_mild);
    rec_u64(&r, "lo_severe", c->ns.out_lo_severe);
    rec_u64(&r, "hi_mild", c->ns.out_hi_mild);
    rec_u64(&r, "hi_severe", c->ns.out_hi_severe);
    rec_obj_end(&r);
    if (c->ns.out_hi_max && c->ns.median) {
        rec_arr_begin(&r, "outlier_hi_x");
        rec_fixed(&r, 0, stats_ratio_x1000(c->ns.out_hi_min, c->ns.median) / 10, 2);
        rec_fixed(&r, 0, stats_ratio_x1000(c->ns.out_hi_max, c->ns.median) / 10, 2);
        rec_arr_end(&r);
    } else {
        rec_str(&r, "outlier_hi_x", 0);
    }
    rec_bool(&r, "outliers_many", stats_outliers_many(&c->ns));
    rec_str(&r, "stop", c->stop);
    rec_arr_begin(&r, "samples_ns");
    for (size_t i = 0; i < c->nsamples && i < CLEAR_RECORD_SAMPLES; i++)
        rec_u64(&r, 0, c->samples[i]);
    rec_arr_end(&r);
    clear_record_quality(&r, c);
    if (c->steal_method) {
        bool gaps = c->steal_method[0] == 't';
        rec_str(&r, "steal_method", c->steal_method);
        rec_u64(&r, gaps ? "gaps_ns" : "steal_ns", c->steal_ns);
        rec_u64(&r, gaps ? "gaps_window_ns" : "steal_base_ns", c->steal_base_ns);
        rec_fixed(&r, "steal_pct", clear_steal_x100(c), 2);
        rec_bool(&r, "steal_high", clear_steal_x100(c) > CLEAR_STEAL_FLAG_X100);
    }
    if (c->lost)
        tl_rec_members(&r, c->lost);
    if (c->cache_check != CACHE_UNCHECKED) {
        rec_bool(&r, "cache_verified", c->cache_check == CACHE_VERIFIED);
        rec_fixed(&r, "cold_ratio", c->cold_ratio_x100, 2);
        if (c->cache_check == CACHE_NOT_COLD && c->cache_why)
            rec_str(&r, "cache_why", c->cache_why);
    }
    return rec_end(&r);
}

uint64_t clear_steal_x100(const struct clear_result *c)
{
    return stats_pct_x100(c->steal_ns, c->steal_base_ns);
}

enum clear_cache_check clear_cache_check(bool have_flush, bool tcg, uint64_t ratio_x100,
                                         const char **why)
{
    *why = 0;
    if (!have_flush)
        *why = "no flush instruction (CLFLUSHOPT or CLFLUSH): the target was not evicted";
    else if (tcg)
        *why = "TCG: the emulator has no caches to evict; its cold/warm ratio comes from "
               "the emulator, not from caches";
    else if (ratio_x100 < EVICT_COLD_RATIO_X100)
        *why = "the cold probe was less than 1.3 x the warm one";
    return *why ? CACHE_NOT_COLD : CACHE_VERIFIED;
}
