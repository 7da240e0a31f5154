/*
 * measure/workload.h - deterministic demand-fault workloads for the
 * pre-zeroing experiments (docs/prezero.md). A generator is an iterator:
 * workload_next() yields one event at a time from a few words of state, so
 * a run of any length needs no event array.
 *
 * Events: FAULT(page) and FREE(page) on the 1 GiB pages of the demand
 * region, IDLE(ns) (time the idle loop may use for background zeroing), and
 * ZERO_REQUEST(n) (a user asks for n frames to be zeroed now, the
 * `zeroable_hugepages` knob). `at_ns` is nominal time from the start: the
 * sum of IDLE durations and hold times before the event. Faults and frees
 * take no nominal time (the runner measures their real cost); a gap in
 * at_ns not covered by an IDLE event is hold time, when the pages are in use
 * and the CPUs busy, so it is not idle time.
 *
 * Workloads (P faulting CPUs; CPU c owns pages [start(c), start(c)+len(c)),
 * len(c) = N/P + (c < N%P), as a VM's preallocation threads each touch
 * their own contiguous range; a population interleaves the CPUs: step k
 * gives CPU 0's k-th page, CPU 1's k-th page, ...):
 *   vm_boot  one population of N pages, back to back
 *   churn    per cycle: IDLE(think ~ Exp(mean think_ns)), population,
 *            hold_ns, FREE of all N pages
 *   restart  population, then per cycle: hold_ns, FREE all, IDLE(idle_ns),
 *            population again
 *   burst    per cycle: IDLE(idle_ns), population; cycles after the first
 *            are preceded by hold_ns and FREE all
 * Every population is preceded by ZERO_REQUEST(zero_request) when
 * zero_request > 0 (runners without the batch policy ignore it), so one
 * parameter set gives the same stream under every policy. IDLE events of
 * 0 ns are not emitted. `cycle` counts populations from 0.
 *
 * Randomness: xoshiro256** (D. Blackman, S. Vigna, "Scrambled linear
 * pseudorandom number generators", ACM TOMS 47(4), 2021), seeded with four
 * outputs of splitmix64 from `seed`, as its authors recommend. Exponential
 * times use the inverse CDF, t = -mean * ln(U), with a fixed-point ln.
 *
 * Portable C (the host unit tests build it); no floating point.
 */
#ifndef HZ_MEASURE_WORKLOAD_H
#define HZ_MEASURE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

enum wl_kind { WL_VM_BOOT, WL_CHURN, WL_RESTART, WL_BURST, WL_NKINDS };
enum wl_op { WL_FAULT, WL_FREE, WL_IDLE, WL_ZERO_REQUEST, WL_NOPS };

/* "vm_boot", "churn", "restart", "burst", NULL: OPT_ENUM choices order. */
extern const char *const wl_kind_names[WL_NKINDS + 1];

#define WL_MAX_NS (1ull << 50) /* ~13 days: bound on every time parameter */

enum { WL_OK = 0, WL_EINVAL = -1 };

struct wl_params {
    enum wl_kind kind;
    uint32_t pages;        /* N, 1..2^32-2 */
    uint32_t cpus;         /* P faulting CPUs, >= 1 (P > N leaves CPUs idle) */
    uint32_t cycles;       /* churn/burst: cycles, restart: restarts; >= 1 (vm_boot: unused) */
    uint64_t think_ns;     /* churn: mean think time */
    uint64_t hold_ns;      /* churn/restart/burst: pages held before the frees */
    uint64_t idle_ns;      /* burst: idle before each burst; restart: between free and refault */
    uint32_t zero_request; /* > 0: ZERO_REQUEST(zero_request) before each population */
    uint64_t seed;
};

struct wl_event {
    uint64_t at_ns; /* nominal ns from start (see above) */
    uint64_t arg;   /* IDLE: duration ns; ZERO_REQUEST: frames; else 0 */
    uint32_t page;  /* FAULT/FREE: page index 0..N-1; else 0 */
    uint32_t cpu;   /* FAULT/FREE: CPU 0..P-1 that touches/frees it; else 0 */
    uint32_t cycle; /* population number from 0 */
    uint8_t op;     /* enum wl_op */
};

