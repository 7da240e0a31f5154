/*
 * scenarios/clear/table.c - the console table of run=clear (scenarios/clear/cells.h
 * clear_table_print()): the fastest cold large-target cell per chunk size,
 * then every cell by median GB/s, with its interval, CV, flags and why it
 * stopped taking repeats.
 */
#include "arch/tsc.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "measure/clear_record.h"
#include "scenarios/clear/cells.h"

static void fmt_g(char *b, size_t n, uint64_t x1000) { fmt_fixed(b, n, x1000, 3); }

/* " noisy steal not-cold" for the flags of c ("" for none). */
static const char *flags(const struct clear_cell *c, char *b, size_t n)
{
    hz_snprintf(b, n, "%s%s%s", stats_noisy(&c->st) ? " noisy" : "",
                c->steal_x100 > CLEAR_STEAL_FLAG_X100 ? " steal" : "",
                c->cache_check == CACHE_NOT_COLD ? " not-cold" : "");
    return b;
}

static uint64_t median_gbps(const struct clear_cell *c)
{
    return stats_gbps_x1000(c->bytes, c->st.median);
}

void clear_table_print(const struct clear_cells *cs, const uint64_t *chunks, size_t nchunks,
                       uint64_t big, uint64_t min_rounds)
{
    static unsigned order[CLEAR_MAX_CELLS];
    char g[24], lo[24], hi[24], f[40], ci[32];
    unsigned cover = 10000; /* the least any measured cell's interval covers */
    for (size_t i = 0; i < cs->n; i++)
        if (cs->cell[i].twin_of < 0 && cs->cell[i].st.n && cs->cell[i].st.ci_cover_x100 < cover)
            cover = cs->cell[i].st.ci_cover_x100;
    fmt_ci_label(ci, sizeof(ci), cover);
    kprintf("\nclear: GB/s (10^9 B/s): median of >= %llu interleaved repeats [%s] by "
            "chunk size; large target, cold%s\n",
            (unsigned long long)min_rounds, ci, tsc_reliable() ? "" : " -- UNRELIABLE clock");
    for (size_t k = 0; k < nchunks; k++) {
        const struct clear_cell *best = 0;
        for (size_t i = 0; i < cs->n; i++)
            if (cs->cell[i].chunk == chunks[k] && cs->cell[i].cache[0] == 'c' &&
                cs->cell[i].twin_of < 0 && cs->cell[i].bytes == big &&
                (!best || median_gbps(&cs->cell[i]) > median_gbps(best)))
                best = &cs->cell[i];
        if (!best)
            continue;
        fmt_g(g, sizeof(g), median_gbps(best));
        fmt_g(lo, sizeof(lo), stats_gbps_x1000(best->bytes, best->st.ci_hi));
        fmt_g(hi, sizeof(hi), stats_gbps_x1000(best->bytes, best->st.ci_lo));
        kprintf("  chunk %8llu KiB: fastest %-13s %8s GB/s [%s..%s]%s\n",
                (unsigned long long)(chunks[k] >> 10), best->s->name, g, lo, hi,
                flags(best, f, sizeof(f)));
    }
    size_t n = 0;
    for (size_t i = 0; i < cs->n; i++) /* sort by median GB/s, descending; no twins */
        if (cs->cell[i].twin_of < 0)
            order[n++] = (unsigned)i;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (median_gbps(&cs->cell[order[j]]) > median_gbps(&cs->cell[order[i]])) {
                unsigned t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    kprintf("  %-13s %10s %10s %-5s %9s %19s %6s %4s %-7s  %s\n", "strategy", "chunk", "bytes",
            "cache", "GB/s", ci, "cv%", "n", "stop", "flags");
    for (size_t i = 0; i < n; i++) {
        const struct clear_cell *c = &cs->cell[order[i]];
        char cv[16];
        fmt_g(g, sizeof(g), median_gbps(c));
        fmt_g(lo, sizeof(lo), stats_gbps_x1000(c->bytes, c->st.ci_hi));
        fmt_g(hi, sizeof(hi), stats_gbps_x1000(c->bytes, c->st.ci_lo));
        fmt_fixed(cv, sizeof(cv), c->st.cv_x100, 2);
        kprintf("  %-13s %10llu %10llu %-5s %9s %9s..%-8s %6s %4zu %-7s %s\n", c->s->name,
                (unsigned long long)c->chunk, (unsigned long long)c->bytes, c->cache, g, lo, hi, cv,
                c->n, ilv_verdict_name(cs->stop[order[i]]), flags(c, f, sizeof(f)));
    }
}
