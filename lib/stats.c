/*
 * lib/stats.c - integer summary statistics (lib/stats.h).
 *
 * No floating point (the kernel is built with -mgeneral-regs-only) and no
 * 128-bit division from libgcc (the kernel links without it): 128-bit
 * quotients come from u128_div() below, a shift-and-subtract long division.
 * Only 128-bit add, subtract, multiply, shift and compare are used, which the
 * compiler emits inline.
 */
#include "lib/stats.h"

#include <stdbool.h>

typedef unsigned __int128 u128;

#define U128_MAX (~(u128)0)

/* floor(a / d) and a mod d for d != 0 (d == 0 gives 0 and a). */
static u128 u128_div(u128 a, u128 d, u128 *rem)
{
    u128 q = 0, r = 0;

    if (d == 0) {
        if (rem)
            *rem = a;
        return 0;
    }
    if ((a >> 64) == 0 && (d >> 64) == 0) {
        uint64_t x = (uint64_t)a, y = (uint64_t)d;
        if (rem)
            *rem = x % y;
        return x / y;
    }
    for (int i = 127; i >= 0; i--) {
        bool carry = (r >> 127) != 0; /* r << 1 would lose a bit: r' >= 2^128 > d */
        r = (r << 1) | ((a >> i) & 1);
        if (carry || r >= d) {
            r -= d;
            q |= (u128)1 << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

/* a / d rounded to nearest (halves up), saturated to 64 bits; 0 for d == 0. */
static uint64_t div_round_sat(u128 a, u128 d)
{
    u128 r;
    u128 q = u128_div(a, d, &r);
    if (d == 0)
        return 0;
    if (r >= d - r) /* r * 2 >= d without overflow */
        q++;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

/* a * b; *ovf is set (and U128_MAX returned) when the product needs > 128 bits. */
static u128 mul_u128_u64(u128 a, uint64_t b, bool *ovf)
{
    u128 lo = (u128)(uint64_t)a * b;
    u128 hi = (u128)(uint64_t)(a >> 64) * b;
    u128 res = lo + (hi << 64);
    if ((hi >> 64) != 0 || res < lo) {
        *ovf = true;
        return U128_MAX;
    }
    return res;
}

uint64_t stats_isqrt(u128 v)
{
    u128 res = 0, bit = (u128)1 << 126;

    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return (uint64_t)res;
}

static void sift_down(uint64_t *v, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && v[child + 1] > v[child])
            child++;
        if (v[root] >= v[child])
            return;
        uint64_t t = v[root];
        v[root] = v[child];
        v[child] = t;
        root = child;
    }
}

void stats_sort(uint64_t *v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        uint64_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

/*
 * cv = sd / mean with sd the sample deviation. With M = sum, q = floor(M /
 * n), r = M - q n and S2 = sum (x - q)^2, the identity n S2 = n sum (x -
 * mean)^2 + r^2 gives V = n S2 - r^2 = n (n - 1) s^2 exactly, so cv = sqrt(V
 * n / (n - 1)) / M and 10^4 cv rounded down is isqrt(10^8 V n / (n - 1)) / M
 * (the division rounded down first: at most one unit low).
 */
static uint64_t cv_x100(const uint64_t *v, size_t n, u128 sum, uint64_t q)
{
    u128 r = sum - (u128)q * n;
    u128 s2 = 0;
    bool ovf = false;

    for (size_t i = 0; i < n; i++) {
        uint64_t d = v[i] >= q ? v[i] - q : q - v[i];
        u128 t = (u128)d * d;
        s2 += t;
        if (s2 < t) {
            s2 = U128_MAX;
            ovf = true;
            break;
        }
    }
    u128 ns2 = ovf ? U128_MAX : mul_u128_u64(s2, n, &ovf);
    if (ovf) {
        /* Astronomical spread: sd ~ isqrt(S2 / n), good to the last digit. */
        uint64_t sd = stats_isqrt(u128_div(s2, n - 1, NULL));
        return (uint64_t)u128_div((u128)sd * 10000u, q ? q : 1, NULL);
    }
    u128 var_n2 = ns2 - r * r;
    bool big = false;
    u128 scaled = mul_u128_u64(var_n2, 100000000u, &big);
    scaled = big ? U128_MAX : mul_u128_u64(scaled, n, &big);
    if (!big)
        return (uint64_t)u128_div(stats_isqrt(u128_div(scaled, n - 1, NULL)), sum, NULL);
    /* sd = sqrt(V / (n (n - 1))) and cv = sd / mean = sd n / M */
    uint64_t sd = stats_isqrt(u128_div(var_n2, (u128)n * (n - 1), NULL));
    big = false;
    u128 top = mul_u128_u64((u128)sd * 10000u, n, &big);
    return (uint64_t)u128_div(top, sum, NULL);
}

/* Tukey outlier counts of the ascending v[0..n) into *s (lib/stats.h):
 * x is beyond the f/2 x iqr fence above q3 when 2 (x - q3) > f iqr. */
static void tukey(struct stats *s, const uint64_t *v, size_t n)
{
    size_t j = (n - 1) / 4;
    uint64_t q1 = v[j], q3 = v[n - 1 - j];
    u128 iqr = q3 - q1;
    s->out_lo_mild = s->out_lo_severe = s->out_hi_mild = s->out_hi_severe = 0;
    s->out_hi_min = s->out_hi_max = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > q3 && 2 * (u128)(v[i] - q3) > 3 * iqr) {
            if ((u128)(v[i] - q3) > 3 * iqr)
                s->out_hi_severe++;
            else
                s->out_hi_mild++;
            if (!s->out_hi_min)
                s->out_hi_min = v[i];
            s->out_hi_max = v[i];
        } else if (v[i] < q1 && 2 * (u128)(q1 - v[i]) > 3 * iqr) {
            if ((u128)(q1 - v[i]) > 3 * iqr)
                s->out_lo_severe++;
            else
                s->out_lo_mild++;
        }
    }
}

void stats_compute(struct stats *s, uint64_t *v, size_t n)
{
    s->n = n;
    s->min = s->max = s->median = s->mean = s->cv_x100 = 0;
    s->ci_lo = s->ci_hi = 0;
    s->ci_cover_x100 = 0;
    s->out_lo_mild = s->out_lo_severe = s->out_hi_mild = s->out_hi_severe = 0;
    s->out_hi_min = s->out_hi_max = 0;
    if (n == 0)
        return;

    stats_sort(v, n);
    u128 sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i]; /* n < 2^64 terms below 2^64: cannot wrap */

    s->min = v[0];
    s->max = v[n - 1];
    s->median = v[(n - 1) / 2];
    s->mean = (uint64_t)u128_div(sum, n, NULL);
    if (n >= 2 && sum != 0)
        s->cv_x100 = cv_x100(v, n, sum, s->mean);
    size_t lo, hi;
    stats_median_ci95(n, &lo, &hi, &s->ci_cover_x100);
    s->ci_lo = v[lo];
    s->ci_hi = v[hi];
    tukey(s, v, n);
}

