/*
 * scenarios/vmstart/report.c - what `run=vmstart` prints after its rounds
 * (scenarios/vmstart/vmstart.h, scenarios/vmstart/records.md `vmstart`): one `vmstart` record and
 * table line per (kind, T) cell, then the knee of none and the qemu rows
 * (`vmstart_knee`, measured: each T against T - 1 at the tolerance, the
 * comparison the model's plateau test and the verdict make), each pre-zeroed policy's own costs
 * (`vmstart_cost`, measured) and the qemu rows' model (`vmstart_model`,
 * scenarios/vmstart/qemu.c).
 */
#include "scenarios/vmstart/vmstart.h"

#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "kernel/verdict.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/stats.h"
#include "lib/vmmodel.h"
#include "measure/fault_pool.h"
#include "measure/prezero.h"
#include "mm/paging.h"

static struct vs_cell *cell(const struct vs_run *v, struct vs_cell *cells, unsigned k, unsigned t)
{
    return &cells[k * v->tmax + t - 1];
}

static const char *gb(char *buf, size_t cap, uint64_t x1000)
{
    fmt_fixed(buf, cap, x1000, 3);
    return buf;
}

/* One `vmstart` record and table line. A pre-zeroed policy's row has no
 * GB/s: its wall time maps frames zeroed before, not a zeroing rate. */
static void cell_report(const struct vs_run *v, struct vs_cell *c)
{
    char buf[HZ_RECORD_MAX], g[24], lo[24], hi[24], pt[24], pre_s[24], hit_s[24];
    struct rec r;
    struct stats pre, own, *st = &c->st;
    stats_compute(&pre, c->pre, c->n);
    stats_compute(&own, c->own, c->n);
    uint64_t gbps = stats_gbps_x1000(v->bytes, st->median);
    uint64_t glo = stats_gbps_x1000(v->bytes, st->ci_hi),
             ghi = stats_gbps_x1000(v->bytes, st->ci_lo);
    bool rate = !VS_PREZEROED(c->kind);
    uint32_t hit = pz_hit_pct_x100(c->hits, c->faults);
    const char *fc = vs_qemu_model(c->kind);
    char opt[24];
    fault_clear_name(&v->req.path.clear, opt, sizeof(opt));
    rec_begin(&r, buf, sizeof(buf), "vmstart");
    rec_str(&r, "policy", vs_kind_name(v, c->kind));
    rec_str(&r, "path", VS_QEMU(c->kind) ? "qemu" : "fault");
    rec_str(&r, "strategy", v->strategy);
    rec_str(&r, "fault_clear", fc ? fc : opt);
    rec_u64(&r, "threads", c->threads);
    rec_u64(&r, "pages", v->pages);
    rec_u64(&r, "frame_bytes", v->frame_bytes);
    rec_u64(&r, "bytes", v->bytes);
    rec_u64(&r, "repeats", st->n);
    rec_bool(&r, "too_few", st->n < CMP_MIN_N);
    rec_u64(&r, "wall_ns", st->median);
    rec_u64(&r, "wall_min_ns", st->min);
    rec_u64(&r, "wall_max_ns", st->max);
    rec_u64(&r, "cpu_max_ns", own.median);
    rec_u64(&r, "ci_lo_ns", st->ci_lo);
    rec_u64(&r, "ci_hi_ns", st->ci_hi);
    rec_fixed(&r, "ci_pct", st->ci_cover_x100, 2);
    rec_fixed(&r, "cv_pct", st->cv_x100, 2);
    rec_bool(&r, "noisy", stats_noisy(st));
    if (rate) {
        rec_fixed(&r, "gbps", gbps, 3);
        rec_fixed(&r, "gbps_lo", glo, 3);
        rec_fixed(&r, "gbps_hi", ghi, 3);
        rec_fixed(&r, "gbps_per_thread", gbps / c->threads, 3);
    }
    rec_u64(&r, "prezero_ns", pre.median);
    rec_fixed(&r, "hit_pct", hit, 2);
    rec_u64(&r, "faults_per_repeat", c->n ? c->faults / c->n : 0);
    rec_u64(&r, "clear_calls_per_repeat", c->n ? c->calls / c->n : 0);
    rec_bool(&r, "verified", !c->bad);
    rec_bool(&r, "clock_reliable", tsc_reliable());
    rec_bool(&r, "emulated_ring0", user_ring0_emulated());
    record_emit(&r);
    char w[24], wlo[24], whi[24], calls[24];
    fmt_fixed(hit_s, sizeof(hit_s), hit, 2);
    fmt_ns(pre_s, sizeof(pre_s), pre.median);
    fmt_ns(w, sizeof(w), st->median);
    fmt_ns(wlo, sizeof(wlo), st->ci_lo);
    fmt_ns(whi, sizeof(whi), st->ci_hi);
    if (VS_QEMU(c->kind))
        hz_snprintf(calls, sizeof(calls), "%llu", (unsigned long long)(c->n ? c->calls / c->n : 0));
    else
        hz_snprintf(calls, sizeof(calls), "-");
    if (!rate)
        hz_snprintf(g, sizeof(g), "-"), hz_snprintf(lo, sizeof(lo), "-"),
            hz_snprintf(hi, sizeof(hi), "-"), hz_snprintf(pt, sizeof(pt), "-");
    else
        gb(g, sizeof(g), gbps), gb(lo, sizeof(lo), glo), gb(hi, sizeof(hi), ghi),
            gb(pt, sizeof(pt), gbps / c->threads);
    kprintf("vmstart: %-10s %3u %9s [%s..%s] %8s [%s..%s] %8s %9s %7s %6llu %8s%s%s%s\n",
            vs_kind_name(v, c->kind), c->threads, w, wlo, whi, g, lo, hi, pt, pre_s, hit_s,
            (unsigned long long)(c->n ? c->faults / c->n : 0), calls,
            stats_noisy(st) ? " NOISY" : "", c->bad ? " FAILED" : "",
            user_ring0_emulated() ? " ring0-emulated" : "");
}

