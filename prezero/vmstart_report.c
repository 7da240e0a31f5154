/*
 * prezero/vmstart_report.c - what `run=vmstart` prints after its rounds
 * (prezero/vmstart.h, docs/results.md "vmstart"): one `vmstart` record and
 * table line per (kind, T) cell, then per kind the knee (`vmstart_knee`,
 * measured) and the 2 TiB extrapolation (`vmstart_model`, a model: every
 * line that prints it says so, with its formula and inputs).
 */
#include "prezero/vmstart.h"

#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "mm/paging.h"
#include "prezero/prezero.h"

static struct vs_cell *cell(const struct vs_run *v, struct vs_cell *cells, unsigned k, unsigned t)
{
    return &cells[k * v->tmax + t - 1];
}

static const char *gb(char *buf, size_t cap, uint64_t x1000)
{
    fmt_fixed(buf, cap, x1000, 3);
    return buf;
}

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
    bool fault = c->kind != VS_FILL;
    uint32_t hit = pz_hit_pct_x100(c->hits, c->faults);
    rec_begin(&r, buf, sizeof(buf), "vmstart");
    rec_str(&r, "policy", vs_kind_name(v, c->kind));
    rec_str(&r, "path", fault ? "fault" : "fill");
    rec_str(&r, "strategy", v->strategy);
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
    rec_fixed(&r, "gbps", gbps, 3);
    rec_fixed(&r, "gbps_lo", glo, 3);
    rec_fixed(&r, "gbps_hi", ghi, 3);
    rec_fixed(&r, "gbps_per_thread", gbps / c->threads, 3);
    rec_u64(&r, "prezero_ns", pre.median);
    if (fault)
        rec_fixed(&r, "hit_pct", hit, 2);
    rec_bool(&r, "verified", !c->bad);
    rec_bool(&r, "clock_reliable", tsc_reliable());
    rec_bool(&r, "emulated_ring0", fault && user_ring0_emulated());
    record_emit(&r);
    char w[24], wlo[24], whi[24];
    fmt_fixed(hit_s, sizeof(hit_s), hit, 2);
    fmt_fixed(pre_s, sizeof(pre_s), pre.median / 1000, 3);
    fmt_fixed(w, sizeof(w), st->median / 1000, 3);
    fmt_fixed(wlo, sizeof(wlo), st->ci_lo / 1000, 3);
    fmt_fixed(whi, sizeof(whi), st->ci_hi / 1000, 3);
    kprintf("vmstart: %-9s %3u %10s [%s..%s] %8s [%s..%s] %8s %11s %7s%s%s%s\n",
            vs_kind_name(v, c->kind), c->threads, w, wlo, whi, gb(g, sizeof(g), gbps),
            gb(lo, sizeof(lo), glo), gb(hi, sizeof(hi), ghi), gb(pt, sizeof(pt), gbps / c->threads),
            pre_s, fault ? hit_s : "-", stats_noisy(st) ? " NOISY" : "", c->bad ? " FAILED" : "",
            fault && user_ring0_emulated() ? " ring0-emulated" : "");
}

/* The knee of kind k's curve; g[] gets its aggregate rates by T. */
static void knee_report(const struct vs_run *v, struct vs_cell *cells, unsigned k, uint64_t *g)
{
    char buf[HZ_RECORD_MAX], a[24], b[24];
    struct rec r;
    for (unsigned t = 1; t <= v->tmax; t++)
        g[t - 1] = stats_gbps_x1000(v->bytes, cell(v, cells, k, t)->st.median);
    unsigned knee = vs_knee(g, v->tmax);
    rec_begin(&r, buf, sizeof(buf), "vmstart_knee");
    rec_str(&r, "policy", vs_kind_name(v, (enum vs_kind)k));
    rec_u64(&r, "threads_max", v->tmax);
    rec_u64_opt(&r, "knee_threads", knee != 0, knee);
    if (knee) {
        rec_fixed(&r, "gbps_before", g[knee - 2], 3);
        rec_fixed(&r, "gbps_at", g[knee - 1], 3);
    }
    record_emit(&r);
    if (knee)
        kprintf("vmstart: %s: knee at T=%u: %s -> %s GB/s, less than +10 %% for CPU %u "
                "(measured)\n",
                vs_kind_name(v, (enum vs_kind)k), knee, gb(a, sizeof(a), g[knee - 2]),
                gb(b, sizeof(b), g[knee - 1]), knee);
    else
        kprintf("vmstart: %s: no knee in T = 1..%u: every added CPU added at least 10 %% "
                "(measured)\n",
                vs_kind_name(v, (enum vs_kind)k), v->tmax);
}

