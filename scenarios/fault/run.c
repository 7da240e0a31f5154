/*
 * scenarios/fault/run.c - the demand-fault self-test (`run=fault`).
 */
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/print.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/fault_pool.h"
#include "measure/memop.h"
#include "mm/demand.h"
#include "mm/paging.h"
#include "scenarios/fault/fault.h"

struct fault_options fault_opts;
HZ_OPTION(opt_fault_pages, .name = "fault_pages", .kind = OPT_U64, .dest = &fault_opts.pages,
          .min = 1, .max = DEMAND_MAX_PAGES, .accepted = "1..512",
          .help = "pages the fault scenarios touch (default: every free frame)");

HZ_OPTION(opt_fault_rounds, .name = "fault_rounds", .kind = OPT_U64, .dest = &fault_opts.rounds,
          .min = 1, .max = 100, .accepted = "1..100",
          .help = "rounds of the fault self-test, each faulting every page zeroed in the fault "
                  "and pre-zeroed (default 10, 2 under TCG)");

/* Dirty every pool frame again (they are all free): a frame that was
 * faulted is all zero but a word, and a clear of zeroes flatters CPUs with
 * zero-store elimination. */
static void redirty(struct fault_env *env, unsigned round)
{
    for (uint32_t i = 0; i < env->nframes; i++) {
        uint64_t phys = pool_phys(&env->pool, i);
        struct memop m = {.op = MEMOP_DIRTY,
                          .p = (void *)(uintptr_t)phys,
                          .bytes = env->frame_bytes,
                          .seed = phys + round};
        user_run(smp_cpu_index(), memop_run, &m);
    }
}

/* One pass: fault every page once (zeroed in the fault, or from frames the
 * pool pre-zeroed just before), check it, release it. Returns the pages
 * that read back non-zero, or -1 when a fault found no frame. */
static long fault_pass(struct fault_env *env, size_t n, bool prezero)
{
    long bad = 0;
    if (prezero) {
        spin_lock(&env->lock);
        int rc = pool_zero_some(&env->pool, (uint32_t)env->nframes, ZERO_BOOT, 0);
        spin_unlock(&env->lock);
        if (rc != POOL_OK)
            return -1;
    }
    for (size_t p = 0; p < n; p++) {
        volatile uint64_t *va = demand_page(p, env->frame_bytes);
        uint64_t first, acc = 0;
        /* the faulting access: a read, like a first touch */
        if (demand_touch(smp_cpu_index(), p, &first, &acc) < 0) {
            result_fail("fault.demand", "no frame for the fault on page %zu: %s", p,
                        demand_error());
            return -1;
        }
        scenario_timed(acc);
        if (first != 0 || !fault_verify_zero(va, env->frame_bytes))
            bad++;
        *va = 0x5a5a5a5a5a5a5a5aull; /* written through the new mapping */
    }
    for (size_t p = 0; p < n; p++)
        demand_release(p, false, 0);
    return bad;
}

/* One cell per fault kind for the verdict (kernel/verdict.h): *acc and the
 * access times behind it, in run order, and the fault path m they took. */
static void verdict_fault(bool prezeroed, const struct stats *acc, bool ok,
                          const struct fault_clear *m)
{
    static uint64_t a[DEMAND_MAX_SAMPLES];
    static char model[32]; /* the fault path m: fault_clear= ("extent": hugezero's own) */
    fault_clear_name(m, model, sizeof(model));
    size_t na = 0;
    for (size_t i = 0; i < demand_nsamples(); i++) {
        const struct demand_sample *s = demand_sample(i);
        if (s->prezeroed == prezeroed && s->access_cyc)
            a[na++] = tsc_to_ns(s->access_cyc);
    }
    struct vd_cell c = {.kind = &fault_kind,
                        .model = model,
                        .bytes = demand_page_bytes(),
                        .threads = 1,
                        .prezeroed = prezeroed,
                        .verified = ok,
                        .st = *acc,
                        .samples = a,
                        .nsamples = na};
    verdict_add(&c);
}

