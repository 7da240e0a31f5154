/*
 * scenarios/smp/run.c - the `smp` scenario: thread scaling of every supported
 * clear strategy (arch/clear.h) at 1, 2, 4, 8, 16 and all online CPUs, then
 * the QEMU-preallocation-like fill (scenarios/smp/fill.c).
 *
 * The target (smp_bytes) is split into one contiguous piece per CPU
 * (measure/split.h), inside the CPU's own NUMA node when the SRAT gives
 * domains. Each repeat: every CPU dirties its piece, all wait at a barrier,
 * clear (timed by each CPU), wait at a barrier, then check every byte of
 * their piece. A repeat's wall time runs from the first CPU's start to the
 * last CPU's end (measure/smp_job.c); `smp.wall` fails when a wall time is
 * below some CPU's own time. The (strategy, threads) cells run interleaved,
 * one repeat each per round in a seeded random order (measure/smp_rounds.c),
 * so a slow stretch of the host hits all of them alike; figures are medians
 * with their 95 % interval (lib/stats.h), flagged noisy or with steal. Records: `clear` (threads =
 * CPUs, via clear_record), then scenarios/smp/scale.c's `smp_peak` (the median of the best
 * all-thread non-temporal cell) and one `smp_scale` per cell with its fraction of the peak
 * (scenarios/smp/records.md).
 */
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "kernel/options.h"
#include "kernel/scenario.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "measure/clear_record.h"
#include "measure/strategy_list.h"
#include "measure/time_lost.h"
#include "mm/paging.h"
#include "scenarios/smp/plan.h"
#include "scenarios/smp/smp.h"

#define MAX_COUNTS SMP_COUNTS_MAX
#define MAX_CELLS SMP_MAX_CELLS

static uint64_t opt_bytes /* 0: 1 GiB, 64 MiB under TCG */, opt_chunk = 2ull << 20,
                                                            opt_repeats = 10;
static uint32_t opt_skip_mask; /* strategies left out by smp_strategies= */
static bool opt_strategies_given;

static int chunk_opt(const struct option *o, const char *v, char *err, size_t n)
{
    uint64_t c;
    if (cmdline_parse_size(v, &c) < 0 || c < 4096 || c > (1ull << 30) || (c & (c - 1)))
        return hz_snprintf(err, n, "want a power of two from 4K to 1G"), -1;
    opt_chunk = c;
    return 0;
}

static int strategies_opt(const struct option *o, const char *v, char *err, size_t n)
{
    const struct clear_strategy *list[32];
    uint32_t want = 0;
    if (clear_strategy_count > 32)
        return hz_snprintf(err, n, "more than 32 strategies"), -1;
    int k = strategy_list_parse(v, list, 32, err, n);
    if (k < 0)
        return -1;
    for (int i = 0; i < k; i++)
        want |= 1u << (list[i] - clear_strategies);
    opt_skip_mask = ~want;
    opt_strategies_given = true;
    return 0;
}

HZ_OPTION(opt_smp_bytes, .name = "smp_bytes", .kind = OPT_SIZE, .dest = &opt_bytes,
          .min = 2ull << 20, .max = 1ull << 40, .accepted = "2M..1T",
          .help = "bytes each smp scaling measurement clears, all CPUs together (default 1G)");
HZ_OPTION(opt_smp_chunk, .name = "smp_chunk", .kind = OPT_CUSTOM, .parse = chunk_opt,
          .accepted = "power of two 4K..1G",
          .help = "bytes per call of the clear routine in the smp scenario (default 2M)");
HZ_OPTION(opt_smp_repeats, .name = "smp_repeats", .kind = OPT_U64, .dest = &opt_repeats, .min = 1,
          .max = SMP_MAX_ROUNDS, .accepted = "1..100",
          .help = "timed rounds every (strategy, threads) cell of the smp scenario gets at least "
                  "(default 10)");
HZ_OPTION(opt_smp_strategies, .name = "smp_strategies", .kind = OPT_CUSTOM, .parse = strategies_opt,
          .accepted = "NAME[,NAME...] (docs/strategies.md)",
          .help = "strategies the smp scaling runs (default: every supported one)");

