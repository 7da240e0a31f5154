/*
 * scenarios/faultclear/report.c - run=faultclear's figures
 * (scenarios/faultclear/faultclear.h): one `faultclear` record and table line per
 * cell, and per strategy the predicted clear_pages() gain with what is left
 * for pre-zeroing (measure/fault_clear.h fault_clear_gain(), 95 % Moses
 * intervals) as a `faultclear_gain` record and two console lines; Linux's
 * clear_page strategy's cells go to the verdict (kernel/verdict.h).
 */
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/user.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/published.h"
#include "lib/record.h"
#include "measure/clear_record.h"
#include "measure/fault_pool.h"
#include "scenarios/faultclear/faultclear.h"

static uint64_t scratch[FC_MAX_SAMPLES];

/* Steal share of the cell's faults, percent x 100 (0 without steal time). */
uint64_t fc_steal_x100(const struct fc_cell *c)
{
    return steal_available() ? stats_pct_x100(c->steal_ns, c->base_ns) : 0;
}

/* " noisy steal" for cell c ("" for none). */
static const char *flags(const struct fc_cell *c, char *b, size_t n)
{
    hz_snprintf(b, n, "%s%s", stats_noisy(&c->st) ? " noisy" : "",
                fc_steal_x100(c) > CLEAR_STEAL_FLAG_X100 ? " steal" : "");
    return b;
}

/* The cell's figures: its `faultclear` record and table line. */
void fc_emit_cell(struct fc_cell *c, uint64_t fb)
{
    char buf[HZ_RECORD_MAX], model[32], g[24], lo[24], hi[24], f[24];
    struct rec r;
    struct stats *st = &c->st;
    for (size_t i = 0; i < c->n; i++)
        scratch[i] = c->ns[i];
    stats_compute(st, scratch, c->n);
    /* a copy: sorting clear_ns in place would pair each fault's service time
     * with another fault's clear in fc_emit_gain()'s service - clear */
    uint64_t clear_median = stats_median_copy(c->clear_ns, c->n, scratch);
    fault_clear_name(&c->m, model, sizeof(model));
    struct fault_clear_linux lx = fault_clear_linux(&c->m, fb);
    fmt_fixed(g, sizeof(g), stats_gbps_x1000(fb, st->median), 3);
    fmt_fixed(lo, sizeof(lo), stats_gbps_x1000(fb, st->ci_hi), 3);
    fmt_fixed(hi, sizeof(hi), stats_gbps_x1000(fb, st->ci_lo), 3);
    rec_begin(&r, buf, sizeof(buf), "faultclear");
    rec_str(&r, "model", model);
    rec_str(&r, "kernel", lx.kernel);
    rec_str(&r, "preempt", lx.preempt);
    rec_str(&r, "strategy", c->s->name);
    rec_u64(&r, "bytes", fb);
    rec_u64(&r, "n", st->n);
    rec_bool(&r, "too_few", st->n < CMP_MIN_N);
    rec_u64(&r, "median_ns", st->median);
    rec_u64(&r, "min_ns", st->min);
    rec_u64(&r, "max_ns", st->max);
    rec_u64(&r, "ci_lo_ns", st->ci_lo);
    rec_u64(&r, "ci_hi_ns", st->ci_hi);
    rec_fixed(&r, "ci_pct", st->ci_cover_x100, 2);
    rec_fixed(&r, "cv_pct", st->cv_x100, 2);
    rec_fixed(&r, "gbps", stats_gbps_x1000(fb, st->median), 3);
    rec_fixed(&r, "gbps_lo", stats_gbps_x1000(fb, st->ci_hi), 3);
    rec_fixed(&r, "gbps_hi", stats_gbps_x1000(fb, st->ci_lo), 3);
    rec_bool(&r, "noisy", stats_noisy(st));
    rec_str(&r, "steal_method", steal_available() ? steal_method() : "none");
    rec_u64_opt(&r, "steal_ns", steal_available(), c->steal_ns);
    rec_u64(&r, "steal_base_ns", c->base_ns);
    if (steal_available())
        rec_fixed(&r, "steal_pct", fc_steal_x100(c), 2);
    else
        rec_u64_opt(&r, "steal_pct", false, 0);
    rec_bool(&r, "steal_high", fc_steal_x100(c) > CLEAR_STEAL_FLAG_X100);
    rec_u64(&r, "clear_median_ns", clear_median);
    rec_u64(&r, "unnested", c->unnested);
    rec_u64(&r, "calls", c->calls);
    rec_bool(&r, "verified", c->bad == 0);
    rec_bool(&r, "emulated_ring0", user_ring0_emulated());
    record_emit(&r);
    kprintf("  %4llu MiB %-16s %-13s %-14s %-10s %4zu %9llu %9llu..%-9llu %9llu %9llu %6llu %8s "
            "%8s..%-8s%s\n",
            (unsigned long long)(fb >> 20), model, lx.kernel, lx.preempt, c->s->name, st->n,
            (unsigned long long)(st->median / 1000), (unsigned long long)(st->ci_lo / 1000),
            (unsigned long long)(st->ci_hi / 1000), (unsigned long long)(st->min / 1000),
            (unsigned long long)(st->max / 1000), (unsigned long long)(st->cv_x100 / 100), g, lo,
            hi, flags(c, f, sizeof(f)));
}

