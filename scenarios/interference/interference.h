/*
 * scenarios/interference/interference.h - the memory work of the `interference` scenario
 * (scenarios/interference/run.c): victims that one CPU runs, and the background
 * zeroer the other CPUs run meanwhile (scenarios/interference/work.c).
 *
 * Victims:
 *   chase   a dependent pointer chase: one node per 64-byte line, the nodes
 *           linked in one random cycle (Sattolo's algorithm, a uniformly
 *           random cyclic permutation: Knuth TAOCP Vol. 2 §3.4.2 exercise
 *           14), so each load's address comes from the previous load and
 *           hardware prefetchers cannot guess the next line. Time per load
 *           is the load-to-use latency of the level the set lives in.
 *   read    a sequential read of every 8-byte word, `passes` times: the
 *           streaming victim (a set of 4 x LLC, read once) and the "tenant"
 *           (a set of LLC size, warmed, then re-read).
 * Zeroer: clears its share of frames with an arch/clear.h strategy through
 * measure/memop.h, in calls of at most `chunk` bytes, round and round until
 * told to stop; rate-limited runs are paced by a token bucket
 * (scenarios/interference/pace.c): each call of `piece` bytes waits (PAUSE)
 * until the bucket holds its bytes of credit, so lost periods are made up
 * (up to a burst) and the achieved rate converges to the target (the
 * N-bytes-per-period pacing of HawkEye, Panwar et al., ASPLOS 2019, with
 * the makeup it lacked). Where a victim lives (L2, LLC, DRAM) is classed
 * by scenarios/interference/residency.c.
 * A zeroer without a strategy only spins (PAUSE) until told to stop: the
 * control that keeps the other CPU busy without touching memory, so that
 * on an overcommitted host the CPU contention alone can be told apart.
 *
 * Portable: memory accesses, the TSC and fences only (no printing, nothing
 * privileged, no GS), so everything here runs at CPL 3 under arch/user.h
 * and builds for the host unit tests. Memory is given as measure/split.h
 * extents (physical = virtual in the kernel's identity map).
 */
#ifndef HZ_SCENARIOS_INTERFERENCE_INTERFERENCE_H
#define HZ_SCENARIOS_INTERFERENCE_INTERFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"
#include "measure/split.h"

#define INTERF_LINE 64u /* bytes per chase node: one cache line */

/*
 * Link the first `bytes` of ext[0..next) (target space, measure/split.h;
 * bytes a multiple of INTERF_LINE, at least 2 lines, inside the extents)
 * into one pointer cycle: the first 8 bytes of each line hold the address
 * of the next line of the cycle, drawn by Sattolo's algorithm from a
 * SplitMix64 stream seeded with `seed` (lib/interleave.h). Writes only the
 * first word of each line. Returns the address of line 0 (the start), or 0
 * for bad input (nothing written).
 */
uint64_t interf_chase_build(const struct split_extent *ext, size_t next, uint64_t bytes,
                            uint64_t seed);

/* Follow `loads` links from `start` (a cycle of interf_chase_build) and
 * return the address reached (use it, so the loads cannot be dropped). */
uint64_t interf_chase(uint64_t start, uint64_t loads);

/* Read every 8-byte word of the first `bytes` of ext[0..next) (a multiple
 * of 8) `passes` times; returns their sum (use it, likewise). */
uint64_t interf_read(const struct split_extent *ext, size_t next, uint64_t bytes, unsigned passes);

/* One zeroer CPU's work: the argument of interf_zeroer_run(). */
struct interf_zeroer {
    const struct clear_strategy *s; /* NULL: spin only, clear nothing */
    const struct split_extent *ext; /* the share: [off, off + bytes) of target space */
    size_t next;
    uint64_t off, bytes;           /* multiples of 4096, bytes > 0 */
    uint64_t chunk;                /* bytes per call of s->fn at most (a multiple of 4096) */
    uint64_t rate_bps;             /* rate limit, bytes/s (0: unthrottled) ... */
    uint64_t hz;                   /* ... the TSC frequency ... */
    uint64_t piece;                /* ... bytes per paced call (a multiple of 4096) ... */
    uint64_t burst;                /* ... and the most credit the bucket holds, bytes */
    uint64_t seed;                 /* clear_dirty() pattern written before the start ... */
    uint64_t dirty_bytes;          /* ... over the share's first dirty_bytes (0: all of it;
                                      a run only clears from the start, so the bytes the
                                      last run cleared are all that need dirtying again) */
    const volatile uint32_t *stop; /* set by the victim: leave after this call */
    /* results */
    uint64_t cleared; /* bytes cleared, all passes */
    uint64_t cyc;     /* TSC cycles from the start to the stop */
    uint64_t busy;    /* TSC cycles inside clear calls (the zeroer's CPU time) */
    bool zero;        /* every byte cleared so far reads back zero */
    uint64_t bad;     /* !zero: target-space offset of the first non-zero byte */
};

