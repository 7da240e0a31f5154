/*
 * bench/bench_clear.c - the single-thread clear benchmark (`run=clear`).
 *
 * Timing: interrupts are off for the whole run; the memory work runs at the
 * measurement CPL (arch/user.h); tsc_start()/tsc_stop()
 * (MFENCE; LFENCE; RDTSC; LFENCE) bracket all the calls of one repeat, so
 * the dirtying pass before and non-temporal stores inside are drained at
 * both ends. One warm-up, then `repeats` timed repeats; min/median/max.
 */
#include "bench/bench_clear.h"
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "bench/clear_record.h"
#include "bench/memop.h"
#include "kernel/console.h"
#include "kernel/lava.h"
#include "kernel/progress.h"
#include "kernel/results.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "mm/mm.h"
#include "mm/paging.h"

#define MAX_CHUNKS 8
#define MAX_REPEATS 1000
#define MAX_ROWS 512
#define TCG_BYTES (64ull << 20)

static uint64_t chunks[MAX_CHUNKS] = {4096, 2 << 20, 32 << 20, 1 << 30};
static size_t nchunks = 4;
static uint64_t repeats = 5;
static uint64_t clear_bytes; /* 0: the whole arena (64 MiB under TCG) */
static char only[160];       /* strategies=: "" means all */

static int chunks_opt(const struct option *o, const char *v, char *err, size_t n)
{
    int k = cmdline_parse_size_list(v, chunks, MAX_CHUNKS);
    if (k < 0)
        return hz_snprintf(err, n, "malformed size list (1..8 non-zero sizes, K/M/G suffixes)"), -1;
    for (int i = 0; i < k; i++)
        if (chunks[i] & 63)
            return hz_snprintf(err, n, "size %llu is not a multiple of 64",
                               (unsigned long long)chunks[i]),
                   -1;
    nchunks = (size_t)k;
    return 0;
}

static int strategies_opt(const struct option *o, const char *v, char *err, size_t n)
{
    char name[32];
    for (const char *p = v; *p;) {
        size_t k = 0;
        while (p[k] && p[k] != ',')
            k++;
        hz_snprintf(name, sizeof(name), "%.*s", (int)k, p);
        if (!clear_find(name))
            return hz_snprintf(err, n, "no strategy '%s'", name), -1;
        p += p[k] ? k + 1 : k;
    }
    if (strcmp(v, "all") != 0)
        hz_snprintf(only, sizeof(only), ",%s,", v);
    return 0;
}

HZ_OPTION(opt_chunks, .name = "chunks", .kind = OPT_CUSTOM, .parse = chunks_opt,
          .accepted = "SIZE[,SIZE...] (1..8 sizes, multiples of 64)",
          .help = "bytes per clear call in the chunk sweep (default 4K,2M,32M,1G)");
HZ_OPTION(opt_repeats, .name = "repeats", .kind = OPT_U64, .dest = &repeats, .min = 1,
          .max = MAX_REPEATS, .accepted = "1..1000", .help = "timed repeats per cell (default 5)");
HZ_OPTION(opt_clear_bytes, .name = "clear_bytes", .kind = OPT_SIZE, .dest = &clear_bytes,
          .min = 1 << 20, .max = 1ull << 30, .accepted = "1M..1G",
          .help = "size of the large target (default: a 1 GiB frame; 64M under TCG)");
HZ_OPTION(opt_strategies, .name = "strategies", .kind = OPT_CUSTOM, .parse = strategies_opt,
          .accepted = "all|NAME[,NAME...]", .help = "strategies to measure (default all)");

struct row {
    const struct clear_strategy *s;
    uint64_t chunk, bytes, gbps_x1000;
    const char *cache;
};
static struct row rows[MAX_ROWS];
static size_t nrows;
static uint64_t ns[MAX_REPEATS];
static uint64_t big; /* bytes of the large target */

static bool selected(const struct clear_strategy *s)
{
    char key[40];
    hz_snprintf(key, sizeof(key), ",%s,", s->name);
    if (!only[0])
        return true;
    for (const char *p = only; *p; p++)
        if (strncmp(p, key, strlen(key)) == 0)
            return true;
    return false;
}

/* One step of a cell at the measurement CPL (arch/user.h, bench/memop.h). */
static void work(struct memop *m, enum memop_op op)
{
    m->op = op;
    user_run(0, memop_run, m);
}

