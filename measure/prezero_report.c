/*
 * measure/prezero_report.c - what the pre-zeroing runner prints: one
 * `prezero` record per run (scenarios/prezero/records.md), a human line per run, and
 * the side-by-side table of the policies of one workload.
 */
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/lava.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "measure/prezero.h"

/* "1 GiB" / "2 MiB" */
static const char *frame_name(uint64_t fb) { return fb == (1ull << 30) ? "1 GiB" : "2 MiB"; }

static uint64_t mib(uint64_t bytes) { return bytes >> 20; }

/* <p>n, <p>min_ns, <p>p50_ns, <p>p90_ns, <p>p99_ns, <p>max_ns of one
 * latency group (p: "lat_", "lat_hit_", ...); null where there are too few
 * samples (pz_lat: none at all, p90 below 10, p99 below 100). */
static void lat_members(struct rec *x, const char *p, const struct pz_lat *l)
{
    static const char *const name[] = {"min_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"};
    const uint64_t v[] = {l->min, l->p50, l->p90, l->p99, l->max};
    const bool known[] = {l->n > 0, l->n > 0, l->has_p90, l->has_p99, l->n > 0};
    char key[32];
    hz_snprintf(key, sizeof(key), "%sn", p);
    rec_u64(x, key, l->n);
    for (unsigned i = 0; i < 5; i++) {
        hz_snprintf(key, sizeof(key), "%s%s", p, name[i]);
        rec_u64_opt(x, key, known[i], v[i]);
    }
}

/* A latency for people: pz_format_ns, or "-" when unknown (too few samples). */
static void fmt_lat(char *buf, size_t cap, bool known, uint64_t ns)
{
    if (known)
        pz_format_ns(buf, cap, ns);
    else
        hz_snprintf(buf, cap, "-");
}

/* "p50 1.23 ms (n=12)" for one fault kind, p50 "-" with no samples. */
static void fmt_kind(char *buf, size_t cap, const struct pz_lat *l)
{
    char v[16];
    fmt_lat(v, sizeof(v), l->n > 0, l->p50);
    hz_snprintf(buf, cap, "p50 %s (n=%zu)", v, l->n);
}

