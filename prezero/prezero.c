/*
 * prezero/prezero.c - the kernel half of the pre-zeroing runner
 * (measure/prezero.h, docs/prezero.md): its options, the real environment
 * for the event loop (TSC clock, #PF faults on the demand region of
 * mm/demand.h, demand_release), the checks of every run, and the scenarios
 * `prezero` (the configured policy) and `policies` (every policy, same
 * workload and seed, one boot).
 *
 * One run: fault_pool_setup() fills the pool and dirties every frame (an
 * earlier tenant), demand_init() prepares the region, pz_run() drives the
 * workload; then the frames left ZEROED are verified, the pages still
 * mapped are released, the pool is checked and the frames go back. With
 * fault_cpus > 1 or zero_cpus the run goes through measure/prezero_smp.c.
 */
#include "measure/prezero.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/options.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/fault_pool.h"
#include "mm/demand.h"
#include "measure/prezero_priv.h"

/* ---- options (docs/prezero.md "Options") ------------------------------- */

#define IDLE_WORKLOAD_DEFAULT UINT64_MAX /* idle=: the workload's own default */

static struct pz_policy_cfg opt_policy = {PZ_NONE, 0};
static int opt_workload = WL_VM_BOOT;
static uint64_t opt_pages; /* 0: every frame of the pool */
static uint64_t opt_chunk = PZ_CHUNK_DEFAULT;
static uint64_t opt_cycles = 4;
static uint64_t opt_think = 100000000; /* ns */
static uint64_t opt_hold = 50000000;   /* ns */
static uint64_t opt_idle = IDLE_WORKLOAD_DEFAULT;
static uint64_t opt_lead_idle = 1000000000; /* ns */
static uint64_t opt_seed = 1;
static uint64_t opt_fault_cpus = 1;
static uint64_t opt_zero_cpus;

static int policy_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (pz_policy_parse(v, &opt_policy) < 0)
        return hz_snprintf(err, n, "no policy '%s'", v), -1;
    return 0;
}

static int chunk_opt(const struct option *o, const char *v, char *err, size_t n)
{
    uint64_t b;
    if (cmdline_parse_size(v, &b) < 0)
        return hz_snprintf(err, n, "malformed size"), -1;
    if (b < PZ_CHUNK_ALIGN || b % PZ_CHUNK_ALIGN || b > (1ull << 30))
        return hz_snprintf(err, n, "not a multiple of 4K in 4K..1G"), -1;
    opt_chunk = b;
    return 0;
}

static int time_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (pz_parse_ns(v, WL_MAX_NS, (uint64_t *)o->dest) < 0)
        return hz_snprintf(err, n, "not a duration such as 250us, 100ms or 2s"), -1;
    return 0;
}

#define TIME_FORM "0 or N followed by ns, us, ms or s"
HZ_OPTION(opt_prezero_def, .name = "prezero", .kind = OPT_CUSTOM, .parse = policy_opt,
          .accepted = "none|boot|on_free|idle|batch=N",
          .help = "pre-zeroing policy of run=prezero (default none)");
HZ_OPTION(opt_workload_def, .name = "workload", .kind = OPT_ENUM, .dest = &opt_workload,
          .choices = wl_kind_names, .accepted = "vm_boot|churn|restart|burst",
          .help = "demand-fault workload of run=prezero and run=policies (default vm_boot)");
HZ_OPTION(opt_pages_def, .name = "pages", .kind = OPT_U64, .dest = &opt_pages, .min = 1,
          .max = DEMAND_MAX_PAGES, .accepted = "1..512",
          .help = "pages the workload touches, and frames in the pool (default: every free frame)");
HZ_OPTION(opt_chunk_def, .name = "prezero_chunk", .kind = OPT_CUSTOM, .parse = chunk_opt,
          .accepted = "4K..1G, a multiple of 4K",
          .help = "most bytes the idle loop clears between pending-work checks (default 32M)");
HZ_OPTION(opt_cycles_def, .name = "cycles", .kind = OPT_U64, .dest = &opt_cycles, .min = 1,
          .max = 100000, .accepted = "1..100000",
          .help = "churn/burst cycles, restart restarts (default 4)");
HZ_OPTION(opt_think_def, .name = "think", .kind = OPT_CUSTOM, .parse = time_opt, .dest = &opt_think,
          .accepted = TIME_FORM,
          .help = "churn: mean idle time between jobs, exponential (default 100ms)");
