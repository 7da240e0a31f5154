/*
 * measure/prezero_run.c - one run of the pre-zeroing runner on real faults
 * (measure/prezero_run.h, docs/prezero.md): the environment of the event
 * loop (TSC clock, #PF faults on the demand region of mm/demand.h,
 * demand_release), the checks of every run, and pz_run_one(), which
 * run=prezero, run=policies and run=vmstart call with their request.
 *
 * One run: fault_pool_setup() fills the pool with the request's clear path
 * and dirties every frame (an earlier tenant), demand_init() prepares the
 * region, pz_run() drives the workload; then the frames left ZEROED are
 * verified, the pages still mapped are released, the pool is checked and
 * the frames go back. With fault_cpus > 1 or zero_cpus the run goes through
 * measure/prezero_smp.c.
 */
#include "measure/prezero_run.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/fault_pool.h"
#include "measure/prezero_priv.h"
#include "mm/demand.h"

/* The run q asks for with `pages` pages. Every policy gets the same event
 * stream: ZERO_REQUEST carries the batch size (the request's zero_request,
 * else every page) and the policies other than batch ignore it. */
static struct pz_config make_config(const struct pz_req *q, uint32_t pages)
{
    struct pz_policy_cfg pc = q->policy;
    struct pz_config c = {
        .policy = pc, .chunk_bytes = q->chunk_bytes, .lead_idle_ns = q->lead_idle_ns};
    workload_defaults(&c.wl, q->kind, pages);
    c.wl.cycles = q->cycles;
    c.wl.think_ns = q->think_ns;
    c.wl.hold_ns = q->hold_ns;
    if (q->idle_ns != PZ_IDLE_WORKLOAD)
        c.wl.idle_ns = q->idle_ns;
    c.wl.seed = q->seed;
    c.wl.cpus = q->fault_cpus;
    c.background = pc.kind == PZ_IDLE && q->zero_cpus > 0 && !q->zeroers_off;
    c.wl.zero_request = q->zero_request ? q->zero_request : pages;
    if (pc.kind == PZ_BATCH && !pc.batch)
        c.policy.batch = c.wl.zero_request;
    return c;
}

/* ---- the environment of the event loop ---------------------------------- */

static uint64_t k_now(void *ctx) { return tsc_stop(); }

static uint64_t k_clear_ticks(void *ctx) { return fault_clear_cycles(); }

static void k_wait_until(void *ctx, uint64_t deadline)
{
    while (rdtsc() < deadline)
        cpu_relax();
}

/* A tenant's writes into every 64-byte line of its page, at the measurement
 * CPL (arch/user.h): bulk stores stay fast where ring 0 is emulated (PVM). */
void pz_tenant_fn(void *arg)
{
    struct tenant *t = arg;
    wl_tenant_dirty(t->va, t->bytes);
}

static bool pz_sample_busy[DEMAND_MAX_SAMPLES]; /* struct pz_kctx sample_busy */

/* The first touch, a read at the measurement CPL (demand_touch: its
 * access time is the workload's; the ring switch around it is not), then
 * outside workload time: note whether a zeroer CPU was clearing meanwhile,
 * verify the frame and dirty every line of it, so a frame reused without
 * clearing cannot read zero. */
static uint64_t k_fault(void *ctx, uint32_t page)
{
    struct pz_kctx *k = ctx;
    uint64_t fb = k->env->frame_bytes;
    struct tenant t = {demand_page(page, fb), fb};
    size_t slot = demand_nsamples();
    struct pz_zsnap z = pz_zeroers_snap(k->team);
    uint64_t first, acc = 0, w = tsc_stop();
    if (demand_touch(smp_cpu_index(), page, &first, &acc) < 0)
        return 0; /* no frame: the count check reports demand_touch_failures() */
    uint64_t a = tsc_stop(), around = a - w > acc ? a - w - acc : 0;
    if (demand_nsamples() > slot)
        k->sample_busy[slot] = pz_zeroers_busy_since(k->team, z);
    if (first != 0 || !fault_verify_zero(t.va, fb))
        k->not_zero++;
    user_run(smp_cpu_index(), pz_tenant_fn, &t);
    return tsc_stop() - a + around;
}

static int k_release(void *ctx, uint32_t page, bool zero) { return demand_release(page, zero, 0); }

/* ---- one run ------------------------------------------------------------ */

static struct pz_sample lat_samples[DEMAND_MAX_SAMPLES];
static uint64_t lat_scratch[DEMAND_MAX_SAMPLES];