struct wl_rng {
    uint64_t s[4];
};

struct wl_gen {
    struct wl_params p;
    struct wl_rng rng;
    uint64_t now; /* nominal ns */
    uint32_t cycle;
    uint32_t step, cpu; /* position in the current population or free pass */
    uint8_t phase;
};

/*
 * Check *p and start a generator at time 0. Returns WL_OK, or WL_EINVAL with
 * *why (may be NULL) naming the bad parameter ("pages", "cpus", "cycles",
 * "think_ns", "hold_ns", "idle_ns", "kind"); *g is then an empty generator
 * whose workload_next() returns false.
 */
int workload_init(struct wl_gen *g, const struct wl_params *p, const char **why);

/* Next event into *e; false (and *e untouched) at the end. */
bool workload_next(struct wl_gen *g, struct wl_event *e);

/* FAULT events the parameters produce: N x populations (vm_boot 1,
 * churn/burst cycles, restart cycles + 1). For sizing latency arrays. */
uint64_t workload_faults(const struct wl_params *p);

/* Defaults for kind with n pages: 1 CPU, 4 cycles, think 100 ms, hold
 * 50 ms, idle 1 s for burst (0 for restart), no zero request, seed 1. */
void workload_defaults(struct wl_params *p, enum wl_kind kind, uint32_t pages);

/* splitmix64 (S. Vigna, public-domain reference splitmix64.c): advances
 * *state by 0x9e3779b97f4a7c15 and returns the mixed value. From state 0 the
 * outputs are 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ... */
uint64_t wl_splitmix64(uint64_t *state);

/* Seed xoshiro256** with four splitmix64 outputs from seed (never all 0). */
void wl_rng_seed(struct wl_rng *r, uint64_t seed);

/* xoshiro256** next 64-bit output. From state {1, 2, 3, 4} the outputs are
 * 11520, 0, 1509978240, 1215971899390074240, ... (published test vector). */
uint64_t wl_rng_next(struct wl_rng *r);

/*
 * -ln(m / 2^64) in unsigned Q32.32 fixed point, for m in 1..2^64-1 (m = 0 is
 * taken as 1). log2 by repeated squaring of a 32-bit mantissa (32 fraction
 * bits), then times ln 2 in Q0.64. Absolute error below 2^-28 (~3.7e-9)
 * over the whole range: tests/unit/test_workload.c asserts it against libm
 * logl; the worst seen over 2e7 draws of all magnitudes was ~1e-9 (2^-29.9).
 * For a draw t = mean * -ln(U) that is under 1 ns per 0.27 s of mean.
 * Largest value 44.36 (m = 1).
 */
uint64_t wl_neg_ln_q32(uint64_t m);

/* One exponential draw with mean mean_ns (<= WL_MAX_NS; larger is clamped),
 * rounded to ns: mean_ns * -ln(U), U = next / 2^64. Truncated at 44.36 x
 * mean (probability 2^-64). mean_ns 0 gives 0 (and still draws). */
uint64_t wl_exp_ns(struct wl_rng *r, uint64_t mean_ns);

/* "fault", "free", "idle", "zero_request"; "?" out of range. */
const char *wl_op_name(unsigned op);

/*
 * What a tenant leaves in a page it used: WL_TENANT_WORD ^ offset in the
 * first 8 bytes of every 64-byte cache line of [va, va + bytes) (bytes a
 * multiple of 64; a tail shorter than a line is left alone). Never zero:
 * offsets are multiples of 64 and the word's low 6 bits are not all 0. So
 * a reused frame is dirty in every line when it is cleared again, and a CPU
 * that elides stores of zero over zero lines (zero-store elimination) gets
 * no line for free.
 */
#define WL_TENANT_WORD 0x7e7a17e7a17e7a17ull
void wl_tenant_dirty(volatile uint64_t *va, uint64_t bytes);

#endif /* HZ_MEASURE_WORKLOAD_H */