void pz_report_run(const struct pz_result *r)
{
    char buf[HZ_RECORD_MAX];
    struct rec x;
    const struct pz_tally *t = &r->ns;
    const struct wl_params *w = &r->cfg.wl;
    uint32_t pct = pz_hit_pct_x100(r->c.taken_prezeroed, r->c.taken);

    rec_begin(&x, buf, sizeof(buf), "prezero");
    rec_str(&x, "workload", wl_kind_names[w->kind]);
    rec_str(&x, "policy", r->policy);
    if (r->cfg.policy.kind == PZ_IDLE)
        rec_u64(&x, "chunk_bytes", r->cfg.chunk_bytes);
    rec_str(&x, "strategy", r->strategy);
    rec_u64(&x, "pages", w->pages);
    rec_u64(&x, "frames", r->frames);
    rec_u64(&x, "frame_bytes", r->frame_bytes);
    rec_u64(&x, "seed", w->seed);
    rec_u64(&x, "fault_cpus", r->fault_cpus);
    rec_u64(&x, "zero_cpus", r->zero_cpus);
    if (w->kind != WL_VM_BOOT)
        rec_u64(&x, "cycles", w->cycles);
    rec_u64(&x, "faults", t->faults);
    rec_u64(&x, "frees", t->frees);
    rec_u64(&x, "prezeroed_hits", r->c.taken_prezeroed);
    rec_fixed(&x, "hit_pct", pct, 2);
    rec_u64(&x, "total_ns", t->total);
    rec_u64(&x, "populate_ns", t->populate);
    rec_u64(&x, "free_ns", t->free_time);
    rec_u64(&x, "prezero_ns", t->prezero);
    lat_members(&x, "lat_", &r->lat.all);
    lat_members(&x, "lat_hit_", &r->lat.hit);
    lat_members(&x, "lat_miss_", &r->lat.miss);
    if (r->zero_cpus) {
        lat_members(&x, "lat_busy_hit_", &r->lat.busy_hit);
        lat_members(&x, "lat_busy_miss_", &r->lat.busy_miss);
    }
    if (r->has_off) {
        lat_members(&x, "off_hit_", &r->off_hit);
        lat_members(&x, "off_miss_", &r->off_miss);
    }
    rec_u64(&x, "samples_dropped", r->samples_dropped);
    rec_u64(&x, "bytes_zeroed_fault", r->s.bytes_fault);
    rec_u64(&x, "bytes_zeroed_background", r->s.bytes_background);
    rec_obj_begin(&x, "bytes_zeroed");
    for (unsigned o = 0; o < ZERO_NORIGINS; o++)
        rec_u64(&x, pool_origin_name(o), r->c.bytes_zeroed[o]);
    rec_obj_end(&x);
    rec_u64(&x, "zeroed_twice", r->c.zeroed_twice);
    rec_u64(&x, "zeroed_unused", r->s.zeroed_unused);
    rec_u64(&x, "partial_bytes", r->s.partial_bytes);
    rec_u64(&x, "idle_ns", t->idle_ns);
    rec_u64(&x, "lead_idle_ns", t->lead_idle_ns);
    rec_u64(&x, "idle_zeroing_ns", t->idle_zeroing);
    rec_u64(&x, "idle_overhead_ns", t->idle_overhead);
    rec_u64(&x, "idle_chunks", t->idle_chunks);
    rec_u64(&x, "idle_overrun_max_ns", t->idle_overrun_max);
    rec_str(&x, "check", r->check);
    rec_bool(&x, "verified", r->verified);
    rec_bool(&x, "too_few", r->lat.all.n < CMP_MIN_N);
    rec_bool(&x, "clock_reliable", tsc_reliable());
    rec_bool(&x, "emulated_ring0", user_ring0_emulated());
    record_emit(&x);
    if (r->verified) /* results=lava: median fault latency, ns -> us x 1000 */
        lava_measure(LAVA_MIN, r->lat.all.p50, "us", "prezero.%s.%s.fault_p50",
                     wl_kind_names[w->kind], pz_policy_name(r->cfg.policy.kind));

    char tot[16], pop[16], p50[16], p99[16], pre[16], idz[16], ido[16], idl[16];
    pz_format_ns(tot, sizeof(tot), t->total);
    pz_format_ns(pop, sizeof(pop), t->populate);
    fmt_lat(p50, sizeof(p50), r->lat.all.n > 0, r->lat.all.p50);
    fmt_lat(p99, sizeof(p99), r->lat.all.has_p99, r->lat.all.p99);
    pz_format_ns(pre, sizeof(pre), t->prezero);
    pz_format_ns(idz, sizeof(idz), t->idle_zeroing);
    pz_format_ns(ido, sizeof(ido), t->idle_overhead);
    pz_format_ns(idl, sizeof(idl), t->idle_ns);
    kprintf("prezero: %s/%s: total %s (faults %s), %llu faults, %llu pre-zeroed (%u.%02u%%), "
            "p50 %s, p99 %s (n=%zu; p99 needs 100); cleared %llu MiB in faults, %llu MiB "
            "elsewhere; prezero %s; idle %s, %s clearing + %s lock/pool/ring switches%s\n",
            wl_kind_names[w->kind], r->policy, tot, pop, (unsigned long long)t->faults,
            (unsigned long long)r->c.taken_prezeroed, pct / 100, pct % 100, p50, p99, r->lat.all.n,
            (unsigned long long)mib(r->s.bytes_fault),
            (unsigned long long)mib(r->s.bytes_background), pre, idl, idz, ido,
            r->ok ? "" : " [CHECK FAILED]");
    if (r->has_off) {
        char bh[48], oh[48], bm[48], om[48];
        fmt_kind(bh, sizeof(bh), &r->lat.busy_hit);
        fmt_kind(oh, sizeof(oh), &r->off_hit);
        fmt_kind(bm, sizeof(bm), &r->lat.busy_miss);
        fmt_kind(om, sizeof(om), &r->off_miss);
        kprintf("prezero: %s/%s: interference, faults while %u zeroer CPU(s) cleared vs zeroers "
                "off: pre-zeroed %s vs %s; cleared in the fault %s vs %s\n",
                wl_kind_names[w->kind], r->policy, r->zero_cpus, bh, oh, bm, om);
    }
}