/* The linux_batch and extent cells' service times with the clear taken
 * out, per strategy: what their faults would cost from a pre-zeroed frame. */
static uint64_t taken_out[FC_STRATS][FC_MAX_SAMPLES];
static uint64_t taken_out_ext[FC_STRATS][FC_MAX_SAMPLES];
static uint64_t gain_scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];
static char model_names[FAULT_CLEAR_NMODELS][32]; /* the verdict cells' models */

/* Hand Linux's clear_page strategy's cells (rep_stosb: clear_page_erms) to
 * the verdict (kernel/verdict.h): linux_4k, linux_batch and linux_batch
 * with its clear taken out. */
static void verdict_cells(const struct fc_cell *a, const struct fc_cell *b, const uint64_t *pre,
                          uint64_t fb)
{
    const struct fc_cell *from[3] = {a, b, b};
    for (int i = 0; i < 3; i++) {
        const struct fc_cell *c = from[i];
        struct stats st;
        for (size_t k = 0; k < c->n; k++)
            scratch[k] = i == 2 ? pre[k] : c->ns[k];
        stats_compute(&st, scratch, c->n);
        fault_clear_name(&c->m, model_names[c->m.model], sizeof(model_names[0]));
        struct vd_cell v = {.kind = &faultclear_kind,
                            .strategy = c->s->name,
                            .model = model_names[c->m.model],
                            .preempt = fault_clear_linux(&c->m, fb).preempt,
                            .bytes = fb,
                            .threads = 1,
                            .prezeroed = i == 2,
                            .verified = c->bad == 0,
                            .st = st,
                            .samples = i == 2 ? pre : c->ns,
                            .nsamples = c->n,
                            .steal_x100 = fc_steal_x100(c)};
        verdict_add(&v);
    }
}

/* The gain comparison's outcome in its own words (B = linux_4k slower is
 * a gain). */
static const char *gain_word(enum cmp_outcome o)
{
    return o == CMP_SLOWER ? "gain" : o == CMP_FASTER ? "loss" : cmp_outcome_name(o);
}

/* "2.012" of a ratio x 10^6 (3 decimals, rounded to nearest) into b. */
static const char *ratio_text(char *b, size_t n, uint64_t r)
{
    fmt_fixed(b, n, (r + 500) / 1000, 3);
    return b;
}

/* fault_clear_gain() at the measurement CPL (arch/user.h): its sorts of up
 * to 128 x 128 ratios are bulk stores, thousands of cycles each where ring 0
 * is emulated (a 2 MiB run's three took past hz run's 600 s at CPL 0). */
struct gain_job {
    const struct fc_cell *a, *b;
    uint64_t *pre;
    unsigned tol;
    size_t unnested; /* fault_clear_taken_out()'s count */
    struct fault_clear_gain g;
};

static void gain_fn(void *arg)
{
    struct gain_job *j = arg;
    j->unnested = fault_clear_taken_out(j->b->ns, j->b->clear_ns, j->b->n, j->pre);
    fault_clear_gain(j->a->ns, j->a->n, j->b->ns, j->pre, j->b->n, j->tol, gain_scratch, &j->g);
}

