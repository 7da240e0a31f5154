/*
 * scenarios/clear/run.c - the single-thread clear benchmark (`run=clear`).
 *
 * Timing: interrupts are off for the whole run; the memory work runs at the
 * measurement CPL (arch/user.h); tsc_start()/tsc_stop()
 * (MFENCE; LFENCE; RDTSC; LFENCE) bracket all the calls of one repeat, so
 * the dirtying pass before and non-temporal stores inside are drained at
 * both ends.
 *
 * Cells (strategy x chunk x target x cache state) are interleaved
 * (lib/interleave.h): one untimed warm-up round, then rounds in which every
 * active cell runs one repeat, in a seeded random order per round. At least
 * `repeats` rounds; then the race (scenarios/clear/race.h): at each look (n =
 * 10, 20, 30, 40) only the cells of a verdict comparison or control still
 * undecided go on, up to `max_rounds` or until `clear_budget` seconds are
 * spent. Cold cells are evicted and checked (measure/evict.h); the host's
 * steal time is read around every timed repeat (arch/steal.h).
 */
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "kernel/lava.h"
#include "kernel/options.h"
#include "kernel/progress.h"
#include "kernel/scenario.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "lib/stats.h"
#include "measure/clear_record.h"
#include "measure/round_options.h"
#include "measure/strategy_list.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "scenarios/clear/cells.h"
#include "scenarios/clear/clear.h"
#include "scenarios/clear/race.h"

#define MAX_CHUNKS 8
#define TCG_BYTES (64ull << 20)

static uint64_t chunks[MAX_CHUNKS] = {4096, 2 << 20, 32 << 20, 1 << 30};
static size_t nchunks = 4;
static uint64_t repeats = 10, max_rounds = 40, budget_s = 120;
static uint64_t clear_bytes; /* 0: the whole arena (64 MiB under TCG) */
static uint64_t samples_opt; /* clear_samples=1: a clear_samples record per cell */
static char only[160];       /* strategies=: "" means all */
static struct clear_cells cs;
static uint64_t scratch[CLEAR_FACTOR_SCRATCH]; /* a cell's samples; the round factors */
static uint64_t big;                           /* bytes of the large target */

static int chunks_opt(const struct option *o, const char *v, char *err, size_t n)
{
    int k = cmdline_size_list_opt(v, chunks, MAX_CHUNKS, 64, err, n);
    if (k < 0)
        return -1;
    nchunks = (size_t)k;
    return 0;
}

static int strategies_opt(const struct option *o, const char *v, char *err, size_t n)
{
    const struct clear_strategy *list[32];
    if (strcmp(v, "all") == 0)
        return 0;
    if (strategy_list_parse(v, list, 32, err, n) < 0)
        return -1;
    if ((size_t)hz_snprintf(only, sizeof(only), ",%s,", v) < sizeof(only))
        return 0;
    only[0] = 0;
    return hz_snprintf(err, n, "list longer than %zu characters", sizeof(only) - 3), -1;
}

HZ_OPTION(opt_chunks, .name = "chunks", .kind = OPT_CUSTOM, .parse = chunks_opt,
          .accepted = "SIZE[,SIZE...] (1..8 sizes, multiples of 64)",
          .help = "bytes per clear call in the chunk sweep (default 4K,2M,32M,1G)");
HZ_OPTION(opt_repeats, .name = "repeats", .kind = OPT_U64, .dest = &repeats, .min = 1,
          .max = CLEAR_MAX_ROUNDS, .accepted = "1..100",
          .help = "timed rounds every clear cell gets at least (default 10)");
HZ_OPTION(opt_max_rounds, .name = "max_rounds", .kind = OPT_U64, .dest = &max_rounds, .min = 1,
          .max = CLEAR_MAX_ROUNDS, .accepted = "1..100",
          .help = "most timed rounds of the clear cells, the race's cap (default 40; never below "
                  "repeats)");
HZ_OPTION(opt_clear_budget, .name = "clear_budget", .kind = OPT_U64, .dest = &budget_s, .min = 0,
          .max = 86400, .accepted = "0..86400 (seconds)",
          .help = "seconds of rounds past `repeats` (the race) after which no round starts "
                  "(default 120)");
