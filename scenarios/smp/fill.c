/*
 * scenarios/smp/fill.c - the QEMU-like part of the `smp` scenario: zero
 * every free 1 GiB frame (else every free 2 MiB frame), as a hypervisor
 * preallocating guest RAM does (QEMU -mem-prealloc with its preallocation
 * threads: contiguous parts of the memory, whole pages per thread, never
 * more busy threads than pages). The thread counts 1, 2, 4, 8, 16 and all
 * are cells run interleaved (measure/smp_rounds.c): an untimed warm-up round
 * (each cell fills everything once, so the host backs every page before
 * anything is timed), then at least `smp_fill_repeats` rounds, each cell
 * once per round in a seeded random order. A fill: dirty, barrier, clear in
 * 2 MiB calls, barrier, check every byte. Reports the median wall time with
 * its interval and the seconds one TiB would take at that rate (`smp_fill`
 * records, scenarios/smp/records.md).
 */
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "kernel/lava.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/clear_record.h"
#include "measure/time_lost.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "scenarios/smp/plan.h"
#include "scenarios/smp/smp.h"

enum { FILL_ALL, FILL_NONE, FILL_BYTES };
static int fill_mode = FILL_ALL;
static uint64_t fill_bytes;
static char fill_strategy[24] = "rep_stosb";
static uint64_t fill_repeats = 10;

static int fill_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (strcmp(v, "all") == 0)
        fill_mode = FILL_ALL;
    else if (strcmp(v, "none") == 0)
        fill_mode = FILL_NONE;
    else if (cmdline_parse_size(v, &fill_bytes) == 0 && fill_bytes >= PAGE_SIZE_2M)
        fill_mode = FILL_BYTES;
    else
        return hz_snprintf(err, n, "want all, none or a size of at least 2M"), -1;
    return 0;
}

static int fill_strategy_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (!clear_find(v) || strlen(v) >= sizeof(fill_strategy))
        return hz_snprintf(err, n, "no strategy '%s'", v), -1;
    hz_snprintf(fill_strategy, sizeof(fill_strategy), "%s", v);
    return 0;
}

HZ_OPTION(opt_smp_fill, .name = "smp_fill", .kind = OPT_CUSTOM, .parse = fill_opt,
          .accepted = "all|none|SIZE (SIZE >= 2M, rounded up to whole frames)",
          .help = "memory the smp scenario's QEMU-like fill zeroes (default all free frames)");
HZ_OPTION(opt_smp_fill_strategy, .name = "smp_fill_strategy", .kind = OPT_CUSTOM,
          .parse = fill_strategy_opt, .accepted = "a clear strategy name (docs/strategies.md)",
          .help = "strategy of the smp scenario's fill (default rep_stosb, as Linux clear_page)");

HZ_OPTION(opt_smp_fill_repeats, .name = "smp_fill_repeats", .kind = OPT_U64, .dest = &fill_repeats,
          .min = 1, .max = SMP_MAX_ROUNDS, .accepted = "1..100",
          .help = "timed rounds of fills every thread count gets at least, interleaved, after "
                  "untimed warm-ups (default 10)");

static struct smp_target target;
static struct smp_job job;

/* One thread count of the fill. */
struct fill_cell {
    unsigned threads, busy;
    struct smp_series ser;
    uint64_t cpu_max_ns; /* slowest CPU's own time over the timed fills */
    bool verified;
};

static struct fill_cell fcells[SMP_MAX_CELLS];
static struct smp_series *fseries[SMP_MAX_CELLS];

/* The fill's request, which smp_fill_run() builds on its stack and hands
 * to every repeat by pointer (smp_rounds_run()'s arg): the job (strategy,
 * extents, chunk and timeout set), its target, the CPUs in order, the
 * cells. */
struct fill_ctx {
    struct smp_job *job;
    const struct smp_target *target;
    const unsigned *cpu;
    struct fill_cell *cells;
};

