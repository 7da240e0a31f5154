/*
 * scenarios/numa/run.c - the `numa` scenario (issue 22): a clearing matrix like
 * Intel MLC's --bandwidth_matrix. For every pair (CPU node, memory node) of
 * the topology (arch/numa.h: SRAT nodes, memory-only nodes as targets only),
 * every variant (a clear strategy and call size) clears a target taken
 * from the memory node's own frames (measure/smp_job.h smp_target_take_in)
 * with 1 thread and with every online CPU of the CPU node, as one timed
 * multi-CPU job of run=smp (measure/smp_job.h: dirty, barrier, clear,
 * barrier, check every byte). The cells run interleaved, one repeat each
 * per round in a seeded random order (measure/smp_rounds.c), so a slow
 * stretch of the host hits all of them alike; the report
 * (scenarios/numa/table.c) gives medians with their 95 % interval and each
 * remote cell's speed against the local one, decided with lib/compare.h.
 *
 * Under QEMU every node is the same host memory: the matrix is a function
 * test there, a measurement on hardware (docs/lab.md).
 */
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/options.h"
#include "kernel/scenario.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "measure/strategy_list.h"
#include "mm/paging.h"
#include "scenarios/numa/numa.h"

_Static_assert(NPLAN_MAX_NODES == NUMA_MAX_NODES, "scenarios/numa/plan.h node count");

#define MAX_VSTRAT 16
#define MAX_VCHUNK 4

static uint64_t opt_bytes; /* 0: 256 MiB, 16 MiB under TCG */
struct numa_options numa_opts;
static uint64_t chunks[MAX_VCHUNK] = {4096, 2 << 20, 1 << 30};
static size_t nchunks = 3;
static const struct clear_strategy *strat[MAX_VSTRAT];
static size_t nstrat; /* 0: run=clear's reduced set (arch/clear.h clear_quick_set) */

static int strategies_opt(const struct option *o, const char *v, char *err, size_t n)
{
    int k = strategy_list_parse(v, strat, MAX_VSTRAT, err, n);
    nstrat = k < 0 ? 0 : (size_t)k;
    return k < 0 ? -1 : 0;
}

static int chunks_opt(const struct option *o, const char *v, char *err, size_t n)
{
    int k = cmdline_size_list_opt(v, chunks, MAX_VCHUNK, 4096, err, n);
    if (k < 0)
        return -1;
    nchunks = (size_t)k;
    return 0;
}

HZ_OPTION(opt_numa_bytes, .name = "numa_bytes", .kind = OPT_SIZE, .dest = &opt_bytes,
          .min = 2ull << 20, .max = 64ull << 30, .accepted = "2M..64G (multiple of 2M)",
          .help = "bytes of each memory node that a numa cell clears (default 256M, 16M under "
                  "TCG)");
HZ_OPTION(opt_numa_repeats, .name = "numa_repeats", .kind = OPT_U64, .dest = &numa_opts.repeats,
          .min = 1, .max = SMP_MAX_ROUNDS, .accepted = "1..100",
          .help = "timed rounds every numa cell gets at least (default 10; then a cell whose "
                  "remote/local ratio is undecided races on, up to smp_max_rounds within "
                  "smp_budget)");
HZ_OPTION(opt_numa_strategies, .name = "numa_strategies", .kind = OPT_CUSTOM,
          .parse = strategies_opt, .accepted = "NAME[,NAME...] (docs/strategies.md)",
          .help = "strategies of the numa matrix (default: run=clear's reduced set)");
HZ_OPTION(opt_numa_chunks, .name = "numa_chunks", .kind = OPT_CUSTOM, .parse = chunks_opt,
          .accepted = "SIZE[,SIZE...] (1..4 sizes, multiples of 4K)",
          .help = "bytes per clear call in the numa matrix (default 4K,2M,1G: run=default's)");

static struct numa_run run;
static struct smp_target target[NUMA_MAX_NODES];
static struct smp_job job;
static struct smp_series *series[SMP_MAX_CELLS];

/* A group's request, which run_groups() builds on its stack and hands to
 * every repeat and look by pointer (smp_rounds_run()'s arg): the run (its
 * cells: strategy, chunk, CPUs, memory node), the targets by node, the
 * job, and the group's first cell and count. */
struct group_ctx {
    struct numa_run *run;
    const struct smp_target *target;
    struct smp_job *job;
    size_t group0, group_n;
};

/* A look's argument at the measurement CPL: the group and open[]. */
struct look {
    const struct group_ctx *x;
    bool *open;
};

static int cpu_node(unsigned i)
{
    int n = numa_node_of_domain(run.t, (uint32_t)smp_cpu(i)->domain);
    return n < 0 && !run.t->from_srat ? 0 : n;
}