HZ_OPTION(opt_clear_bytes, .name = "clear_bytes", .kind = OPT_SIZE, .dest = &clear_bytes,
          .min = 1 << 20, .max = 1ull << 30, .accepted = "1M..1G",
          .help = "size of the large target (default: a 1 GiB frame; 64M under TCG)");
HZ_OPTION(opt_clear_samples, .name = "clear_samples", .kind = OPT_U64, .dest = &samples_opt,
          .min = 0, .max = 1, .accepted = "0|1",
          .help = "1: also print every cell's timed samples in run order (clear_samples records)");
HZ_OPTION(opt_strategies, .name = "strategies", .kind = OPT_CUSTOM, .parse = strategies_opt,
          .accepted = "all|NAME[,NAME...]", .help = "strategies to measure (default all)");

bool clear_selected(const struct clear_strategy *s, const struct clear_settings *p)
{
    char key[40];
    hz_snprintf(key, sizeof(key), ",%s,", s->name);
    if (!only[0] && !option_given("strategies") && !p->all_strategies)
        return clear_quick_set(s);
    if (!only[0])
        return true;
    for (const char *p = only; *p; p++)
        if (strncmp(p, key, strlen(key)) == 0)
            return true;
    return false;
}

/* The `clear_samples` record of cell c (clear_samples=1): every timed
 * repeat in run order, its window's steal and the cell run before it. */
static void samples_record(const struct clear_cell *c)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "clear_samples");
    rec_u64(&r, "cell", (uint64_t)(c - cs.cell));
    rec_str(&r, "strategy", c->s->name);
    rec_u64(&r, "chunk", c->chunk);
    rec_u64(&r, "bytes", c->bytes);
    rec_str(&r, "cache", c->cache);
    rec_arr_begin(&r, "ns");
    for (unsigned i = 0; i < c->n; i++)
        rec_u64(&r, 0, c->ns[i]);
    rec_arr_end(&r);
    rec_arr_begin(&r, "steal_ns");
    for (unsigned i = 0; i < c->n; i++)
        rec_u64(&r, 0, c->steal_rep[i]);
    rec_arr_end(&r);
    rec_arr_begin(&r, "prev");
    for (unsigned i = 0; i < c->n; i++)
        rec_i64(&r, 0, c->prev[i]);
    rec_arr_end(&r);
    record_emit(&r);
}

/* Final figures of cell c; emits its record (a control twin: nothing). */
static void finish(struct clear_cell *c)
{
    if (c->twin_of >= 0)
        return;
    struct clear_result cr = {.strategy = c->s->name,
                              .chunk = c->chunk,
                              .bytes = c->bytes,
                              .cache = c->cache,
                              .threads = 1,
                              .repeats = c->n,
                              .min_cyc = c->min_cyc,
                              .verified = c->ok,
                              .source = "hugezero",
                              .samples = c->ns,
                              .nsamples = c->n,
                              .stop = ilv_verdict_name(cs.stop[c - cs.cell])};
    for (unsigned i = 0; i < c->n; i++)
        scratch[i] = c->ns[i];
    stats_compute(&cr.ns, scratch, c->n);
    c->st = cr.ns;
    cr.steal_method = steal_method();
    cr.lost = &c->lost;
    cr.steal_ns = c->steal_ns;
    cr.steal_base_ns = c->base_ns;
    steal_account(c->base_ns, c->steal_ns);
    int check;
    bool verified =
        clear_cell_verified(&cs, c, scratch, &cr.cold_ratio_x100, &check, &cr.cache_why);
    cr.cache_check = check;
    c->cache_check = check;
    if (samples_opt)
        samples_record(c);
    c->steal_x100 = clear_steal_x100(&cr);
    struct vd_cell v;
    clear_cell_vd(&cs, c, &cr.ns, verified, &v);
    verdict_add(&v); /* the verdict's candidates (kernel/verdict.h) */
    char id[VD_ID_MAX];
    vd_cell_id(&v, id, sizeof(id));
    tl_run_add(id, &c->lost);
    char buf[HZ_RECORD_MAX];
    record_emit_line(clear_record(buf, sizeof(buf), &cr));
    /* results=lava: best verified median GB/s per (chunk, cache); a cold
     * figure only from a cell seen to be cold */
    if (verified)
        lava_measure(LAVA_MAX, stats_gbps_x1000(c->bytes, cr.ns.median), "GB/s",
                     "clear.best_gbps.%llu%s.%s",
                     (unsigned long long)(c->chunk % 1024 ? c->chunk : c->chunk >> 10),
                     c->chunk % 1024 ? "B" : "K", c->cache);
}

