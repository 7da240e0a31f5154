/*
 * scenarios/numa/verdict.c - the verdict's `numa` item (issue 22): does a
 * pre-zeroing thread have to run on the memory's own node? From run=numa's
 * cells (scenarios/numa/kind.c): the one-thread variant (strategy and call
 * size) with the best local median, and for every CPU node with memory of
 * its own, its local cell against each remote memory node's cell at the
 * Bonferroni z for that many remote nodes (lib/compare.h), B/A of time
 * printed as remote speed over local. Remote is slower when any pair comes
 * out slower (the slowest is the figure), a tie when every pair ties, else
 * not decided (or faster when every pair is faster or tied).
 */
#include "lib/kstring.h"
#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"

/* The usable numa cell of (strategy, chunk, threads, cpu, mem); NULL none. */
static const struct vd_cell *numa_cell(const struct vd_ctx *x, const struct vd_cell *like,
                                       unsigned cpu, unsigned mem)
{
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (vd_cell_of(c, "numa") && c->threads == like->threads && c->chunk == like->chunk &&
            c->cpu_node == cpu && c->mem_node == mem && strcmp(c->strategy, like->strategy) == 0 &&
            vd_cell_usable(c))
            return c;
    }
    return 0;
}

/* The best usable one-thread local cell (highest median GB/s); NULL none. */
static const struct vd_cell *best_local(const struct vd_ctx *x)
{
    const struct vd_cell *b = 0;
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (vd_cell_of(c, "numa") && c->threads == 1 && c->cpu_node == c->mem_node &&
            vd_cell_usable(c) && (!b || vd_gbps(c) > vd_gbps(b)))
            b = c;
    }
    return b;
}

/* Memory nodes of the numa cells (a bit each; 0: no numa cell) and whether
 * any cell is remote. */
static uint32_t mem_nodes(const struct vd_ctx *x, bool *remote)
{
    uint32_t m = 0;
    *remote = false;
    for (size_t i = 0; i < x->n; i++)
        if (vd_cell_of(&x->v[i], "numa") && x->v[i].mem_node < 32) {
            m |= 1u << x->v[i].mem_node;
            *remote |= x->v[i].cpu_node != x->v[i].mem_node;
        }
    return m;
}

static unsigned popcount32(uint32_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static void decide_numa(struct vd_ctx *x, struct vd_item *it)
{
    bool remote;
    uint32_t mems = mem_nodes(x, &remote);
    if (!mems)
        return; /* no numa cell: NO_CELL (TCG under TCG) */
    if (!remote) {
        it->decided = true;
        vd_set_text(it->answer, sizeof(it->answer), "one node");
        return;
    }
    if (x->f->tcg)
        return; /* TCG */
    const struct vd_cell *best = best_local(x);
    if (!best) {
        it->reason = VD_R_NO_CELL;
        vd_arg_str(it, "need", "one-thread local numa cell");
        return;
    }
    unsigned rivals = popcount32(mems) - 1, pairs = 0, slower = 0, tie = 0, faster = 0;
    const struct vd_cell *worst_l = 0, *worst_r = 0;
    struct cmp worst = {0};
    uint64_t rmin = UINT64_MAX, rmax = 0, lo = UINT64_MAX, hi = 0;
    size_t nmin = SIZE_MAX, nmax = 0;
    vd_use_cell(it, best);
    for (unsigned c = 0; c < 32; c++) {
        const struct vd_cell *l = numa_cell(x, best, c, c);
        for (unsigned m = 0; l && m < 32; m++) {
            const struct vd_cell *r = m == c || !(mems >> m & 1) ? 0 : numa_cell(x, best, c, m);
            if (!r)
                continue;
            struct cmp cm;
            vd_compare(x, "numa", l, r, cmp_z_bonferroni_x1000(rivals), true, &cm);
            if (l != best)
                vd_use_cell(it, l);
            vd_use_cell(it, r);
            pairs++;
            slower += cm.outcome == CMP_SLOWER;
            tie += cm.outcome == CMP_TIE;
            faster += cm.outcome == CMP_FASTER;
            if (!worst_r || cm.ratio_x1e6 > worst.ratio_x1e6) {
                worst = cm;
                worst_l = l;
                worst_r = r;
            }
            rmin = cm.ratio_x1e6 < rmin ? cm.ratio_x1e6 : rmin;
            rmax = cm.ratio_x1e6 > rmax ? cm.ratio_x1e6 : rmax;
            lo = cm.lo_x1e6 < lo ? cm.lo_x1e6 : lo;
            hi = cm.hi_x1e6 > hi ? cm.hi_x1e6 : hi;
            nmin = cm.na < nmin ? cm.na : nmin;
            nmin = cm.nb < nmin ? cm.nb : nmin;
            nmax = cm.na > nmax ? cm.na : nmax;
            nmax = cm.nb > nmax ? cm.nb : nmax;
        }
    }
    vd_arg_str(it, "strategy", best->strategy);
    vd_arg_u64(it, "chunk", best->chunk, true);
    if (!pairs) {
        it->reason = VD_R_NO_REMOTE;
        return;
    }
    enum cmp_outcome o = slower                  ? CMP_SLOWER
                         : tie == pairs          ? CMP_TIE
                         : faster + tie == pairs ? CMP_FASTER
                                                 : CMP_UNDECIDED;
    it->outcome = (int)o;
    it->decided = o != CMP_UNDECIDED;
    it->unit = "GB/s";
    it->fig_x1000 = vd_gbps(worst_r);
    it->lo_x1000 = vd_gbps_lo(worst_r);
    it->hi_x1000 = vd_gbps_hi(worst_r);
    it->base_x1000 = vd_gbps(worst_l);
    vd_name_num("local node ", worst_l->cpu_node, it->baseline, sizeof(it->baseline));
    it->n_min = nmin;
    it->n_max = nmax;
    /* remote speed over local: the slowest pair, the range over all pairs and
     * the union of their intervals */
    it->ratio_x1000 = vd_speedup_x1000(worst.ratio_x1e6);
    it->rmin_x1000 = vd_speedup_x1000(rmax);
    it->rmax_x1000 = vd_speedup_x1000(rmin);
    it->rlo_x1000 = vd_speedup_x1000(o == CMP_SLOWER ? worst.hi_x1e6 : hi);
    it->rhi_x1000 = vd_speedup_x1000(o == CMP_SLOWER ? worst.lo_x1e6 : lo);
    vd_set_text(it->answer, sizeof(it->answer),
                o == CMP_SLOWER   ? "own node"
                : o == CMP_TIE    ? "any node"
                : o == CMP_FASTER ? "remote faster"
                                  : "");
    if (!it->decided)
        vd_open(it, nmin, nmax);
}

HZ_VERDICT_ITEM(item_numa, .key = "numa", .label = "NUMA", .form = "numa", .runs = "numa",
                .tcg = true, .decide = decide_numa, .order = 70);