static uint64_t scratch[VS_MAX_ROUNDS * VS_MAX_ROUNDS + 2 * VS_MAX_ROUNDS];

void vs_step(const struct vs_run *v, struct vs_cell *cells, unsigned k, unsigned t, struct cmp *c)
{
    const struct vs_cell *a = cell(v, cells, k, t - 1), *b = cell(v, cells, k, t);
    cmp_compare(a->wall, a->n, v->bytes, b->wall, b->n, v->bytes, CMP_Z_X1000,
                verdict_tolerance_x100(), scratch, c);
}

/* A speed-up x 1000 from a time ratio x 10^6 (0: none). */
static uint64_t speedup(uint64_t ratio_x1e6)
{
    return ratio_x1e6 ? stats_scale(1000000000ull, 1, ratio_x1e6) : 0;
}

/* The knee of kind k's curve from its steps (T against T - 1, vs_step(),
 * lib/vmmodel.h vm_knee()): the `vmstart_knee` record and line, of the knee's
 * step or, without a knee, of the top one. g[] gets the curve's aggregate
 * rates by T; *top the top step (the plateau test; outcome CMP_TOO_FEW with
 * one T). */
static void knee_report(const struct vs_run *v, struct vs_cell *cells, unsigned k, uint64_t *g,
                        struct cmp *top)
{
    static struct cmp steps[VS_MAX_T];
    char buf[HZ_RECORD_MAX], a[24], b[24], sp[3][24], lin[24], tol[16];
    struct rec r;
    for (unsigned t = 1; t <= v->tmax; t++)
        g[t - 1] = stats_gbps_x1000(v->bytes, cell(v, cells, k, t)->st.median);
    for (unsigned t = 2; t <= v->tmax; t++)
        vs_step(v, cells, k, t, &steps[t - 2]);
    *top = v->tmax > 1 ? steps[v->tmax - 2] : (struct cmp){.outcome = CMP_TOO_FEW};
    unsigned knee = vm_knee(steps, v->tmax), st = knee ? knee : v->tmax;
    const struct cmp *c = st > 1 ? &steps[st - 2] : 0;
    enum vm_scale sc = vm_scaling(c, st);
    rec_begin(&r, buf, sizeof(buf), "vmstart_knee");
    rec_str(&r, "policy", vs_kind_name(v, (enum vs_kind)k));
    rec_u64(&r, "threads_max", v->tmax);
    rec_u64_opt(&r, "knee_threads", knee != 0, knee);
    rec_u64_opt(&r, "step_threads", c != 0, st);
    rec_str(&r, "scaling", c ? vm_scale_key(sc) : 0);
    rec_str(&r, "outcome", c ? cmp_outcome_name(c->outcome) : 0);
    bool ci = c && c->ratio_x1e6 && c->outcome != CMP_TOO_FEW; /* too few: no interval */
    if (c && c->ratio_x1e6)
        rec_fixed(&r, "speedup", speedup(c->ratio_x1e6), 3);
    else
        rec_str(&r, "speedup", 0);
    if (ci) {
        rec_fixed(&r, "speedup_lo", speedup(c->hi_x1e6), 3);
        rec_fixed(&r, "speedup_hi", speedup(c->lo_x1e6), 3);
    } else {
        rec_str(&r, "speedup_lo", 0);
        rec_str(&r, "speedup_hi", 0);
    }
    if (c) {
        rec_fixed(&r, "linear_speedup", (uint64_t)st * 1000 / (st - 1), 3);
        rec_fixed(&r, "gbps_before", g[st - 2], 3);
        rec_fixed(&r, "gbps_at", g[st - 1], 3);
    }
    record_emit(&r);
    const char *name = vs_kind_name(v, (enum vs_kind)k);
    if (!c) {
        kprintf("vmstart: %s: one thread count: no knee can be measured\n", name);
        return;
    }
    char ival[56] = "";
    fmt_fixed(sp[0], sizeof(sp[0]), speedup(c->ratio_x1e6), 3);
    fmt_fixed(sp[1], sizeof(sp[1]), speedup(c->hi_x1e6), 3);
    fmt_fixed(sp[2], sizeof(sp[2]), speedup(c->lo_x1e6), 3);
    if (ci)
        hz_snprintf(ival, sizeof(ival), " [%s..%s]", sp[1], sp[2]);
    fmt_fixed(lin, sizeof(lin), (uint64_t)st * 1000 / (st - 1), 3);
    fmt_fixed(tol, sizeof(tol), verdict_tolerance_x100(), 2);
    kprintf("vmstart: %s: %s T=%u: T=%u vs T=%u %s -> %s GB/s, %sx%s, %s at +-%s%% "
            "(linear: %sx): %s (measured)\n",
            name, knee ? "knee at" : "no knee; top step", st, st, st - 1,
            gb(a, sizeof(a), g[st - 2]), gb(b, sizeof(b), g[st - 1]), sp[0], ival,
            cmp_outcome_name(c->outcome), tol, lin,
            sc == VM_SCALE_PLATEAU     ? "a plateau, the CPU added nothing"
            : sc == VM_SCALE_SUBLINEAR ? "sub-linear, the CPU paid less than linearly"
            : sc == VM_SCALE_LINEAR    ? "not shown below linear"
                                       : "scaling open");
}

