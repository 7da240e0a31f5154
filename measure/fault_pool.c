/*
 * measure/fault_pool.c - the free-frame pool of the fault scenarios: its
 * set-up and teardown, the `zero=`, `fault_clear=` and `verify=` options,
 * the pool's clear function and the `fault` records.
 */
#include "measure/fault_pool.h"
#include "arch/numa.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/lava.h"
#include "kernel/progress.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/memop.h"
#include "mm/demand.h"
#include "mm/mm.h"
#include "mm/mtrr.h"
#include "mm/paging.h"

_Static_assert(FAULT_POOL_MAX <= DEMAND_MAX_FRAMES,
               "every pool frame must be mappable by the demand region (mm/demand.h)");

static struct pool_frame storage[FAULT_POOL_MAX];
static int verify_full;
static const char *const verify_modes[] = {"sampled", "full", 0};
static char zero_name[24] = "rep_stosb";

static int zero_opt(const struct option *o, const char *v, char *err, size_t n)
{
    const struct clear_strategy *s = clear_find(v);
    if (!s)
        return hz_snprintf(err, n, "no strategy '%s'", v), -1;
    hz_snprintf(zero_name, sizeof(zero_name), "%s", v);
    return 0;
}

static struct fault_clear fault_clear = {FAULT_CLEAR_EXTENT, 0};

static int fault_clear_opt(const struct option *o, const char *v, char *err, size_t n)
{
    return fault_clear_parse(v, &fault_clear, err, n);
}

HZ_OPTION(
    opt_fault_clear, .name = "fault_clear", .kind = OPT_CUSTOM, .parse = fault_clear_opt,
    .accepted = "extent|linux_4k|linux_hot_last|linux_batch[=SIZE]",
    .help = "how a fault clears its frame with zero= (measure/fault_clear.h; default extent)");
HZ_OPTION(opt_verify, .name = "verify", .kind = OPT_ENUM, .dest = &verify_full,
          .choices = verify_modes, .accepted = "sampled|full",
          .help = "check faulted frames fully or by sampling (default sampled)");
HZ_OPTION(opt_zero, .name = "zero", .kind = OPT_CUSTOM, .parse = zero_opt,
          .accepted = "a clear strategy name (docs/strategies.md)",
          .help = "strategy that zeroes frames in faults and pre-zeroing (default rep_stosb)");

const char *fault_verify_mode(void) { return verify_modes[verify_full]; }

static uint64_t clear_cyc[HZ_MAX_CPUS];   /* fault_clear_cycles(), per CPU */
static uint64_t clear_calls[HZ_MAX_CPUS]; /* fault_clear_calls(), per CPU */
/* The pool's clear function (mm/pool.h): the environment's strategy at the
 * measurement CPL (arch/user.h), through the fault path's own stack since
 * the #PF handler calls it. A fault's frame (hint: the faulting address) is
 * cleared the way env->clear says; other zeroing (idle, boot, on_free,
 * batch: hint 0) in one call. */
static void zero_fn(void *ctx, void *dst, size_t bytes, uint64_t hint)
{
    const struct fault_env *env = ctx;
    unsigned cpu = smp_cpu_index();
    if (hint && env->clear.model != FAULT_CLEAR_EXTENT) {
        uintptr_t frame = (uintptr_t)dst & ~(uintptr_t)(env->frame_bytes - 1);
        struct fault_clear_job job = {.m = &env->clear,
                                      .s = env->zero,
                                      .frame = (uint8_t *)frame,
                                      .frame_bytes = env->frame_bytes,
                                      .from = (uintptr_t)dst - frame,
                                      .hint = hint & (env->frame_bytes - 1)};
        user_run_fault(cpu, fault_clear_run, &job);
        clear_cyc[cpu] += job.cycles;
        clear_calls[cpu] += job.calls;
        return;
    }
    struct memop m = {.op = MEMOP_CLEAR, .p = dst, .bytes = bytes, .s = env->zero};
    user_run_fault(cpu, memop_run, &m);
    clear_cyc[cpu] += m.cycles;
    clear_calls[cpu]++;
}

uint64_t fault_clear_cycles(void) { return clear_cyc[smp_cpu_index()]; }
uint64_t fault_clear_calls(void) { return clear_calls[smp_cpu_index()]; }

uint64_t fault_clear_calls_all(void)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < HZ_MAX_CPUS; i++)
        n += clear_calls[i];
    return n;
}

struct fault_path fault_path_option(void)
{
    return (struct fault_path){clear_find(zero_name), fault_clear, fault_zero_node()};
}

int fault_pool_setup(struct fault_env *env, size_t max, const struct fault_path *path)
{
    return fault_pool_setup_size(env, max, 0, path);
}

