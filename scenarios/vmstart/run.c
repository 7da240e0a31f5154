/*
 * scenarios/vmstart/run.c - `run=vmstart`, the VM-start model (scenarios/vmstart/vmstart.h,
 * docs/prezero.md "The VM-start model"): fault S bytes of 1 GiB pages (2 MiB
 * in the fallback) in with T = 1..all faulting CPUs under the policies none,
 * boot, idle and batch (the vm_boot workload of measure/workload.h, run by
 * measure/prezero_run.c pz_run_one: every frame dirty first, verified after),
 * and the qemu rows: policy none with fault_clear=linux_4k and
 * linux_batch=32M, QEMU's touch-every-page start with a Linux-faithful
 * clear in each fault (scenarios/vmstart/qemu.c).
 *
 * Rounds (lib/interleave.h ilv_run): one untimed warm-up round, then
 * `vmstart_rounds` timed rounds, every cell once per round in a fresh
 * random order each round; each cell reports its median wall time with the
 * median's 95 % interval. The default S is every free
 * 1 GiB frame up to 64, the seed thread's VM (64 x 1 GiB faulted at start).
 * Before the rounds, one untimed pool set-up dirties every frame, so the
 * host backs every page before anything is timed.
 */
#include "arch/tsc.h"
#include "kernel/exit.h"
#include "kernel/options.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "measure/fault_pool.h"
#include "mm/demand.h"
#include "mm/frames.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "scenarios/vmstart/vmstart.h"

#define VS_ROUNDS_DEFAULT 6         /* the fewest repeats whose median has a 95 % interval */
#define VS_SEED 0x766d7374617274ull /* "vmstart": the interleaving orders */
#define VS_CI_X100 200              /* rounds are fixed: the +-2 % target only names "stable" */

static uint64_t vs_size; /* bytes; 0: every free frame up to the seed's 64 GiB */
static char vs_size_text[24] = "all";
static uint64_t vs_cpus; /* largest T; 0: every online CPU */

static int size_opt(const struct option *o, const char *v, char *err, size_t n)
{
    uint64_t b = 0;
    if (strcmp(v, "all") != 0 && (cmdline_parse_size(v, &b) < 0 || b < PAGE_SIZE_2M))
        return hz_snprintf(err, n, "want all or a size of at least 2M"), -1;
    vs_size = b;
    hz_snprintf(vs_size_text, sizeof(vs_size_text), "%s", v);
    return 0;
}

#define VS_SIZE_ACCEPTED "all|SIZE (SIZE >= 2M, whole frames, at most the free frames)"
#define VS_CPUS_ACCEPTED "1..256, at most the CPUs online"
HZ_OPTION(opt_vs_size, .name = "vmstart_size", .kind = OPT_CUSTOM, .parse = size_opt,
          .accepted = VS_SIZE_ACCEPTED,
          .help = "run=vmstart: the VM size S (default all: every free 1 GiB frame up to 64)");
HZ_OPTION(opt_vs_cpus, .name = "vmstart_cpus", .kind = OPT_U64, .dest = &vs_cpus, .min = 1,
          .max = VS_MAX_T, .accepted = VS_CPUS_ACCEPTED,
          .help = "run=vmstart: the largest faulting CPU count T (default every online CPU)");
HZ_OPTION(opt_vs_rounds, .name = "vmstart_rounds", .kind = OPT_U64, .dest = &vs_opts.rounds,
          .min = 1, .max = VS_MAX_ROUNDS, .accepted = "1..20",
          .help = "run=vmstart: interleaved rounds of every cell (default 6)");
struct vmstart_options vs_opts = {.rounds = VS_ROUNDS_DEFAULT};
static const char *const rows_choices[] = {"profile", "all", "qemu", 0};
HZ_OPTION(opt_vs_rows, .name = "vmstart_rows", .kind = OPT_ENUM, .dest = &vs_opts.rows,
          .choices = rows_choices, .accepted = "all|qemu",
          .help = "run=vmstart: all (every pre-zeroing policy and the qemu rows; run=full and a "
                  "run= list) or qemu (only the qemu rows, the verdict's VM start: run=default)");

static struct vs_run run;
static struct vs_cell cells[VS_KINDS * VS_MAX_T];
static unsigned order[VS_KINDS * VS_MAX_T];
static unsigned cpu_list[VS_MAX_T]; /* the first tmax online CPUs, as pz_team_run takes them */

const char *vs_kind_name(const struct vs_run *v, enum vs_kind k)
{
    static const char *const names[] = {"none", "boot", "idle", 0, "qemu_4k", "qemu_batch"};
    return k == VS_BATCH ? v->batch : k < VS_KINDS ? names[k] : "?";
}