bool stats_outliers_many(const struct stats *s)
{
    size_t out = (size_t)s->out_lo_mild + s->out_lo_severe + s->out_hi_mild + s->out_hi_severe;
    return s->n > 0 && 4 * out > s->n;
}

/*
 * tail = sum_{j < k} C(n, j) against 2^n, term by term: C(n, k) = C(n, k - 1)
 * (n - k + 1) / k (exact while unscaled). Rank k is accepted while 40 tail <=
 * 2^n, i.e. P(B <= k - 1) <= 2.5 %. A term above 2^96 scales term and tail
 * by 2^-32 (shift counts the scaling), so every product stays below 2^107.
 */
void stats_median_ci95(size_t n, size_t *lo, size_t *hi, unsigned *cover_x100)
{
    u128 term = 1, tail = 0, acc_tail = 0;
    unsigned shift = 0, acc_shift = 0;
    size_t k = 1; /* the accepted rank (1-based); 1 is the fallback */

    *lo = *hi = 0;
    *cover_x100 = 0;
    if (n == 0)
        return;
    tail = 1; /* tail for rank 1: C(n, 0) */
    acc_tail = tail;
    for (size_t r = 2; 2 * r <= n + 1; r++) {
        term = u128_div(term * (n - r + 2), r - 1, NULL); /* C(n, r - 1) */
        tail += term;
        if (term > ((u128)1 << 96)) {
            term >>= 32;
            tail >>= 32;
            shift += 32;
        }
        unsigned m = (unsigned)(n - shift);
        if (m < 120 && tail * 40 > ((u128)1 << m))
            break;
        k = r;
        acc_tail = tail;
        acc_shift = shift;
    }
    *lo = k - 1;
    *hi = n - k;
    /* cover = 1 - 2 tail / 2^(n - shift), on a 2^100 scale when larger */
    unsigned m = (unsigned)(n - acc_shift);
    if (m > 100) {
        acc_tail >>= (m - 100 < 127 ? m - 100 : 127);
        m = 100;
    }
    u128 whole = (u128)1 << m, twice = 2 * acc_tail;
    u128 rest = twice >= whole ? 0 : whole - twice;
    *cover_x100 = (unsigned)u128_div(rest * 10000u, whole, NULL);
}

