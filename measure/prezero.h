/*
 * measure/prezero.h - the pre-zeroing policy runner (docs/prezero.md): it
 * feeds the events of one workload (measure/workload.h) to the demand region
 * and the free-frame pool (mm/pool.h) under one pre-zeroing policy, and
 * measures how fast the pages fault in and what the zeroing cost elsewhere.
 *
 *   none     every frame is cleared inside its fault
 *   boot     every free frame is cleared once before the workload (timed)
 *   on_free  a frame is cleared when it is freed, by the freeing CPU
 *   idle     IDLE time clears DIRTY frames chunk by chunk, checking between
 *            chunks whether work is pending, pausing mid-frame
 *   batch=N  each ZERO_REQUEST clears N DIRTY frames at once (Li Zhe's
 *            `zeroable_hugepages` knob)
 *
 * Split: the event loop, the idle loop, parsing and the result arithmetic
 * are portable C (measure/prezero_core.c, host-tested with a simulated
 * demand region and clock); measure/prezero_run.c supplies real #PF faults,
 * the TSC and verification (scenarios/prezero/run.c the `prezero` and
 * `policies` scenarios), and
 * measure/prezero_report.c prints records and the side-by-side table;
 * measure/prezero_smp.c runs faulting CPUs and dedicated zeroers in parallel.
 *
 * The loop runs on the BSP and "pending work" for the idle loop is the TSC
 * passing the end of the IDLE period. With `fault_cpus=P` the FAULT events
 * of a population are touched by P CPUs in parallel (ops->populate), and
 * with `zero_cpus=Z` policy idle gets Z dedicated CPUs that clear DIRTY
 * frames chunk by chunk, outside the pool lock, for the whole run.
 */
#ifndef HZ_MEASURE_PREZERO_H
#define HZ_MEASURE_PREZERO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/spinlock.h"
#include "measure/workload.h"
#include "mm/pool.h"

enum pz_policy { PZ_NONE, PZ_BOOT, PZ_ON_FREE, PZ_IDLE, PZ_BATCH, PZ_NPOLICIES };

struct pz_policy_cfg {
    enum pz_policy kind;
    uint32_t batch; /* PZ_BATCH: frames cleared per ZERO_REQUEST, >= 1; else 0 */
};

#define PZ_CHUNK_DEFAULT (32ull << 20) /* Linux clear_pages() bound per call (docs/prezero.md) */
#define PZ_CHUNK_ALIGN 4096ull         /* chunks keep every strategy's dst alignment */

/* "none", "boot", "on_free", "idle", "batch"; "?" out of range. */
const char *pz_policy_name(unsigned kind);

/*
 * Parse a `prezero=` value: "none", "boot", "on_free", "idle" or "batch=N"
 * with N decimal in 1..4294967295 (no sign, no spaces). Returns 0 and *out,
 * or -1 (malformed, unknown name, N out of range; *out untouched).
 */
int pz_policy_parse(const char *s, struct pz_policy_cfg *out);

/* The policy as the user writes it ("idle", "batch=4") into buf (cap bytes,
 * NUL-terminated when cap > 0); returns the full length, as snprintf. */
int pz_policy_format(char *buf, size_t cap, const struct pz_policy_cfg *p);

/*
 * Parse a duration: decimal digits followed by a unit "ns", "us", "ms" or
 * "s" ("250us", "100ms", "2s"), or a bare "0". Returns 0 and *ns, or -1
 * for anything else (no unit, a fraction, a sign, spaces, overflow past
 * 2^64 - 1 ns, or more than max_ns).
 */
int pz_parse_ns(const char *s, uint64_t max_ns, uint64_t *ns);

/*
 * Format ns for people with three significant digits, truncated, in the
 * largest unit that keeps the value >= 1: "0 ns", "850 ns", "12.3 us",
 * "300 ms", "1.23 s"; seconds from 1000 s up are whole ("4821 s"). Returns
 * the length written (excluding NUL), as hz_snprintf.
 */
int pz_format_ns(char *buf, size_t cap, uint64_t ns);

/*
 * What the event loop needs from its environment. Times are ticks of one
 * clock (the TSC in the kernel) running at hz ticks per second, 1..PZ_MAX_HZ-1.
 *   now        the clock
 *   wait_until busy-wait until now() >= deadline (hold time, idle left over)
 *   fault      touch page `page` of the demand region once (a real #PF in
 *              the kernel); returns the ticks of that call that are not
 *              workload time (verifying the frame), which are excluded
 *   release    unmap the page and free its frame (zero: policy on_free,
 *              clear it now); 0, or -1 when the page was not mapped
 */