static void check(struct pz_result *r, const char *what, bool ok, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A pass or fail record named prezero.<workload>.<policy>.<what>. */
static void check(struct pz_result *r, const char *what, bool ok, const char *fmt, ...)
{
    char name[80], why[224];
    va_list ap;
    hz_snprintf(name, sizeof(name), "prezero.%s.%s%s.%s", wl_kind_names[r->cfg.wl.kind],
                pz_policy_name(r->cfg.policy.kind), r->zeroers_off ? "_off" : "", what);
    if (ok) {
        if (!r->quiet)
            result_pass(name);
        return;
    }
    va_start(ap, fmt);
    hz_vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    result_fail(name, "%s", why);
    r->ok = false;
}

static void tally_to_ns(struct pz_tally *t)
{
    uint64_t *f[] = {&t->total,        &t->populate,      &t->free_time,        &t->prezero,
                     &t->idle_zeroing, &t->idle_overhead, &t->idle_overrun_max, &t->excluded};
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        *f[i] = tsc_to_ns(*f[i]);
}

/* Latencies (all; by kind; by kind while a zeroer CPU was clearing) and the
 * hit count as the samples saw them. */
static uint64_t collect_samples(struct pz_result *r)
{
    size_t n = demand_nsamples();
    uint64_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        const struct demand_sample *s = demand_sample(i);
        lat_samples[i] =
            (struct pz_sample){tsc_to_ns(s->service_cyc), s->prezeroed, pz_sample_busy[i]};
        hits += s->prezeroed;
    }
    pz_split_latency(lat_samples, n, lat_scratch, &r->lat);
    r->samples_dropped = demand_dropped();
    return hits;
}

/* Frames left ZEROED (pre-zeroed, never used) must read zero too. */
static size_t verify_unused(const struct pool *p)
{
    size_t bad = 0;
    for (uint32_t i = 0; i < p->n; i++)
        if (pool_state(p, i) == FRAME_ZEROED &&
            !fault_verify_zero((const volatile void *)(uintptr_t)pool_phys(p, i), p->frame_bytes))
            bad++;
    return bad;
}

/* Release what the workload left mapped, then env's pool must balance. */
static void finish_pool(struct pz_result *r, struct fault_env *env, uint32_t pages)
{
    const char *why;
    uint32_t bad;
    for (uint32_t i = 0; i < pages; i++)
        if (demand_mapped(i))
            demand_release(i, false, 0);
    struct pool *p = &env->pool;
    int rc = pool_check(p, &why, &bad);
    bool all_free = p->count[FRAME_IN_USE] == 0 && p->count[FRAME_ZEROING] == 0 &&
                    p->count[FRAME_DIRTY] + p->count[FRAME_ZEROED] == p->n;
    check(r, "pool", rc == POOL_OK && all_free, "%s (frame %d); %u in use, %u zeroing of %u",
          rc == POOL_OK ? "balanced" : why, bad == POOL_NONE ? -1 : (int)bad,
          p->count[FRAME_IN_USE], p->count[FRAME_ZEROING], p->n);
}

