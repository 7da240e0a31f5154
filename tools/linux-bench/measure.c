/*
 * tools/linux-bench/measure.c - time each strategy at each chunk size.
 *
 * One repeat: dirty the whole region with a non-zero pattern (so the clear
 * really changes every line, and no zero-store elimination can skip work),
 * then clear it with back-to-back calls of `chunk` bytes (the last call gets
 * the remainder), timed with CLOCK_MONOTONIC and the TSC, then read it all
 * back (not timed). One untimed warm-up repeat comes first. Two cache
 * states per (strategy, chunk):
 *   warm  the region was just written by this CPU, so whatever of it fits
 *         in the caches is there, dirty (for a 1 GiB region only its tail);
 *   cold  after the dirtying, clear_evict() (a CLFLUSHOPT sweep of every
 *         line, then MFENCE) writes it back and drops it from every cache
 *         level, as the kernel's cold cells do, so hz compare pairs them.
 */
#define _GNU_SOURCE
#include "tools/linux-bench/bench.h"

#include <stdio.h>
#include <string.h>

#include "arch/x86.h"
#include "lib/fmt.h"
#include "lib/record.h"
#include "measure/clear_record.h"
#include "measure/memop.h"

struct cell {
    struct clear_result res;
    char why[160]; /* first verification failure, "" if none */
};

/* One (strategy, chunk) cell: repeats + 1 passes over the region. */
static void run_cell(const struct clear_strategy *s, uint64_t chunk, const struct region *r,
                     unsigned repeats, bool cold, struct cell *c)
{
    static uint64_t ns[LB_MAX_REPEATS], cyc[LB_MAX_REPEATS];
    static uint64_t order[LB_MAX_REPEATS]; /* ns in run order: stats_compute() sorts ns */
    static uint64_t seed = 0x5eed;
    char csz[24];

    memset(c, 0, sizeof(*c));
    c->res.verified = true;
    for (unsigned it = 0; it <= repeats; it++) {
        clear_dirty(r->base, r->size, seed++);
        if (cold)
            clear_evict(r->base, r->size, 0);
        mfence();
        uint64_t t0 = lb_now_ns();
        lfence();
        uint64_t c0 = rdtsc();
        lfence();
        memop_clear(s, r->base, r->size, chunk);
        mfence(); /* every store has left the core before the clock stops */
        uint64_t c1 = lb_tsc_end();
        uint64_t t1 = lb_now_ns();

        uint64_t bad;
        if (!memop_verify_zero(r->base, r->size, MEMOP_EXACT, &bad) && c->res.verified) {
            c->res.verified = false;
            snprintf(c->why, sizeof(c->why), "chunk %s repeat %u: byte at offset %zu is 0x%02x",
                     fmt_size(csz, sizeof(csz), chunk), it, (size_t)bad, r->base[bad]);
        }
        if (it > 0) {
            ns[it - 1] = order[it - 1] = t1 - t0;
            cyc[it - 1] = c1 - c0;
        }
    }
    struct stats cs;
    stats_compute(&c->res.ns, ns, repeats);
    c->res.samples = order; /* samples_ns: hz compare and make bench compare them */
    c->res.nsamples = repeats;
    stats_compute(&cs, cyc, repeats);
    c->res.strategy = s->name;
    c->res.chunk = chunk;
    c->res.bytes = r->size;
    c->res.cache = cold ? "cold" : "warm";
    c->res.threads = 1;
    c->res.repeats = repeats;
    c->res.min_cyc = cs.min;
    c->res.source = "linux";
}