#define PASSES_TIMEOUT_US (600ull * 1000000) /* TCG-proof */

/* The fault passes of run=fault, on whichever CPU calls run_passes. */
struct passes {
    struct fault_env *env;
    size_t n;
    unsigned rounds;
    long bad, passes;
};

static void run_passes(struct passes *p)
{
    for (unsigned r = 0; r < p->rounds && p->bad >= 0; r++)
        for (int k = 0; k < 2 && p->bad >= 0; k++, p->passes++) { /* kinds alternate first */
            if (p->passes)
                redirty(p->env, r);
            long b = fault_pass(p->env, p->n, (k ^ (int)(r & 1)) == 1);
            p->bad = b < 0 ? -1 : p->bad + b;
        }
}

static void passes_fn(unsigned cpu, void *arg) { run_passes(arg); }

void fault_selftest(void)
{
    static struct fault_env env;
    struct fault_path path = fault_path_option();
    if (fault_pool_setup(&env, fault_opts.pages ? fault_opts.pages : FAULT_POOL_MAX, &path) < 0)
        return;
    env.asked = fault_opts.pages;
    size_t n = fault_opts.pages && fault_opts.pages < env.nframes ? fault_opts.pages : env.nframes;
    unsigned rounds = fault_rounds_of(scenario_profile());
    int cpu = fault_node_cpu(fault_cpu_node());
    if (cpu < 0) {
        result_skip("fault.node", "fault_node=%d has no online CPU", fault_cpu_node());
        fault_pool_teardown(&env);
        return;
    }
    if (demand_init(&env.pool, &env.lock, n) < 0) {
        result_fail("fault.demand", "could not set up the demand region");
        return;
    }
    kprintf("faults: %u rounds of %zu faults zeroed in the fault and %zu from pre-zeroed "
            "frames, interleaved, every frame dirtied before each pass\n",
            rounds, n, n);
    struct passes p = {&env, n, rounds, 0, 0};
    fault_numa_record(&env, (unsigned)cpu);
    if (cpu == 0) {
        run_passes(&p);
    } else { /* the faults on a CPU of fault_node= */
        struct smp_set set;
        smp_set_clear(&set);
        smp_set_add(&set, (unsigned)cpu);
        if (smp_run(&set, passes_fn, &p, PASSES_TIMEOUT_US) != 0) {
            result_fail("fault.node", "CPU %d did not finish its faults", cpu);
            return;
        }
    }
    long bad = p.bad, passes = p.passes;
    if (bad)
        result_fail("fault.zeroed", "%ld of %zu faulted pages were not zero (%s check)", bad,
                    n * (size_t)passes, fault_verify_mode());
    else
        result_pass("fault.zeroed");
    if (demand_faults() != n * (size_t)passes)
        result_fail("fault.count", "%llu faults for %zu pages in %ld passes",
                    (unsigned long long)demand_faults(), n, passes);
    else
        result_pass("fault.count");
    struct stats sync, pre;
    fault_emit_kind(0, "none", 0, &sync, &env.clear);
    fault_emit_kind(0, "boot", 1, &pre, &env.clear);
    verdict_fault(false, &sync, bad == 0, &env.clear);
    verdict_fault(true, &pre, bad == 0, &env.clear);
    const char *why;
    uint32_t badidx;
    if (pool_check(&env.pool, &why, &badidx) != POOL_OK)
        result_fail("fault.pool", "pool does not balance: %s (frame %u)", why, badidx);
    else
        result_pass("fault.pool");
    fault_pool_teardown(&env);
}

HZ_SCENARIO(scenario_fault, .name = "fault", .run = fault_selftest, .plan = fault_plan, .order = 20,
            .in_default = true,
            .help = "demand-fault self-test: every page faulted zeroed in the fault and "
                    "pre-zeroed, in interleaved rounds");