int fault_pool_setup_size(struct fault_env *env, size_t max, uint64_t frame_bytes,
                          const struct fault_path *path)
{
    return fault_pool_setup_node(env, max, frame_bytes, path->node, path);
}

/* One free frame of env->frame_bytes from env->node (any node for -1). */
static int take_frame(struct frames *f, const struct fault_env *env, uint64_t *phys)
{
    const struct numa_node *n = env->node >= 0 ? &numa_get()->node[env->node] : NULL;
    size_t idx;
    int err;
    if (env->frame_bytes == PAGE_SIZE_1G) {
        err = n ? frames_1g_take_in(f, n->range, n->nrange, &idx) : frames_1g_take(f, &idx);
        if (err == FRAMES_OK)
            *phys = frames_1g_base(f, idx);
        return err;
    }
    return n ? frames_alloc_in(f, PAGE_SIZE_2M, n->range, n->nrange, phys)
             : frames_alloc(f, PAGE_SIZE_2M, FRAMES_NO_LIMIT, phys);
}

/* The pool's frame size (*fb; frame_bytes 0 picks: 1 GiB frames while node
 * has a free one, else 2 MiB, *fallback) and its most frames (returned,
 * max within the caps); *avail free frames of that size. Node valid. */
static size_t shape(size_t max, uint64_t frame_bytes, int node, uint64_t *fb, size_t *avail,
                    bool *fallback)
{
    struct frames *f = mm_frames();
    const struct numa_topo *t = numa_get();
    size_t free1g = node < 0
                        ? frames_1g_free_count(f)
                        : frames_1g_free_count_in(f, t->node[node].range, t->node[node].nrange);
    *fallback = !frame_bytes && !free1g;
    *fb = frame_bytes ? frame_bytes : *fallback ? PAGE_SIZE_2M : PAGE_SIZE_1G;
    if (max > FAULT_POOL_MAX)
        max = FAULT_POOL_MAX;
    if (*fb == PAGE_SIZE_2M && max > DEMAND_MAX_PAGES)
        max = DEMAND_MAX_PAGES;
    *avail = *fb == PAGE_SIZE_1G ? free1g : frames_count_2m(f);
    return max;
}

size_t fault_pool_plan(size_t max, uint64_t *frame_bytes, int node)
{
    size_t avail;
    bool fallback;
    if (node < -1 || node >= (int)numa_get()->n)
        return 0;
    max = shape(max, *frame_bytes, node, frame_bytes, &avail, &fallback);
    return avail < max ? avail : max;
}

int fault_pool_setup_node(struct fault_env *env, size_t max, uint64_t frame_bytes, int node,
                          const struct fault_path *path)
{
    struct frames *f = mm_frames();
    const struct numa_topo *t = numa_get();
    const char *missing;
    env->zero = path->zero;
    env->clear = path->clear;
    env->node = node;
    if (!clear_supported(env->zero, &missing)) {
        result_skip("fault.setup", "zero=%s needs %s, which this CPU lacks", env->zero->name,
                    missing);
        return -1;
    }
    if (node < -1 || node >= (int)t->n) {
        result_skip("fault.setup", "no NUMA node %d (this machine has %u)", node, t->n);
        return -1;
    }
    bool fallback;
    size_t avail;
    env->asked = 0;
    max = shape(max, frame_bytes, node, &env->frame_bytes, &avail, &fallback);
    if (fallback)
        kprintf("faults: no free 1 GiB frame: using 2 MiB frames instead\n");
    pool_init(&env->pool, storage, (uint32_t)max, env->frame_bytes, zero_fn, env);
    env->lock = (struct spinlock){0};
    env->nframes = 0;
    progress_begin("dirty frames", (unsigned)(avail < max ? avail : max));
    while (env->nframes < max) {
        progress_step((unsigned)env->nframes);
        uint64_t phys;
        if (take_frame(f, env, &phys) != FRAMES_OK)
            break;
        int mt = mm_mem_type(phys, env->frame_bytes);
        if (mt != MC_WB && mt != MC_NONE) { /* benchmarks must run on write-back memory */
            kprintf("faults: frame 0x%llx is %s, not WB: left out\n", (unsigned long long)phys,
                    mem_cache_name(mt));
            continue;
        }
        pool_add(&env->pool, phys, 0);
        struct memop m = {.op = MEMOP_DIRTY,
                          .p = (void *)(uintptr_t)phys,
                          .bytes = env->frame_bytes,
                          .seed = phys};
        user_run(smp_cpu_index(), memop_run, &m); /* an earlier tenant's data */
        env->nframes++;
    }
    progress_step((unsigned)env->nframes);
    if (!env->nframes) {
        if (node >= 0)
            result_skip("fault.setup", "no free %llu MiB frame on NUMA node %d",
                        (unsigned long long)(env->frame_bytes >> 20), node);
        else
            result_skip("fault.setup", "no free frame for the demand region");
        return -1;
    }
    char from[32] = "";
    if (node >= 0)
        hz_snprintf(from, sizeof(from), " from NUMA node %d", node);
    kprintf("faults: pool of %zu x %llu MiB frames%s, dirtied; zeroing with %s\n", env->nframes,
            (unsigned long long)(env->frame_bytes >> 20), from, env->zero->name);
    return 0;
}

