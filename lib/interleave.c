/*
 * lib/interleave.c - seeded per-round cell orders, the stopping rule and
 * the loop of rounds (lib/interleave.h).
 */
#include "lib/interleave.h"
#include "lib/stats.h"

uint64_t ilv_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void ilv_order(uint64_t seed, unsigned round, unsigned *order, size_t n)
{
    uint64_t st = seed ^ ((uint64_t)round * 0xd1b54a32d192ed03ull);
    for (size_t i = 0; i < n; i++)
        order[i] = (unsigned)i;
    for (size_t i = n; i > 1; i--) { /* swap order[i - 1] with order[0..i) */
        size_t j = (size_t)(((unsigned __int128)ilv_splitmix64(&st) * i) >> 64);
        unsigned t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

enum ilv_verdict ilv_next(const struct ilv_rule *r, unsigned done, bool all_stable,
                          bool budget_spent)
{
    if (done < r->min_rounds)
        return ILV_MORE;
    if (all_stable)
        return ILV_STABLE;
    if (done >= r->max_rounds)
        return ILV_CAP;
    if (budget_spent)
        return ILV_BUDGET;
    return ILV_MORE;
}

bool ilv_look(const struct ilv_rule *r, unsigned done)
{
    if (done < r->min_rounds)
        return false;
    return done == r->min_rounds || !r->look_every || done % r->look_every == 0;
}

const char *ilv_verdict_name(enum ilv_verdict v)
{
    static const char *const names[] = {"more", "stable", "cap", "budget", "abort", "decided"};
    return (unsigned)v < 6 ? names[v] : "?";
}

bool ilv_cell_stable(const uint64_t *v, size_t n, unsigned ci_x100, uint64_t *scratch)
{
    struct stats s;
    for (size_t i = 0; i < n; i++)
        scratch[i] = v[i];
    stats_compute(&s, scratch, n);
    return stats_ci_within(&s, ci_x100);
}

void ilv_round_factors(const struct ilv_series *series, size_t ncells, uint64_t *factor_x1e6,
                       size_t nrounds, uint64_t *scratch)
{
    uint64_t *med = scratch, *e = scratch + ncells, *tmp = scratch + 2 * ncells;
    for (size_t c = 0; c < ncells; c++) {
        size_t m = 0;
        for (size_t i = 0; i < *series[c].n; i++)
            if (series[c].v[i])
                tmp[m++] = series[c].v[i];
        stats_sort(tmp, m);
        med[c] = m ? tmp[(m - 1) / 2] : 0;
    }
    for (size_t r = 0; r < nrounds; r++) {
        size_t m = 0;
        for (size_t c = 0; c < ncells; c++)
            if (r < *series[c].n && series[c].v[r] && med[c])
                e[m++] = stats_scale(series[c].v[r], 1000000u, med[c]);
        stats_sort(e, m);
        factor_x1e6[r] = m < ILV_FACTOR_MIN_CELLS ? 1000000u
                         : m % 2                  ? e[m / 2]
                                                  : e[m / 2 - 1] + (e[m / 2] - e[m / 2 - 1]) / 2;
    }
}

/* Give every still active cell the reason v; returns v. */
static enum ilv_verdict stop_all(const struct ilv_run *r, enum ilv_verdict v)
{
    for (size_t i = 0; i < r->ncells; i++)
        if (r->stop[i] == ILV_MORE)
            r->stop[i] = v;
    return v;
}

/* A look after `done` rounds: drop the cells settle() no longer needs (or,
 * without settle, test every cell's stability). True when the run goes on. */
static bool look(const struct ilv_run *r, unsigned done, bool spent, enum ilv_verdict *v)
{
    bool any = false, stable = true;
    if (r->settle) {
        for (size_t i = 0; i < r->ncells; i++)
            r->open[i] = false;
        r->settle(r->arg, r->open);
        for (size_t i = 0; i < r->ncells; i++) {
            if (r->stop[i] == ILV_MORE && !r->open[i])
                r->stop[i] = ILV_DECIDED;
            any |= r->stop[i] == ILV_MORE;
        }
        if (!any) {
            *v = ILV_DECIDED;
            return false;
        }
        stable = false;
    } else {
        for (size_t i = 0; i < r->ncells && stable; i++)
            stable = ilv_cell_stable(r->series[i].v, *r->series[i].n, r->rule->ci_x100, r->scratch);
    }
    *v = stop_all(r, ilv_next(r->rule, done, stable, spent));
    return *v == ILV_MORE;
}

enum ilv_verdict ilv_run(const struct ilv_run *r, unsigned *done)
{
    uint64_t t0 = 0;
    bool clocked = false;
    *done = 0;
    if (!r->ncells)
        return ILV_CAP;
    for (size_t i = 0; i < r->ncells; i++)
        r->stop[i] = ILV_MORE;
    for (unsigned round = 0;; round++) {
        if (r->round_begins)
            r->round_begins(r->arg, round);
        if (r->clock && round == r->budget_from) {
            t0 = r->clock();
            clocked = true;
        }
        ilv_order(r->seed, round, r->order, r->ncells);
        for (size_t i = 0; i < r->ncells; i++)
            if (r->stop[r->order[i]] == ILV_MORE && !r->repeat(r->arg, r->order[i], round))
                return stop_all(r, ILV_ABORT);
        if (round == 0)
            continue;
        *done = round;
        if (round < r->rule->min_rounds)
            continue;
        bool spent = clocked && r->clock() - t0 > r->budget;
        enum ilv_verdict v;
        if ((ilv_look(r->rule, round) || spent || round >= r->rule->max_rounds) &&
            !look(r, round, spent, &v))
            return v;
    }
}
