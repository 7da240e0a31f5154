/*
 * scenarios/numa/plan.c - the cells of the `numa` clearing matrix
 * (scenarios/numa/plan.h), portable; its `.plan` hook
 * (scenarios/numa/numa.h), kernel only.
 */
#include "scenarios/numa/plan.h"

static const struct numa_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.rounds = {.min = 10, .max = 20, .budget_s = 5}},
    [PLAN_FULL] = {.rounds = {.min = 10, .max = 30, .budget_s = 60}},
};

const struct numa_settings *numa_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

unsigned nplan_threads(unsigned ncpus, unsigned out[2])
{
    if (!ncpus)
        return 0;
    out[0] = 1;
    if (ncpus == 1)
        return 1;
    out[1] = ncpus;
    return 2;
}

int nplan_build(const struct nplan_node *node, unsigned n, unsigned nvariants,
                struct nplan_cell *out, size_t cap, size_t *ncells)
{
    if (!node || !out || !ncells || !n || n > NPLAN_MAX_NODES || !nvariants)
        return NPLAN_EINVAL;
    size_t need = 0;
    unsigned nmem = 0, ncpu = 0;
    for (unsigned i = 0; i < n; i++) {
        nmem += node[i].memory;
        ncpu += node[i].ncpus > 0;
    }
    if (!ncpu)
        return NPLAN_ENOCPU;
    if (!nmem)
        return NPLAN_ENOMEM;
    unsigned t[2], cols[NPLAN_MAX_NODES];
    for (unsigned i = 0; i < n; i++) {
        cols[i] = 0;
        for (unsigned m = 0; m < n; m++)
            cols[i] += node[m].memory && !(node[i].unreachable >> m & 1);
        need += (size_t)nplan_threads(node[i].ncpus, t) * cols[i];
    }
    need *= nvariants;
    *ncells = need;
    if (need > cap)
        return NPLAN_ETOOMANY;
    size_t k = 0;
    for (unsigned v = 0; v < nvariants; v++)
        for (unsigned ti = 0; ti < 2; ti++)
            for (unsigned c = 0; c < n; c++) {
                if (nplan_threads(node[c].ncpus, t) <= ti)
                    continue;
                size_t row = k; /* the row's first cell */
                int local = -1;
                for (unsigned m = 0; m < n; m++)
                    if (node[m].memory && !(node[c].unreachable >> m & 1)) {
                        if (m == c)
                            local = (int)k;
                        out[k++] = (struct nplan_cell){v, ti, t[ti], c, m, -1, 0};
                    }
                for (size_t j = row; j < k && local >= 0; j++)
                    if (out[j].mem != c) {
                        out[j].local = local;
                        out[j].rivals = cols[c] - 1;
                    }
            }
    return NPLAN_OK;
}

size_t nplan_group_end(const struct nplan_cell *c, size_t n, size_t start, size_t max)
{
    if (start >= n || !max)
        return n;
    size_t e = start, v;
    while (e < n) { /* whole variants while they fit */
        for (v = e; v < n && c[v].variant == c[e].variant; v++)
            ;
        if (v - start > max)
            break;
        e = v;
    }
    if (e > start)
        return e;
    for (v = start; v < n && c[v].variant == c[start].variant && c[v].tidx == c[start].tidx; v++)
        ;
    return v - start <= max ? v : start + max;
}

const char *nplan_strerror(int err)
{
    switch (err) {
    case NPLAN_OK:
        return "ok";
    case NPLAN_EINVAL:
        return "invalid argument";
    case NPLAN_ENOCPU:
        return "no node has an online CPU";
    case NPLAN_ENOMEM:
        return "no node has free memory";
    case NPLAN_ETOOMANY:
        return "too many cells";
    }
    return "unknown error";
}

#ifndef HZ_HOSTED
#include "kernel/options.h"
#include "scenarios/numa/numa.h"

unsigned numa_repeats_of(const struct plan_profile *p)
{
    return option_given("numa_repeats") ? (unsigned)numa_opts.repeats
                                        : numa_settings_get(p)->rounds.min;
}

void numa_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out)
{
    static struct nplan_cell plan[NUMA_CELLS_MAX];
    struct nplan_node pn[NUMA_MAX_NODES];
    struct plan_rounds r = numa_settings_get(p)->rounds;
    size_t n = 0;
    r.min = numa_repeats_of(p);
    r = smp_rounds_apply(r);
    unsigned nv = numa_plan_view(pn);
    if (nplan_build(pn, numa_get()->n, nv, plan, NUMA_CELLS_MAX, &n) != NPLAN_OK)
        return;
    for (size_t a = 0, e; a < n; a = e) {
        unsigned one = 0, many = 0, cpus = 1;
        e = nplan_group_end(plan, n, a, SMP_MAX_CELLS);
        for (size_t i = a; i < e; i++) {
            one += plan[i].threads == 1;
            many += plan[i].threads > 1;
            cpus = plan[i].threads > cpus ? plan[i].threads : cpus;
        }
        out->ms += plan_smp_part_ms(&r, one, many, cpus, numa_want_bytes(), m);
    }
    out->cells = (unsigned)n;
}
#endif /* !HZ_HOSTED */