/* One repeat of a fault cell of v: the vm_boot workload under its policy
 * with `threads` faulting CPUs (a qemu row: policy none with its
 * Linux-faithful fault clear in the request), its figures kept unless it
 * is the warm-up. False when the run could not start. */
static bool run_fault(const struct vs_run *v, struct vs_cell *c, bool keep)
{
    static struct pz_result r;
    static const enum pz_policy kinds[] = {PZ_NONE, PZ_BOOT, PZ_IDLE, PZ_BATCH, PZ_NONE, PZ_NONE};
    struct pz_req q = v->req;
    q.policy = (struct pz_policy_cfg){kinds[c->kind], 0};
    q.kind = WL_VM_BOOT;
    q.pages = v->pages;
    q.fault_cpus = c->threads;
    q.zero_cpus = 0; /* size_run() refuses zero_cpus= */
    q.quiet = true;
    if (VS_QEMU(c->kind))
        q.path.clear = *vs_qemu_clear(c->kind);
    uint64_t calls0 = fault_clear_calls_all();
    int rc = pz_run_one(&q, &r);
    if (rc < 0)
        return false;
    if (keep && VS_QEMU(c->kind))
        c->calls += fault_clear_calls_all() - calls0;
    c->bad |= !r.ok;
    if (!keep)
        return true;
    c->wall[c->n] = r.ns.populate;
    c->pre[c->n] = r.ns.prezero + r.ns.idle_zeroing;
    c->own[c->n] = r.cpu_max_ns;
    c->faults += r.ns.faults;
    c->hits += r.c.taken_prezeroed;
    c->n++;
    return true;
}

