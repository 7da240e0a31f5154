/*
 * bench/interference.c - the `interference` scenario: what a background
 * zeroer costs the other tenants of a machine ("background zeroing costs
 * CPU time and thrashes L3 for other processes", the pre-zeroing thread,
 * docs/prezero.md).
 *
 * One CPU (the BSP) runs the victims (bench/interference.h) one after the
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
 * 1 % of its own peak (one CPU's unthrottled rate with no victim running,
 * measured first), `interf_period_us` periods. Victims and zeroers run at
 * the measurement CPL (arch/user.h: CPL 3 where ring 0 is emulated).
 *
 * Cells (victims alone, zeroer x rate) are interleaved (lib/interleave.h):
 * `interf_rounds` rounds, each running every cell once in a seeded random
 * order. A victim's sample in a run is the median of IF_SUBSAMPLES timed
 * passes (a host preemption hits one pass, not the sample). Per cell and
 * victim: the median sample over the rounds with its 95 % interval and CV; the slowdown is the
 * median against the alone median. Where the CPU has an architectural PMU (arch/pmu.h), core cycles
 * and LLC misses of each victim sample; else a `skip` record says why. Needs 2 CPUs.
 */
#include "bench/interference.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "bench/bench_smp.h"
#include "bench/interference_priv.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "mm/paging.h"

static uint64_t opt_rounds, opt_l2, opt_llc, opt_share, opt_period_us = 1000, opt_seed = 1;

HZ_OPTION(opt_if_rounds, .name = "interf_rounds", .kind = OPT_U64, .dest = &opt_rounds, .min = 1,
          .max = IF_MAX_ROUNDS, .accepted = "1..50",
          .help = "run=interference: interleaved rounds of every cell (default 10, 2 under TCG)");
HZ_OPTION(opt_if_l2, .name = "interf_l2", .kind = OPT_SIZE, .dest = &opt_l2, .min = 4096,
          .max = 64ull << 20, .accepted = "4K..64M",
          .help = "run=interference: L2 size to size the victims by (default: CPUID)");
HZ_OPTION(opt_if_llc, .name = "interf_llc", .kind = OPT_SIZE, .dest = &opt_llc, .min = 64ull << 10,
          .max = 1ull << 30, .accepted = "64K..1G",
          .help = "run=interference: LLC size to size the victims by (default: CPUID)");
HZ_OPTION(opt_if_share, .name = "interf_zero_bytes", .kind = OPT_SIZE, .dest = &opt_share,
          .min = 2ull << 20, .max = 64ull << 30,
          .accepted = "2M..64G (rounded down to a multiple of 2M)",
          .help = "run=interference: bytes each zeroer CPU clears round and round (default 1G, "
                  "16M under TCG)");
HZ_OPTION(opt_if_period, .name = "interf_period_us", .kind = OPT_U64, .dest = &opt_period_us,
          .min = 10, .max = 1000000, .accepted = "10..1000000",
          .help = "run=interference: pacing period of a rate-limited zeroer, us (default 1000)");
HZ_OPTION(opt_if_seed, .name = "interf_seed", .kind = OPT_U64, .dest = &opt_seed,
          .accepted = "0..2^64-1", .max = UINT64_MAX,
          .help = "run=interference: seed of the chase cycles and the cell orders (default 1)");

const unsigned if_rates[IF_RATES] = {100, 25, 10, 1};

static struct if_state st = {
    .z = {{"spin", 0, 0, 0, 0, 0},
          {"temporal", "movq_unroll", 2ull << 20, 0, 0, 0},
          {"rep_stosb_4k", "rep_stosb", 4096, 0, 0, 0},
          {"rep_stosb_1g", "rep_stosb", 1ull << 30, 0, 0, 0},
          {"nt", "movnti", 2ull << 20, 0, 0, 0},
          {"clzero", "clzero", 2ull << 20, 0, 0, 0}},
};
static struct smp_target vbuf, zbuf;
static struct split_extent vslice[3][SMP_TARGET_MAX]; /* chase L2, chase LLC, 4 x LLC */
static size_t vslice_n[3];
static struct split_piece piece[HZ_MAX_CPUS];
static unsigned zcpu[HZ_MAX_CPUS];

