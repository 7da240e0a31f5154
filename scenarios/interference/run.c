/*
 * scenarios/interference/run.c - the `interference` scenario: what a background
 * zeroer costs the other tenants of a machine ("background zeroing costs
 * CPU time and thrashes L3 for other processes", the pre-zeroing thread,
 * docs/prezero.md).
 *
 * One CPU (the BSP) runs the victims (scenarios/interference/interference.h) one after the
 * other: pointer chases over L2/2, LLC/2 and 4 x LLC, a streaming read of
 * 4 x LLC and a "tenant" re-reading an LLC-sized set. Cache sizes come from
 * CPUID (leaf 4 on Intel, 0x8000001D on AMD, arch/cpu.h), else from
 * `interf_l2=` / `interf_llc=`, else the fallback 256 KiB / 8 MiB (under
 * TCG always 256 KiB / 1 MiB: TCG models no cache). Meanwhile every other
 * online CPU clears its own share of frames (frames from mm/frames.h, each
 * dirtied first and checked zero after) with one zeroer: temporal stores
 * (movq_unroll), REP STOSB in 4 KiB and in 1 GiB calls, non-temporal
 * stores (movnti), CLZERO; and a control that only spins (PAUSE), whose
 * row is the cost of a busy sibling CPU alone (on an overcommitted host:
 * the host's CPU contention). Each strategy unthrottled, then paced to 25 %, 10 % and
 * 1 % of its own peak: the median of IF_PEAK_ROUNDS interleaved peak cells
 * (one CPU unthrottled, no victim), with its interval. Pacing is a token
 * bucket (scenarios/interference/pace.c) in calls of at most the bytes of one
 * `interf_period_us` period (a 1 GiB call is split: a period of several
 * call durations would outlast a victim), so the achieved rate is reported
 * beside the target and a miss over IF_MISS_PCT % is flagged. The zeroer's
 * CPU time is the TSC time inside its calls per GiB cleared.
 * Before the rounds, a residency phase (scenarios/interference/refs.c) classes
 * each victim L2 / LLC / DRAM against reference sets measured alongside,
 * and the host check (scenarios/interference/host.c) stops the scenario within
 * 30 s when the host cannot answer (the spin control alone slows the
 * victims, or no LLC-sized victim is LLC-resident).
 * Victims and zeroers run at the measurement CPL (arch/user.h: CPL 3 where
 * ring 0 is emulated).
 *
 * Cells (victims alone, zeroer x rate) are interleaved (lib/interleave.h):
 * `interf_rounds` rounds, each running every cell once in a seeded random
 * order. A victim's sample in a run is the median of IF_SUBSAMPLES timed
 * passes (a host preemption hits one pass, not the sample). Per cell and
 * victim: the median sample over the rounds with its 95 % interval and CV;
 * the slowdown is lib/compare.h's Hodges-Lehmann ratio against the victims
 * alone with its Moses interval at the tolerance (scenarios/interference/rank.c
 * ranks the unthrottled strategies by the same rule). Where the CPU has an architectural PMU
 * (arch/pmu.h), core cycles and LLC misses of each victim sample; else a `skip` record says why.
 * Needs 2 CPUs.
 */
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/smp_job.h"
#include "mm/paging.h"
#include "scenarios/interference/interference.h"
#include "scenarios/interference/priv.h"

static uint64_t opt_period_us = 1000, opt_seed = 1;
struct interference_options if_opts;