static void fill_record(const struct fill_cell *c)
{
    struct stats stb, *st = &stb;
    uint64_t steal_x100;
    smp_series_stats(&c->ser, st, &steal_x100);
    unsigned threads = c->threads, busy = c->busy;
    uint64_t cpu_max_ns = c->cpu_max_ns;
    bool verified = c->verified;
    char buf[HZ_RECORD_MAX];
    struct rec r;
    uint64_t wall_ns = st->median;
    uint64_t ns_per_tib = mul_div_u64(wall_ns, 1ull << 40, target.bytes);
    rec_begin(&r, buf, sizeof(buf), "smp_fill");
    rec_str(&r, "strategy", job.s->name);
    rec_u64(&r, "threads", threads);
    rec_u64(&r, "busy_threads", busy);
    rec_u64(&r, "frames", target.bytes / target.frame_bytes);
    rec_u64(&r, "frame_bytes", target.frame_bytes);
    rec_u64(&r, "bytes", target.bytes);
    rec_u64(&r, "repeats", st->n);
    rec_bool(&r, "too_few", st->n < CMP_MIN_N);
    rec_u64(&r, "wall_ns", wall_ns);
    rec_u64(&r, "wall_min_ns", st->min);
    rec_u64(&r, "wall_max_ns", st->max);
    rec_u64(&r, "ci_lo_ns", st->ci_lo);
    rec_u64(&r, "ci_hi_ns", st->ci_hi);
    rec_fixed(&r, "ci_pct", st->ci_cover_x100, 2);
    rec_fixed(&r, "cv_pct", st->cv_x100, 2);
    rec_bool(&r, "noisy", stats_noisy(st));
    rec_u64(&r, "cpu_max_ns", cpu_max_ns);
    rec_u64(&r, "wall_below", c->ser.wall_below);
    smp_series_skew_record(&r, &c->ser);
    tl_rec_members(&r, &c->ser.lost);
    if (steal_available()) {
        rec_fixed(&r, "steal_pct", steal_x100, 2);
        rec_bool(&r, "steal_high", steal_x100 > CLEAR_STEAL_FLAG_X100);
    }
    rec_fixed(&r, "gbps", stats_gbps_x1000(target.bytes, wall_ns), 3);
    rec_fixed(&r, "s_per_tib", ns_per_tib / 1000000, 3);
    rec_bool(&r, "verified", verified);
    record_emit(&r);
    char id[24];
    hz_snprintf(id, sizeof(id), "smp_fill/%uT", threads);
    tl_run_add(id, &c->ser.lost);
    if (verified) /* results=lava: the VM-start model, s/TiB x 1000 */
        lava_measure(LAVA_MIN, ns_per_tib / 1000000, "s/TiB", "smp.fill.s_per_tib.%ucpu", threads);

    char g[24], s[24], cover[16];
    fmt_fixed(g, sizeof(g), stats_gbps_x1000(target.bytes, wall_ns), 3);
    fmt_fixed(s, sizeof(s), ns_per_tib / 1000000, 3);
    fmt_fixed(cover, sizeof(cover), st->ci_cover_x100, 2); /* below 95 % with n < 6 */
    kprintf("smp: fill %3u threads (%u busy): %llu MiB in %llu ms (median of %zu, %s%% interval "
            "%llu..%llu ms) = %s GB/s, "
            "%s s/TiB, cv %llu.%02llu%%%s%s%s\n",
            threads, busy, (unsigned long long)(target.bytes >> 20),
            (unsigned long long)(wall_ns / 1000000), st->n, cover,
            (unsigned long long)(st->ci_lo / 1000000), (unsigned long long)(st->ci_hi / 1000000), g,
            s, (unsigned long long)(st->cv_x100 / 100), (unsigned long long)(st->cv_x100 % 100),
            stats_noisy(st) ? " NOISY" : "", steal_x100 > CLEAR_STEAL_FLAG_X100 ? " STEAL" : "",
            verified ? "" : ", NOT ZERO");
}

/* One fill of x's target with x's first `threads` CPUs; false when the
 * run must stop (stuck CPU, barrier). *busy: CPUs with a non-empty piece;
 * *cpu_max: the slowest CPU's own time, ns; *verified cleared when a byte
 * was left non-zero. */
static bool fill_one(const struct fill_ctx *x, unsigned threads, uint64_t seed, unsigned *busy,
                     uint64_t *cpu_max, bool *verified)
{
    struct smp_job *job = x->job;
    const struct smp_target *t = x->target;
    job->n = threads;
    memcpy(job->cpu, x->cpu, sizeof(unsigned) * threads);
    split_plan(t->bytes, t->frame_bytes, threads, 0, t->ext, t->next, job->piece);
    job->seed = seed;
    int rc = smp_job_run(job);
    if (rc < 0) {
        result_fail("smp.fill.run", "%u threads: %s", threads,
                    rc == -3 ? "a barrier timed out" : "a CPU got stuck or went offline");
        return false;
    }
    *busy = 0;
    for (unsigned k = 0; k < threads; k++) {
        *busy += job->piece[k].bytes != 0;
        if (tsc_to_ns(job->cyc[k]) > *cpu_max)
            *cpu_max = tsc_to_ns(job->cyc[k]);
        if (job->bad[k]) {
            *verified = false;
            kprintf("smp: fill, %u threads: CPU %u left a non-zero byte at 0x%llx\n", threads,
                    job->cpu[k], (unsigned long long)job->bad_addr[k]);
        }
    }
    return true;
}

