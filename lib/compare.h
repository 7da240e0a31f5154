/*
 * lib/compare.h - is cell B faster than, slower than or tied with cell A?
 * The comparison that every hugezero decision comes from (issue 20,
 * docs/validation.md "How a comparison is decided").
 *
 * The statistic. A and B are samples of time (ns) for abytes and bbytes
 * bytes. Each sample is first put on one scale, ns per GiB (x 2^30 /
 * bytes, rounded to nearest). The ratio B/A of time per byte is estimated
 * by the Hodges-Lehmann estimator: the median of all na x nb pairwise
 * ratios b_j / a_i (on log time this is the Hodges-Lehmann shift; the
 * median of ratios is the same order statistic). Its interval is Moses'
 * distribution-free interval: the k-th smallest and k-th largest pairwise
 * ratio, k from the Mann-Whitney U distribution (Hollander, Wolfe & Chicken,
 * "Nonparametric Statistical Methods", 3rd ed., §4.3, the large-sample
 * rank k = floor(mn/2 - z sqrt(mn(m+n+1)/12)), at least 1). Ranks, not
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

enum cmp_outcome {
    CMP_UNDECIDED = 0,
    CMP_FASTER, /* B faster than A */
    CMP_SLOWER, /* B slower than A */
    CMP_TIE,
    CMP_TOO_FEW,
};

struct cmp {
    uint64_t ratio_x1e6;       /* Hodges-Lehmann B/A of time per byte, x 10^6 */
    uint64_t lo_x1e6, hi_x1e6; /* Moses interval of it */
    size_t na, nb;             /* samples used */
    size_t k;                  /* 1-based rank of lo (hi is rank na nb + 1 - k) */
    unsigned z_x1000;          /* the z it was built for */
    unsigned tol_x100;         /* the tolerance of the outcome */
    enum cmp_outcome outcome;
};

/* uint64_t entries of scratch that cmp_compare() needs for na and nb
 * samples: na nb + na + nb. */
size_t cmp_scratch_len(size_t na, size_t nb);

/*
 * Compare B with A (see above) into *c. a[0..na) and b[0..nb) are times in
 * ns (any order, left alone) for abytes and bbytes bytes each (0 bytes is
 * taken as 1). scratch holds cmp_scratch_len(na, nb) entries. na or nb
 * above CMP_MAX_N use only the first CMP_MAX_N samples. A side with no
 * samples gives ratio 0 and CMP_TOO_FEW; a zero time on A saturates the
 * ratios at UINT64_MAX. Deterministic: equal input, equal output.
 */
void cmp_compare(const uint64_t *a, size_t na, uint64_t abytes, const uint64_t *b, size_t nb,
                 uint64_t bbytes, unsigned z_x1000, unsigned tol_x100, uint64_t *scratch,
                 struct cmp *c);

/* The 1-based Moses rank k for na x nb pairs at z (above), in 1..ceil(na nb / 2);
 * 1 when na or nb is 0. */
size_t cmp_moses_k(size_t na, size_t nb, unsigned z_x1000);

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
