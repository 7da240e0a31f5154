/*
 * lib/stats.h - summary statistics over repeated measurements, in integer
 * arithmetic only (the kernel has no floating point). Portable C: the kernel,
 * tools/linux-bench and the host unit tests share it.
 *
 * Rounding is always stated: "rounded down" is floor, "rounded to nearest"
 * rounds halves up. Intermediate products use unsigned __int128, so no
 * function here overflows silently; results that do not fit in 64 bits
 * saturate at UINT64_MAX.
 */
#ifndef HZ_LIB_STATS_H
#define HZ_LIB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats {
    size_t n;
    uint64_t min, max, median, mean; /* same unit as the samples */
    uint64_t cv_x100;                /* coefficient of variation, percent x 100 */
    uint64_t ci_lo, ci_hi;           /* order-statistic interval of the median */
    unsigned ci_cover_x100;          /* its coverage, percent x 100 (>= 9500 from n = 6) */
    /* Tukey's fences (Tukey, "Exploratory Data Analysis", 1977; criterion.rs
     * classifies the same way): with q1 = v[j], q3 = v[n - 1 - j], j = (n - 1)
     * / 4 and iqr = q3 - q1, a sample beyond 1.5 iqr of its quartile is an
     * outlier, beyond 3 iqr a severe one. Counted, never dropped; mild counts
     * exclude the severe ones. Times: high outliers are slow repeats. */
    unsigned out_lo_mild, out_lo_severe, out_hi_mild, out_hi_severe;
    uint64_t out_hi_min, out_hi_max; /* the smallest and largest high outlier (0: none) */
};

/* More than a quarter of the samples are outliers (mild or severe, either
 * side): the cell's distribution is not one peak with a few bursts. */
bool stats_outliers_many(const struct stats *s);

/* A cell is `noisy` (issue 12, scenarios/clear/records.md `clear`) when its CV exceeds 10 % or
 * its fastest repeat is below 0.8 x its median time. */
#define STATS_NOISY_CV_X100 1000

/*
 * Sort v[0..n) ascending in place (heapsort: no recursion, no allocation)
 * and fill *s. median is the lower middle for even n (v[(n - 1) / 2]); mean
 * is rounded down. cv_x100 = 10000 * sd / mean rounded down, where sd is the
 * sample standard deviation (divide by n - 1), computed exactly from the
 * integer sums while 10^8 * n * sum((x - floor(mean))^2) < 2^128 (always for
 * timing data); past that from floor square roots, at most one unit low. 0
 * when the mean is 0 or n < 2. ci_lo/ci_hi are v[lo], v[hi] of
 * stats_median_ci95(). n == 0 (v may then be NULL) gives all zeros.
 */
void stats_compute(struct stats *s, uint64_t *v, size_t n);

/*
 * The distribution-free 95 % interval of the median of n samples: 0-based
 * indices *lo <= *hi into the ascending samples such that [v[lo], v[hi]]
 * holds the true median with probability cover = 1 - 2 P(B <= lo), B ~
 * Binomial(n, 1/2), at least 95 % and as narrow as that allows (symmetric
 * ranks k and n + 1 - k, the textbook order-statistic interval, e.g.
 * Conover, "Practical Nonparametric Statistics", 3rd ed. §3.2). n = 10
 * gives 1..8 (ranks 2..9, 97.85 %). For n < 6 no pair reaches 95 %: the
 * whole range 0..n-1 with its smaller coverage (n = 5: 93.75 %). *cover_x100
 * is percent x 100 rounded down. Exact binomial sums while they fit in 128
 * bits (n <= 120); beyond that the terms are scaled by 2^-32 steps, off by
 * less than 2^-60 relative. n must be below 2^31; n == 0 gives 0, 0, 0.
 */
void stats_median_ci95(size_t n, size_t *lo, size_t *hi, unsigned *cover_x100);

/* True when the median's interval lies within +-pct_x100/100 % of it
 * (half-widths median - ci_lo and ci_hi - median) and covers >= 95 %. */
bool stats_ci_within(const struct stats *s, unsigned pct_x100);

/* The `noisy` verdict for samples that are times: cv_x100 above
 * STATS_NOISY_CV_X100 or 5 min < 4 median (min/median < 0.8). */
bool stats_noisy(const struct stats *s);

/*
 * Nearest-rank percentile of an ascending array: the value at rank
 * ceil(pct * n / 100), i.e. sorted[rank - 1]. pct 0 is taken as the minimum
 * (rank 1); pct above 100 as 100 (the maximum). 0 when n == 0.
 */