void lb_print_row(const struct clear_result *c)
{
    char t[3][32], g[2][32], cpb[32], cv[32], csz[24];
    fmt_fixed(t[0], sizeof(t[0]), c->ns.min / 1000, 3);
    fmt_fixed(t[1], sizeof(t[1]), c->ns.median / 1000, 3);
    fmt_fixed(t[2], sizeof(t[2]), c->ns.max / 1000, 3);
    fmt_fixed(g[0], sizeof(g[0]), stats_gbps_x1000(c->bytes, c->ns.min), 3);
    fmt_fixed(g[1], sizeof(g[1]), stats_gbps_x1000(c->bytes, c->ns.median), 3);
    fmt_fixed(cpb, sizeof(cpb), stats_cpb_x1000(c->min_cyc, c->bytes), 3);
    fmt_fixed(cv, sizeof(cv), c->ns.cv_x100, 2);
    printf("%-13s %6s %5s %11s %11s %11s %8s %8s %7s %6s  %s\n", c->strategy,
           fmt_size(csz, sizeof(csz), c->chunk), c->cache, t[0], t[1], t[2], g[0], g[1], cpb, cv,
           c->verified ? "yes" : "NO");
}

/* "erms fsrm" for the fast[] features this CPU has, "-" for none. */
static const char *fast_list(const struct clear_strategy *s, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < s->n_fast; i++)
        if (cpu_has(s->fast[i]) && len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "", s->fast[i].name);
    return len ? buf : "-";
}

static void print_plan(const struct bench_opts *o)
{
    printf("\nstrategies (instruction; required CPUID bits; helpful bits this CPU has):\n");
    for (size_t i = 0; i < o->n_strategies; i++) {
        const struct clear_strategy *s = o->strategies[i];
        const char *missing = NULL;
        char fast[64];
        bool ok = clear_supported(s, &missing);
        printf("  %-13s %-24s needs %-10s fast: %-16s %s%s\n", s->name, s->insn,
               s->n_need ? s->need[0].name : "-", fast_list(s, fast, sizeof(fast)),
               ok ? "supported" : "SKIP: missing ", ok ? "" : missing);
    }
    printf("\n%-13s %6s %5s %11s %11s %11s %8s %8s %7s %6s  %s\n", "strategy", "chunk", "cache",
           "min ms", "median ms", "max ms", "GB/s", "GB/s med", "cyc/B", "CV%", "verified");
}

void measure_all(const struct bench_opts *o, const struct region *r, struct tally *t)
{
    char name[64], why[160], a[24], b[24], line[HZ_RECORD_MAX];
    bool usable[LB_MAX_CHUNKS];

    for (size_t k = 0; k < o->n_chunks; k++) {
        usable[k] = o->chunks[k] <= r->size;
        if (!usable[k]) {
            snprintf(name, sizeof(name), "clear.chunk.%s", fmt_size(a, sizeof(a), o->chunks[k]));
            snprintf(why, sizeof(why), "chunk %s is larger than the region (%s)", a,
                     fmt_size(b, sizeof(b), r->size));
            lb_check(t, "skip", name, why);
        }
    }
    bool can_evict = cpu_has(X86_FEATURE_CLFLUSHOPT) || cpu_has(X86_FEATURE_CLFLUSH);
    if (!can_evict)
        lb_check(t, "skip", "clear.cold", "no CLFLUSH or CLFLUSHOPT: no cold cells");
    print_plan(o);
    for (size_t i = 0; i < o->n_strategies; i++) {
        const struct clear_strategy *s = o->strategies[i];
        const char *missing = NULL;
        snprintf(name, sizeof(name), "clear.verify.%s", s->name);
        if (!clear_supported(s, &missing)) {
            snprintf(why, sizeof(why), "missing CPU feature %s", missing);
            lb_check(t, "skip", name, why);
            continue;
        }
        bool all_ok = true, ran = false;
        why[0] = 0;
        for (size_t k = 0; k < 2 * o->n_chunks; k++) {
            struct cell c;
            bool cold = k % 2; /* warm, then cold, per chunk */
            if (!usable[k / 2] || (cold && !can_evict))
                continue;
            run_cell(s, o->chunks[k / 2], r, o->repeats, cold, &c);
            lb_print_row(&c.res);
            lb_emit(clear_record(line, sizeof(line), &c.res));
            fflush(stdout);
            ran = true;
            if (!c.res.verified && all_ok) {
                all_ok = false;
                snprintf(why, sizeof(why), "%s", c.why);
            }
        }
        if (ran)
            lb_check(t, all_ok ? "pass" : "fail", name, all_ok ? NULL : why);
        else
            lb_check(t, "skip", name, "no chunk size fits the region");
    }
}