HZ_OPTION(opt_hold_def, .name = "hold", .kind = OPT_CUSTOM, .parse = time_opt, .dest = &opt_hold,
          .accepted = TIME_FORM,
          .help = "churn/restart/burst: busy time pages are held (default 50ms)");
HZ_OPTION(opt_idle_def, .name = "idle", .kind = OPT_CUSTOM, .parse = time_opt, .dest = &opt_idle,
          .accepted = TIME_FORM,
          .help = "burst: idle before each burst (default 1s); restart: between free and refault "
                  "(default 0)");
HZ_OPTION(opt_lead_idle_def, .name = "lead_idle", .kind = OPT_CUSTOM, .parse = time_opt,
          .dest = &opt_lead_idle, .accepted = TIME_FORM,
          .help = "idle time before the workload's first event, every policy (default 1s)");
HZ_OPTION(opt_fault_cpus_def, .name = "fault_cpus", .kind = OPT_U64, .dest = &opt_fault_cpus,
          .min = 1, .max = HZ_MAX_CPUS, .accepted = PZ_FAULT_CPUS_ACCEPTED,
          .help = "CPUs that fault each population's pages in parallel (default 1)");
HZ_OPTION(opt_zero_cpus_def, .name = "zero_cpus", .kind = OPT_U64, .dest = &opt_zero_cpus,
          .max = HZ_MAX_CPUS - 1, .accepted = PZ_ZERO_CPUS_ACCEPTED,
          .help = "policy idle: CPUs that only clear DIRTY frames, all run long (default 0)");
HZ_OPTION(opt_seed_def, .name = "workload_seed", .kind = OPT_U64, .dest = &opt_seed,
          .accepted = "0..2^64-1", .help = "workload random seed (default 1)");

/* The run q asks for with `pages` pages. Every policy gets the same event
 * stream: ZERO_REQUEST carries the batch size (the configured batch=N, else
 * every page) and the policies other than batch ignore it. */
static struct pz_config make_config(const struct pz_req *q, uint32_t pages)
{
    struct pz_policy_cfg pc = q->policy;
    struct pz_config c = {.policy = pc, .chunk_bytes = opt_chunk, .lead_idle_ns = opt_lead_idle};
    workload_defaults(&c.wl, q->kind, pages);
    c.wl.cycles = (uint32_t)opt_cycles;
    c.wl.think_ns = opt_think;
    c.wl.hold_ns = opt_hold;
    if (opt_idle != IDLE_WORKLOAD_DEFAULT)
        c.wl.idle_ns = opt_idle;
    c.wl.seed = opt_seed;
    c.wl.cpus = q->fault_cpus;
    c.background = pc.kind == PZ_IDLE && opt_zero_cpus > 0 && !q->zeroers_off;
    c.wl.zero_request = opt_policy.kind == PZ_BATCH ? opt_policy.batch : pages;
    if (pc.kind == PZ_BATCH && !pc.batch)
        c.policy.batch = c.wl.zero_request;
    return c;
}

/* ---- the environment of the event loop ---------------------------------- */

struct kctx {
    uint64_t fb;     /* page bytes */
    size_t not_zero; /* frames that did not read zero when handed to a fault */
};

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

static bool pz_sample_busy[DEMAND_MAX_SAMPLES]; /* struct pz_team_ctx sample_busy */

/* The first touch, a read at the measurement CPL (demand_touch: its
 * access time is the workload's; the ring switch around it is not), then
 * outside workload time: note whether a zeroer CPU was clearing meanwhile,
 * verify the frame and dirty every line of it, so a frame reused without
 * clearing cannot read zero. */
static uint64_t k_fault(void *ctx, uint32_t page)
{
    struct kctx *k = ctx;
    struct tenant t = {demand_page(page, k->fb), k->fb};
    size_t slot = demand_nsamples();
    struct pz_zsnap z = pz_zeroers_snap();
    uint64_t first, acc = 0, w = tsc_stop();
    if (demand_touch(smp_cpu_index(), page, &first, &acc) < 0)
        return 0; /* no frame: the count check reports demand_touch_failures() */
    uint64_t a = tsc_stop(), around = a - w > acc ? a - w - acc : 0;
    if (demand_nsamples() > slot)
        pz_sample_busy[slot] = pz_zeroers_busy_since(z);
    if (first != 0 || !fault_verify_zero(t.va, k->fb))
        k->not_zero++;
    user_run(smp_cpu_index(), pz_tenant_fn, &t);
    return tsc_stop() - a + around;
}

static int k_release(void *ctx, uint32_t page, bool zero) { return demand_release(page, zero, 0); }