/* Measure one cell; emit its record; false when a repeat left non-zero bytes. */
static bool cell(const struct clear_strategy *s, uint8_t *dst, uint64_t bytes, uint64_t chunk,
                 const char *cache, unsigned reps)
{
    bool cold = cache[0] == 'c', ok = true;
    uint64_t min_cyc = UINT64_MAX;
    struct memop w = {.p = dst, .bytes = bytes, .s = s, .chunk = chunk, .check = MEMOP_EXACT};
    for (unsigned r = 0; r <= reps; r++) { /* r == 0: warm-up, not recorded */
        w.seed = r + 1;
        work(&w, MEMOP_DIRTY);
        if (cold)
            wbinvd(); /* CPL 0 only: between the dirtying and the timed clear */
        work(&w, MEMOP_CLEAR);
        uint64_t cyc = w.cycles;
        work(&w, MEMOP_VERIFY);
        ok &= w.zero;
        if (r == 0)
            continue;
        ns[r - 1] = tsc_to_ns(cyc);
        if (cyc < min_cyc)
            min_cyc = cyc;
    }
    struct clear_result cr = {s->name, chunk, bytes, cache, 1, reps, {0}, min_cyc, ok, "hugezero"};
    stats_compute(&cr.ns, ns, reps);
    char buf[HZ_RECORD_MAX];
    record_emit_line(clear_record(buf, sizeof(buf), &cr));
    if (nrows < MAX_ROWS)
        rows[nrows++] = (struct row){s, chunk, bytes, stats_gbps_x1000(bytes, cr.ns.min), cache};
    if (ok) /* results=lava: best verified GB/s per (chunk, cache) */
        lava_measure(LAVA_MAX, stats_gbps_x1000(bytes, cr.ns.min), "GB/s",
                     "clear.best_gbps.%llu%s.%s",
                     (unsigned long long)(chunk % 1024 ? chunk : chunk >> 10),
                     chunk % 1024 ? "B" : "K", cache);
    return ok;
}

/* The first clear of a frame never written since boot (host faults and all). */
static void first_touch(const struct clear_strategy *s, uint64_t phys, uint64_t bytes)
{
    struct memop w = {
        .p = (void *)(uintptr_t)phys, .bytes = bytes, .s = s, .chunk = bytes, .check = MEMOP_EXACT};
    work(&w, MEMOP_CLEAR);
    uint64_t cyc = w.cycles;
    work(&w, MEMOP_VERIFY);
    ns[0] = tsc_to_ns(cyc);
    struct clear_result cr = {s->name, bytes, bytes, "first_touch", 1,
                              1,       {0},   cyc,   w.zero,        "hugezero"};
    stats_compute(&cr.ns, ns, 1);
    char buf[HZ_RECORD_MAX];
    record_emit_line(clear_record(buf, sizeof(buf), &cr));
}

/* The correctness pass, at the measurement CPL like every bulk access. */
struct verify {
    const struct clear_strategy *s;
    uint8_t *buf;
    char *why;
    size_t cap;
    bool ok;
};

static void verify_fn(void *arg)
{
    struct verify *v = arg;
    v->ok = clear_correctness(v->s, v->buf, v->why, v->cap);
}

static void print_table(void)
{
    kprintf("\nclear: GB/s (10^9 B/s, best of %llu) by chunk size; large target, cold%s%s\n",
            (unsigned long long)repeats,
            tsc_reliable() ? "" : " -- UNRELIABLE clock: ", tsc_unreliable_reason());
    for (size_t c = 0; c < nchunks; c++) {
        const struct row *best = 0;
        for (size_t i = 0; i < nrows; i++) {
            if (rows[i].chunk == chunks[c] && rows[i].cache[0] == 'c' && rows[i].bytes == big &&
                (!best || rows[i].gbps_x1000 > best->gbps_x1000))
                best = &rows[i];
        }
        if (!best)
            continue;
        kprintf("  chunk %8llu KiB: fastest %-13s %4llu.%03llu GB/s\n",
                (unsigned long long)(chunks[c] >> 10), best->s->name,
                (unsigned long long)(best->gbps_x1000 / 1000),
                (unsigned long long)(best->gbps_x1000 % 1000));
    }
    for (size_t i = 0; i < nrows; i++)
        for (size_t j = i + 1; j < nrows; j++)
            if (rows[j].gbps_x1000 > rows[i].gbps_x1000) {
                struct row t = rows[i];
                rows[i] = rows[j];
                rows[j] = t;
            }
    kprintf("  %-13s %10s %10s %-6s %10s\n", "strategy", "chunk", "bytes", "cache", "GB/s");
    for (size_t i = 0; i < nrows; i++)
        kprintf("  %-13s %10llu %10llu %-6s %6llu.%03llu\n", rows[i].s->name,
                (unsigned long long)rows[i].chunk, (unsigned long long)rows[i].bytes, rows[i].cache,
                (unsigned long long)(rows[i].gbps_x1000 / 1000),
                (unsigned long long)(rows[i].gbps_x1000 % 1000));
}