/* The first clear of a frame never written since boot (host faults and
 * all): one sample of one strategy, the first one measured. */
static void first_touch(const struct clear_strategy *s, uint64_t phys, uint64_t bytes)
{
    bool zero;
    uint64_t cyc = clear_cells_once(s, (uint8_t *)(uintptr_t)phys, bytes, &zero);
    scratch[0] = tsc_to_ns(cyc);
    struct clear_result cr = {.strategy = s->name,
                              .chunk = bytes,
                              .bytes = bytes,
                              .cache = "first_touch",
                              .threads = 1,
                              .repeats = 1,
                              .min_cyc = cyc,
                              .verified = zero,
                              .source = "hugezero"};
    stats_compute(&cr.ns, scratch, 1);
    char buf[HZ_RECORD_MAX];
    record_emit_line(clear_record(buf, sizeof(buf), &cr));
    kprintf("clear: first_touch: ONE sample, %s only, over %llu MiB never written since boot\n",
            s->name, (unsigned long long)(bytes >> 20));
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

/* Cells of strategy s (correctness passed), in the order they are listed. */
static void add_cells(const struct clear_strategy *s, uint8_t *base, uint64_t small)
{
    for (size_t k = 0; k < nchunks; k++) {
        struct clear_cell want[3] = {{.dst = base, .bytes = big, .cache = "cold"},
                                     {.dst = base + 4096, .bytes = small, .cache = "warm"},
                                     {.dst = base + 4096, .bytes = small, .cache = "cold"}};
        int kinds = clear_settings_get(scenario_profile())->small_target ? 3 : 1;
        for (int i = 0; i < kinds && cs.n < CLEAR_MAX_CELLS; i++) {
            if (chunks[k] > want[i].bytes)
                continue;
            struct clear_cell *c = &cs.cell[cs.n++];
            *c = want[i];
            c->s = s;
            c->twin_of = -1;
            c->chunk = chunks[k];
            c->n = 0;
            c->min_cyc = UINT64_MAX;
            c->ok = true;
        }
    }
}

const uint64_t *clear_option_settings(const struct clear_settings *p, size_t *nch, uint64_t *min,
                                      uint64_t *max, uint64_t *budget)
{
    static const uint64_t reduced[3] = {4096, 2 << 20, 1 << 30};
    bool three = !option_given("chunks") && p->chunks == 3;
    *nch = three ? 3 : nchunks;
    *min = option_given("repeats") ? repeats : p->rounds.min;
    *max = option_given("max_rounds") ? max_rounds : p->rounds.max;
    *budget = option_given("clear_budget") ? budget_s : p->rounds.budget_s;
    return three ? reduced : chunks;
}

static void apply_profile(void)
{
    const uint64_t *list = clear_option_settings(clear_settings_get(scenario_profile()), &nchunks,
                                                 &repeats, &max_rounds, &budget_s);
    memmove(chunks, list, nchunks * sizeof(chunks[0]));
}

void clear_targets(uint64_t arena_bytes, uint64_t *large, uint64_t *small)
{
    uint64_t llc = cpu_llc_bytes();
    *large = clear_bytes ? clear_bytes : cpu_is_tcg() ? TCG_BYTES : arena_bytes;
    if (*large > arena_bytes)
        *large = arena_bytes;
    *small = (llc ? llc / 2 : 1 << 20) & ~4095ull;
    if (*small > *large / 4)
        *small = (*large / 4) & ~4095ull;
}

static void bench_clear(void)
{
    struct frames *f = mm_frames();
    apply_profile();
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
    uint64_t small, llc = cpu_llc_bytes();
    clear_targets(arena_bytes, &big, &small);
    uint8_t *base = (uint8_t *)(uintptr_t)arena;
    clear_cells_evict_take(&cs, f, llc);
    cs.seed = round_seed_option() ? round_seed_option() : rdtsc();
    kprintf("clear: large target %llu MiB at 0x%llx (LLC %llu KiB%s), small target %llu KiB; "
            "cold = %s sweep + %zu MiB read pass; >= %llu rounds, seed %llu%s\n",
            (unsigned long long)(big >> 20), (unsigned long long)arena,
            (unsigned long long)(llc >> 10), llc && big < 4 * llc ? ", NOT 4x LLC" : "",
            (unsigned long long)(small >> 10), evict_method_name(cs.flush), cs.nevict * 2,
            (unsigned long long)repeats, (unsigned long long)cs.seed,
            cpu_is_tcg()
                ? " (TCG: reduced sizes, emulator timings, extra rounds only for a control)"
                : "");

    bool touched = false;
    cs.n = 0;
    for (size_t i = 0; i < clear_strategy_count; i++) {
        const struct clear_strategy *s = &clear_strategies[i];
        const char *missing;
        char name[48], why[120];
        hz_snprintf(name, sizeof(name), "clear.%s", s->name);
        if (!clear_selected(s, clear_settings_get(scenario_profile())))
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
        add_cells(s, base, small);
    }
    size_t twins = clear_race_twins(&cs);
    unsigned done = 0;
    struct ilv_rule rule = {(unsigned)repeats,
                            (unsigned)(max_rounds < repeats ? repeats : max_rounds),
                            round_ci_option(), ILV_LOOK_EVERY};
    /* Under TCG only the controls race (the verdict decides nothing from
     * emulator timings); without one there is nothing to wait for. */
    bool race = !cpu_is_tcg() || twins;
    if (!race)
        rule.max_rounds = rule.min_rounds;
    enum ilv_verdict why = cs.n ? clear_cells_run(&cs, &rule, budget_s, race, &done) : ILV_CAP;
    unsigned noisy = 0, stable = 0;
    uint64_t bad = 0;
    clear_cells_factors(&cs, scratch); /* before finish(): the verdict's cells take them */
    for (size_t i = 0; i < cs.n; i++) {
        for (size_t k = 0; k < cs.cell[i].n; k++)
            bad += cmp_bad_sample(cs.cell[i].ns[k], cs.cell[i].bytes, 1);
        finish(&cs.cell[i]);
        noisy += stats_noisy(&cs.cell[i].st);
        stable += stats_ci_within(&cs.cell[i].st, round_ci_option());
    }
    for (size_t i = 0; i < cs.n - twins;) { /* pass/fail per strategy, its twins too */
        const struct clear_strategy *s = cs.cell[i].s;
        bool ok = true;
        char name[48];
        for (; i < cs.n - twins && cs.cell[i].s == s; i++)
            ok &= cs.cell[i].ok;
        for (size_t k = cs.n - twins; k < cs.n; k++)
            ok &= cs.cell[k].s != s || cs.cell[k].ok;
        hz_snprintf(name, sizeof(name), "clear.%s", s->name);
        if (ok)
            result_pass(name);
        else
            result_fail(name, "a timed clear left non-zero bytes");
    }
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "clear_run");
    ilv_rec_run(&r, cs.seed, cs.n, done, why, &rule, budget_s, stable, noisy);
    rec_str(&r, "evict", evict_method_name(cs.flush));
    rec_u64(&r, "evict_read_bytes", cs.nevict * PAGE_SIZE_2M);
    rec_str(&r, "steal_method", steal_method());
    rec_u64(&r, "bad_samples", bad);
    record_emit(&r);
    kprintf("clear: %zu cells, %u rounds (stop: %s), %u of them within +-%llu.%02llu%%, %u noisy\n",
            cs.n, done, ilv_verdict_name(why), stable,
            (unsigned long long)(round_ci_option() / 100),
            (unsigned long long)(round_ci_option() % 100), noisy);
    tl_run_record("clear"); /* the cells' SMIs and gaps */
    clear_table_print(&cs, chunks, nchunks, big, repeats);
    clear_race_report(&cs);
    clear_cells_evict_put(&cs, f);
    if (have_1g)
        frames_1g_put(f, idx);
    else
        frames_free(f, arena, PAGE_SIZE_2M);
}

HZ_SCENARIO(scenario_clear, .name = "clear", .run = bench_clear, .plan = clear_plan, .order = 10,
            .in_default = true,
            .help = "clear strategies at 4K..1G chunks, verified (single thread)");