/* ---- one run ------------------------------------------------------------ */

static struct fault_env pz_env;
static const struct pz_team_ctx team_ctx = {&pz_env, pz_sample_busy};
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

/* Release what the workload left mapped, then the pool must balance. */
static void finish_pool(struct pz_result *r, uint32_t pages)
{
    const char *why;
    uint32_t bad;
    for (uint32_t i = 0; i < pages; i++)
        if (demand_mapped(i))
            demand_release(i, false, 0);
    struct pool *p = &pz_env.pool;
    int rc = pool_check(p, &why, &bad);
    bool all_free = p->count[FRAME_IN_USE] == 0 && p->count[FRAME_ZEROING] == 0 &&
                    p->count[FRAME_DIRTY] + p->count[FRAME_ZEROED] == p->n;
    check(r, "pool", rc == POOL_OK && all_free, "%s (frame %d); %u in use, %u zeroing of %u",
          rc == POOL_OK ? "balanced" : why, bad == POOL_NONE ? -1 : (int)bad,
          p->count[FRAME_IN_USE], p->count[FRAME_ZEROING], p->n);
}

int pz_run_one(const struct pz_req *q, struct pz_result *r)
{
    uint32_t asked = q->pages ? q->pages : (uint32_t)opt_pages;
    bool zeroers_off = q->zeroers_off, quiet = q->quiet || zeroers_off;
    if (fault_pool_setup(&pz_env, asked ? asked : DEMAND_MAX_PAGES) < 0)
        return -1;
    if (!quiet) /* the loop faults and zeroes on the boot CPU: zero_node= makes it remote */
        fault_numa_record(&pz_env, 0);
    uint32_t pages = asked ? asked : (uint32_t)pz_env.nframes;
    *r = (struct pz_result){.cfg = make_config(q, pages),
                            .ok = true,
                            .has_off = r->has_off,
                            .off_hit = r->off_hit,
                            .off_miss = r->off_miss,
                            .zeroers_off = zeroers_off,
                            .quiet = q->quiet};
    memset(pz_sample_busy, 0, sizeof(pz_sample_busy));
    pz_policy_format(r->policy, sizeof(r->policy), &r->cfg.policy);
    r->strategy = pz_env.zero->name;
    r->frames = (uint32_t)pz_env.nframes;
    r->frame_bytes = pz_env.frame_bytes;
    r->check = fault_verify_mode();
    if (pz_env.nframes < pages) {
        result_skip("prezero.setup", "pages=%u but the pool has %zu frames", pages, pz_env.nframes);
        fault_pool_teardown(&pz_env);
        return -1;
    }
    if (demand_init(&pz_env.pool, &pz_env.lock, pages) < 0) {
        result_fail("prezero.setup", "could not set up the demand region");
        fault_pool_teardown(&pz_env);
        return -1;
    }
    if (!q->quiet)
        kprintf("prezero: %s under %s%s: %u pages of %llu MiB, lead idle %llu ms, %u faulting "
                "CPU(s)\n",
                wl_kind_names[r->cfg.wl.kind], r->policy,
                zeroers_off ? " with its zeroers off" : "", pages,
                (unsigned long long)(pz_env.frame_bytes >> 20),
                (unsigned long long)(r->cfg.lead_idle_ns / 1000000), q->fault_cpus);

    struct kctx k = {.fb = pz_env.frame_bytes};
    struct pz_ops ops = {.ctx = &k,
                         .hz = tsc_info()->hz,
                         .now = k_now,
                         .wait_until = k_wait_until,
                         .fault = k_fault,
                         .release = k_release,
                         .clear_ticks = k_clear_ticks};
    const char *why = "CPUs";
    unsigned P = q->fault_cpus, Z = r->cfg.background ? (unsigned)opt_zero_cpus : 0;
    r->fault_cpus = P;
    r->zero_cpus = Z;
    int rc = P > 1 || Z > 0 ? pz_team_run(&team_ctx, &r->cfg, &ops, &r->ns, &why, P, Z, &k.not_zero)
                            : pz_run(&pz_env.pool, &pz_env.lock, &r->cfg, &ops, &r->ns, &why);
    if (rc < 0) {
        result_fail("prezero.setup", "bad run parameter: %s", why);
        finish_pool(r, pages);
        fault_pool_teardown(&pz_env);
        return -1;
    }
    scenario_timed(r->ns.total); /* the workload's own time, in TSC cycles still */
    tally_to_ns(&r->ns);
    r->cpu_max_ns = P > 1 ? tsc_to_ns(pz_team_cpu_max()) : r->ns.populate;
    uint64_t sample_hits = collect_samples(r);
    r->c = pz_env.pool.c;
    pool_summarise(&pz_env.pool, &r->s);
    size_t bad_unused = verify_unused(&pz_env.pool);
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
    int acc = pz_check_accounting(&pz_env.pool, &r->cfg.policy, r->frames, &why);
    check(r, "accounting", acc == 0, "%s", why);
    finish_pool(r, pages);

    if (!quiet) {
        pz_report_run(r);
        fault_emit(wl_kind_names[r->cfg.wl.kind], r->policy);
    }
    fault_pool_teardown(&pz_env);
    return 0;
}

