/*
 * scenarios/numa/table.c - the `numa` scenario's report (scenarios/numa/numa.h):
 * each cell's median GB/s with its 95 % interval (lib/stats.h) and
 * `numa_clear` record, each remote cell against the local cell of its CPU
 * node (lib/compare.h cmp_compare: Hodges-Lehmann ratio of time per byte,
 * Moses interval, at the Bonferroni z for the CPU node's remote memory
 * nodes and the `tolerance=` rule) with its `numa_ratio` record, and the
 * console matrices: one per variant and thread count, rows CPU node and
 * columns memory node, as Intel MLC's --bandwidth_matrix prints them.
 */
#include "arch/steal.h"
#include "kernel/verdict.h"
#include "lib/compare_record.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "measure/clear_record.h"
#include "measure/time_lost.h"
#include "scenarios/numa/numa.h"

#define LINE_MAX 400

static uint64_t scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];

static void gb(char *b, size_t n, uint64_t x1000) { fmt_fixed(b, n, x1000, 3); }

static void finish(struct numa_cell *c)
{
    smp_series_stats(&c->ser, &c->st, &c->steal_x100);
    c->gbps_x1000 = stats_gbps_x1000(c->bytes, c->st.median);
    c->gbps_lo_x1000 = stats_gbps_x1000(c->bytes, c->st.ci_hi);
    c->gbps_hi_x1000 = stats_gbps_x1000(c->bytes, c->st.ci_lo);
    struct vd_cell v = {.kind = &numa_kind,
                        .strategy = c->s->name,
                        .nontemporal = c->s->nontemporal,
                        .chunk = c->chunk,
                        .bytes = c->bytes,
                        .threads = c->p.threads,
                        .verified = c->verified,
                        .st = c->st,
                        .samples = c->ser.ns,
                        .nsamples = c->ser.n,
                        .steal_x100 = c->steal_x100,
                        .cpu_node = c->p.cpu,
                        .mem_node = c->p.mem};
    verdict_add(&v);
    char id[VD_ID_MAX];
    vd_cell_id(&v, id, sizeof(id));
    tl_run_add(id, &c->ser.lost);
}

/* The members that name cell c, the first of both of its records
 * (`numa_clear`, `numa_ratio`). */
static void cell_identity(struct rec *x, const struct numa_cell *c)
{
    rec_str(x, "strategy", c->s->name);
    rec_u64(x, "chunk", c->chunk);
    rec_u64(x, "threads", c->p.threads);
    rec_u64(x, "cpu_node", c->p.cpu);
    rec_u64(x, "mem_node", c->p.mem);
}

static void cell_record(const struct numa_run *r, const struct numa_cell *c)
{
    char buf[HZ_RECORD_MAX];
    struct rec x;
    rec_begin(&x, buf, sizeof(buf), "numa_clear");
    cell_identity(&x, c);
    rec_bool(&x, "local", c->p.cpu == c->p.mem);
    rec_bool(&x, "memory_only", r->t->node[c->p.mem].memory_only);
    rec_u64(&x, "distance", r->t->dist[c->p.cpu][c->p.mem]);
    rec_u64(&x, "bytes", c->bytes);
    rec_u64(&x, "frame_bytes", r->frame_bytes[c->p.mem]);
    rec_fixed(&x, "gbps", c->gbps_x1000, 3);
    rec_fixed(&x, "gbps_lo", c->gbps_lo_x1000, 3);
    rec_fixed(&x, "gbps_hi", c->gbps_hi_x1000, 3);
    rec_u64(&x, "repeats", c->ser.n);
    rec_u64(&x, "wall_median_ns", c->st.median);
    rec_u64(&x, "wall_min_ns", c->st.min);
    rec_fixed(&x, "cv_pct", c->st.cv_x100, 2);
    rec_bool(&x, "noisy", stats_noisy(&c->st));
    if (steal_available())
        rec_fixed(&x, "steal_pct", c->steal_x100, 2);
    rec_str(&x, "stop", ilv_verdict_name(c->ser.stop));
    rec_bool(&x, "verified", c->verified);
    tl_rec_members(&x, &c->ser.lost);
    rec_arr_begin(&x, "cpus");
    for (unsigned k = 0; k < c->p.threads; k++)
        rec_u64(&x, 0, r->node_cpu[c->p.cpu][k]);
    rec_arr_end(&x);
    record_emit(&x);
}

/* Speed x1000 of remote over local from B/A of time x 10^6 (0 for 0). */
static uint64_t speed(uint64_t t) { return t ? stats_scale(1000000000ull, 1, t) : 0; }

void numa_cell_compare(const struct numa_run *r, const struct numa_cell *c, struct cmp *out)
{
    const struct numa_cell *l = &r->cell[c->p.local];
    cmp_compare(l->ser.ns, l->ser.n, l->bytes, c->ser.ns, c->ser.n, c->bytes,
                cmp_z_bonferroni_x1000(c->p.rivals), r->tol_x100, scratch, out);
}

/* The remote cell c against its local cell, and its record. */
static void compare(struct numa_run *r, struct numa_cell *c)
{
    numa_cell_compare(r, c, &c->cm);
    c->has_cmp = true;
    char buf[HZ_RECORD_MAX];
    struct rec x;
    rec_begin(&x, buf, sizeof(buf), "numa_ratio");
    cell_identity(&x, c);
    rec_bool(&x, "memory_only", r->t->node[c->p.mem].memory_only);
    rec_u64(&x, "distance", r->t->dist[c->p.cpu][c->p.mem]);
    /* speed of remote over local: local time / remote time */
    rec_fixed(&x, "speed", speed(c->cm.ratio_x1e6), 3);
    rec_fixed(&x, "speed_lo", speed(c->cm.hi_x1e6), 3);
    rec_fixed(&x, "speed_hi", speed(c->cm.lo_x1e6), 3);
    rec_fixed(&x, "time_ratio", c->cm.ratio_x1e6, 6);
    rec_fixed(&x, "time_lo", c->cm.lo_x1e6, 6);
    rec_fixed(&x, "time_hi", c->cm.hi_x1e6, 6);
    rec_cmp_members(&x, &c->cm);
    record_emit(&x);
}