/* The published CPU that stands for this one (lib/published.h), or NULL. */
static const char *published_cpu(void)
{
    const struct cpu_ident *id = cpu_ident();
    return pub_fault_cpu(id->vendor, id->family, id->model);
}

/* One gain (linux_4k over model b's time) and what is left for pre-zeroing
 * in b's faults, on the console; pub: the published figure for b's
 * preemption model on this CPU family, or NULL. */
static void gain_lines(const struct fc_cell *a, const struct fc_cell *b, const struct gain_job *j,
                       uint64_t fb, const struct pub_fault *pub, bool steal)
{
    char t[3][24], l[3][24], model[32], p[96] = "";
    const struct fault_clear_gain *g = &j->g;
    struct fault_clear_linux lx = fault_clear_linux(&b->m, fb);
    fault_clear_name(&b->m, model, sizeof(model));
    ratio_text(t[0], sizeof(t[0]), g->gain.ratio_x1e6);
    ratio_text(t[1], sizeof(t[1]), g->gain.lo_x1e6);
    ratio_text(t[2], sizeof(t[2]), g->gain.hi_x1e6);
    fmt_fixed(l[0], sizeof(l[0]), (g->left_pct_x1000 + 50) / 100, 1);
    fmt_fixed(l[1], sizeof(l[1]), (g->left_lo_x1000 + 50) / 100, 1);
    fmt_fixed(l[2], sizeof(l[2]), (g->left_hi_x1000 + 50) / 100, 1);
    if (pub) {
        char r[16], bt[32] = "";
        fmt_fixed(r, sizeof(r), pub_fault_gain_x1000(pub), 3);
        if (pub->batch)
            hz_snprintf(bt, sizeof(bt), " in %llu MiB batches",
                        (unsigned long long)(pub->batch >> 20));
        hz_snprintf(p, sizeof(p), "; published %s (%s), preempt=%s%s: %sx", published_cpu(),
                    pub->version, pub->preempt, bt, r);
    }
    kprintf("faultclear: %4llu MiB %-10s predicted clear_pages() gain under preempt=%s (linux_4k / "
            "%s, a prediction): %sx [%s..%s] (95%% Moses interval, n = %zu+%zu, %s)%s%s\n",
            (unsigned long long)(fb >> 20), a->s->name, lx.preempt, model, t[0], t[1], t[2],
            g->gain.nb, g->gain.na, gain_word(g->gain.outcome), steal ? " steal" : "", p);
    kprintf("faultclear: %4llu MiB %-10s left for pre-zeroing: the clear in %s %s fault is "
            "%s%% [%s..%s] of its service time (95%% Moses interval)\n",
            (unsigned long long)(fb >> 20), a->s->name, model[0] == 'e' ? "an" : "a", model, l[0],
            l[1], l[2]);
}

/* The prediction per strategy (measure/fault_clear.h fault_clear_gain()):
 * linux_4k over linux_batch=32M time (the series under preempt=none/
 * voluntary) and over extent time (under full/lazy on frames above 32 MiB),
 * what is left for pre-zeroing, at 95 %. */