/* One run: the victims (or a fixed hold) on the BSP, zeroers elsewhere. */
static struct {
    struct smp_barrier bar;
    volatile uint32_t stop, barrier_failed;
    struct interf_zeroer z[HZ_MAX_CPUS]; /* by CPU index */
    unsigned vi;                         /* victim the BSP runs now */
    uint64_t ns[IF_VICTIMS], steal[IF_VICTIMS], pmu[IF_VICTIMS][PMU_EVENTS];
    uint64_t hold_cyc; /* > 0: no victims, hold the zeroers this long */
    uint64_t to_cyc;
    volatile uint64_t sink;
} run;

/* [off, off + bytes) of the victim buffer as its own extent list. */
static size_t slice(struct split_extent *out, uint64_t off, uint64_t bytes)
{
    struct split_iter it;
    uint64_t base, len;
    size_t n = 0;
    split_iter_init(&it, vbuf.ext, vbuf.next, off, bytes);
    while (n < SMP_TARGET_MAX && split_iter_next(&it, &base, &len))
        out[n++] = (struct split_extent){base, len, -1};
    return n;
}

static void victim_one(void *arg)
{
    (void)arg;
    const struct if_victim *v = &st.v[run.vi];
    const struct split_extent *ext = vslice[v->chase ? run.vi : 2];
    size_t n = vslice_n[v->chase ? run.vi : 2];
    uint64_t sink = 0, sub[IF_SUBSAMPLES], s0 = steal_ns(st.vcpu), begin = rdtsc();
    if (v->warm)
        sink += v->chase ? interf_chase(v->start, v->bytes / INTERF_LINE)
                         : interf_read(ext, n, v->bytes, 1);
    for (unsigned k = 0; k < IF_SUBSAMPLES; k++) {
        uint64_t t0 = tsc_start();
        sink += v->chase ? interf_chase(v->start, v->work)
                         : interf_read(ext, n, v->bytes, (unsigned)v->work);
        sub[k] = tsc_stop() - t0;
    }
    for (unsigned i = 1; i < IF_SUBSAMPLES; i++) /* insertion sort: the median */
        for (unsigned j = i; j > 0 && sub[j - 1] > sub[j]; j--) {
            uint64_t t = sub[j];
            sub[j] = sub[j - 1];
            sub[j - 1] = t;
        }
    run.sink += sink;
    run.ns[run.vi] = tsc_to_ns(sub[IF_SUBSAMPLES / 2]);
    run.steal[run.vi] = stats_pct_x100(steal_ns(st.vcpu) - s0, tsc_to_ns(rdtsc() - begin));
}

static void victim_sync(void *arg)
{
    (void)arg;
    if (!smp_barrier_wait(&run.bar, 0, run.to_cyc))
        run.barrier_failed = 1;
    else if (run.hold_cyc)
        for (uint64_t end = rdtsc() + run.hold_cyc; rdtsc() < end;)
            cpu_relax();
}

static void zeroer_part(void *arg)
{
    struct interf_zeroer *z = arg;
    unsigned cpu = (unsigned)(z - run.z);
    interf_zeroer_dirty(z);
    if (!smp_barrier_wait(&run.bar, cpu, run.to_cyc)) {
        run.barrier_failed = 1;
        return;
    }
    interf_zeroer_run(z);
}

static void run_fn(unsigned cpu, void *arg)
{
    (void)arg;
    if (cpu != st.vcpu) {
        user_run(cpu, zeroer_part, &run.z[cpu]);
        return;
    }
    user_run(cpu, victim_sync, 0);
    for (run.vi = 0; !run.hold_cyc && !run.barrier_failed && run.vi < IF_VICTIMS; run.vi++) {
        pmu_start();
        user_run(cpu, victim_one, 0);
        pmu_stop(run.pmu[run.vi]);
    }
    run.stop = 1;
}

/* One run of zeroer z (NULL: none) at rate_pct of its peak. Returns the
 * zeroers' bytes/s together (0 without), or -1 when the run failed. */