/* The matrices of cells [s, e) (one variant and thread count). */
static void matrix(const struct numa_run *r, size_t s, size_t e)
{
    const struct numa_cell *c0 = &r->cell[s];
    char line[LINE_MAX], a[24], b[24], d[24], ch[16], ci[32];
    size_t len;
    bool cols[NUMA_MAX_NODES] = {0};
    unsigned cover = 10000; /* the least any measured cell's interval covers */
    for (size_t i = s; i < e; i++) {
        cols[r->cell[i].p.mem] = true;
        if (r->cell[i].st.n && r->cell[i].st.ci_cover_x100 < cover)
            cover = r->cell[i].st.ci_cover_x100;
    }
    kprintf("numa: %s in %s calls, %s: clearing GB/s, median [%s]; rows: CPU node, "
            "columns: memory node\n",
            c0->s->name, fmt_size(ch, sizeof(ch), c0->chunk),
            c0->p.tidx ? "every CPU of the node" : "1 thread", fmt_ci_label(ci, sizeof(ci), cover));
    for (unsigned pass = 0; pass < 2; pass++) {
        len = (size_t)hz_snprintf(line, sizeof(line), "numa:   %-6s", pass ? "ratio" : "node");
        for (unsigned m = 0; m < r->t->n; m++)
            if (cols[m])
                len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %30u%c", m,
                                           r->t->node[m].memory_only ? '*' : ' ');
        kprintf("%s\n", line);
        for (size_t i = s; i < e;) {
            unsigned cpu = r->cell[i].p.cpu;
            len = (size_t)hz_snprintf(line, sizeof(line), "numa:   %6u", cpu);
            for (unsigned m = 0; m < r->t->n && len < sizeof(line); m++) {
                const struct numa_cell *c = &r->cell[i];
                if (!cols[m])
                    continue;
                if (i >= e || c->p.cpu != cpu || c->p.mem != m) { /* no cell: SLIT 255 */
                    len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %30s ",
                                               pass ? "-" : "unreachable (SLIT 255)");
                    continue;
                }
                i++;
                if (!pass) {
                    gb(a, sizeof(a), c->gbps_x1000);
                    gb(b, sizeof(b), c->gbps_lo_x1000);
                    gb(d, sizeof(d), c->gbps_hi_x1000);
                    len +=
                        (size_t)hz_snprintf(line + len, sizeof(line) - len, " %10s [%7s..%7s] %c",
                                            a, b, d, c->verified ? ' ' : 'X');
                } else if (!c->has_cmp) {
                    len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " %30s ",
                                               c->p.cpu == c->p.mem ? "local" : "no local");
                } else {
                    fmt_fixed(a, sizeof(a), speed(c->cm.ratio_x1e6), 3);
                    fmt_fixed(b, sizeof(b), speed(c->cm.hi_x1e6), 3);
                    fmt_fixed(d, sizeof(d), speed(c->cm.lo_x1e6), 3);
                    len +=
                        (size_t)hz_snprintf(line + len, sizeof(line) - len, " %5sx [%5s..%5s] %-9s",
                                            a, b, d, cmp_outcome_name(c->cm.outcome));
                }
            }
            kprintf("%s\n", line);
        }
    }
}

void numa_matrix_report(struct numa_run *r)
{
    unsigned bad = 0, missing = 0, ratios = 0, ties = 0;
    char t[16];
    for (size_t i = 0; i < r->ncells; i++) {
        finish(&r->cell[i]);
        cell_record(r, &r->cell[i]);
        bad += !r->cell[i].verified;
        missing += !r->cell[i].ran || !r->cell[i].ser.n;
    }
    for (size_t i = 0; i < r->ncells; i++)
        if (r->cell[i].p.local >= 0) {
            compare(r, &r->cell[i]);
            ratios++;
            ties += r->cell[i].cm.outcome == CMP_TIE;
        }
    if (r->tol_x100 % 100)
        fmt_fixed(t, sizeof(t), r->tol_x100, 2);
    else
        hz_snprintf(t, sizeof(t), "%u", r->tol_x100 / 100);
    kprintf("numa: remote/local is the remote cell's speed over the local cell of its CPU node "
            "(Hodges-Lehmann, Moses interval), decided at +-%s%%; '*' marks a memory-only node, "
            "'X' a cell not verified zero\n",
            t);
    for (size_t s = 0, e; s < r->ncells; s = e) {
        for (e = s; e < r->ncells && r->cell[e].p.variant == r->cell[s].p.variant &&
                    r->cell[e].p.tidx == r->cell[s].p.tidx;
             e++)
            ;
        matrix(r, s, e);
    }
    tl_run_record("numa"); /* the cells' SMIs and gaps */
    kprintf("numa: %u remote/local ratio(s), %u tie(s) within +-%s%%\n", ratios, ties, t);
    if (bad)
        result_fail("numa.verify", "%u cell(s) left a non-zero byte (see above)", bad);
    else
        result_pass("numa.verify");
    if (missing)
        result_fail("numa.matrix", "%u of %zu cell(s) got no timed repeat", missing, r->ncells);
    else
        result_pass("numa.matrix");
}