#define PZ_MAX_HZ (1ull << 34) /* clocks of 17 GHz and up are refused ("ops") */

struct pz_ops {
    void *ctx;
    uint64_t hz;
    uint64_t (*now)(void *ctx);
    void (*wait_until)(void *ctx, uint64_t deadline);
    uint64_t (*fault)(void *ctx, uint32_t page);
    int (*release)(void *ctx, uint32_t page, bool zero);
    /* Ticks this CPU has spent inside the clear routine itself, at the
     * measurement CPL, so far (a running total: callers take differences).
     * The idle loop charges only these to idle_zeroing and the rest of each
     * chunk (lock, pool bookkeeping, ring switches) to idle_overhead. */
    uint64_t (*clear_ticks)(void *ctx);
    /* Optional (NULL: every FAULT goes to fault()): used when wl.cpus > 1 for
     * runs of consecutive FAULT events (at most PZ_POPULATE_MAX at a time),
     * which it touches in parallel, ev[i].page on faulting CPU ev[i].cpu;
     * returns the ticks of the call that are not workload time, as fault(). */
    uint64_t (*populate)(void *ctx, const struct wl_event *ev, size_t n);
};

#define PZ_POPULATE_MAX 512 /* FAULT events handed to populate() at once */

struct pz_config {
    struct pz_policy_cfg policy;
    uint64_t chunk_bytes;  /* idle: most bytes per chunk; multiple of PZ_CHUNK_ALIGN, >= it */
    uint64_t lead_idle_ns; /* idle time before the first event (<= WL_MAX_NS) */
    struct wl_params wl;   /* the workload; wl.pages <= frames in the pool */
    bool background;       /* idle: dedicated zeroer CPUs clear DIRTY frames, so
                            * the event loop's idle periods only wait */
};

/* What one run did. Times in clock ticks unless named _ns. */
struct pz_tally {
    uint64_t faults, frees, idles, requests; /* events handled, by kind */
    uint64_t release_errors;                 /* FREE of a page that was not mapped */
    uint64_t total;                          /* first event to last event done, minus excluded */
    uint64_t populate;         /* inside FAULT events (touch to return), minus excluded */
    uint64_t free_time;        /* inside FREE events (on_free clearing included) */
    uint64_t prezero;          /* boot clearing before the workload + batch requests */
    uint64_t lead_idle_ns;     /* nominal ns of the idle period before the first event */
    uint64_t idle_ns;          /* nominal ns of every idle period, the lead one included */
    uint64_t idle_zeroing;     /* idle chunks: time inside the clear routine (clear_ticks) */
    uint64_t idle_overhead;    /* idle chunks: the rest (lock, pool, ring switches) */
    uint64_t idle_overrun_max; /* longest a chunk ran past its idle period's end */
    uint64_t idle_chunks;      /* pool_idle_chunk calls that cleared something */
    uint64_t batch_frames;     /* frames cleared by ZERO_REQUESTs */
    uint64_t excluded;         /* ticks fault() said were not workload time */
};

/*
 * The idle loop for one idle period ending at tick `deadline`: while the
 * clock is before the deadline (no pending work), clear at most chunk_bytes
 * of the head DIRTY frame (pool_idle_chunk: a frame is resumed where an
 * earlier chunk stopped, and paused at the head of DIRTY when the chunk
 * ends mid-frame). Returns when the deadline has passed or nothing is
 * DIRTY; never waits. Adds the clear routine's ticks to t->idle_zeroing,
 * the rest of each chunk to t->idle_overhead, and to idle_chunks and
 * idle_overrun_max. The lock is taken around each chunk.
 */
void pz_idle_zero(struct pool *pool, struct spinlock *lock, uint64_t chunk_bytes, uint64_t deadline,
                  const struct pz_ops *ops, struct pz_tally *t);

/*
 * Run the workload c->wl under c->policy over `pool` (every frame free; the
 * demand region set up by the caller with wl.pages pages). Order: boot
 * clearing (policy boot, timed into prezero), the lead idle period, then
 * every event: hold gaps (at_ns ahead of the nominal clock) are waited out
 * busy, IDLE periods are waited out with the idle loop running for policy
 * idle (unless c->background), consecutive FAULTs go to ops->populate when
 * it is set and wl.cpus > 1 (one call per run of at most PZ_POPULATE_MAX;
 * its wall time is populate time), ZERO_REQUEST clears policy.batch frames for policy batch (others
 * ignore it), FAULT calls ops->fault and FREE ops->release. Fills *t.
 * Returns 0, or -1 with *why (may be NULL) naming the bad input: a workload
 * parameter (workload_init's names), "pages" also when wl.pages exceeds
 * the pool's frames, "chunk_bytes", "lead_idle_ns", "policy" or "ops".
 */