static struct smp_cell cells[MAX_CELLS];
static struct smp_series *series[MAX_CELLS];
static unsigned ncells;
static struct smp_job job;
static struct smp_target target;
static unsigned order[HZ_MAX_CPUS];
static int32_t order_dom[HZ_MAX_CPUS];
/* The scaling's request, which smp_scenario() builds on its stack and
 * hands to every repeat by pointer (smp_rounds_run()'s arg): the job (its
 * target, chunk and timeout set), the target, the CPUs in order with their
 * domains, the bytes each repeat clears, the split unit and placement, and
 * the cells. */
struct scale_ctx {
    struct smp_job *job;
    const struct smp_target *target;
    const unsigned *order;
    const int32_t *order_dom;
    uint64_t bytes, unit;
    bool numa;
    struct smp_cell *cells;
};

/* Plan x's job pieces for `threads` CPUs: per node when x->numa, else (or
 * when a node lacks memory) flat. Returns true when the per-node plan was
 * used. */
static bool plan(const struct scale_ctx *x, unsigned threads)
{
    const struct smp_target *t = x->target;
    if (x->numa && split_plan(x->bytes, x->unit, threads, x->order_dom, t->ext, t->next,
                              x->job->piece) == SPLIT_OK)
        return true;
    split_plan(x->bytes, x->unit, threads, NULL, t->ext, t->next, x->job->piece);
    return false;
}

/* One repeat of cell i of arg (struct scale_ctx; round 0: the untimed
 * warm-up); false when the run must stop. */
static bool cell_repeat(void *arg, size_t i, unsigned round)
{
    const struct scale_ctx *x = arg;
    struct smp_job *job = x->job;
    struct smp_cell *c = &x->cells[i];
    job->s = c->s;
    job->n = c->threads;
    memcpy(job->cpu, x->order, sizeof(unsigned) * c->threads);
    c->numa = plan(x, c->threads);
    job->seed = (uint64_t)round + 1;
    int rc = smp_job_run(job);
    if (rc < 0) {
        result_fail("smp.run", "%s with %u threads: %s", c->s->name, c->threads,
                    rc == -3 ? "a barrier timed out" : "a CPU got stuck or went offline");
        return false;
    }
    if (smp_series_add(&c->ser, job, round > 0) && c->ser.wall_below == 1)
        kprintf("smp: %s, %u threads: wall %llu cycles below a CPU's own time\n", c->s->name,
                c->threads, (unsigned long long)job->wall_cyc);
    for (unsigned k = 0; k < c->threads; k++) {
        uint64_t ns = tsc_to_ns(job->cyc[k]);
        if (round > 0 && ns < c->cpu_ns[k])
            c->cpu_ns[k] = ns;
        if (job->bad[k] && c->verified) {
            c->verified = false;
            kprintf("smp: %s, %u threads: CPU %u left a non-zero byte at 0x%llx\n", c->s->name,
                    c->threads, job->cpu[k], (unsigned long long)job->bad_addr[k]);
        }
    }
    return true;
}