/* A pre-zeroed policy's own costs (`vmstart_cost`): its pre-zeroing
 * before the VM start (time and CPU: boot and batch clear on CPU 0 before
 * the faults, idle in the lead idle period on CPU 0) and the mapping time
 * during the start at T = tmax. Measured on S; no GB/s and no
 * extrapolation. */
static void cost_report(const struct vs_run *v, struct vs_cell *cells, unsigned k)
{
    char buf[HZ_RECORD_MAX], p[24], m[24], mlo[24], mhi[24];
    struct rec r;
    struct vs_cell *c = cell(v, cells, k, v->tmax);
    struct stats pre;
    stats_compute(&pre, c->pre, c->n);
    rec_begin(&r, buf, sizeof(buf), "vmstart_cost");
    rec_str(&r, "policy", vs_kind_name(v, (enum vs_kind)k));
    rec_u64(&r, "bytes", v->bytes);
    rec_u64(&r, "threads", v->tmax);
    rec_u64(&r, "prezero_ns", pre.median);
    rec_u64(&r, "prezero_cpu_ns", pre.median);
    rec_u64(&r, "prezero_cpus", 1);
    rec_u64(&r, "map_ns", c->st.median);
    rec_u64(&r, "map_ci_lo_ns", c->st.ci_lo);
    rec_u64(&r, "map_ci_hi_ns", c->st.ci_hi);
    rec_fixed(&r, "hit_pct", pz_hit_pct_x100(c->hits, c->faults), 2);
    rec_bool(&r, "verified", !c->bad);
    record_emit(&r);
    fmt_ns(p, sizeof(p), pre.median);
    fmt_ns(m, sizeof(m), c->st.median);
    fmt_ns(mlo, sizeof(mlo), c->st.ci_lo);
    fmt_ns(mhi, sizeof(mhi), c->st.ci_hi);
    char hit[16];
    fmt_fixed(hit, sizeof(hit), pz_hit_pct_x100(c->hits, c->faults), 2);
    kprintf("vmstart: %s: its own costs for %llu MiB: pre-zeroing before the VM start %s on 1 CPU "
            "(%s of CPU), then mapping during it %s [%s..%s] at T=%u, %s %% of the faults "
            "pre-zeroed (measured; below 100 %% the rest cleared in the fault)\n",
            vs_kind_name(v, (enum vs_kind)k), (unsigned long long)(v->bytes >> 20), p, p, m, mlo,
            mhi, v->tmax, hit);
}

void vs_report(const struct vs_run *v, struct vs_cell *cells)
{
    static uint64_t g[VS_MAX_T];
    char ci[32];
    size_t lo, hi;
    unsigned cover;
    for (unsigned i = v->first * v->tmax; i < VS_KINDS * v->tmax; i++)
        stats_compute(&cells[i].st, cells[i].wall, cells[i].n);
    stats_median_ci95(v->rounds, &lo, &hi, &cover);
    kprintf("vmstart: %u x %llu MiB, %u rounds; wall = last CPU's end - first CPU's start; "
            "median [%s]; GB/s only where the faults clear (none, qemu rows)\n",
            v->pages, (unsigned long long)(v->frame_bytes >> 20), v->rounds,
            fmt_ci_label(ci, sizeof(ci), cover));
    kprintf("vmstart: %-10s %3s %9s %-13s %8s %-15s %8s %9s %7s %6s %8s\n", "policy", "T", "wall",
            "[interval]", "GB/s", "[interval]", "per CPU", "pre-zero", "hit %", "faults", "clears");
    for (unsigned i = v->first * v->tmax; i < VS_KINDS * v->tmax; i++)
        cell_report(v, &cells[i]);
    for (unsigned k = v->first; k < VS_KINDS; k++) {
        if (VS_PREZEROED(k)) {
            cost_report(v, cells, k);
            continue;
        }
        struct cmp top;
        knee_report(v, cells, k, g, &top);
        if (VS_QEMU(k))
            vs_qemu_report(v, cell(v, cells, k, 1), (enum vs_kind)k, g, &top);
    }
}
