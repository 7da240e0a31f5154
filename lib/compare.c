/*
 * lib/compare.c - Hodges-Lehmann ratio, Moses interval and the outcome at a
 * tolerance (lib/compare.h). Integer arithmetic only.
 */
#include "lib/compare.h"
#include "lib/stats.h"

/* Phi^-1(1 - 0.0091129 / r) x 1000 rounded up, r = 2..32, and CMP_Z_X1000
 * for r = 1 (lib/compare.h). */
static const unsigned short z_bonferroni[32] = {
    2361, 2608, 2744, 2837, 2908, 2964, 3012, 3052, 3087, 3118, 3146, 3172, 3195, 3216, 3236, 3254,
    3271, 3288, 3303, 3317, 3331, 3344, 3356, 3368, 3379, 3390, 3400, 3410, 3420, 3429, 3438, 3446};

unsigned cmp_z_bonferroni_x1000(unsigned rivals)
{
    if (rivals < 1)
        rivals = 1;
    return z_bonferroni[(rivals > 32 ? 32 : rivals) - 1];
}

size_t cmp_scratch_len(size_t na, size_t nb)
{
    na = na > CMP_MAX_N ? CMP_MAX_N : na;
    nb = nb > CMP_MAX_N ? CMP_MAX_N : nb;
    return na * nb + na + nb;
}

size_t cmp_moses_k(size_t na, size_t nb, unsigned z_x1000, unsigned fa_x1000, unsigned fb_x1000)
{
    na = na > CMP_MAX_N ? CMP_MAX_N : na;
    nb = nb > CMP_MAX_N ? CMP_MAX_N : nb;
    uint64_t pairs = (uint64_t)na * nb;
    if (!pairs)
        return 1;
    /* 1000 z sd = sqrt(z^2 mn (n fa + m fb + 1) / 12), f x 1000, rounded down:
     * floor(A B / 12000) with A = z^2 = q 12000 + r and B = mn (n fa + m fb
     * + 1) (below 2^40), without a 128-bit division (the kernel has none) */
    uint64_t za = (uint64_t)z_x1000 * z_x1000, q = za / 12000u, r = za % 12000u;
    uint64_t bb = pairs * ((uint64_t)nb * fa_x1000 + (uint64_t)na * fb_x1000 + 1000u);
    unsigned __int128 v2 = (unsigned __int128)q * bb + (unsigned __int128)r * (bb / 12000u) +
                           r * (bb % 12000u) / 12000u;
    uint64_t zsd = stats_isqrt(v2), half = pairs * 500u;
    uint64_t k = half > zsd ? (half - zsd) / 1000u : 0;
    return k < 1 ? 1 : (size_t)k;
}

uint64_t cmp_ratio_x1e6(uint64_t a, uint64_t abytes, uint64_t b, uint64_t bbytes)
{
    unsigned __int128 num = (unsigned __int128)b * (abytes ? abytes : 1);
    unsigned __int128 den = (unsigned __int128)a * (bbytes ? bbytes : 1);
    while ((num >> 107) || (den >> 107)) {
        num >>= 1;
        den >>= 1;
    }
    return den ? stats_div_round(num * CMP_ONE, den) : UINT64_MAX;
}

bool cmp_bad_sample(uint64_t ns, uint64_t bytes, unsigned cpus)
{
    return !ns ||
           (cpus && (unsigned __int128)bytes > (unsigned __int128)ns * CMP_MAX_BYTES_PER_NS * cpus);
}

/* v[i] -> 2 x its midrank - (n + 1) into c (idx: n entries of scratch). */
static void centred_ranks(const uint64_t *v, size_t n, uint64_t *idx, int64_t *c)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort of indices by value: n <= CMP_MAX_N */
        for (size_t j = i; j > 0 && v[idx[j - 1]] > v[idx[j]]; j--) {
            uint64_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    for (size_t i = 0, j; i < n; i = j + 1) {
        for (j = i; j + 1 < n && v[idx[j + 1]] == v[idx[i]]; j++)
            ;
        for (size_t t = i; t <= j; t++)
            c[idx[t]] = (int64_t)(i + j + 2) - (int64_t)(n + 1);
    }
}

unsigned cmp_lag1(const uint64_t *v, size_t n, uint64_t *scratch, int *r1_x1000)
{
    int64_t c[CMP_MAX_N];
    n = n > CMP_MAX_N ? CMP_MAX_N : n;
    centred_ranks(v, n, scratch, c);
    int64_t s = 0, cc = 0;
    for (size_t i = 0; i < n; i++)
        s += c[i] * c[i];
    for (size_t i = 0; i + 1 < n; i++)
        cc += c[i] * c[i + 1];
    *r1_x1000 = s ? (int)(cc * 1000 / s) : 0; /* C division: toward zero */
    if (!s || cc <= 0 ||
        (__int128)cc * cc * (int64_t)n * 1000000 <=
            (__int128)CMP_Z_DEP_X1000 * CMP_Z_DEP_X1000 * s * s)
        return 1000u;
    if (cc > s * CMP_R1_MAX_X1000 / 1000)
        cc = s * CMP_R1_MAX_X1000 / 1000;
    return (unsigned)(1000 * (s + cc) / (s - cc));
}