uint64_t stats_percentile(const uint64_t *sorted, size_t n, unsigned pct);

/*
 * The fewest samples for which a nearest-rank pct-th percentile says more
 * than the maximum: for 50 < pct < 100, ceil(100 / (100 - pct)), the
 * smallest n with rank ceil(pct * n / 100) below n (p90: 10, p95: 20,
 * p99: 100); 1 for pct <= 50 and pct >= 100 (the median and the maximum of
 * any sample). Publish a high percentile only from this many samples, else
 * say it is unknown: a p99 of 6 samples is their maximum.
 */
size_t stats_percentile_min_n(unsigned pct);

/*
 * 10^9 bytes/s x 1000 ("GB/s" with three decimals) for `bytes` cleared in
 * `ns` nanoseconds: bytes * 1000 / ns rounded to nearest (1 byte/ns is
 * 1 GB/s). 0 for ns 0; saturates at UINT64_MAX.
 */
uint64_t stats_gbps_x1000(uint64_t bytes, uint64_t ns);

/*
 * A zeroer's CPU cost per GiB, the one definition (docs/prezero.md "CPU per
 * GiB, one definition"): `cpu`, the time spent inside its clear calls (ns,
 * or TSC cycles: the result has the same unit), per 2^30 of the `bytes`
 * those calls cleared: cpu x 2^30 / bytes, rounded to nearest. It holds at
 * the call size the calls were made with, which callers print beside it.
 * 0 for bytes 0; saturates at UINT64_MAX.
 */
uint64_t stats_per_gib(uint64_t cpu, uint64_t bytes);

/*
 * num / den x 1000 rounded to nearest (a ratio with three decimals); 0 for
 * den 0; saturates at UINT64_MAX.
 */
uint64_t stats_ratio_x1000(uint64_t num, uint64_t den);

/*
 * TSC cycles per byte x 1000: cycles * 1000 / bytes rounded to nearest.
 * 0 for bytes 0; saturates at UINT64_MAX.
 */
uint64_t stats_cpb_x1000(uint64_t cycles, uint64_t bytes);

/* part / whole as percent x 100 (10000 x part / whole) rounded down; 0 for
 * whole 0; saturates at UINT64_MAX. */
uint64_t stats_pct_x100(uint64_t part, uint64_t whole);

/* The median (lower middle, as stats_compute()) of v[0..n), left alone:
 * the samples are copied to scratch (n entries) and sorted there. 0 for
 * n == 0. */
uint64_t stats_median_copy(const uint64_t *v, size_t n, uint64_t *scratch);

/* Sort v[0..n) ascending in place (heapsort: no recursion, no allocation). */
void stats_sort(uint64_t *v, size_t n);

/* x * mul / div rounded to nearest (halves up), exact in 128 bits;
 * saturates at UINT64_MAX; 0 for div 0. */
uint64_t stats_scale(uint64_t x, uint64_t mul, uint64_t div);

/* A run of consecutive slow samples (issue 30): start (0-based index), len
 * (0: none named) and x1000, the run's median over the baseline. */
struct stats_burst {
    size_t start, len;
    uint64_t x1000;
};

/* The shortest run stats_burst() names. */
#define STATS_BURST_MIN 3

/*
 * The longest run of consecutive samples of v[0..n) (in time order, left
 * alone) above q1 x (1 + tol_x100 / 10^4), q1 the lower quartile v[(n - 1)
 * / 4] of the sorted samples (not the median: a burst may cover more than
 * half of them); the first of equal runs. Named (len > 0) when at least
 * STATS_BURST_MIN long; x1000 is the run's median (lower middle) / q1 x
 * 1000 rounded to nearest. It changes no statistic: it says why a
 * comparison stayed open. scratch holds n entries. n == 0: none.
 */
void stats_burst_of(const uint64_t *v, size_t n, unsigned tol_x100, uint64_t *scratch,
                    struct stats_burst *b);

/* num / den rounded to nearest (halves up) for any 128-bit num and den;
 * saturates at UINT64_MAX; 0 for den 0. */
uint64_t stats_div_round(unsigned __int128 num, unsigned __int128 den);

/* floor(sqrt(v)) for any 128-bit v (bit-by-bit, integer only). */
uint64_t stats_isqrt(unsigned __int128 v);

#endif /* HZ_LIB_STATS_H */
