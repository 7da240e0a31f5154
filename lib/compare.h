/*
 * lib/compare.h - is cell B faster than, slower than or tied with cell A?
 * The comparison that every hugezero decision comes from (issue 20,
 * docs/validation.md "How a comparison is decided").
 *
 * The statistic. A and B are samples of time (ns) for abytes and bbytes
 * bytes, sample i from round i + 1 of its run. Impossible samples are left
 * out and counted (bad_a, bad_b): 0 ns, or, when the side's CPUs are
 * known, faster than CMP_MAX_BYTES_PER_NS per CPU. When A and B come from
 * one interleaved run and its round factors are given (lib/interleave.h
 * ilv_round_factors(): the shared factor of each round, from all its
 * cells), each sample is first divided by its round's factor: drift and
 * host-wide phases cancel, a cell's own noise is not doubled (a randomized
 * complete block design; rule CMP_ROUNDS, else CMP_TWO_SAMPLE).
 * The ratio B/A of time per byte (b abytes / (a bbytes), 128-bit, see
 * cmp_ratio_x1e6()) is estimated by the Hodges-Lehmann estimator: the
 * median of all na x nb pairwise ratios b_j / a_i. Its interval is Moses'
 * distribution-free interval: the k-th smallest and k-th largest pairwise
 * ratio, k from the Mann-Whitney U distribution (Hollander, Wolfe & Chicken,
 * "Nonparametric Statistical Methods", 3rd ed., §4.3, the large-sample
 * rank k = floor(mn/2 - z sqrt(V)), V = mn(n fa + m fb + 1)/12, at least 1).
 * fa, fb are the sides' variance factors for serial dependence (1 when
 * independent, as the textbook): each side's lag-1 autocorrelation of
 * ranks in round order, r1, is tested against its one-sided 5 % null band
 * (r1 sqrt(n) > 1.645, Bartlett); above it f = (1 + r1) / (1 - r1) (r1 at
 * most 0.9: f <= 19), the effective-n factor of an AR(1) series (a slow phase that
 * covers a whole short sample is not seen: docs/validation.md). Ranks, not
 * variances: a burst that slows 1 or 2 samples of 10 by 1.5x moves the
 * interval by at most a rank or two, while it doubles a CV. z is a
 * parameter: CMP_Z_X1000 (2.361) for one comparison that is looked at
 * repeatedly: the racing loop looks at n = 10, 20, 30, 40, and 2.361 is
 * Pocock's constant for 4 equally spaced looks at an overall two-sided 5 %
 * (Pocock, Biometrika 64(2), 1977; tests/unit/test_compare_sim.c measures
 * the rates it gives on a simulated shared host),
 * cmp_z_bonferroni_x1000() when one cell is compared with several rivals.
 *
 * The outcome at tolerance X (tol_x100 = 100 X %, option `tolerance=`,
 * default 5 %), with the interval [lo, hi] of B/A:
 *   faster     hi < 1 / (1 + X)   (B takes less time: B is faster)
 *   slower     lo > 1 + X
 *   tie        1 / (1 + X) <= lo and hi <= 1 + X
 *   undecided  otherwise (the interval straddles a tolerance bound)
 *   too few    fewer than CMP_MIN_N samples on a side
 * The bounds are symmetric on a log scale, so swapping A and B swaps
 * faster and slower and keeps tie and undecided.
 *
 * Integer arithmetic only (the kernel has no floating point). Portable C:
 * the kernel, tools/linux-bench and the host unit tests share it;
 * tools/hzlib/decide.py is the same rule in Python, and both are checked
 * against tests/vectors/compare.txt.
 */
#ifndef HZ_LIB_COMPARE_H
#define HZ_LIB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMP_MIN_N 6        /* fewest samples a side (as Google Benchmark's compare.py warns) */
#define CMP_TOL_X100 500   /* the default tolerance, 5 % (BenchmarkTools' time_tolerance) */
#define CMP_Z_X1000 2361   /* z of one comparison looked at 4 times (Pocock) */
#define CMP_ONE 1000000ull /* ratio 1.0 in the x 10^6 fixed point */
#define CMP_MAX_N 128      /* most samples a side (scratch sizing) */
#define CMP_Z95_X1000                                                                              \
    1960 /* z of one two-sided 95 % interval, looked at once (Phi(1.960) = 0.975) */
#define CMP_Z_DEP_X1000 1645      /* one-sided 5 %: the null band of a lag-1 autocorrelation */
#define CMP_R1_MAX_X1000 900      /* the largest r1 used for the variance factor */
#define CMP_MAX_BYTES_PER_NS 1000 /* 1 TB/s per CPU: faster is impossible (docs/validation.md) */

/* The statistic a comparison used, and why (record members `rule`, `why`). */
enum cmp_rule { CMP_TWO_SAMPLE = 0, CMP_ROUNDS };
enum cmp_why { CMP_WHY_APART = 0, CMP_WHY_SAME_RUN, CMP_WHY_NO_FACTORS };

enum cmp_outcome {
    CMP_UNDECIDED = 0,
    CMP_FASTER, /* B faster than A */
    CMP_SLOWER, /* B slower than A */
    CMP_TIE,
    CMP_TOO_FEW,
};