/* ---- scenarios ---------------------------------------------------------- */

uint64_t pz_zero_cpus(void) { return opt_zero_cpus; }

uint64_t pz_lead_idle_ns(const struct plan_profile *p)
{
    return option_given("lead_idle") ? opt_lead_idle : p->lead_idle_ms * 1000000ull;
}

static void apply_profile(void) { opt_lead_idle = pz_lead_idle_ns(scenario_profile()); }

/* What `runs` runs of the workload take under profile p (lib/plan.h
 * policies_ms): the pool pz_run_one() sets up, the lead idle. */
static void plan_runs(const struct plan_profile *p, const struct plan_machine *m, unsigned runs,
                      struct plan_part *out)
{
    struct plan_profile q = *p;
    struct plan_facts f = {0};
    f.frames = (unsigned)fault_pool_plan(opt_pages ? opt_pages : DEMAND_MAX_PAGES, &f.frame_bytes,
                                         fault_zero_node());
    q.policies = runs;
    q.lead_idle_ms = (unsigned)(pz_lead_idle_ns(p) / 1000000);
    out->ms = plan_policies_ms(&q, &f, m);
}

static void prezero_plan(const struct plan_profile *p, const struct plan_machine *m,
                         struct plan_part *out)
{
    plan_runs(p, m, 1, out);
}

/* Every policy, and idle once more with its zeroers off (zero_cpus > 0). */
static void policies_plan(const struct plan_profile *p, const struct plan_machine *m,
                          struct plan_part *out)
{
    plan_runs(p, m, PZ_NPOLICIES + (opt_zero_cpus > 0), out);
}

static void scenario_prezero_run(void)
{
    static struct pz_result r;
    apply_profile();
    pz_check_cpus(opt_fault_cpus, opt_zero_cpus);
    struct pz_req q = {.policy = opt_policy,
                       .kind = (enum wl_kind)opt_workload,
                       .fault_cpus = (unsigned)opt_fault_cpus};
    pz_run_one(&q, &r);
}

static void scenario_policies_run(void)
{
    static struct pz_result r[PZ_NPOLICIES], off;
    size_t n = 0;
    apply_profile();
    pz_check_cpus(opt_fault_cpus, opt_zero_cpus);
    for (unsigned k = 0; k < PZ_NPOLICIES; k++) {
        struct pz_policy_cfg pc = {(enum pz_policy)k, 0}; /* batch: N from make_config */
        if (k == PZ_BATCH && opt_policy.kind == PZ_BATCH)
            pc.batch = opt_policy.batch;
        /* Interference: idle with its zeroers off (the idle loop on the
         * faulting CPU) first, then with them; compared by fault kind. */
        struct pz_req q = {.policy = pc,
                           .kind = (enum wl_kind)opt_workload,
                           .fault_cpus = (unsigned)opt_fault_cpus};
        struct pz_req q_off = q;
        q_off.zeroers_off = true;
        bool has_off = k == PZ_IDLE && opt_zero_cpus > 0 && pz_run_one(&q_off, &off) == 0;
        if (has_off) {
            r[n].has_off = true; /* pz_run_one keeps these; the record carries both */
            r[n].off_hit = off.lat.hit;
            r[n].off_miss = off.lat.miss;
        }
        if (pz_run_one(&q, &r[n]) < 0)
            break; /* no frames: every other policy would stop the same way */
        n++;
    }
    if (n)
        pz_report_table(r, n);
}

HZ_SCENARIO(scenario_prezero, .name = "prezero", .run = scenario_prezero_run, .plan = prezero_plan,
            .order = 30, .help = "one workload under the prezero= policy (docs/prezero.md)");
HZ_SCENARIO(scenario_policies, .name = "policies", .run = scenario_policies_run,
            .plan = policies_plan, .order = 31, .in_default = true,
            .help = "the workload under every pre-zeroing policy, side by side");