void fc_emit_gain(const struct fc_cell *cells, uint64_t fb)
{
    const char *cpu = fb > FAULT_CLEAR_BATCH_DEFAULT ? published_cpu() : 0;
    const struct pub_fault *vol = pub_fault_find(cpu, "none/voluntary"),
                           *full = pub_fault_find(cpu, "full/lazy");
    for (int k = 0; k < FC_STRATS; k++) {
        const struct fc_cell *a = &cells[FAULT_CLEAR_LINUX_4K * FC_STRATS + k];
        const struct fc_cell *b = &cells[FAULT_CLEAR_LINUX_BATCH * FC_STRATS + k];
        const struct fc_cell *e = &cells[FAULT_CLEAR_EXTENT * FC_STRATS + k];
        if (!a->s || !b->st.median || !e->st.median)
            continue;
        struct gain_job j = {.a = a, .b = b, .pre = taken_out[k], .tol = verdict_tolerance_x100()};
        struct gain_job je = {
            .a = a, .b = e, .pre = taken_out_ext[k], .tol = verdict_tolerance_x100()};
        user_run(smp_cpu_index(), gain_fn, &j);
        user_run(smp_cpu_index(), gain_fn, &je);
        const struct fault_clear_gain g = j.g, ge = je.g;
        if (strcmp(a->s->name, "rep_stosb") == 0)
            verdict_cells(a, b, taken_out[k], fb);
        bool steal = fc_steal_x100(a) > CLEAR_STEAL_FLAG_X100 ||
                     fc_steal_x100(b) > CLEAR_STEAL_FLAG_X100 ||
                     fc_steal_x100(e) > CLEAR_STEAL_FLAG_X100;
        char buf[HZ_RECORD_MAX];
        struct rec r;
        rec_begin(&r, buf, sizeof(buf), "faultclear_gain");
        rec_str(&r, "kind", "prediction");
        rec_str(&r, "strategy", a->s->name);
        rec_u64(&r, "bytes", fb);
        rec_u64(&r, "linux_4k_median_ns", a->st.median);
        rec_u64(&r, "linux_batch_median_ns", b->st.median);
        rec_str(&r, "preempt", fault_clear_linux(&b->m, fb).preempt);
        rec_fixed(&r, "gain", (g.gain.ratio_x1e6 + 500) / 1000, 3);
        rec_fixed(&r, "gain_lo", (g.gain.lo_x1e6 + 500) / 1000, 3);
        rec_fixed(&r, "gain_hi", (g.gain.hi_x1e6 + 500) / 1000, 3);
        rec_fixed(&r, "gain_cover_pct", g.cover_x100, 2);
        rec_str(&r, "gain_interval", "moses");
        rec_str(&r, "gain_outcome", gain_word(g.gain.outcome));
        rec_u64(&r, "na", g.gain.nb); /* linux_4k is B */
        rec_u64(&r, "nb", g.gain.na);
        rec_fixed(&r, "left_pct", g.left_pct_x1000, 3);
        rec_fixed(&r, "left_lo_pct", g.left_lo_x1000, 3);
        rec_fixed(&r, "left_hi_pct", g.left_hi_x1000, 3);
        rec_u64(&r, "extent_median_ns", e->st.median);
        rec_str(&r, "full_preempt", fault_clear_linux(&e->m, fb).preempt);
        rec_fixed(&r, "full_gain", (ge.gain.ratio_x1e6 + 500) / 1000, 3);
        rec_fixed(&r, "full_gain_lo", (ge.gain.lo_x1e6 + 500) / 1000, 3);
        rec_fixed(&r, "full_gain_hi", (ge.gain.hi_x1e6 + 500) / 1000, 3);
        rec_str(&r, "full_gain_outcome", gain_word(ge.gain.outcome));
        rec_fixed(&r, "full_left_pct", ge.left_pct_x1000, 3);
        if (vol && full) {
            rec_str(&r, "published_cpu", cpu);
            rec_fixed(&r, "published_gain", pub_fault_gain_x1000(vol), 3);
            rec_u64(&r, "published_batch_bytes", vol->batch);
            rec_fixed(&r, "published_full_gain", pub_fault_gain_x1000(full), 3);
        } else { /* no published figure per preemption model for this CPU or frame size */
            rec_u64_opt(&r, "published_cpu", false, 0);
            rec_u64_opt(&r, "published_gain", false, 0);
            rec_u64_opt(&r, "published_batch_bytes", false, 0);
            rec_u64_opt(&r, "published_full_gain", false, 0);
        }
        rec_u64(&r, "clear_median_ns",
                b->st.median ? stats_median_copy(b->clear_ns, b->n, scratch) : 0);
        rec_u64(&r, "unnested", j.unnested + je.unnested);
        rec_bool(&r, "noisy", stats_noisy(&a->st) || stats_noisy(&b->st) || stats_noisy(&e->st));
        rec_bool(&r, "steal_high", steal);
        record_emit(&r);
        gain_lines(a, b, &j, fb, vol, steal);
        gain_lines(a, e, &je, fb, full, steal);
    }
}