/* One fill of cell i of arg (struct fill_ctx; round 0: untimed warm-up);
 * false when the run must stop. */
static bool fill_repeat(void *arg, size_t i, unsigned round)
{
    const struct fill_ctx *x = arg;
    struct fill_cell *c = &x->cells[i];
    uint64_t cpu_max = 0;
    if (!fill_one(x, c->threads, 1000 + c->threads * 100 + round, &c->busy, &cpu_max, &c->verified))
        return false;
    if (smp_series_add(&c->ser, x->job, round > 0) && c->ser.wall_below == 1)
        kprintf("smp: fill, %u threads: wall %llu cycles below a CPU's own time\n", c->threads,
                (unsigned long long)x->job->wall_cyc);
    if (round > 0 && cpu_max > c->cpu_max_ns)
        c->cpu_max_ns = cpu_max;
    return true;
}

uint64_t smp_fill_plan_bytes(unsigned *repeats)
{
    struct frames *f = mm_frames();
    uint64_t all = frames_1g_free_count(f) * PAGE_SIZE_1G + frames_free_bytes(f);
    *repeats = (unsigned)fill_repeats;
    return fill_mode == FILL_NONE                      ? 0
           : fill_mode == FILL_ALL || fill_bytes > all ? all
                                                       : fill_bytes;
}

void smp_fill_run(const unsigned *cpu, unsigned online, const unsigned *counts, unsigned nc)
{
    const char *missing;
    if (fill_mode == FILL_NONE) {
        kprintf("smp: fill skipped (smp_fill=none)\n");
        return;
    }
    job.s = clear_find(fill_strategy);
    if (!clear_supported(job.s, &missing)) {
        result_skip("smp.fill.verify", "smp_fill_strategy=%s: missing CPU feature %s",
                    fill_strategy, missing);
        return;
    }
    if (smp_target_take(&target, fill_mode == FILL_ALL ? UINT64_MAX : fill_bytes, true, 0, 0) < 0) {
        result_skip("smp.fill.verify", "no free frame to fill");
        return;
    }
    kprintf("smp: fill: %llu frame(s) of %s = %llu MiB with %s, %u CPU(s)%s\n",
            (unsigned long long)(target.bytes / target.frame_bytes),
            target.frame_bytes == PAGE_SIZE_1G ? "1 GiB" : "2 MiB",
            (unsigned long long)(target.bytes >> 20), job.s->name, online,
            target.table_full ? " (extent table full: not every free frame)" : "");
    job.ext = target.ext;
    job.next = target.next;
    job.chunk = PAGE_SIZE_2M;
    job.timeout_us = smp_job_timeout_us(3 * target.bytes);
    job.lead_cyc = smp_start_lead_cyc();
    bool verified = true;
    unsigned wall_below = 0;
    struct fill_ctx x = {.job = &job, .target = &target, .cpu = cpu, .cells = fcells};
    for (unsigned i = 0; i < nc && i < SMP_MAX_CELLS; i++) {
        fcells[i] = (struct fill_cell){.threads = counts[i], .verified = true};
        fseries[i] = &fcells[i].ser;
    }
    struct plan_rounds r = smp_settings_get(scenario_profile())->rounds;
    r.min = (unsigned)fill_repeats;
    bool finished = smp_rounds_run("fill", &r, nc, fseries, fill_repeat, 0, &x);
    for (unsigned i = 0; i < nc && finished; i++) {
        fill_record(&fcells[i]);
        verified &= fcells[i].verified;
        wall_below += fcells[i].ser.wall_below;
    }
    if (finished)
        tl_run_record("smp_fill"); /* the fill cells' SMIs and gaps */
    if (!verified)
        result_fail("smp.fill.verify", "a frame was not all zero after the fill (see above)");
    else if (finished)
        result_pass("smp.fill.verify");
    if (wall_below)
        result_fail("smp.fill.wall", "%u fill(s) had a wall time below a CPU's own time",
                    wall_below);
    else if (finished)
        result_pass("smp.fill.wall");
    smp_target_release(&target);
}