/* Dirty the share's first z->dirty_bytes (all of it when 0 or more than
 * the share; every byte non-zero, clear_dirty with z->seed): call before
 * interf_zeroer_run, outside any timed region. */
void interf_zeroer_dirty(struct interf_zeroer *z);

/*
 * Clear the share from its start in calls of at most z->chunk bytes,
 * wrapping round at its end, until *z->stop is set (checked between calls
 * and while pacing), then check that every byte cleared so far reads back
 * zero (all of the share once a pass completed). Throttled (rate_bps >
 * 0): calls of `piece` bytes paced by an if_bucket (below) of rate_bps and
 * `burst`. Fills the results.
 */
void interf_zeroer_run(struct interf_zeroer *z);

/*
 * The token bucket (scenarios/interference/pace.c). Credit in bytes accrues at
 * rate_bps per second of TSC time (hz ticks per second) and is capped at
 * `burst` bytes; a call of `piece` bytes may start when the credit is at
 * least `piece`, and spends it. Starting full (one piece of credit).
 */
struct if_bucket {
    uint64_t rate_bps, hz, piece, burst;
    uint64_t t0;     /* TSC of the last take (the credit clock's origin) */
    int64_t credit0; /* credit at t0, bytes */
};

/* Set up *b at TSC `now`; burst below piece is raised to piece. False (b
 * untouched) for a zero rate, hz or piece, or piece or burst above 2^61. */
bool if_bucket_init(struct if_bucket *b, uint64_t rate_bps, uint64_t hz, uint64_t piece,
                    uint64_t burst, uint64_t now);
/* The first TSC value at which the credit covers one piece (t0 when it
 * already does; UINT64_MAX on overflow). */
uint64_t if_bucket_ready_at(const struct if_bucket *b);
/* Spend one piece at TSC `now` (call at or after if_bucket_ready_at: an
 * earlier take leaves the credit negative, and the next wait longer). */
void if_bucket_take(struct if_bucket *b, uint64_t now);

/*
 * Residency (scenarios/interference/residency.c). refs: time per access of the
 * same kind (ns per load, or ns per line read, any one unit) on sets that
 * live in L2, in the LLC and in DRAM, measured alone. A time t is L2 up to
 * sqrt(l2 x llc), LLC up to sqrt(llc x dram), DRAM beyond; when the LLC
 * reference is not IF_SEP_PCT % faster than DRAM, i.e. not half its time
 * (other tenants share the LLC, the host's LLC is not what CPUID says, or
 * TLB misses of a 4 KiB-backed guest dominate; an LLC hit is 3-10x faster
 * than DRAM on current x86, Drepper 2007 §3.3), there is no LLC level to
 * tell apart, and beyond the L2 boundary is DRAM. A zero reference or time
 * gives IF_LEVEL_UNKNOWN.
 */
#define IF_SEP_PCT 100
enum if_level { IF_L2, IF_LLC, IF_DRAM, IF_LEVEL_UNKNOWN };
struct if_refs {
    uint64_t l2, llc, dram;
};
enum if_level if_classify(const struct if_refs *r, uint64_t t);
/* The LLC reference is at least IF_SEP_PCT % faster than the DRAM one. */
bool if_llc_separated(const struct if_refs *r);
/* "L2", "LLC", "DRAM", "?" */
const char *if_level_name(enum if_level l);

/* Its cells' kind (scenarios/interference/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind interference_kind;

#endif /* HZ_SCENARIOS_INTERFERENCE_INTERFERENCE_H */