struct cmp {
    uint64_t ratio_x1e6;         /* Hodges-Lehmann B/A of time per byte, x 10^6 */
    uint64_t lo_x1e6, hi_x1e6;   /* Moses interval of it */
    size_t na, nb;               /* samples used (good ones) */
    size_t bad_a, bad_b;         /* samples left out as impossible */
    int r1a_x1000, r1b_x1000;    /* each side's lag-1 rank autocorrelation, x 1000 toward 0 */
    unsigned fa_x1000, fb_x1000; /* each side's variance factor, x 1000 (1000: independent) */
    enum cmp_rule rule;
    enum cmp_why why;
    size_t k;          /* 1-based rank of lo (hi is rank na nb + 1 - k) */
    unsigned z_x1000;  /* the z it was built for */
    unsigned tol_x100; /* the tolerance of the outcome */
    enum cmp_outcome outcome;
};

/* uint64_t entries of scratch that cmp_compare() needs for na and nb
 * samples: na nb + na + nb. */
size_t cmp_scratch_len(size_t na, size_t nb);

/* One side of a comparison: ns[0..n) in round order (sample i from round
 * i + 1), for `bytes` bytes (0 is taken as 1) cleared by `cpus` CPUs (0:
 * unknown, then only a 0 ns sample is impossible). */
struct cmp_side {
    const uint64_t *ns;
    size_t n;
    uint64_t bytes;
    unsigned cpus;
};

/*
 * Compare B with A (see above) into *c. factor_x1e6[0..nfactors) are the
 * run's round factors (entry r - 1 for round r; a 0 entry or a sample past
 * nfactors is left as it is) when A and B come from that run, else NULL
 * (nfactors 0) and `why` says why (CMP_WHY_APART, CMP_WHY_NO_FACTORS;
 * with factors why is CMP_WHY_SAME_RUN). The samples are left alone;
 * scratch holds cmp_scratch_len(na, nb) entries. Sides above CMP_MAX_N use
 * their first CMP_MAX_N samples. Fewer than one good sample on a side
 * gives ratio 0 and CMP_TOO_FEW, fewer than CMP_MIN_N CMP_TOO_FEW with the
 * figures. Deterministic: equal input, equal output.
 */
void cmp_compare_sides(const struct cmp_side *a, const struct cmp_side *b,
                       const uint64_t *factor_x1e6, size_t nfactors, enum cmp_why why,
                       unsigned z_x1000, unsigned tol_x100, uint64_t *scratch, struct cmp *c);

/* cmp_compare_sides() for sides whose CPUs are unknown and that have no
 * round factors (why CMP_WHY_NO_FACTORS). */
void cmp_compare(const uint64_t *a, size_t na, uint64_t abytes, const uint64_t *b, size_t nb,
                 uint64_t bbytes, unsigned z_x1000, unsigned tol_x100, uint64_t *scratch,
                 struct cmp *c);

/* (b / bbytes) / (a / abytes) x 10^6 rounded to nearest: b abytes and a
 * bbytes exactly in 128 bits, both shifted right alike while either needs
 * more than 107 bits (so x 10^6 fits); UINT64_MAX when the quotient does
 * not fit 64 bits or the shifted divisor is 0. Bytes 0 are taken as 1. */
uint64_t cmp_ratio_x1e6(uint64_t a, uint64_t abytes, uint64_t b, uint64_t bbytes);

/* True when a sample of ns for `bytes` bytes on `cpus` CPUs is impossible:
 * 0 ns, or (cpus > 0) bytes > ns x CMP_MAX_BYTES_PER_NS x cpus. */
bool cmp_bad_sample(uint64_t ns, uint64_t bytes, unsigned cpus);

/* The lag-1 autocorrelation of the ranks of v[0..n) in order (midranks for
 * ties), x 1000 rounded toward zero, into *r1_x1000, and the variance
 * factor (above) x 1000 as the return value. scratch holds n entries. */
unsigned cmp_lag1(const uint64_t *v, size_t n, uint64_t *scratch, int *r1_x1000);

/* "rounds removed" or "two-sample"; "same run", "different runs" or "no
 * round factors" (tools/hzlib/decide.py has the same words). */
const char *cmp_rule_name(enum cmp_rule r);
const char *cmp_why_name(enum cmp_why w);

/* The 1-based Moses rank k for na x nb pairs at z with variance factors
 * fa, fb x 1000 (above; 1000, 1000: the textbook rank), in 1..ceil(na nb
 * / 2); 1 when na or nb is 0; na, nb above CMP_MAX_N count as CMP_MAX_N. */
size_t cmp_moses_k(size_t na, size_t nb, unsigned z_x1000, unsigned fa_x1000, unsigned fb_x1000);

/* The outcome of an interval [lo, hi] (x 10^6) at tol_x100 (above). */
enum cmp_outcome cmp_outcome_of(uint64_t lo_x1e6, uint64_t hi_x1e6, unsigned tol_x100);

/* The share of A's time that B saves, 1 - B/A, as percent x 1000 rounded
 * to nearest, from a B/A ratio x 10^6 (one end of an interval maps to the
 * other: lo of the share is 1 - hi of the ratio). 0 when B takes at least
 * as long as A. */
uint64_t cmp_saved_pct_x1000(uint64_t ratio_x1e6);

/* "faster", "slower", "tie", "undecided" or "too few samples". */
const char *cmp_outcome_name(enum cmp_outcome o);

/*
 * z for one of `rivals` comparisons made together (Bonferroni): the
 * two-sided level of CMP_Z_X1000, 2 (1 - Phi(2.361)) = 1.823 %, split over
 * rivals, i.e. Phi^-1(1 - 0.0091129 / rivals) x 1000 rounded up (a table,
 * checked against Python's statistics.NormalDist by tests/tools). 0 or 1
 * rival gives CMP_Z_X1000; past 32 rivals the value for 32.
 */
unsigned cmp_z_bonferroni_x1000(unsigned rivals);

#endif /* HZ_LIB_COMPARE_H */
