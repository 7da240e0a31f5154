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

const char *ilv_verdict_name(enum ilv_verdict v)
{
    static const char *const names[] = {"more", "stable", "cap", "budget", "abort"};
    return (unsigned)v < 5 ? names[v] : "?";
}

bool ilv_cell_stable(const uint64_t *v, size_t n, unsigned ci_x100, uint64_t *scratch)
{
    struct stats s;
    for (size_t i = 0; i < n; i++)
        scratch[i] = v[i];
    stats_compute(&s, scratch, n);
    return stats_ci_within(&s, ci_x100);
}

enum ilv_verdict ilv_run(const struct ilv_run *r, unsigned *done)
{
    *done = 0;
    if (!r->ncells)
        return ILV_CAP;
    for (unsigned round = 0;; round++) {
        if (r->round_begins)
            r->round_begins(r->arg, round);
        ilv_order(r->seed, round, r->order, r->ncells);
        for (size_t i = 0; i < r->ncells; i++)
            if (!r->repeat(r->arg, r->order[i], round))
                return ILV_ABORT;
        if (round == 0)
            continue;
        *done = round;
        bool stable = true;
        for (size_t i = 0; i < r->ncells && stable; i++) {
            size_t n;
            const uint64_t *v = r->samples(r->arg, i, &n);
            stable = ilv_cell_stable(v, n, r->rule->ci_x100, r->scratch);
        }
        enum ilv_verdict v =
            ilv_next(r->rule, round, stable, r->budget_spent && r->budget_spent(r->arg));
        if (v != ILV_MORE)
            return v;
    }
}