static int64_t run_once(struct if_zeroer *z, unsigned rate_pct, uint64_t seed)
{
    struct smp_set set;
    unsigned nz = z ? st.nzcpus : 0;
    uint64_t hz = tsc_info()->hz;
    smp_set_clear(&set);
    smp_set_add(&set, st.vcpu);
    uint64_t timeout_us = smp_job_timeout_us(4 * st.share + (64ull << 20));
    run.to_cyc = mul_div_u64(timeout_us, hz, 1000000);
    smp_barrier_init(&run.bar, nz + 1);
    run.stop = run.barrier_failed = 0;
    for (unsigned k = 0; k < nz; k++) {
        struct interf_zeroer *w = &run.z[zcpu[k]];
        uint64_t rate = z->peak_bps / 100 * rate_pct, per = 0, period = 0;
        if (rate_pct < 100 && rate) {
            per = mul_div_u64(rate, opt_period_us, 1000000) & ~4095ull;
            per = per ? per : 4096;
            period = mul_div_u64(per, hz, rate);
        }
        *w = (struct interf_zeroer){.s = z->s,
                                    .ext = zbuf.ext,
                                    .next = zbuf.next,
                                    .off = piece[k].off,
                                    .bytes = piece[k].bytes,
                                    .chunk = z->chunk < st.share ? z->chunk : st.share,
                                    .period_cyc = period,
                                    .per_period = per,
                                    .seed = seed * HZ_MAX_CPUS + k,
                                    .stop = &run.stop};
        smp_set_add(&set, zcpu[k]);
    }
    if (z && !z->s)
        nz = st.nzcpus; /* the spin control: zeroer CPUs busy, no stores */
    if (smp_run(&set, run_fn, 0, timeout_us) < 0 || run.barrier_failed) {
        result_fail("interference.run", "%s: %s", z ? z->label : "victims alone",
                    run.barrier_failed ? "a barrier timed out" : "a CPU got stuck");
        return -1;
    }
    uint64_t bps = 0;
    for (unsigned k = 0; k < nz; k++) {
        const struct interf_zeroer *w = &run.z[zcpu[k]];
        bps += w->cyc ? mul_div_u64(w->cleared, hz, w->cyc) : 0;
        if (!w->zero && z->verified) {
            z->verified = false;
            kprintf("interference: %s on CPU %u left a non-zero byte at share offset 0x%llx\n",
                    z->label, zcpu[k], (unsigned long long)w->bad);
        }
    }
    return (int64_t)bps;
}

/* Each zeroer's peak: one CPU's unthrottled rate, no victim, median of 5. */
static bool calibrate(void)
{
    uint64_t v[5];
    run.hold_cyc = mul_div_u64(tsc_info()->hz, cpu_is_tcg() ? 20 : 100, 1000);
    for (unsigned i = 0; i < IF_ZEROERS; i++) {
        struct if_zeroer *z = &st.z[i];
        if (!z->s)
            continue;
        for (unsigned r = 0; r < 5; r++) {
            int64_t bps = run_once(z, 100, r + 1);
            if (bps < 0)
                return false;
            v[r] = (uint64_t)bps / st.nzcpus;
        }
        struct stats s;
        stats_compute(&s, v, 5);
        z->peak_bps = s.median;
    }
    run.hold_cyc = 0;
    return true;
}

static void rounds(unsigned nrounds)
{
    static unsigned order[IF_MAX_CELLS];
    for (unsigned r = 0; r < nrounds; r++) {
        ilv_order(opt_seed, r, order, st.ncells);
        for (unsigned i = 0; i < st.ncells; i++) {
            struct if_cell *c = &st.cell[order[i]];
            int64_t bps = run_once(c->z, c->rate_pct, r + 7);
            if (bps < 0)
                return;
            for (unsigned v = 0; v < IF_VICTIMS; v++) {
                c->ns[v][c->rounds] = run.ns[v];
                c->steal[v][c->rounds] = run.steal[v];
                for (unsigned e = 0; e < PMU_EVENTS; e++)
                    c->pmu[v][e][c->rounds] = run.pmu[v][e];
            }
            c->zbps[c->rounds++] = (uint64_t)bps;
        }
    }
}

static void build_chases(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 3; i++)
        st.v[i].start = interf_chase_build(vslice[i], vslice_n[i], st.v[i].bytes, opt_seed + i);
}