/* The 2 TiB model of kind k from its curve g[] (GB/s x 1000 by T). */
static void model_report(const struct vs_run *v, struct vs_cell *cells, unsigned k,
                         const uint64_t *g)
{
    char buf[HZ_RECORD_MAX], r1s[24], pks[24], qs[24], as[24], ss[24], ms[24];
    struct rec r;
    const char *name = vs_kind_name(v, (enum vs_kind)k);
    unsigned peak_t = 1;
    for (unsigned t = 2; t <= v->tmax; t++)
        peak_t = g[t - 1] > g[peak_t - 1] ? t : peak_t;
    uint64_t r1 = g[0], peak = g[peak_t - 1];
    uint64_t q_ns = vs_model_ns(VS_MODEL_BYTES, VS_QEMU_THREADS, r1, peak);
    uint64_t a_ns = vs_model_ns(VS_MODEL_BYTES, v->tmax, r1, peak);
    /* The seed's VM at T = all: measured when S is 64 x 1 GiB, else scaled. */
    bool seed_measured = v->frame_bytes == PAGE_SIZE_1G && v->pages == VS_SEED_FRAMES;
    uint64_t wall = cell(v, cells, k, v->tmax)->st.median;
    uint64_t seed_ns = mul_div_u64(wall, VS_SEED_FRAMES * PAGE_SIZE_1G, v->bytes);
    /* boot and batch clear everything before the VM, on CPU 0 alone. */
    struct stats pre;
    struct vs_cell *c1 = cell(v, cells, k, 1);
    stats_compute(&pre, c1->pre, c1->n);
    bool has_pre = (k == VS_BOOT || k == VS_BATCH) && pre.median;
    uint64_t pre_g = has_pre ? stats_gbps_x1000(v->bytes, pre.median) : 0;
    uint64_t pre_ns = has_pre ? vs_model_ns(VS_MODEL_BYTES, 1, pre_g, 0) : 0;

    rec_begin(&r, buf, sizeof(buf), "vmstart_model");
    rec_str(&r, "kind", "model");
    rec_str(&r, "policy", name);
    rec_str(&r, "formula", "vm_bytes / min(threads x per_thread_gbps, peak_gbps)");
    rec_fixed(&r, "per_thread_gbps", r1, 3);
    rec_fixed(&r, "peak_gbps", peak, 3);
    rec_u64(&r, "peak_threads", peak_t);
    rec_u64(&r, "vm_bytes", VS_MODEL_BYTES);
    rec_u64(&r, "qemu_threads", VS_QEMU_THREADS);
    rec_u64(&r, "qemu_ns", q_ns);
    rec_u64(&r, "all_threads", v->tmax);
    rec_u64(&r, "all_ns", a_ns);
    rec_u64(&r, "claim_bytes", 2000000000000ull);
    rec_u64(&r, "claim_threads", VS_QEMU_THREADS);
    rec_u64(&r, "claim_min_ns", VS_SEED_CLAIM_NS);
    rec_u64(&r, "seed_frames", VS_SEED_FRAMES);
    rec_u64(&r, "seed_threads", v->tmax);
    rec_bool(&r, "seed_measured", seed_measured);
    rec_u64(&r, "seed_ns", seed_ns);
    if (has_pre) {
        rec_fixed(&r, "prezero_gbps", pre_g, 3);
        rec_u64(&r, "prezero_model_ns", pre_ns);
    }
    rec_bool(&r, "emulated_ring0", k != VS_FILL && user_ring0_emulated());
    record_emit(&r);

    pz_format_ns(qs, sizeof(qs), q_ns);
    pz_format_ns(as, sizeof(as), a_ns);
    kprintf("vmstart: MODEL %s: t = 2 TiB / min(T x %s GB/s [T=1 median], %s GB/s [peak, T=%u "
            "median]): T=16 (QEMU's cap) %s, T=%u (all) %s; the seed thread's claim: over 40 s "
            "for 2 TB with 16 threads\n",
            name, gb(r1s, sizeof(r1s), r1), gb(pks, sizeof(pks), peak), peak_t, qs, v->tmax, as);
    pz_format_ns(ss, sizeof(ss), seed_ns);
    pz_format_ns(ms, sizeof(ms), wall);
    if (seed_measured)
        kprintf("vmstart: %s: the seed's VM, 64 x 1 GiB at T=%u: %s (measured, not a model)\n",
                name, v->tmax, ss);
    else
        kprintf("vmstart: MODEL %s: the seed's VM, 64 x 1 GiB at T=%u: %u x %llu MiB took %s, "
                "x 64 GiB / %llu MiB = %s\n",
                name, v->tmax, v->pages, (unsigned long long)(v->frame_bytes >> 20), ms,
                (unsigned long long)(v->bytes >> 20), ss);
    if (has_pre) {
        pz_format_ns(ss, sizeof(ss), pre_ns);
        kprintf("vmstart: MODEL %s: its clearing before the VM, on CPU 0: 2 TiB at %s GB/s "
                "[T=1 median] = %s\n",
                name, gb(r1s, sizeof(r1s), pre_g), ss);
    }
}

void vs_report(const struct vs_run *v, struct vs_cell *cells)
{
    static uint64_t g[VS_MAX_T];
    for (unsigned i = 0; i < VS_KINDS * v->tmax; i++)
        stats_compute(&cells[i].st, cells[i].wall, cells[i].n);
    kprintf("vmstart: %u x %llu MiB, %u rounds; wall = last CPU's end - first CPU's start; "
            "median [95 %% interval]\n",
            v->pages, (unsigned long long)(v->frame_bytes >> 20), v->rounds);
    kprintf("vmstart: %-9s %3s %10s %-13s %8s %-15s %8s %11s %7s\n", "policy", "T", "wall ms",
            "[interval]", "GB/s", "[interval]", "per CPU", "pre-zero ms", "hit %");
    for (unsigned i = 0; i < VS_KINDS * v->tmax; i++)
        cell_report(v, &cells[i]);
    for (unsigned k = 0; k < VS_KINDS; k++) {
        knee_report(v, cells, k, g);
        model_report(v, cells, k, g);
    }
}