static void bench_clear(void)
{
    struct frames *f = mm_frames();
    size_t idx = 0;
    uint64_t arena, arena_bytes;
    bool have_1g = frames_1g_take(f, &idx) == FRAMES_OK;
    if (have_1g) {
        arena = frames_1g_base(f, idx);
        arena_bytes = PAGE_SIZE_1G;
    } else if (frames_alloc(f, PAGE_SIZE_2M, FRAMES_NO_LIMIT, &arena) == FRAMES_OK) {
        arena_bytes = PAGE_SIZE_2M;
        kprintf("clear: no free 1 GiB frame: the large target is one 2 MiB frame\n");
    } else {
        result_skip("clear", "no free memory for a target");
        return;
    }
    big = clear_bytes ? clear_bytes : cpu_is_tcg() ? TCG_BYTES : arena_bytes;
    if (big > arena_bytes)
        big = arena_bytes;
    uint64_t llc = cpu_llc_bytes();
    uint64_t small = (llc ? llc / 2 : 1 << 20) & ~4095ull;
    if (small > big / 4)
        small = (big / 4) & ~4095ull;
    uint8_t *base = (uint8_t *)(uintptr_t)arena;
    kprintf("clear: large target %llu MiB at 0x%llx (LLC %llu KiB%s), small target %llu KiB, "
            "%llu repeats%s\n",
            (unsigned long long)(big >> 20), (unsigned long long)arena,
            (unsigned long long)(llc >> 10), llc && big < 4 * llc ? ", NOT 4x LLC" : "",
            (unsigned long long)(small >> 10), (unsigned long long)repeats,
            cpu_is_tcg() ? " (TCG: reduced sizes, emulator timings)" : "");

    bool touched = false;
    progress_begin("clear", (unsigned)clear_strategy_count);
    for (size_t i = 0; i < clear_strategy_count; i++) {
        const struct clear_strategy *s = &clear_strategies[i];
        progress_step((unsigned)i);
        const char *missing;
        char name[48], why[120];
        hz_snprintf(name, sizeof(name), "clear.%s", s->name);
        if (!selected(s))
            continue;
        if (!clear_supported(s, &missing)) {
            result_skip(name, "missing CPU feature %s", missing);
            continue;
        }
        if (!touched && have_1g) /* the arena frame has never been written */
            first_touch(s, arena, big);
        touched = true;
        struct verify v = {s, base, why, sizeof(why), false};
        user_run(0, verify_fn, &v);
        if (!v.ok) {
            result_fail(name, "correctness: %s", why);
            continue;
        }
        bool ok = true;
        for (size_t c = 0; c < nchunks; c++) {
            if (chunks[c] <= big)
                ok &= cell(s, base, big, chunks[c], "cold", (unsigned)repeats);
            if (chunks[c] <= small) {
                ok &= cell(s, base + 4096, small, chunks[c], "warm", (unsigned)repeats);
                ok &= cell(s, base + 4096, small, chunks[c], "cold", (unsigned)repeats);
            }
        }
        if (ok)
            result_pass(name);
        else
            result_fail(name, "a timed clear left non-zero bytes");
    }
    progress_step((unsigned)clear_strategy_count);
    print_table();
    if (have_1g)
        frames_1g_put(f, idx);
    else
        frames_free(f, arena, PAGE_SIZE_2M);
}

HZ_SCENARIO(scenario_clear, .name = "clear", .run = bench_clear, .order = 10, .in_default = true,
            .help = "every clear strategy at every chunk size, verified (single thread)");