/* The figures and `clear` record of a cell after the rounds (bytes: cleared per repeat). */
static void finish(struct smp_cell *c, uint64_t bytes)
{
    smp_series_stats(&c->ser, &c->st, &c->steal_x100);
    struct clear_result res = {.strategy = c->s->name,
                               .chunk = opt_chunk,
                               .bytes = bytes,
                               .cache = "warm",
                               .threads = c->threads,
                               .repeats = (unsigned)c->ser.n,
                               .ns = c->st,
                               .min_cyc = mul_div_u64(c->st.min, tsc_info()->hz, 1000000000),
                               .verified = c->verified,
                               .source = "hugezero",
                               .steal_method = steal_available() ? steal_method() : 0,
                               .steal_ns = c->ser.steal_ns,
                               .steal_base_ns = c->ser.steal_base_ns,
                               .samples = c->ser.ns,
                               .nsamples = c->ser.n,
                               .stop = ilv_verdict_name(c->ser.stop),
                               .lost = &c->ser.lost};
    char line[HZ_RECORD_MAX], g[24], per[24], lo[24], hi[24], id[VD_ID_MAX];
    record_emit_line(clear_record(line, sizeof(line), &res));
    c->wall_min_ns = c->st.min;
    c->wall_median_ns = c->st.median;
    c->gbps_x1000 = stats_gbps_x1000(bytes, c->st.median);
    c->gbps_lo_x1000 = stats_gbps_x1000(bytes, c->st.ci_hi);
    c->gbps_hi_x1000 = stats_gbps_x1000(bytes, c->st.ci_lo);
    c->noisy = stats_noisy(&c->st);
    struct vd_cell v = {.kind = &smp_kind,
                        .strategy = c->s->name,
                        .nontemporal = c->s->nontemporal,
                        .chunk = opt_chunk,
                        .bytes = bytes,
                        .threads = c->threads,
                        .verified = c->verified,
                        .st = c->st,
                        .samples = c->ser.ns,
                        .nsamples = c->ser.n,
                        .steal_x100 = c->steal_x100};
    verdict_add(&v); /* VM start (kernel/verdict.h) */
    vd_cell_id(&v, id, sizeof(id));
    tl_run_add(id, &c->ser.lost);
    fmt_fixed(g, sizeof(g), c->gbps_x1000, 3);
    fmt_fixed(lo, sizeof(lo), c->gbps_lo_x1000, 3);
    fmt_fixed(hi, sizeof(hi), c->gbps_hi_x1000, 3);
    fmt_fixed(per, sizeof(per), c->gbps_x1000 / c->threads, 3);
    kprintf("smp: %-12s %3u threads %s: %s GB/s [%s..%s] median of %zu (%s per thread), wall "
            "%llu us, cv %llu.%02llu%%%s%s%s\n",
            c->s->name, c->threads, c->numa ? "per-node" : "flat", g, lo, hi, c->ser.n, per,
            (unsigned long long)(c->st.median / 1000), (unsigned long long)(c->st.cv_x100 / 100),
            (unsigned long long)(c->st.cv_x100 % 100), c->noisy ? " NOISY" : "",
            c->steal_x100 > CLEAR_STEAL_FLAG_X100 ? " STEAL" : "", c->verified ? "" : ", NOT ZERO");
}

/* Every selected, supported strategy at every thread count, interleaved
 * (measure/smp_rounds.c). False when a run failed so badly (stuck CPU, broken
 * barrier) that nothing more runs; then no cell is reported. */
static bool scaling(struct scale_ctx *x, const unsigned *counts, unsigned nc)
{
    ncells = 0;
    for (size_t i = 0; i < clear_strategy_count; i++) {
        const struct clear_strategy *s = &clear_strategies[i];
        const char *missing;
        char name[48];
        if (opt_skip_mask & (1u << i))
            continue;
        hz_snprintf(name, sizeof(name), "smp.verify.%s", s->name);
        if (!clear_supported(s, &missing)) {
            result_skip(name, "missing CPU feature %s", missing);
            continue;
        }
        for (unsigned k = 0; k < nc && ncells < MAX_CELLS; k++) {
            struct smp_cell *c = &cells[ncells];
            memset(c, 0, sizeof(*c));
            c->s = s;
            c->threads = counts[k];
            c->verified = true;
            for (unsigned t = 0; t < c->threads; t++)
                c->cpu_ns[t] = UINT64_MAX;
            series[ncells++] = &c->ser;
        }
    }
    struct plan_rounds r = smp_settings_get(scenario_profile())->rounds;
    r.min = (unsigned)opt_repeats;
    if (!smp_rounds_run("scale", &r, ncells, series, cell_repeat, 0, x)) {
        ncells = 0;
        return false;
    }
    for (unsigned i = 0; i < ncells; i++)
        finish(&cells[i], x->bytes);
    tl_run_record("smp");                        /* the cells' SMIs and gaps */
    for (unsigned i = 0, j; i < ncells; i = j) { /* one check per strategy */
        bool ok = true;
        char name[48];
        for (j = i; j < ncells && cells[j].s == cells[i].s; j++)
            ok &= cells[j].verified;
        hz_snprintf(name, sizeof(name), "smp.verify.%s", cells[i].s->name);
        if (ok)
            result_pass(name);
        else
            result_fail(name, "a CPU's piece was not all zero after the clear (see above)");
    }
    return true;
}