const char *cmp_rule_name(enum cmp_rule r)
{
    return r == CMP_ROUNDS ? "rounds removed" : "two-sample";
}

const char *cmp_why_name(enum cmp_why w)
{
    static const char *const names[] = {"different runs", "same run", "no round factors"};
    return (unsigned)w < 3 ? names[w] : "?";
}

enum cmp_outcome cmp_outcome_of(uint64_t lo, uint64_t hi, unsigned tol_x100)
{
    unsigned __int128 up = (unsigned __int128)CMP_ONE * (10000u + tol_x100); /* (1 + X) x 10^10 */
    unsigned __int128 one = (unsigned __int128)CMP_ONE * 10000u;
    if ((unsigned __int128)hi * (10000u + tol_x100) < one)
        return CMP_FASTER;
    if ((unsigned __int128)lo * 10000u > up)
        return CMP_SLOWER;
    if ((unsigned __int128)lo * (10000u + tol_x100) >= one && (unsigned __int128)hi * 10000u <= up)
        return CMP_TIE;
    return CMP_UNDECIDED;
}

uint64_t cmp_saved_pct_x1000(uint64_t r) { return r >= CMP_ONE ? 0 : (CMP_ONE - r + 5) / 10; }

const char *cmp_outcome_name(enum cmp_outcome o)
{
    static const char *const names[] = {"undecided", "faster", "slower", "tie", "too few samples"};
    return (unsigned)o < 5 ? names[o] : "?";
}

/* The good samples of side x into g (adjusted by their rounds' factors);
 * returns how many, *bad the others. */
static size_t good(const struct cmp_side *x, const uint64_t *f, size_t nf, uint64_t *g, size_t *bad)
{
    size_t n = x->n > CMP_MAX_N ? CMP_MAX_N : x->n, m = 0;
    for (size_t i = 0; i < n; i++) {
        if (cmp_bad_sample(x->ns[i], x->bytes, x->cpus))
            continue;
        g[m++] = f && i < nf && f[i] ? stats_scale(x->ns[i], CMP_ONE, f[i]) : x->ns[i];
    }
    *bad = n - m;
    return m;
}

void cmp_compare_sides(const struct cmp_side *a, const struct cmp_side *b,
                       const uint64_t *factor_x1e6, size_t nfactors, enum cmp_why why,
                       unsigned z_x1000, unsigned tol_x100, uint64_t *scratch, struct cmp *c)
{
    size_t maxa = a->n > CMP_MAX_N ? CMP_MAX_N : a->n, maxb = b->n > CMP_MAX_N ? CMP_MAX_N : b->n;
    uint64_t *ga = scratch, *gb = scratch + maxa, *r = scratch + maxa + maxb;
    *c = (struct cmp){.z_x1000 = z_x1000, .tol_x100 = tol_x100, .why = why};
    if (factor_x1e6) {
        c->rule = CMP_ROUNDS;
        c->why = CMP_WHY_SAME_RUN;
    }
    size_t na = good(a, factor_x1e6, nfactors, ga, &c->bad_a);
    size_t nb = good(b, factor_x1e6, nfactors, gb, &c->bad_b);
    c->na = na;
    c->nb = nb;
    c->fa_x1000 = cmp_lag1(ga, na, r, &c->r1a_x1000);
    c->fb_x1000 = cmp_lag1(gb, nb, r, &c->r1b_x1000);
    c->k = cmp_moses_k(na, nb, z_x1000, c->fa_x1000, c->fb_x1000);
    if (!na || !nb) {
        c->outcome = CMP_TOO_FEW;
        return;
    }
    size_t pairs = na * nb;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            r[i * nb + j] = cmp_ratio_x1e6(ga[i], a->bytes, gb[j], b->bytes);
    stats_sort(r, pairs);
    if (pairs % 2)
        c->ratio_x1e6 = r[pairs / 2];
    else /* the mean of the two middle ratios, rounded down, without overflow */
        c->ratio_x1e6 = r[pairs / 2 - 1] + (r[pairs / 2] - r[pairs / 2 - 1]) / 2;
    c->lo_x1e6 = r[c->k - 1];
    c->hi_x1e6 = r[pairs - c->k];
    c->outcome = na < CMP_MIN_N || nb < CMP_MIN_N
                     ? CMP_TOO_FEW
                     : cmp_outcome_of(c->lo_x1e6, c->hi_x1e6, tol_x100);
}

void cmp_compare(const uint64_t *a, size_t na, uint64_t abytes, const uint64_t *b, size_t nb,
                 uint64_t bbytes, unsigned z_x1000, unsigned tol_x100, uint64_t *scratch,
                 struct cmp *c)
{
    struct cmp_side sa = {a, na, abytes, 0}, sb = {b, nb, bbytes, 0};
    cmp_compare_sides(&sa, &sb, NULL, 0, CMP_WHY_NO_FACTORS, z_x1000, tol_x100, scratch, c);
}