/* Cache sizes and the victims; false (with a skip) when memory is short. */
static bool setup_victims(void)
{
    bool tcg = cpu_is_tcg();
    uint64_t l2 = tcg ? 0 : cpu_cache_bytes(2), llc = tcg ? 0 : cpu_llc_bytes();
    st.cache_source = tcg ? "fallback (TCG models no cache)" : l2 && llc ? "cpuid" : "fallback";
    st.l2 = (opt_l2 ? opt_l2 : l2 ? l2 : tcg ? 256u << 10 : 256u << 10) & ~4095ull;
    st.llc = (opt_llc ? opt_llc : llc ? llc : tcg ? 1u << 20 : 8u << 20) & ~4095ull;
    if (opt_l2 || opt_llc)
        st.cache_source = "option";
    uint64_t loads = tcg ? 1u << 13 : 1u << 18;
    st.v[0] = (struct if_victim){"chase_l2_half", true, st.l2 / 2, loads, true, 0, 0};
    st.v[1] = (struct if_victim){"chase_llc_half", true, st.llc / 2, loads, true, 0, 0};
    st.v[2] = (struct if_victim){"chase_4llc", true, 4 * st.llc, loads / 4, false, 0, 0};
    st.v[3] = (struct if_victim){"stream_4llc", false, 4 * st.llc, 1, false, 0, 0};
    st.v[4] = (struct if_victim){"tenant_llc", false, st.llc, 2, true, 0, 0};
    uint64_t need = st.l2 / 2 + st.llc / 2 + 4 * st.llc;
    if (smp_target_take(&vbuf, need, false, 0, 0) < 0 || vbuf.bytes < need) {
        result_skip("interference", "%llu MiB of victim memory not free",
                    (unsigned long long)(need >> 20));
        return false;
    }
    uint64_t off[3] = {0, st.l2 / 2, st.l2 / 2 + st.llc / 2};
    for (unsigned i = 0; i < 3; i++)
        vslice_n[i] = slice(vslice[i], off[i], st.v[i].bytes);
    user_run(st.vcpu, build_chases, 0); /* bulk stores: at the measurement CPL */
    for (unsigned i = 0; i < IF_VICTIMS; i++)
        st.v[i].moved = st.v[i].chase ? st.v[i].work : st.v[i].bytes * st.v[i].work;
    return true;
}

static void interference_scenario(void)
{
    unsigned order[HZ_MAX_CPUS], online = smp_bench_order(order);
    if (online < 2) {
        result_skip("interference", "needs at least 2 online CPUs (victim + zeroer), %u online",
                    online);
        return;
    }
    st.vcpu = order[0];
    st.nzcpus = online - 1;
    memcpy(zcpu, order + 1, sizeof(unsigned) * st.nzcpus);
    const struct pmu_info *pmu = pmu_probe();
    st.pmu = pmu->usable;
    if (!st.pmu)
        result_skip("interference.pmu", "%s", pmu->why);
    st.period_us = opt_period_us;
    if (!setup_victims())
        return;
    st.share = opt_share ? opt_share : cpu_is_tcg() ? 16ull << 20 : 1ull << 30;
    st.share &= ~(PAGE_SIZE_2M - 1);
    uint64_t want = st.share * st.nzcpus;
    if (smp_target_take(&zbuf, want, false, 0, 0) < 0 || zbuf.bytes < want ||
        split_plan(want, PAGE_SIZE_2M, st.nzcpus, 0, zbuf.ext, zbuf.next, piece) != SPLIT_OK) {
        result_skip("interference", "%llu MiB of zeroer memory not free (interf_zero_bytes=)",
                    (unsigned long long)(want >> 20));
        smp_target_release(&zbuf);
        smp_target_release(&vbuf);
        return;
    }
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
    unsigned nr = (unsigned)(opt_rounds ? opt_rounds : cpu_is_tcg() ? 2 : 10);
    kprintf("interference: victim CPU %u, %u zeroer CPU(s), L2 %llu KiB, LLC %llu KiB (%s), "
            "zeroer share %llu MiB each, %u cells x %u rounds, CPL %d\n",
            st.vcpu, st.nzcpus, (unsigned long long)(st.l2 >> 10),
            (unsigned long long)(st.llc >> 10), st.cache_source,
            (unsigned long long)(st.share >> 20), st.ncells, nr, user_cpl());
    if (calibrate()) {
        rounds(nr);
        if_report(&st);
    }
    smp_target_release(&zbuf);
    smp_target_release(&vbuf);
}

HZ_SCENARIO(scenario_interference, .name = "interference", .run = interference_scenario,
            .order = 60,
            .help = "victims on one CPU while the others zero frames: slowdown per clear "
                    "strategy and rate");