/* One repeat of cell group0 + i of arg (struct group_ctx; round 0: the
 * untimed warm-up). */
static bool cell_repeat(void *arg, size_t i, unsigned round)
{
    const struct group_ctx *x = arg;
    struct smp_job *job = x->job;
    struct numa_cell *c = &x->run->cell[x->group0 + i];
    const struct smp_target *tg = &x->target[c->p.mem];
    uint64_t unit = c->chunk < PAGE_SIZE_2M ? c->chunk : PAGE_SIZE_2M;
    job->s = c->s;
    job->chunk = c->chunk;
    job->n = c->p.threads;
    job->ext = tg->ext;
    job->next = tg->next;
    memcpy(job->cpu, x->run->node_cpu[c->p.cpu], sizeof(unsigned) * c->p.threads);
    job->timeout_us = smp_job_timeout_us(3 * c->bytes); /* dirty, clear, verify */
    job->seed = (uint64_t)round + 1;
    int rc = split_plan(c->bytes, unit, c->p.threads, NULL, tg->ext, tg->next, job->piece);
    if (rc == SPLIT_OK)
        rc = smp_job_run(job);
    else
        kprintf("numa: plan of %llu bytes over %u CPUs: %s\n", (unsigned long long)c->bytes,
                c->p.threads, split_strerror(rc));
    if (rc != 0) {
        result_fail("numa.run", "%s, %u thread(s) of node %u on node %u's memory: %s", c->s->name,
                    c->p.threads, c->p.cpu, c->p.mem,
                    rc == -3 ? "a barrier timed out"
                             : "a CPU got stuck, went offline or the "
                               "plan failed");
        return false;
    }
    smp_series_add(&c->ser, job, round > 0);
    for (unsigned k = 0; k < c->p.threads; k++)
        if (job->bad[k] && c->verified) {
            c->verified = false;
            kprintf("numa: %s, CPU %u on node %u's memory left a non-zero byte at 0x%llx\n",
                    c->s->name, job->cpu[k], c->p.mem, (unsigned long long)job->bad_addr[k]);
        }
    return true;
}

/* The variants' strategies (x call size): numa_strategies= or run=clear's
 * reduced set, the supported ones into out[] (at most MAX_VSTRAT); a
 * `skip` for each unsupported one numa_strategies= named when report.
 * Returns how many. Takes nothing: the run's and the plan's one rule. */
static size_t pick_strategies(const struct clear_strategy **out, bool report)
{
    const struct clear_strategy *in[MAX_VSTRAT];
    size_t nin = nstrat, k = 0;
    memcpy(in, strat, sizeof(in));
    for (size_t i = 0; !nstrat && i < clear_strategy_count && nin < MAX_VSTRAT; i++)
        if (clear_quick_set(&clear_strategies[i]))
            in[nin++] = &clear_strategies[i];
    for (size_t i = 0; i < nin; i++) {
        const char *missing;
        if (clear_supported(in[i], &missing))
            out[k++] = in[i];
        else if (report && option_given("numa_strategies"))
            result_skip("numa.strategy", "%s: missing CPU feature %s", in[i]->name, missing);
    }
    return k;
}

uint64_t numa_want_bytes(void)
{
    uint64_t want = opt_bytes ? opt_bytes : cpu_is_tcg() ? 16ull << 20 : 256ull << 20;
    return want / PAGE_SIZE_2M * PAGE_SIZE_2M;
}

/* The online CPUs of each node into run.node_cpu and pn[].ncpus, and the
 * memory nodes a SLIT says they cannot reach into pn[].unreachable. */
static void node_cpus(struct nplan_node *pn)
{
    for (unsigned i = 0; i < smp_count(); i++) {
        int n = cpu_node(i);
        if (smp_cpu(i)->state == SMP_CPU_ONLINE && n >= 0 && (unsigned)n < run.t->n)
            run.node_cpu[n][pn[n].ncpus++] = i; /* index order: the BSP (0) first */
    }
    for (unsigned c = 0; c < run.t->n; c++)
        for (unsigned m = 0; m < run.t->n; m++)
            if (run.t->dist[c][m] == NUMA_UNREACHABLE)
                pn[c].unreachable |= 1u << m;
}

/* A `skip` for every pair the plan left out as unreachable (SLIT 255). */
static void skip_unreachable(const struct nplan_node *pn)
{
    for (unsigned c = 0; c < run.t->n; c++)
        for (unsigned m = 0; m < run.t->n; m++)
            if (pn[c].ncpus && pn[m].memory && (pn[c].unreachable >> m & 1))
                result_skip("numa.unreachable",
                            "CPU node %u -> memory node %u: SLIT distance 255 (unreachable): "
                            "not measured",
                            c, m);
}