int pz_run_one(const struct pz_req *q, struct pz_result *r)
{
    struct fault_env env; /* the pool's clear context: q->path */
    uint32_t asked = q->pages;
    bool zeroers_off = q->zeroers_off, quiet = q->quiet || zeroers_off;
    if (fault_pool_setup(&env, asked ? asked : DEMAND_MAX_PAGES, &q->path) < 0)
        return -1;
    env.asked = asked;
    if (!quiet) /* the loop faults and zeroes on the boot CPU: zero_node= makes it remote */
        fault_numa_record(&env, 0);
    uint32_t pages = asked ? asked : (uint32_t)env.nframes;
    *r = (struct pz_result){.cfg = make_config(q, pages),
                            .ok = true,
                            .has_off = r->has_off,
                            .off_hit = r->off_hit,
                            .off_miss = r->off_miss,
                            .zeroers_off = zeroers_off,
                            .quiet = q->quiet};
    memset(pz_sample_busy, 0, sizeof(pz_sample_busy));
    pz_policy_format(r->policy, sizeof(r->policy), &r->cfg.policy);
    r->strategy = env.zero->name;
    r->frames = (uint32_t)env.nframes;
    r->frame_bytes = env.frame_bytes;
    r->check = fault_verify_mode();
    if (env.nframes < pages) {
        result_skip("prezero.setup", "pages=%u but the pool has %zu frames", pages, env.nframes);
        fault_pool_teardown(&env);
        return -1;
    }
    if (demand_init(&env.pool, &env.lock, pages) < 0) {
        result_fail("prezero.setup", "could not set up the demand region");
        fault_pool_teardown(&env);
        return -1;
    }
    if (!q->quiet)
        kprintf("prezero: %s under %s%s: %u pages of %llu MiB, lead idle %llu ms, %u faulting "
                "CPU(s)\n",
                wl_kind_names[r->cfg.wl.kind], r->policy,
                zeroers_off ? " with its zeroers off" : "", pages,
                (unsigned long long)(env.frame_bytes >> 20),
                (unsigned long long)(r->cfg.lead_idle_ns / 1000000), q->fault_cpus);

    struct pz_kctx k = {.env = &env, .sample_busy = pz_sample_busy};
    struct pz_ops ops = {.ctx = &k,
                         .hz = tsc_info()->hz,
                         .now = k_now,
                         .wait_until = k_wait_until,
                         .fault = k_fault,
                         .release = k_release,
                         .clear_ticks = k_clear_ticks};
    const char *why = "CPUs";
    unsigned P = q->fault_cpus, Z = r->cfg.background ? q->zero_cpus : 0;
    uint64_t cpu_max = 0;
    r->fault_cpus = P;
    r->zero_cpus = Z;
    int rc = P > 1 || Z > 0 ? pz_team_run(&k, &r->cfg, &ops, &r->ns, &why, P, Z, &cpu_max)
                            : pz_run(&env.pool, &env.lock, &r->cfg, &ops, &r->ns, &why);
    if (rc < 0) {
        result_fail("prezero.setup", "bad run parameter: %s", why);
        finish_pool(r, &env, pages);
        fault_pool_teardown(&env);
        return -1;
    }
    scenario_timed(r->ns.total); /* the workload's own time, in TSC cycles still */
    tally_to_ns(&r->ns);
    r->cpu_max_ns = P > 1 ? tsc_to_ns(cpu_max) : r->ns.populate;
    uint64_t sample_hits = collect_samples(r);
    r->c = env.pool.c;
    pool_summarise(&env.pool, &r->s);
    size_t bad_unused = verify_unused(&env.pool);
    r->verified = k.not_zero == 0 && bad_unused == 0;

    check(r, "zeroed", r->verified,
          "%zu of %llu faulted frames and %zu of %u unused zeroed frames not zero (%s check)",
          k.not_zero, (unsigned long long)r->ns.faults, bad_unused, r->s.zeroed_unused, r->check);
    uint64_t want = workload_faults(&r->cfg.wl);
    bool counts = r->ns.faults == want && demand_faults() == want && r->c.taken == want &&
                  r->c.frees == r->ns.frees && r->ns.release_errors == 0 &&
                  demand_touch_failures() == 0 &&
                  (r->samples_dropped || sample_hits == r->c.taken_prezeroed);
    check(r, "count", counts,
          "%llu FAULT events, %llu faults taken, %llu frames handed out (want %llu); %llu frees "
          "vs %llu, %llu release errors; %llu pre-zeroed samples vs %llu; %llu faults found no "
          "frame%s%s",
          (unsigned long long)r->ns.faults, (unsigned long long)demand_faults(),
          (unsigned long long)r->c.taken, (unsigned long long)want, (unsigned long long)r->c.frees,
          (unsigned long long)r->ns.frees, (unsigned long long)r->ns.release_errors,
          (unsigned long long)sample_hits, (unsigned long long)r->c.taken_prezeroed,
          (unsigned long long)demand_touch_failures(), demand_touch_failures() ? ": " : "",
          demand_error());
    int acc = pz_check_accounting(&env.pool, &r->cfg.policy, r->frames, &why);
    check(r, "accounting", acc == 0, "%s", why);
    finish_pool(r, &env, pages);

    if (!quiet) {
        pz_report_run(r);
        fault_emit(wl_kind_names[r->cfg.wl.kind], r->policy, &env.clear);
    }
    fault_pool_teardown(&env);
    return 0;
}

uint64_t pz_plan_ms(unsigned lead_idle_ms, const struct plan_machine *m, unsigned runs)
{
    struct pz_req r = pz_req_options(lead_idle_ms);
    struct plan_facts f = {0};
    f.frames = (unsigned)fault_pool_plan(r.pages ? r.pages : DEMAND_MAX_PAGES, &f.frame_bytes,
                                         fault_zero_node());
    return plan_policies_ms(runs, (unsigned)(r.lead_idle_ns / 1000000), &f, m);
}
