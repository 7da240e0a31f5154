/*
 * scenarios/smp/scale.c - the smp scaling report (scenarios/smp/run.c measures):
 * the console table of GB/s and % of peak per strategy and thread count,
 * the `smp_peak` record and one `smp_scale` record per cell
 * (scenarios/smp/records.md).
 */
#include "arch/steal.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "measure/clear_record.h"
#include "scenarios/smp/smp.h"

/* The bandwidth peak: the all-thread non-temporal cell with the best
 * median, else (no non-temporal strategy ran) the best all-thread cell.
 * NULL when none. */
static const struct smp_cell *find_peak(const struct smp_scale_run *run, bool *nt)
{
    for (int want_nt = 1; want_nt >= 0; want_nt--) {
        const struct smp_cell *best = 0;
        for (unsigned i = 0; i < run->ncells; i++)
            if (run->cells[i].threads == run->online && run->cells[i].s->nontemporal == want_nt &&
                (!best || run->cells[i].gbps_x1000 > best->gbps_x1000))
                best = &run->cells[i];
        if (best) {
            *nt = want_nt;
            return best;
        }
    }
    return 0;
}

static uint64_t pct_x100(uint64_t v, uint64_t peak) { return peak ? v * 10000 / peak : 0; }

static void scale_record(const struct smp_scale_run *run, const struct smp_cell *c, uint64_t peak)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned k = 0; k < c->threads; k++) {
        lo = c->cpu_ns[k] < lo ? c->cpu_ns[k] : lo;
        hi = c->cpu_ns[k] > hi ? c->cpu_ns[k] : hi;
    }
    rec_begin(&r, buf, sizeof(buf), "smp_scale");
    rec_str(&r, "strategy", c->s->name);
    rec_u64(&r, "threads", c->threads);
    rec_u64(&r, "bytes", run->bytes);
    rec_u64(&r, "chunk", run->chunk);
    rec_str(&r, "placement", c->numa ? "per-node" : "flat");
    rec_fixed(&r, "gbps", c->gbps_x1000, 3);
    rec_fixed(&r, "gbps_per_thread", c->gbps_x1000 / c->threads, 3);
    rec_fixed(&r, "gbps_lo", c->gbps_lo_x1000, 3);
    rec_fixed(&r, "gbps_hi", c->gbps_hi_x1000, 3);
    rec_fixed(&r, "pct_peak", pct_x100(c->gbps_x1000, peak), 2);
    rec_bool(&r, "above_peak", c->gbps_x1000 > peak);
    rec_bool(&r, "noisy", c->noisy);
    rec_u64(&r, "repeats", c->ser.n);
    rec_bool(&r, "too_few", c->ser.n < CMP_MIN_N);
    rec_u64(&r, "wall_min_ns", c->wall_min_ns);
    rec_u64(&r, "wall_median_ns", c->wall_median_ns);
    rec_u64(&r, "wall_max_ns", c->st.max);
    rec_fixed(&r, "cv_pct", c->st.cv_x100, 2);
    rec_u64(&r, "wall_below", c->ser.wall_below);
    smp_series_skew_record(&r, &c->ser);
    if (steal_available()) {
        rec_fixed(&r, "steal_pct", c->steal_x100, 2);
        rec_bool(&r, "steal_high", c->steal_x100 > CLEAR_STEAL_FLAG_X100);
    }
    rec_u64(&r, "cpu_min_ns", lo);
    rec_u64(&r, "cpu_max_ns", hi);
    rec_bool(&r, "verified", c->verified);
    rec_arr_begin(&r, "cpus");
    for (unsigned k = 0; k < c->threads; k++)
        rec_u64(&r, 0, run->cpus[k]);
    rec_arr_end(&r);
    rec_arr_begin(&r, "cpu_ns");
    for (unsigned k = 0; k < c->threads; k++)
        rec_u64(&r, 0, c->cpu_ns[k]);
    rec_arr_end(&r);
    record_emit(&r);
}

void smp_scale_report(const struct smp_scale_run *run)
{
    const struct smp_cell *cells = run->cells;
    unsigned ncells = run->ncells;
    bool nt = false;
    const struct smp_cell *peak = find_peak(run, &nt);
    if (!peak)
        return;
    char line[256], g[24];
    size_t len;
    fmt_fixed(g, sizeof(g), peak->gbps_x1000, 3);
    char glo[24], ghi[24], cover[16];
    fmt_fixed(glo, sizeof(glo), peak->gbps_lo_x1000, 3);
    fmt_fixed(ghi, sizeof(ghi), peak->gbps_hi_x1000, 3);
    fmt_fixed(cover, sizeof(cover), peak->st.ci_cover_x100, 2); /* below 95 % with n < 6 */
    kprintf("smp: peak %s GB/s (%s%% interval %s..%s%s): %s with %u threads (%s); '!' marks a "
            "cell above the peak, '~' a noisy one, 's' one with over 1%% steal\n",
            g, cover, glo, ghi, peak->noisy ? ", NOISY" : "", peak->s->name, peak->threads,
            nt ? "best all-thread non-temporal median"
               : "best all-thread median: no non-temporal strategy ran");
    len = (size_t)hz_snprintf(line, sizeof(line), "smp:   %-12s", "threads:");
    for (unsigned i = 0; i < run->ncounts && len < sizeof(line); i++)
        len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %14u", run->counts[i]);
    kprintf("%s\n", line);
    for (unsigned i = 0, j; i < ncells; i = j) { /* one row per strategy */
        len = (size_t)hz_snprintf(line, sizeof(line), "smp:   %-12s", cells[i].s->name);
        for (j = i; j < ncells && cells[j].s == cells[i].s && len < sizeof(line); j++) {
            fmt_fixed(g, sizeof(g), cells[j].gbps_x1000, 3);
            len += (size_t)hz_snprintf(
                line + len, sizeof(line) - len, " %8s %4llu%%%c", g,
                (unsigned long long)(pct_x100(cells[j].gbps_x1000, peak->gbps_x1000) / 100),
                cells[j].gbps_x1000 > peak->gbps_x1000        ? '!'
                : cells[j].noisy                              ? '~'
                : cells[j].steal_x100 > CLEAR_STEAL_FLAG_X100 ? 's'
                                                              : ' ');
        }
        kprintf("%s\n", line);
    }
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "smp_peak");
    rec_fixed(&r, "gbps", peak->gbps_x1000, 3);
    rec_fixed(&r, "gbps_lo", peak->gbps_lo_x1000, 3);
    rec_fixed(&r, "gbps_hi", peak->gbps_hi_x1000, 3);
    rec_bool(&r, "noisy", peak->noisy);
    rec_str(&r, "strategy", peak->s->name);
    rec_u64(&r, "threads", peak->threads);
    rec_bool(&r, "nontemporal", nt);
    rec_u64(&r, "bytes", run->bytes);
    record_emit(&r);
    for (unsigned i = 0; i < ncells; i++)
        scale_record(run, &cells[i], peak->gbps_x1000);
}