HZ_OPTION(opt_if_rounds, .name = "interf_rounds", .kind = OPT_U64, .dest = &if_opts.rounds,
          .min = 1, .max = IF_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=interference: interleaved rounds of every cell (default 10, 2 under TCG)");
HZ_OPTION(opt_if_l2, .name = "interf_l2", .kind = OPT_SIZE, .dest = &if_opts.l2, .min = 4096,
          .max = 64ull << 20, .accepted = "4K..64M",
          .help = "run=interference: L2 size to size the victims by (default: CPUID)");
HZ_OPTION(opt_if_llc, .name = "interf_llc", .kind = OPT_SIZE, .dest = &if_opts.llc,
          .min = 64ull << 10, .max = 1ull << 30, .accepted = "64K..1G",
          .help = "run=interference: LLC size to size the victims by (default: CPUID)");
HZ_OPTION(opt_if_share, .name = "interf_zero_bytes", .kind = OPT_SIZE, .dest = &if_opts.share,
          .min = 2ull << 20, .max = 64ull << 30,
          .accepted = "2M..64G (rounded down to a multiple of 2M)",
          .help = "run=interference: bytes each zeroer CPU clears round and round (default 1G, "
                  "16M under TCG)");
HZ_OPTION(opt_if_period, .name = "interf_period_us", .kind = OPT_U64, .dest = &opt_period_us,
          .min = 10, .max = 1000000, .accepted = "10..1000000",
          .help = "run=interference: pacing period, us: a paced call clears at most one "
                  "period's bytes, the bucket holds 100 periods (default 1000)");
HZ_OPTION(opt_if_seed, .name = "interf_seed", .kind = OPT_U64, .dest = &opt_seed,
          .accepted = "0..2^64-1", .max = UINT64_MAX,
          .help = "run=interference: seed of the chase cycles and the cell orders (default 1)");

const unsigned if_rates[IF_RATES] = {100, 25, 10, 1};

static struct if_state st = {
    .z = {{.label = "spin"},
          {.label = "temporal", .strategy = "movq_unroll", .chunk = 2ull << 20},
          {.label = "rep_stosb_4k", .strategy = "rep_stosb", .chunk = 4096},
          {.label = "rep_stosb_1g", .strategy = "rep_stosb", .chunk = 1ull << 30},
          {.label = "nt", .strategy = "movnti", .chunk = 2ull << 20},
          {.label = "clzero", .strategy = "clzero", .chunk = 2ull << 20}},
};
static struct smp_target zbuf;
static struct split_piece piece[HZ_MAX_CPUS];
static unsigned zcpu[HZ_MAX_CPUS];
static uint64_t redirty[HZ_MAX_CPUS]; /* share bytes the last run cleared (0: all, unknown) */

/* A zeroer CPU's argument: the run and its CPU index. */
struct if_part {
    struct if_run *run;
    unsigned cpu;
};

/* One run: the listed victims (or a fixed hold) on the victim CPU, zeroers
 * elsewhere. run_once() fills the file's one table and hands it to every
 * CPU by pointer (smp_run's argument, then each user_run's). */
struct if_run {
    struct smp_barrier bar;
    volatile uint32_t stop, barrier_failed;
    struct interf_zeroer z[HZ_MAX_CPUS]; /* by CPU index */
    struct if_part part[HZ_MAX_CPUS];    /* by CPU index */
    struct if_victim *list[IF_VICTIMS + IF_REFS];
    unsigned vcpu;  /* the victim CPU */
    unsigned n, vi; /* victims listed, the one the victim CPU runs now */
    uint64_t ns[IF_VICTIMS + IF_REFS], steal[IF_VICTIMS + IF_REFS];
    uint64_t pmu[IF_VICTIMS + IF_REFS][PMU_EVENTS];
    uint64_t hold_cyc; /* > 0: no victims, hold the zeroers this long */
    uint64_t to_cyc;
    uint64_t cpg; /* the zeroers' TSC cycles in calls per GiB cleared (0: none) */
    bool contend; /* interf_host=contend: each victim pass also yields its own time */
    volatile uint64_t sink;
};

static struct if_run run;

static void victim_one(void *arg)
{
    struct if_run *rn = arg;
    const struct if_victim *v = rn->list[rn->vi];
    uint64_t sink = 0, sub[IF_SUBSAMPLES], s0 = steal_ns(rn->vcpu), begin = rdtsc(), timed = 0;
    if (v->warm)
        sink += v->chase ? interf_chase(v->start, v->bytes / INTERF_LINE)
                         : interf_read(v->ext, v->next, v->bytes, 1);
    for (unsigned k = 0; k < IF_SUBSAMPLES; k++) {
        uint64_t t0 = tsc_start();
        sink += v->chase ? interf_chase(v->start, v->work)
                         : interf_read(v->ext, v->next, v->bytes, (unsigned)v->work);
        if (rn->contend) /* a tenant sharing this CPU: as long again, inside the timed pass */
            for (uint64_t end = rdtsc() + (rdtsc() - t0); rdtsc() < end;)
                cpu_relax();
        sub[k] = tsc_stop() - t0;
        timed += sub[k];
    }
    scenario_timed(timed);
    rn->sink += sink;
    rn->ns[rn->vi] = tsc_to_ns(stats_median_copy(sub, IF_SUBSAMPLES, sub));
    rn->steal[rn->vi] = stats_pct_x100(steal_ns(rn->vcpu) - s0, tsc_to_ns(rdtsc() - begin));
}

static void victim_sync(void *arg)
{
    struct if_run *rn = arg;
    if (!smp_barrier_wait(&rn->bar, 0, rn->to_cyc))
        rn->barrier_failed = 1;
    else if (rn->hold_cyc)
        for (uint64_t end = rdtsc() + rn->hold_cyc; rdtsc() < end;)
            cpu_relax();
}

static void zeroer_part(void *arg)
{
    const struct if_part *p = arg;
    struct interf_zeroer *z = &p->run->z[p->cpu];
    interf_zeroer_dirty(z);
    if (!smp_barrier_wait(&p->run->bar, p->cpu, p->run->to_cyc)) {
        p->run->barrier_failed = 1;
        return;
    }
    interf_zeroer_run(z);
}

/* smp_run()'s function: arg is the run (struct if_run). */
static void run_fn(unsigned cpu, void *arg)
{
    struct if_run *rn = arg;
    if (cpu != rn->vcpu) {
        rn->part[cpu] = (struct if_part){rn, cpu};
        user_run(cpu, zeroer_part, &rn->part[cpu]);
        return;
    }
    user_run(cpu, victim_sync, rn);
    for (rn->vi = 0; !rn->hold_cyc && !rn->barrier_failed && rn->vi < rn->n; rn->vi++) {
        pmu_start();
        user_run(cpu, victim_one, rn);
        pmu_stop(rn->pmu[rn->vi]);
    }
    rn->stop = 1;
}

uint64_t if_chunk(const struct if_state *s, const struct if_zeroer *z)
{
    return !z->s ? 0 : z->chunk < s->share ? z->chunk : s->share;
}

uint64_t if_call_bytes(const struct if_state *s, const struct if_cell *c)
{
    return c->piece ? c->piece : c->z ? if_chunk(s, c->z) : 0;
}

/* Bytes per paced call of zeroer z at rate_pct: one period's bytes at the
 * per-CPU rate, at most the zeroer's call size, at least 4 KiB (0: unthrottled). */
static uint64_t paced_piece(const struct if_zeroer *z, unsigned rate_pct)
{
    uint64_t chunk = if_chunk(&st, z);
    if (!z->s || rate_pct >= 100 || !z->peak_bps)
        return 0;
    uint64_t p = mul_div_u64(z->peak_bps / 100 * rate_pct, opt_period_us, 1000000) & ~4095ull;
    p = p < chunk ? p : chunk;
    return p ? p : 4096;
}

/* One run of zeroer z (NULL: none) at rate_pct of its peak. Returns the
 * zeroers' bytes/s together (0 without), or -1 when the run failed. */
static int64_t run_once(struct if_zeroer *z, unsigned rate_pct, uint64_t seed)
{
    struct smp_set set;
    unsigned nz = z ? st.nzcpus : 0;
    uint64_t hz = tsc_info()->hz, pc = z ? paced_piece(z, rate_pct) : 0;
    smp_set_clear(&set);
    smp_set_add(&set, st.vcpu);
    run.vcpu = st.vcpu;
    uint64_t timeout_us = smp_job_timeout_us(4 * st.share + (64ull << 20));
    run.to_cyc = mul_div_u64(timeout_us, hz, 1000000);
    smp_barrier_init(&run.bar, nz + 1);
    run.stop = run.barrier_failed = 0;
    for (unsigned k = 0; k < nz; k++) {
        uint64_t rate = pc ? z->peak_bps / 100 * rate_pct : 0;
        run.z[zcpu[k]] = (struct interf_zeroer){
            .s = z->s,
            .ext = zbuf.ext,
            .next = zbuf.next,
            .off = piece[k].off,
            .bytes = piece[k].bytes,
            .chunk = if_chunk(&st, z),
            .rate_bps = rate,
            .hz = hz,
            .piece = pc,
            .burst = pc + mul_div_u64(rate, opt_period_us * IF_BURST_PERIODS, 1000000),
            .seed = seed * HZ_MAX_CPUS + k,
            .dirty_bytes = redirty[k],
            .stop = &run.stop};
        smp_set_add(&set, zcpu[k]);
    }
    if (smp_run(&set, run_fn, &run, timeout_us) < 0 || run.barrier_failed) {
        result_fail("interference.run", "%s: %s", z ? z->label : "victims alone",
                    run.barrier_failed ? "a barrier timed out" : "a CPU got stuck");
        return -1;
    }
    uint64_t bps = 0, busy = 0, cleared = 0;
    for (unsigned k = 0; k < nz; k++) {
        const struct interf_zeroer *w = &run.z[zcpu[k]];
        bps += w->cyc ? mul_div_u64(w->cleared, hz, w->cyc) : 0;
        busy += w->busy;
        cleared += w->cleared;
        redirty[k] = w->cleared < w->bytes ? (w->cleared ? w->cleared : 4096) : 0;
        if (!w->zero && z->verified) {
            z->verified = false;
            kprintf("interference: %s on CPU %u left a non-zero byte at share offset 0x%llx\n",
                    z->label, zcpu[k], (unsigned long long)w->bad);
        }
    }
    run.cpg = stats_per_gib(busy, cleared);
    return (int64_t)bps;
}

bool if_run_alone(struct if_victim *const *list, unsigned n, uint64_t *ns_out)
{
    run.n = n;
    memcpy(run.list, list, sizeof(*list) * n);
    if (run_once(0, 0, 5) < 0)
        return false;
    memcpy(ns_out, run.ns, sizeof(uint64_t) * n);
    return true;
}

/* Each zeroer's peak: one CPU's unthrottled rate, no victim; IF_PEAK_ROUNDS
 * rounds, each running every zeroer once in a seeded order; the median. */
static bool calibrate(void)
{
    static uint64_t v[IF_ZEROERS][IF_PEAK_ROUNDS];
    unsigned order[IF_ZEROERS];
    run.hold_cyc = mul_div_u64(tsc_info()->hz, cpu_is_tcg() ? 20 : 200, 1000);
    for (unsigned r = 0; r < IF_PEAK_ROUNDS; r++) {
        ilv_order(opt_seed + 1000, r, order, IF_ZEROERS);
        for (unsigned i = 0; i < IF_ZEROERS; i++) {
            struct if_zeroer *z = &st.z[order[i]];
            int64_t bps = z->s ? run_once(z, 100, r + 1) : 0;
            if (bps < 0)
                return false;
            v[order[i]][r] = (uint64_t)bps / st.nzcpus;
        }
    }
    for (unsigned i = 0; i < IF_ZEROERS; i++) {
        struct stats s;
        stats_compute(&s, v[i], IF_PEAK_ROUNDS);
        st.z[i].peak_bps = st.z[i].s ? s.median : 0;
        st.z[i].peak_lo = s.ci_lo;
        st.z[i].peak_hi = s.ci_hi;
        st.z[i].peak_cover_x100 = s.ci_cover_x100;
    }
    run.hold_cyc = 0;
    return true;
}

bool if_run_cell(struct if_cell *c, uint64_t seed, bool contend)
{
    if (c->rounds >= IF_MAX_ROUNDS)
        return false;
    run.n = IF_VICTIMS;
    for (unsigned v = 0; v < IF_VICTIMS; v++)
        run.list[v] = &st.v[v];
    run.contend = contend;
    int64_t bps = run_once(c->z, c->rate_pct, seed);
    run.contend = false;
    if (bps < 0)
        return false;
    for (unsigned v = 0; v < IF_VICTIMS; v++) {
        c->ns[v][c->rounds] = run.ns[v];
        c->steal[v][c->rounds] = run.steal[v];
        for (unsigned e = 0; e < PMU_EVENTS; e++)
            c->pmu[v][e][c->rounds] = run.pmu[v][e];
    }
    c->piece = c->z ? paced_piece(c->z, c->rate_pct) : 0;
    c->zcpg[c->rounds] = run.cpg;
    c->zbps[c->rounds++] = (uint64_t)bps;
    return true;
}

static void rounds(unsigned nrounds)
{
    static unsigned order[IF_MAX_CELLS];
    for (unsigned r = 0; r < nrounds; r++) {
        ilv_order(opt_seed, r, order, st.ncells);
        for (unsigned i = 0; i < st.ncells; i++)
            if (!if_run_cell(&st.cell[order[i]], r + 7, false))
                return;
    }
}

/* The cells: the victims alone, the spin control, each supported strategy at every rate. */
static void setup_cells(void)
{
    st.ncells = 1; /* cell 0: the victims alone */
    st.cell[0] = (struct if_cell){0};
    for (unsigned i = 0; i < IF_ZEROERS; i++) {
        struct if_zeroer *z = &st.z[i];
        const char *missing;
        z->s = clear_find(z->strategy);
        z->verified = true;
        if (!z->strategy) { /* the spin control: unpaced by nature */
            st.cell[st.ncells++] = (struct if_cell){.z = z, .rate_pct = 100};
            continue;
        }
        if (!z->s || !clear_supported(z->s, &missing)) {
            char name[48];
            hz_snprintf(name, sizeof(name), "interference.zeroer.%s", z->label);
            result_skip(name, "%s: missing CPU feature %s", z->strategy,
                        z->s ? missing : "(unknown strategy)");
            z->s = 0;
            continue;
        }
        for (unsigned r = 0; r < IF_RATES; r++)
            st.cell[st.ncells++] = (struct if_cell){.z = z, .rate_pct = if_rates[r]};
    }
}

static void interference_scenario(void)
{
    uint64_t t0 = rdtsc();
    unsigned order[HZ_MAX_CPUS], online = smp_bench_order(order);
    if (online < 2) {
        result_skip("interference", "needs at least 2 online CPUs (victim + zeroer), %u online",
                    online);
        return;
    }
    st.vcpu = order[0];
    st.nzcpus = online - 1;
    st.tol_x100 = verdict_tolerance_x100();
    memcpy(zcpu, order + 1, sizeof(unsigned) * st.nzcpus);
    const struct pmu_info *pmu = pmu_probe();
    st.pmu = pmu->usable;
    if (!st.pmu)
        result_skip("interference.pmu", "%s", pmu->why);
    st.period_us = opt_period_us;
    if (!if_setup_victims(&st, if_opts.l2, if_opts.llc, opt_seed))
        return;
    st.share = if_opts.share ? if_opts.share : cpu_is_tcg() ? 16ull << 20 : 1ull << 30;
    st.share &= ~(PAGE_SIZE_2M - 1);
    uint64_t want = st.share * st.nzcpus;
    if (smp_target_take(&zbuf, want, false, 0, 0) < 0 || zbuf.bytes < want ||
        split_plan(want, PAGE_SIZE_2M, st.nzcpus, 0, zbuf.ext, zbuf.next, piece) != SPLIT_OK) {
        result_skip("interference", "%llu MiB of zeroer memory not free (interf_zero_bytes=)",
                    (unsigned long long)(want >> 20));
        smp_target_release(&zbuf);
        if_release_victims();
        return;
    }
    setup_cells();
    unsigned nr = if_rounds_of(scenario_profile());
    kprintf("interference: victim CPU %u, %u zeroer CPU(s), L2 %llu KiB, LLC %llu KiB (%s), "
            "zeroer share %llu MiB each, %u cells x %u rounds, CPL %d\n",
            st.vcpu, st.nzcpus, (unsigned long long)(st.l2 >> 10),
            (unsigned long long)(st.llc >> 10), st.cache_source,
            (unsigned long long)(st.share >> 20), st.ncells, nr, user_cpl());
    if (if_residency(&st, t0) && if_host_check(&st, t0) && calibrate()) {
        rounds(nr);
        if_report(&st);
        if_rank(&st);
        if_verdict_cells(&st);
    }
    smp_target_release(&zbuf);
    if_release_victims();
}

unsigned if_zeroers_supported(void)
{
    unsigned zeroers = 0;
    for (unsigned i = 0; i < IF_ZEROERS; i++) {
        const char *missing;
        const struct clear_strategy *s = st.z[i].strategy ? clear_find(st.z[i].strategy) : 0;
        zeroers += s && clear_supported(s, &missing);
    }
    return zeroers;
}

HZ_SCENARIO(scenario_interference, .name = "interference", .run = interference_scenario,
            .plan = interference_plan, .order = 60,
            .help = "victims on one CPU while the others zero frames: residency, slowdown per "
                    "clear strategy and paced rate, the zeroer's CPU per GiB");