static _Noreturn void config_error(const char *option, const char *value, const char *accepted,
                                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

uint64_t vs_frames_wanted(uint64_t frame_bytes)
{
    return vs_size ? (vs_size + frame_bytes - 1) / frame_bytes
                   : (VS_SEED_FRAMES * PAGE_SIZE_1G) / frame_bytes;
}

unsigned vs_tmax_of(unsigned online)
{
    return vs_cpus ? (unsigned)vs_cpus : online < VS_MAX_T ? online : VS_MAX_T;
}

/* Bad input found at run time: a `config` record, then exit HZ_CONFIG. */
static _Noreturn void config_error(const char *option, const char *value, const char *accepted,
                                   const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    hz_vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    options_config_error(option, value, why, accepted);
    hz_exit(HZ_CONFIG);
}

/* S and T against the machine: config errors when they do not fit. Sets
 * run.pages, frame_bytes, bytes and tmax after an untimed pool set-up (the
 * host backs every page); false when there is no frame at all (its `skip`
 * record says so). */
static bool size_run(void)
{
    unsigned online = smp_online();
    char val[24];
    hz_snprintf(val, sizeof(val), "%u", run.req.zero_cpus);
    if (run.req.zero_cpus)
        config_error("zero_cpus", val, "0 with run=vmstart",
                     "run=vmstart's idle policy clears in the lead idle period, on CPU 0");
    hz_snprintf(val, sizeof(val), "%llu", (unsigned long long)vs_cpus);
    if (vs_cpus > online)
        config_error("vmstart_cpus", val, VS_CPUS_ACCEPTED, "%u CPU(s) online", online);
    run.tmax = vs_tmax_of(online);
    if (!vs_cpus && online > VS_MAX_T)
        kprintf("vmstart: %u CPUs online: thread counts 1..%u only\n", online, VS_MAX_T);

    size_t free1g = frames_1g_free_count(mm_frames());
    run.frame_bytes = free1g ? PAGE_SIZE_1G : PAGE_SIZE_2M;
    uint64_t want = vs_frames_wanted(run.frame_bytes);
    if (want > DEMAND_MAX_PAGES && vs_size)
        config_error("vmstart_size", vs_size_text, VS_SIZE_ACCEPTED,
                     "%llu frames of %llu MiB: the demand region maps at most %u",
                     (unsigned long long)want, (unsigned long long)(run.frame_bytes >> 20),
                     DEMAND_MAX_PAGES);
    want = want > DEMAND_MAX_PAGES ? DEMAND_MAX_PAGES : want;
    if (free1g && want > free1g && vs_size)
        config_error("vmstart_size", vs_size_text, VS_SIZE_ACCEPTED,
                     "%llu frames of 1024 MiB wanted, %zu free", (unsigned long long)want, free1g);
    want = free1g && want > free1g ? free1g : want;
    struct fault_env fill; /* untimed: dirties every frame, the warm-up */
    if (fault_pool_setup(&fill, want, &run.req.path) < 0)
        return false;
    size_t got = fill.nframes;
    fault_pool_teardown(&fill);
    if (got < want && vs_size)
        config_error("vmstart_size", vs_size_text, VS_SIZE_ACCEPTED,
                     "%llu frames of %llu MiB wanted, %zu free", (unsigned long long)want,
                     (unsigned long long)(run.frame_bytes >> 20), got);
    run.pages = (uint32_t)got;
    run.bytes = got * run.frame_bytes;
    for (unsigned i = 0, k = 0; i < smp_count() && k < run.tmax; i++)
        if (smp_cpu(i)->state == SMP_CPU_ONLINE)
            cpu_list[k++] = i;
    return true;
}

/* The rounds' request, which vmstart_run() builds on its stack and hands
 * to every repeat by pointer (ilv_run()'s arg): the run and its cells. */
struct vs_rounds {
    const struct vs_run *v;
    struct vs_cell *cells;
};

static bool repeat(void *arg, size_t cell, unsigned round)
{
    const struct vs_rounds *x = arg;
    return run_fault(x->v, &x->cells[x->v->first * x->v->tmax + cell], round > 0);
}

static void vmstart_run(void)
{
    static uint64_t scratch[VS_MAX_ROUNDS];
    run.req = pz_req_options(vmstart_settings_get(scenario_profile())->lead_idle_ms);
    if (!size_run())
        return;
    run.rounds = (unsigned)vs_opts.rounds;
    run.strategy = run.req.path.zero->name;
    hz_snprintf(run.batch, sizeof(run.batch), "batch=%u", run.pages);
    run.first = vs_first_kind(scenario_profile());
    unsigned nc = VS_KINDS * run.tmax, c0 = run.first * run.tmax;
    for (unsigned i = 0; i < nc; i++)
        cells[i] =
            (struct vs_cell){.kind = (enum vs_kind)(i / run.tmax), .threads = i % run.tmax + 1};
    bool all = run.first == VS_NONE;
    kprintf("vmstart: %u x %llu MiB = %llu MiB, T = 1..%u, %s%s%sthe qemu rows, zero=%s, a warm-up "
            "and %u timed rounds interleaved%s\n",
            run.pages, (unsigned long long)(run.frame_bytes >> 20),
            (unsigned long long)(run.bytes >> 20), run.tmax, all ? "policies none boot idle " : "",
            all ? run.batch : "", all ? " and " : "only ", run.strategy, run.rounds,
            tsc_reliable() ? "" : " (TSC not reliable: times indicative only)");
    vs_model_echo(&run);
    struct ilv_rule rule = {run.rounds, run.rounds, VS_CI_X100, 0};
    static enum ilv_verdict stop[VS_KINDS * VS_MAX_T];
    static struct ilv_series series[VS_KINDS * VS_MAX_T];
    for (unsigned i = c0; i < nc; i++)
        series[i - c0] = (struct ilv_series){cells[i].wall, &cells[i].n};
    struct vs_rounds x = {&run, cells};
    struct ilv_run ir = {.seed = VS_SEED,
                         .rule = &rule,
                         .ncells = nc - c0,
                         .order = order,
                         .scratch = scratch,
                         .series = series,
                         .repeat = repeat,
                         .arg = &x,
                         .stop = stop};
    unsigned done = 0;
    if (ilv_run(&ir, &done) == ILV_ABORT)
        return; /* no frames or a stuck CPU (recorded): every later cell would stop alike */
    vs_report(&run, cells);
    for (unsigned i = VS_Q4K * run.tmax; i < nc; i++) { /* the verdict's VM start */
        const struct vs_cell *c = &cells[i];
        unsigned t = c->threads;
        struct vd_cell v = {.kind = &vmstart_kind,
                            .strategy = vs_kind_name(&run, c->kind),
                            .model = vs_qemu_model(c->kind),
                            .ceiling_x1000 = vs_bw_ceiling_x1000(),
                            .bytes = run.bytes,
                            .threads = t,
                            .verified = !c->bad,
                            .st = c->st,
                            .samples = c->wall,
                            .nsamples = c->n};
        verdict_add(&v);
    }
    size_t bad = 0;
    for (unsigned i = c0; i < nc; i++)
        bad += cells[i].bad;
    if (bad)
        result_fail("vmstart.checks", "%zu of %u cells had a failed check (see above)", bad,
                    nc - c0);
    else
        result_pass("vmstart.checks");
}

HZ_SCENARIO(scenario_vmstart, .name = "vmstart", .run = vmstart_run, .plan = vmstart_plan,
            .order = 32, .in_default = true,
            .help = "VM start: S faulted with T = 1..all CPUs under none, boot, idle, batch "
                    "(vmstart_rows=all) and "
                    "the qemu rows (linux_4k, linux_batch=32M); knee and 2 TB model "
                    "(docs/prezero.md)");
