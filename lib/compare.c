/*
 * lib/compare.c - Hodges-Lehmann ratio, Moses interval and the outcome at a
 * tolerance (lib/compare.h). Integer arithmetic only.
 */
#include "lib/compare.h"
#include "lib/stats.h"

#define GIB (1ull << 30)

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

size_t cmp_moses_k(size_t na, size_t nb, unsigned z_x1000)
{
    uint64_t pairs = (uint64_t)na * nb;
    if (!pairs)
        return 1;
    /* 1000 z sd = sqrt(z_x1000^2 mn (m + n + 1) / 12), rounded down */
    unsigned __int128 v2 = (unsigned __int128)z_x1000 * z_x1000 * pairs * (na + nb + 1) / 12u;
    uint64_t zsd = stats_isqrt(v2), half = pairs * 500u;
    uint64_t k = half > zsd ? (half - zsd) / 1000u : 0;
    return k < 1 ? 1 : (size_t)k;
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

void cmp_compare(const uint64_t *a, size_t na, uint64_t abytes, const uint64_t *b, size_t nb,
                 uint64_t bbytes, unsigned z_x1000, unsigned tol_x100, uint64_t *scratch,
                 struct cmp *c)
{
    na = na > CMP_MAX_N ? CMP_MAX_N : na;
    nb = nb > CMP_MAX_N ? CMP_MAX_N : nb;
    *c = (struct cmp){.na = na, .nb = nb, .z_x1000 = z_x1000, .tol_x100 = tol_x100};
    c->k = cmp_moses_k(na, nb, z_x1000);
    if (!na || !nb) {
        c->outcome = CMP_TOO_FEW;
        return;
    }
    uint64_t *ga = scratch, *gb = scratch + na, *r = scratch + na + nb;
    for (size_t i = 0; i < na; i++)
        ga[i] = stats_scale(a[i], GIB, abytes ? abytes : 1); /* ns per GiB */
    for (size_t j = 0; j < nb; j++)
        gb[j] = stats_scale(b[j], GIB, bbytes ? bbytes : 1);
    size_t pairs = na * nb;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            r[i * nb + j] = ga[i] ? stats_scale(gb[j], CMP_ONE, ga[i]) : UINT64_MAX;
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