int pz_run(struct pool *pool, struct spinlock *lock, const struct pz_config *c,
           const struct pz_ops *ops, struct pz_tally *t, const char **why);

/* Nearest-rank latency percentiles (lib/stats.h) of an ascending array of
 * n samples. p90 only from n >= 10 and p99 only from n >= 100
 * (stats_percentile_min_n): below that has_p90/has_p99 are false and the
 * value 0, and records write null. n == 0 gives all zeros. */
struct pz_lat {
    size_t n;
    uint64_t min, p50, p90, p99, max;
    bool has_p90, has_p99;
};
void pz_latency(const uint64_t *sorted, size_t n, struct pz_lat *l);

/* One fault as the latency split sees it. */
struct pz_sample {
    uint64_t ns;    /* service time */
    bool prezeroed; /* the frame was already zero (a hit) */
    bool busy;      /* a zeroer CPU was clearing another frame meanwhile */
};

/* Fault latency split so that only faults of one kind are compared: a
 * pre-zeroed hit costs a map, a miss a whole clear. */
struct pz_split {
    struct pz_lat all, hit, miss;
    struct pz_lat busy_hit, busy_miss; /* the hits / misses with busy set */
};

/* Fill *out from s[0..n) (n may be 0); scratch holds n values (any
 * content; overwritten). */
void pz_split_latency(const struct pz_sample *s, size_t n, uint64_t *scratch, struct pz_split *out);

/* 10000 x hits / faults rounded down (percent with two decimals); 0 when
 * faults is 0; 10000 at most (hits > faults is clamped). Exact below 2^50
 * faults; above, both are scaled down and the result may be 1 low. */
uint32_t pz_hit_pct_x100(uint64_t hits, uint64_t faults);

/*
 * After a run (before the caller frees the pages still mapped), check the
 * pool's byte accounting against the policy: no frame zeroed twice; every
 * cleared byte belongs to a completed frame or a DIRTY frame's cursor
 * (sum of bytes_zeroed = zero_completed x frame_bytes + partial bytes);
 * only the policy's own origin cleared outside faults; none: no pre-zeroed
 * hit; boot: exactly n_dirty_at_start frames cleared by boot; on_free:
 * exactly frame_bytes per free. Returns 0, or -1 with *why (may be NULL) a
 * constant string naming the first broken rule.
 */
int pz_check_accounting(const struct pool *p, const struct pz_policy_cfg *pc,
                        uint32_t n_dirty_at_start, const char **why);

/* ---- kernel side: one finished run, as measure/prezero_report.c prints it */

struct pz_result {
    struct pz_config cfg;
    char policy[24];        /* pz_policy_format() of cfg.policy */
    const char *strategy;   /* clear strategy name (`zero=`) */
    uint32_t frames;        /* frames in the pool */
    uint64_t frame_bytes;   /* 1 GiB, or 2 MiB in the fallback */
    struct pz_tally ns;     /* the tally with every tick field converted to ns */
    struct pz_split lat;    /* per-fault service time, ns; busy_* only with zero_cpus */
    size_t samples_dropped; /* faults beyond the demand sample buffer */
    struct pool_counters c; /* pool counters when the workload ended */
    struct pool_summary s;
    uint32_t fault_cpus; /* CPUs faulting in parallel (wl.cpus) */
    uint64_t cpu_max_ns; /* fault_cpus > 1: pz_team_run()'s cpu_max in ns; else populate */
    uint32_t zero_cpus;  /* dedicated zeroer CPUs that ran (policy idle only) */
    /* run=policies, idle with zero_cpus > 0: the same workload with the
     * zeroer CPUs off and the idle loop on the faulting CPU instead, so no
     * frame is cleared on another CPU while a fault runs; its faults by kind,
     * to set beside busy_hit and busy_miss (like with like). */
    bool has_off;
    struct pz_lat off_hit, off_miss;
    bool zeroers_off;  /* this run is that zeroers-off run */
    bool quiet;        /* run=vmstart: checks print only failures */
    const char *check; /* verification mode: "sampled" or "full" */
    bool verified;     /* every handed-out and every unused zeroed frame read zero */
    bool ok;           /* every check of the run passed */
};

/* Print the `prezero` record of one run (scenarios/prezero/records.md) and a human line. */
void pz_report_run(const struct pz_result *r);

/* Print the policies of one workload side by side (same workload and seed
 * in every r[i]): a table and a one-line comparison. */
void pz_report_table(const struct pz_result *r, size_t n);

#endif /* HZ_MEASURE_PREZERO_H */