uint32_t smp_skip_mask(const struct plan_profile *p)
{
    const struct clear_strategy *nt = clear_pick_nt();
    uint32_t skip = ~0u;
    if (opt_strategies_given || smp_settings_get(p)->all_strategies)
        return opt_skip_mask;
    for (size_t i = 0; i < clear_strategy_count && i < 32; i++)
        if (strcmp(clear_strategies[i].name, "rep_stosb") == 0 || &clear_strategies[i] == nt)
            skip &= ~(1u << i);
    return skip;
}

uint64_t smp_want_bytes(void)
{
    return opt_bytes ? opt_bytes : cpu_is_tcg() ? 64ull << 20 : 1ull << 30;
}

unsigned smp_repeats_of(const struct plan_profile *p)
{
    return option_given("smp_repeats") ? (unsigned)opt_repeats : smp_settings_get(p)->rounds.min;
}

static void apply_profile(void)
{
    opt_repeats = smp_repeats_of(scenario_profile());
    opt_skip_mask = smp_skip_mask(scenario_profile());
}

static void smp_scenario(void)
{
    apply_profile();
    unsigned online = smp_bench_order(order), counts[MAX_COUNTS], nc, nd = 0;
    int32_t doms[HZ_MAX_CPUS];
    bool known = true;
    nc = smp_plan_counts(smp_settings_get(scenario_profile())->all_counts, online, counts);
    for (unsigned k = 0; k < online; k++) {
        unsigned d = 0;
        order_dom[k] = smp_cpu(order[k])->domain;
        known &= order_dom[k] >= 0;
        while (d < nd && doms[d] != order_dom[k])
            d++;
        if (d == nd)
            doms[nd++] = order_dom[k];
    }
    bool numa = known && nd >= 2;
    uint64_t unit = opt_chunk < PAGE_SIZE_2M ? opt_chunk : PAGE_SIZE_2M;
    uint64_t bytes = smp_want_bytes() / unit * unit;
    if (smp_target_take(&target, bytes, false, numa ? doms : 0, numa ? nd : 0) < 0) {
        result_skip("smp.scaling", "no free frame for the target");
        return;
    }
    if (target.bytes / unit * unit < bytes) {
        kprintf("smp: only %llu MiB free for the target (smp_bytes=%llu MiB)\n",
                (unsigned long long)(target.bytes >> 20), (unsigned long long)(bytes >> 20));
        bytes = target.bytes / unit * unit;
    }
    kprintf("smp: scaling: %llu MiB (%zu extent(s), %s frames), chunk %llu KiB, %u CPU(s) online, "
            "%u node(s)%s, >= %llu interleaved rounds\n",
            (unsigned long long)(bytes >> 20), target.next,
            target.frame_bytes == PAGE_SIZE_1G ? "1 GiB" : "2 MiB",
            (unsigned long long)(opt_chunk >> 10), online, nd, numa ? " (per-node pieces)" : "",
            (unsigned long long)opt_repeats);
    job.ext = target.ext;
    job.next = target.next;
    job.chunk = opt_chunk;
    job.timeout_us = smp_job_timeout_us(3 * bytes); /* dirty, clear, verify */
    job.lead_cyc = smp_start_lead_cyc();
    struct scale_ctx x = {.job = &job,
                          .target = &target,
                          .order = order,
                          .order_dom = order_dom,
                          .bytes = bytes,
                          .unit = unit,
                          .numa = numa,
                          .cells = cells};
    bool go_on = scaling(&x, counts, nc);
    unsigned wall_below = 0;
    for (unsigned i = 0; i < ncells; i++)
        wall_below += cells[i].ser.wall_below;
    if (wall_below)
        result_fail("smp.wall", "%u repeat(s) had a wall time below a CPU's own time", wall_below);
    else if (ncells)
        result_pass("smp.wall");
    struct smp_scale_run run = {.cells = cells,
                                .ncells = ncells,
                                .cpus = order,
                                .bytes = bytes,
                                .chunk = opt_chunk,
                                .online = online,
                                .counts = counts,
                                .ncounts = nc};
    smp_scale_report(&run);
    smp_target_release(&target);
    if (go_on && (smp_settings_get(scenario_profile())->fill || option_given("smp_fill")))
        smp_fill_run(order, online, counts, nc);
}

HZ_SCENARIO(
    scenario_smp, .name = "smp", .run = smp_scenario, .plan = smp_scenario_plan, .order = 40,
    .help = "thread scaling of every clear strategy, then the QEMU-like fill of all free frames");