bool stats_ci_within(const struct stats *s, unsigned pct_x100)
{
    u128 limit = (u128)s->median * pct_x100;
    return s->n > 0 && s->ci_cover_x100 >= 9500 && (u128)(s->median - s->ci_lo) * 10000u <= limit &&
           (u128)(s->ci_hi - s->median) * 10000u <= limit;
}

bool stats_noisy(const struct stats *s)
{
    return s->n > 0 && (s->cv_x100 > STATS_NOISY_CV_X100 || (u128)s->min * 5 < (u128)s->median * 4);
}

uint64_t stats_percentile(const uint64_t *sorted, size_t n, unsigned pct)
{
    if (n == 0)
        return 0;
    if (pct > 100)
        pct = 100;
    u128 rem;
    u128 rank = u128_div((u128)pct * n, 100, &rem);
    if (rem)
        rank++;
    if (rank == 0)
        rank = 1;
    return sorted[(size_t)rank - 1];
}

size_t stats_percentile_min_n(unsigned pct)
{
    if (pct <= 50 || pct >= 100)
        return 1;
    return (100 + (100 - pct) - 1) / (100 - pct);
}

uint64_t stats_gbps_x1000(uint64_t bytes, uint64_t ns) { return stats_ratio_x1000(bytes, ns); }

uint64_t stats_per_gib(uint64_t cpu, uint64_t bytes)
{
    return bytes ? div_round_sat((u128)cpu << 30, bytes) : 0;
}

uint64_t stats_ratio_x1000(uint64_t num, uint64_t den)
{
    return den ? div_round_sat((u128)num * 1000u, den) : 0;
}

uint64_t stats_cpb_x1000(uint64_t cycles, uint64_t bytes)
{
    return bytes ? div_round_sat((u128)cycles * 1000u, bytes) : 0;
}

uint64_t stats_pct_x100(uint64_t part, uint64_t whole)
{
    if (!whole)
        return 0;
    u128 q = u128_div((u128)part * 10000u, whole, NULL);
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

uint64_t stats_div_round(u128 num, u128 den) { return div_round_sat(num, den); }

uint64_t stats_scale(uint64_t x, uint64_t mul, uint64_t div)
{
    return div ? div_round_sat((u128)x * mul, div) : 0;
}

uint64_t stats_median_copy(const uint64_t *v, size_t n, uint64_t *scratch)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        scratch[i] = v[i];
    stats_sort(scratch, n);
    return scratch[(n - 1) / 2];
}

void stats_burst_of(const uint64_t *v, size_t n, unsigned tol_x100, uint64_t *scratch,
                    struct stats_burst *b)
{
    size_t start = 0, run = 0;
    *b = (struct stats_burst){0};
    if (!n)
        return;
    for (size_t i = 0; i < n; i++)
        scratch[i] = v[i];
    stats_sort(scratch, n);
    uint64_t q1 = scratch[(n - 1) / 4];
    for (size_t i = 0; i < n; i++) {
        if ((u128)v[i] * 10000u > (u128)q1 * (10000u + tol_x100)) {
            start = run ? start : i;
            if (++run > b->len) {
                b->start = start;
                b->len = run;
            }
        } else {
            run = 0;
        }
    }
    if (b->len < STATS_BURST_MIN) {
        *b = (struct stats_burst){0};
        return;
    }
    for (size_t i = 0; i < b->len; i++)
        scratch[i] = v[b->start + i];
    stats_sort(scratch, b->len);
    b->x1000 = stats_scale(scratch[(b->len - 1) / 2], 1000, q1);
}