/* Node n's target of `want` bytes in frames of one size; *placed false
 * when an extent lies outside the node's ranges (`numa.placement`). */
static bool take_node(unsigned n, uint64_t want, bool only_2m, bool *placed)
{
    const struct numa_node *nd = &run.t->node[n];
    *placed = true;
    if (!nd->nrange || smp_target_take_in(&target[n], want, nd->range, nd->nrange, only_2m) < 0)
        return false;
    for (size_t k = 0; k < target[n].next; k++) { /* never another node's memory */
        const struct split_extent *x = &target[n].ext[k];
        if (numa_node_of_pa(run.t, x->base) != (int)n ||
            numa_node_of_pa(run.t, x->base + x->bytes - 1) != (int)n) {
            result_fail("numa.placement",
                        "node %u's target [0x%llx, +%llu) lies outside its memory", n,
                        (unsigned long long)x->base, (unsigned long long)x->bytes);
            smp_target_release(&target[n]);
            *placed = false;
            return false;
        }
    }
    return target[n].bytes >= PAGE_SIZE_2M;
}

/* Targets on every node with memory, CPUs by node; the planner's view.
 * Every node's target has the same frame size where it can: 2 MiB frames
 * everywhere when some node has too few free 1 GiB frames (a node whose
 * free memory is all listed 1 GiB frames keeps those), so that no column
 * differs from another by its frames (the host's backing, TLB reach); the
 * `numa_clear` records give each node's frame size. */
static void take_nodes(struct nplan_node *pn, uint64_t want)
{
    const struct numa_topo *t = run.t;
    bool placed = true, ok, only_2m = false;
    node_cpus(pn);
    for (unsigned pass = 0; pass < 2; pass++) {
        bool mixed = false;
        for (unsigned n = 0; n < t->n; n++) {
            pn[n].memory = take_node(n, want, only_2m, &ok);
            if (!pn[n].memory && ok && only_2m) /* its memory is all in 1 GiB frames */
                pn[n].memory = take_node(n, want, false, &ok);
            placed &= ok;
            mixed |= pn[n].memory && target[n].frame_bytes != PAGE_SIZE_1G;
        }
        if (only_2m || !mixed)
            break;
        for (unsigned n = 0; n < t->n; n++) /* some node had 2 MiB frames only: all 2 MiB */
            if (pn[n].memory)
                smp_target_release(&target[n]);
        only_2m = true;
    }
    unsigned targets = 0;
    for (unsigned n = 0; n < t->n; n++) {
        run.frame_bytes[n] = pn[n].memory ? target[n].frame_bytes : 0;
        targets += pn[n].memory;
        if (!pn[n].memory) {
            kprintf("numa: node %u: no free frame in its memory: not a target\n", n);
            continue;
        }
        if (target[n].bytes < want)
            kprintf("numa: node %u: only %llu MiB free (numa_bytes=%llu MiB)\n", n,
                    (unsigned long long)(target[n].bytes >> 20), (unsigned long long)(want >> 20));
        kprintf("numa: node %u: %llu MiB target in %zu extent(s) of %s frames from 0x%llx, "
                "inside its ranges\n",
                n, (unsigned long long)(target[n].bytes >> 20), target[n].next,
                target[n].frame_bytes == PAGE_SIZE_1G ? "1 GiB" : "2 MiB",
                (unsigned long long)target[n].ext[0].base);
    }
    if (placed && targets)
        result_pass("numa.placement");
}

/* Racing (measure/smp_rounds.h): at a look, at the measurement CPL (the
 * comparisons sort up to CMP_MAX_N^2 ratios: slow in emulated ring 0), every
 * remote cell of the group whose ratio to its local cell is still undecided
 * keeps itself and that local cell running. */
static void look_fn(void *arg)
{
    const struct look *l = arg;
    const struct group_ctx *x = l->x;
    for (size_t i = 0; i < x->group_n; i++) {
        const struct numa_cell *c = &x->run->cell[x->group0 + i];
        struct cmp cm;
        if (c->p.local < 0)
            continue;
        numa_cell_compare(x->run, c, &cm);
        if (cm.outcome == CMP_UNDECIDED || cm.outcome == CMP_TOO_FEW)
            l->open[i] = l->open[(size_t)c->p.local - x->group0] = true;
    }
}

static void settle(void *arg, bool *open)
{
    struct look l = {arg, open};
    user_run(0, look_fn, &l);
}

/* Run the planned cells plan[0..n), group by group (scenarios/numa/plan.h):
 * false when a repeat failed so badly that nothing more runs. */