void fault_pool_teardown(struct fault_env *env)
{
    struct frames *f = mm_frames();
    for (uint32_t i = 0; i < env->nframes; i++) {
        uint64_t phys = pool_phys(&env->pool, i);
        if (env->frame_bytes == PAGE_SIZE_1G)
            frames_1g_put(f, (size_t)frames_1g_find(f, phys));
        else
            frames_free(f, phys, PAGE_SIZE_2M);
    }
    env->nframes = 0;
}

bool fault_verify_zero(const volatile void *p, uint64_t bytes)
{
    struct memop m = {.op = MEMOP_VERIFY,
                      .p = (void *)(uintptr_t)p,
                      .bytes = bytes,
                      .check = verify_full ? MEMOP_EXACT : MEMOP_SAMPLED};
    user_run(smp_cpu_index(), memop_run, &m);
    return m.zero;
}

/* One `fault` record for demand sample s. */
static void emit_sample(const char *workload, const char *policy, const struct demand_sample *s,
                        const struct fault_clear *m)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "fault");
    if (workload)
        rec_str(&r, "workload", workload);
    rec_str(&r, "policy", policy);
    rec_u64(&r, "page", s->page);
    rec_u64(&r, "bytes", demand_page_bytes());
    /* the fault path: hugezero's own one-call extent, or a Linux-faithful
     * model, and the Linux build it stands for (measure/fault_clear.h) */
    struct fault_clear_linux lx = fault_clear_linux(m, demand_page_bytes());
    char model[32];
    fault_clear_name(m, model, sizeof(model));
    rec_str(&r, "fault_clear", model);
    rec_str(&r, "fault_path", m->model == FAULT_CLEAR_EXTENT ? "hugezero_extent" : "linux");
    rec_str(&r, "kernel", lx.kernel);
    rec_str(&r, "preempt", lx.preempt);
    rec_u64(&r, "service_ns", tsc_to_ns(s->service_cyc));
    rec_u64(&r, "clear_ns", tsc_to_ns(s->clear_cyc));
    rec_u64(&r, "service_cyc", s->service_cyc);
    rec_u64_opt(&r, "access_ns", s->access_cyc != 0, tsc_to_ns(s->access_cyc));
    rec_bool(&r, "prezeroed", s->prezeroed);
    rec_bool(&r, "emulated_ring0", user_ring0_emulated());
    rec_hex(&r, "frame", s->phys);
    record_emit(&r);
}

size_t fault_emit_kind(const char *workload, const char *policy, int kind, struct stats *acc,
                       const struct fault_clear *m)
{
    static uint64_t ns[DEMAND_MAX_SAMPLES], a[DEMAND_MAX_SAMPLES];
    size_t n = 0, na = 0;
    for (size_t i = 0; i < demand_nsamples(); i++) {
        const struct demand_sample *s = demand_sample(i);
        if (kind >= 0 && s->prezeroed != (kind == 1))
            continue;
        emit_sample(workload, policy, s, m);
        ns[n++] = tsc_to_ns(s->service_cyc);
        if (s->access_cyc)
            a[na++] = tsc_to_ns(s->access_cyc);
    }
    struct stats st;
    stats_compute(&st, ns, n);
    stats_compute(acc, a, na);
    if (!workload && kind == 0 && n) /* results=lava: the self-test's median, ns -> ms x 1000 */
        lava_measure(LAVA_MIN, st.median / 1000, "ms", "fault.service_median");
    kprintf("faults (%s): %zu x %llu MiB: service min %llu us, median %llu us, max %llu us; "
            "access (as the program sees it) median %llu us of %zu%s%s%s\n",
            policy, n, (unsigned long long)(demand_page_bytes() >> 20),
            (unsigned long long)(st.min / 1000), (unsigned long long)(st.median / 1000),
            (unsigned long long)(st.max / 1000), (unsigned long long)(acc->median / 1000), na,
            tsc_reliable() ? "" : " -- unreliable clock: ", tsc_unreliable_reason(),
            user_ring0_emulated() ? " (ring 0 emulated: mostly hypervisor time)" : "");
    return n;
}

size_t fault_emit(const char *workload, const char *policy, const struct fault_clear *m)
{
    struct stats acc;
    return fault_emit_kind(workload, policy, -1, &acc, m);
}