void pz_report_table(const struct pz_result *r, size_t n)
{
    const struct wl_params *w = &r[0].cfg.wl;
    char lead[16];
    pz_format_ns(lead, sizeof(lead), r[0].cfg.lead_idle_ns);
    kprintf("\npre-zeroing policies: %s, %u x %s pages, %u frames, %u faulting CPU(s), "
            "zero=%s, seed %llu, lead idle %s, verify %s%s%s\n",
            wl_kind_names[w->kind], w->pages, frame_name(r[0].frame_bytes), r[0].frames, w->cpus,
            r[0].strategy, (unsigned long long)w->seed, lead, r[0].check,
            tsc_reliable() ? "" : " -- TSC unreliable: ", tsc_unreliable_reason());
    kprintf("  %-10s %9s %9s %5s %9s %9s %9s %8s %9s %9s %9s %9s %9s %7s\n", "policy", "total",
            "in faults", "n", "p50", "p99", "max", "hits", "MiB fault", "MiB other", "prezero",
            "idle clr", "idle ovh", "unused");
    char line[512];
    size_t len = (size_t)hz_snprintf(line, sizeof(line), "%s %u x %s:", wl_kind_names[w->kind],
                                     w->pages, frame_name(r[0].frame_bytes));
    size_t few = 0;
    for (size_t i = 0; i < n; i++) {
        const struct pz_result *q = &r[i];
        char v[8][16], note[64];
        /* fewer faults than lib/compare.h's rule compares: one run's figure;
         * on_free without a FREE event clears in the fault exactly as none */
        bool too_few = q->lat.all.n < CMP_MIN_N;
        few += too_few;
        hz_snprintf(note, sizeof(note), "%s%s%s", q->ok ? "" : "  CHECK FAILED",
                    too_few ? "  too few" : "",
                    q->cfg.policy.kind == PZ_ON_FREE && !q->ns.frees ? "  = none (no FREE)" : "");
        uint32_t pct = pz_hit_pct_x100(q->c.taken_prezeroed, q->c.taken);
        uint64_t ns[8] = {q->ns.total,    q->ns.populate, q->lat.all.p50,     q->lat.all.p99,
                          q->lat.all.max, q->ns.prezero,  q->ns.idle_zeroing, q->ns.idle_overhead};
        bool known[8] = {true, true, q->lat.all.n > 0, q->lat.all.has_p99, q->lat.all.n > 0, true,
                         true, true};
        for (int k = 0; k < 8; k++)
            fmt_lat(v[k], sizeof(v[k]), known[k], ns[k]);
        kprintf("  %-10s %9s %9s %5zu %9s %9s %9s %4u.%02u%% %9llu %9llu %9s %9s %9s %7u%s\n",
                q->policy, v[0], v[1], q->lat.all.n, v[2], v[3], v[4], pct / 100, pct % 100,
                (unsigned long long)mib(q->s.bytes_fault),
                (unsigned long long)mib(q->s.bytes_background), v[5], v[6], v[7],
                q->s.zeroed_unused, note);
        if (len < sizeof(line))
            len += (size_t)hz_snprintf(line + len, sizeof(line) - len, "%s %s %s p50 %s (n=%zu)",
                                       i ? ";" : "", q->policy, v[0], v[2], q->lat.all.n);
        if (q->ns.prezero && len < sizeof(line))
            len += (size_t)hz_snprintf(line + len, sizeof(line) - len, " (+%s pre-zeroing)", v[5]);
    }
    kprintf("%s\n", line);
    if (few)
        kprintf("  too few: fewer than %u faults (lib/compare.h CMP_MIN_N): one run's figures, "
                "no comparison between policies is shown by them; more pages (or 2 MiB frames) "
                "give more\n",
                CMP_MIN_N);
}