static bool run_groups(const struct nplan_cell *plan, size_t n)
{
    char part[48];
    struct plan_rounds r = numa_settings_get(scenario_profile())->rounds;
    r.min = numa_repeats_of(scenario_profile());
    job.lead_cyc = smp_start_lead_cyc();
    for (size_t s = 0, e; s < n; s = e) {
        e = nplan_group_end(plan, n, s, SMP_MAX_CELLS);
        for (size_t i = s; i < e; i++)
            series[i - s] = &run.cell[i].ser;
        struct group_ctx x = {
            .run = &run, .target = target, .job = &job, .group0 = s, .group_n = e - s};
        if (s || e < n)
            hz_snprintf(part, sizeof(part), "numa %zu-%zu", s, e - 1);
        else
            hz_snprintf(part, sizeof(part), "numa");
        if (!smp_rounds_run(part, &r, e - s, series, cell_repeat, settle, &x))
            return false;
        for (size_t i = s; i < e; i++)
            run.cell[i].ran = true;
    }
    return true;
}

static void numa_scenario(void)
{
    static struct nplan_cell plan[NUMA_CELLS_MAX];
    struct nplan_node pn[NUMA_MAX_NODES];
    run.t = numa_get();
    run.tol_x100 = verdict_tolerance_x100();
    memset(pn, 0, sizeof(pn));
    size_t ns = nstrat = pick_strategies(strat, true);
    if (!ns) {
        result_skip("numa.matrix", "no supported strategy to clear with");
        return;
    }
    take_nodes(pn, numa_want_bytes());
    run.nvariants = (unsigned)(ns * nchunks);
    size_t n = 0;
    int rc = nplan_build(pn, run.t->n, run.nvariants, plan, NUMA_CELLS_MAX, &n);
    if (rc != NPLAN_OK) {
        if (rc == NPLAN_ETOOMANY)
            result_skip("numa.matrix",
                        "%zu cells, more than %u: fewer numa_strategies= or "
                        "numa_chunks=",
                        n, NUMA_CELLS_MAX);
        else
            result_skip("numa.matrix", "%s", nplan_strerror(rc));
        n = 0;
    }
    skip_unreachable(pn);
    kprintf("numa: %u node(s) (%s%s%s), %zu variant(s) x 1 and all threads of a node: %zu cells, "
            ">= %u interleaved rounds; under QEMU every node is the same host memory\n",
            run.t->n, run.t->from_srat ? "SRAT" : run.t->why, run.t->from_srat ? "" : ": one node",
            run.t->slit ? ", SLIT" : "", (size_t)run.nvariants, n,
            numa_repeats_of(scenario_profile()));
    char rows[64] = "", cols[64] = "";
    for (unsigned k = 0, lr = 0, lc = 0; k < run.t->n; k++) {
        if (pn[k].ncpus)
            lr += (unsigned)hz_snprintf(rows + lr, sizeof(rows) - lr, " %u", k);
        if (pn[k].memory)
            lc += (unsigned)hz_snprintf(cols + lc, sizeof(cols) - lc, " %u%s", k,
                                        run.t->node[k].memory_only ? "*" : "");
    }
    kprintf("numa: rows (CPU nodes):%s; columns (memory nodes, * memory-only):%s\n", rows, cols);
    run.ncells = n;
    for (size_t i = 0; i < n; i++) {
        struct numa_cell *c = &run.cell[i];
        memset(c, 0, sizeof(*c));
        c->p = plan[i];
        c->s = strat[plan[i].variant / nchunks];
        c->chunk = chunks[plan[i].variant % nchunks];
        c->bytes = target[plan[i].mem].bytes / PAGE_SIZE_2M * PAGE_SIZE_2M;
        c->verified = true;
    }
    if (n && run_groups(plan, n))
        numa_matrix_report(&run);
    for (unsigned k = 0; k < run.t->n; k++)
        if (run.frame_bytes[k])
            smp_target_release(&target[k]);
}

unsigned numa_plan_view(struct nplan_node *pn)
{
    const struct clear_strategy *s[MAX_VSTRAT];
    run.t = numa_get();
    memset(pn, 0, sizeof(*pn) * NUMA_MAX_NODES);
    node_cpus(pn);
    for (unsigned k = 0; k < run.t->n; k++)
        pn[k].memory = run.t->node[k].nrange > 0;
    return (unsigned)(pick_strategies(s, false) * nchunks);
}

HZ_SCENARIO(scenario_numa, .name = "numa", .run = numa_scenario, .plan = numa_plan, .order = 45,
            .help = "clearing matrix: every (CPU node, memory node) pair, 1 and all threads of "
                    "the node, remote against local");
