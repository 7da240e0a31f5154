/*
 * measure/prezero_opts.c - the options of the pre-zeroing runner
 * (docs/options.md, docs/prezero.md "Options"), which run=prezero,
 * run=policies and run=vmstart share, and the request they ask for
 * (measure/prezero_run.h pz_req_options): the runner itself reads none of
 * them, only the request a scenario hands it.
 */
#include "kernel/options.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "measure/prezero_priv.h"

static struct pz_policy_cfg opt_policy = {PZ_NONE, 0};
static int opt_workload = WL_VM_BOOT;
static uint64_t opt_pages; /* 0: every frame of the pool */
static uint64_t opt_chunk = PZ_CHUNK_DEFAULT;
static uint64_t opt_cycles = 4;
static uint64_t opt_think = 100000000; /* ns */
static uint64_t opt_hold = 50000000;   /* ns */
static uint64_t opt_idle = PZ_IDLE_WORKLOAD;
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

struct pz_req pz_req_options(unsigned lead_idle_ms)
{
    return (struct pz_req){.policy = opt_policy,
                           .kind = (enum wl_kind)opt_workload,
                           .pages = (uint32_t)opt_pages,
                           .fault_cpus = (unsigned)opt_fault_cpus,
                           .zero_cpus = (unsigned)opt_zero_cpus,
                           .chunk_bytes = opt_chunk,
                           .lead_idle_ns = pz_lead_idle_ns(lead_idle_ms),
                           .cycles = (uint32_t)opt_cycles,
                           .think_ns = opt_think,
                           .hold_ns = opt_hold,
                           .idle_ns = opt_idle,
                           .seed = opt_seed,
                           .zero_request = opt_policy.kind == PZ_BATCH ? opt_policy.batch : 0,
                           .path = fault_path_option()};
}

uint64_t pz_lead_idle_ns(unsigned lead_idle_ms)
{
    return option_given("lead_idle") ? opt_lead_idle : lead_idle_ms * 1000000ull;
}
