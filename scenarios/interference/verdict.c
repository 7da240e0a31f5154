/*
 * scenarios/interference/verdict.c - the verdict's `idle zeroer` item (lib/verdict.h):
 * which background zeroer, at what share of its peak, and what it costs
 * the neighbours and its own CPU.
 *
 * From run=interference (its cells, scenarios/interference/kind.c): a (strategy, rate)
 * group is harmless when, for every victim, the victim's time with the
 * zeroer against the victims alone is a tie at the tolerance
 * (lib/compare.h, CMP_Z95_X1000: each victim's interval at 95 %, and all of
 * them must hold, an intersection-union test, so the group's level is
 * 95 % too), one of those victims is LLC-resident (the thread's worry is
 * L3: without one no group is called harmless, VD_R_NO_LLC) and its
 * achieved rate was within 10 % of the target. The answer is the harmless
 * group with the highest rate (% of its own peak), ties broken by the
 * least CPU per GiB; its figure is that CPU time (stats_per_gib(), at the
 * call size it issued: arg `call`), and the neighbour cost quoted is its
 * worst victim's (highest ratio). No group harmless: undecided when some
 * group has an open comparison, naming the thread's question with its
 * interval and n: an LLC-resident victim first, at the lowest rate that
 * keeps up (not slower on any victim, rate not missed), the least CPU
 * among equals; else decided "none" with the least harmful group. The
 * spin control (no stores) is not a candidate. When it alone is decidedly
 * slower than the victims alone on some victim, the host's CPU contention
 * is in every zeroer's figure: then every group is judged against the
 * spin control's cell of the same victim instead of alone, by the same
 * rule. That is a like-for-like control: a paced zeroer busy-waits between
 * its calls (scenarios/interference/work.c), so both keep the sibling CPU busy
 * and the difference is the zeroer's stores; the text says so, with what
 * the spin alone cost. With no zeroer at all (run=interference's host
 * check stopped the run and handed over its own cells): VD_R_CONTENTION
 * (the spin control's slowdown) or VD_R_NO_LLC, with the host that can
 * answer (arg `needs`).
 *
 * Without run=interference: the CPU per GiB of the 1 GiB item's best
 * clear cell against Linux's clear_page (run=clear), the neighbour cost
 * "not measured: run=interference measures it".
 */
#include "lib/kstring.h"
#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"
#include "measure/verdict_clear.h"

#define VD_IF_GROUPS 48 /* (strategy, rate) groups */

/* One (strategy, rate) group and its worst victim against its baseline. */
struct group {
    const struct vd_cell *first;      /* a cell of the group (strategy, rate, CPU) */
    const struct vd_cell *worst, *wa; /* worst victim's cell and its baseline cell */
    struct cmp wc;                    /* their comparison */
    const struct vd_cell *open, *oa;  /* an open comparison's cells (an LLC victim's first) ... */
    struct cmp oc;                    /* ... and it */
    unsigned nvict, slower, opened;
    bool miss, llc; /* missed its rate; judged an LLC-resident victim */
};

static bool is_interf(const struct vd_cell *c) { return vd_cell_of(c, "interference"); }

static bool is_alone(const struct vd_cell *c)
{
    return is_interf(c) && strcmp(c->strategy, "none") == 0;
}

/* Its victim measured LLC-resident (scenarios/interference/residency.c). */
static bool is_llc(const struct vd_cell *c) { return c->level && strcmp(c->level, "LLC") == 0; }

/* The baseline cell of `victim`: alone (the zeroer "none"), or with the
 * spin control running (spin). */
static const struct vd_cell *base_of(const struct vd_ctx *x, const char *victim, bool spin)
{
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if ((spin ? is_interf(c) && c->control : is_alone(c)) && strcmp(c->victim, victim) == 0)
            return c;
    }
    return 0;
}

/* Compare every victim of the group of x->v[first] with its baseline cell
 * (alone, or the spin control's when spin; not logged: a run has about a
 * hundred; decide_interf() logs the one the item quotes). */
static void judge(struct vd_ctx *x, struct group *g, bool spin)
{
    struct vd_log *log = x->log;
    x->log = 0;
    const struct vd_cell *f = g->first;
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i], *a;
        if (!is_interf(c) || c->rate_pct != f->rate_pct || strcmp(c->strategy, f->strategy) ||
            !(a = base_of(x, c->victim, spin)) || !vd_cell_usable(c) || !vd_cell_usable(a))
            continue;
        struct cmp m;
        vd_compare(x, "idle", a, c, CMP_Z95_X1000, false, &m);
        bool open = m.outcome != CMP_SLOWER && m.outcome != CMP_TIE && m.outcome != CMP_FASTER;
        g->miss |= c->rate_miss;
        g->llc |= is_llc(c);
        g->nvict++;
        g->slower += m.outcome == CMP_SLOWER;
        if (open && (!g->opened || (is_llc(c) && !is_llc(g->open)))) {
            g->open = c;
            g->oa = a;
            g->oc = m;
        }
        g->opened += open;
        if (!g->worst || m.ratio_x1e6 > g->wc.ratio_x1e6) {
            g->worst = c;
            g->wa = a;
            g->wc = m;
        }
    }
    x->log = log;
}

static bool harmless(const struct group *g)
{
    return g->nvict && !g->slower && !g->opened && !g->miss;
}

/* h harmless and better than o: the higher rate, then the least CPU per GiB. */
static bool better(const struct group *h, const struct group *o)
{
    return harmless(h) && (!o || h->first->rate_pct > o->first->rate_pct ||
                           (h->first->rate_pct == o->first->rate_pct &&
                            h->worst->cpu_ns_per_gib < o->worst->cpu_ns_per_gib));
}

/* h's open comparison comes before o's as the one the item quotes: the
 * thread's question, L3 pollution of a neighbour at a rate that keeps up.
 * A candidate is not slower on any victim and keeps up (achieved rate
 * within 10 % of the target); first one open on an LLC-resident victim,
 * then the lowest rate, then the least CPU per GiB. */
static bool open_before(const struct group *h, const struct group *o)
{
    if (!h->opened || h->slower || h->miss)
        return false;
    if (!o)
        return true;
    if (is_llc(h->open) != is_llc(o->open))
        return is_llc(h->open);
    if (h->first->rate_pct != o->first->rate_pct)
        return h->first->rate_pct < o->first->rate_pct;
    return h->open->cpu_ns_per_gib < o->open->cpu_ns_per_gib;
}

/* The main comparison m as the item's time ratio. */
static void fill_cmp(struct vd_item *it, const struct cmp *m, bool spin)
{
    vd_set_text(it->baseline, sizeof(it->baseline), spin ? "spin control" : "alone");
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = m->ratio_x1e6 / 1000;
    it->rlo_x1000 = m->lo_x1e6 / 1000;
    it->rhi_x1000 = m->hi_x1e6 / 1000;
    vd_main_cmp(it, m);
}

/* The item's figures from group g's comparison m of victim cell c with
 * its baseline cell (alone, or the spin control's when spin): the CPU per
 * GiB at the call size c's zeroer issued (`call`). */
static void fill_item(struct vd_item *it, const struct group *g, const struct vd_cell *c,
                      const struct cmp *m, bool spin)
{
    it->unit = "ms/GiB";
    it->fig_x1000 = it->lo_x1000 = it->hi_x1000 = c->cpu_ns_per_gib / 1000;
    fill_cmp(it, m, spin);
    vd_arg_str(it, "strategy", g->first->strategy);
    vd_arg_u64(it, "rate_pct", g->first->rate_pct, false);
    vd_arg_str(it, "victim", c->victim);
    if (c->chunk)
        vd_arg_u64(it, "call", c->chunk, true);
}

/* The spin control (a busy sibling CPU, no stores) against alone: the
 * victim it slows most, when it slows one decidedly (CPU contention on an
 * overcommitted host: a zeroer's own cost is then not separable). */
static bool contention(struct vd_ctx *x, struct group *spin)
{
    for (size_t i = 0; i < x->n; i++)
        if (is_interf(&x->v[i]) && x->v[i].control) {
            *spin = (struct group){.first = &x->v[i]};
            judge(x, spin, false);
            return spin->nvict && spin->slower;
        }
    return false;
}

/* Some victim measured alone is LLC-resident. */
static bool llc_victim(const struct vd_ctx *x)
{
    for (size_t i = 0; i < x->n; i++)
        if (is_alone(&x->v[i]) && vd_cell_usable(&x->v[i]) && is_llc(&x->v[i]))
            return true;
    return false;
}

/* No zeroer measured: run=interference's host check stopped the run
 * (scenarios/interference/host.c hands over its cells, the victims alone and
 * with the spin control). Why this host cannot answer, and what can. */
static void host_cannot(struct vd_ctx *x, struct vd_item *it, const struct group *spin,
                        bool vs_spin, bool llc)
{
    bool any = false;
    for (size_t i = 0; i < x->n; i++)
        any |= is_alone(&x->v[i]) && vd_cell_usable(&x->v[i]);
    if (vs_spin) {
        struct cmp m;
        vd_compare(x, "idle", spin->wa, spin->worst, CMP_Z95_X1000, false, &m); /* logged */
        vd_use_cell(it, spin->worst);
        vd_use_cell(it, spin->wa);
        fill_cmp(it, &m, false);
        it->reason = VD_R_CONTENTION;
        vd_arg_str(it, "victim", spin->worst->victim);
        vd_arg_str(it, "needs",
                   llc ? "distinct physical cores" : "distinct physical cores, an unshared LLC");
    } else if (any && !llc) {
        it->reason = VD_R_NO_LLC;
        vd_arg_str(it, "needs", "an unshared LLC");
    } else {
        it->reason = VD_R_NO_CELL;
        vd_arg_str(it, "need", "interference cell");
    }
}

static void decide_interf(struct vd_ctx *x, struct vd_item *it)
{
    static struct group spin;
    static struct group g[VD_IF_GROUPS];
    size_t ng = 0;
    bool vs_spin = contention(x, &spin), llc = llc_victim(x);
    for (size_t i = 0; i < x->n && ng < VD_IF_GROUPS; i++) {
        const struct vd_cell *c = &x->v[i];
        bool seen = false;
        if (!is_interf(c) || is_alone(c) || c->control)
            continue;
        for (size_t j = 0; j < ng && !seen; j++)
            seen =
                g[j].first->rate_pct == c->rate_pct && !strcmp(g[j].first->strategy, c->strategy);
        if (seen)
            continue;
        g[ng] = (struct group){.first = c};
        judge(x, &g[ng], vs_spin);
        ng += g[ng].nvict > 0;
    }
    if (!ng) {
        host_cannot(x, it, &spin, vs_spin, llc);
        return;
    }
    /* best: harmless on an LLC-resident victim too; blind: harmless where none was */
    const struct group *best = 0, *blind = 0, *open = 0, *least = 0;
    for (size_t j = 0; j < ng; j++) {
        const struct group *h = &g[j];
        if (h->llc && better(h, best))
            best = h;
        if (!h->llc && better(h, blind))
            blind = h;
        if (open_before(h, open))
            open = h;
        if (!least || h->wc.ratio_x1e6 < least->wc.ratio_x1e6)
            least = h;
    }
    if (vs_spin) /* every figure after it is against the spin control */
        vd_use_cell(it, spin.worst);
    /* quoted: the answer; else the open comparison (unless there is no
     * LLC-resident victim and a group harmless to the others); else that
     * group, harmless where L3 was not seen; else the least harmful */
    const struct group *h = best ? best : open && (llc || !blind) ? open : blind ? blind : least;
    bool quote_open = h == open && !best;
    const struct vd_cell *c = quote_open ? h->open : h->worst, *a = quote_open ? h->oa : h->wa;
    struct cmp m;
    vd_compare(x, "idle", a, c, CMP_Z95_X1000, false, &m); /* logged: the one quoted */
    vd_use_cell(it, c);
    vd_use_cell(it, a);
    fill_item(it, h, c, &m, vs_spin);
    if (best) {
        it->decided = true;
        vd_name_rate(best->first->strategy, best->first->rate_pct, it->answer, sizeof(it->answer));
    } else if (quote_open && llc)
        vd_open(it, it->n_min, it->n_max);
    else if (h == blind || quote_open) { /* would need an LLC-resident victim to decide */
        it->reason = VD_R_NO_LLC;
        vd_arg_str(it, "needs", "an unshared LLC");
    } else {
        it->decided = !least->miss;
        vd_set_text(it->answer, sizeof(it->answer), "none");
        it->reason = least->miss ? VD_R_RATE_MISS : VD_R_NONE;
    }
}

/* ms x 1000 per GiB of cell c's time t ns (one CPU: its time in the clear
 * calls, at its chunk): the one definition, stats_per_gib(). */
static uint64_t cpu_per_gib(const struct vd_cell *c, uint64_t t)
{
    return stats_per_gib(t, c->bytes) / 1000;
}

/* Without run=interference: the CPU a zeroer needs per GiB (run=clear). */
static void decide_clear(struct vd_ctx *x, struct vd_item *it)
{
    const struct vd_cell *w = x->best1g;
    const struct vd_item *c1g = vd_done_item(x, "clear_1g");
    it->form = "idle_cpu";
    if (!w && c1g) { /* as the 1 GiB item says */
        it->reason = c1g->reason;
        it->nargs = c1g->nargs;
        memcpy(it->args, c1g->args, sizeof(it->args));
        memcpy(it->arg_cell, c1g->arg_cell, sizeof(it->arg_cell));
        for (unsigned i = 0; i < it->nargs; i++) /* a cell id points at this item's copy */
            if (it->args[i].s == c1g->arg_cell)
                it->args[i].s = it->arg_cell;
    }
    if (!w)
        return;
    const struct vd_cell *base = vd_clear_base(x, w->bytes);
    vd_use_cell(it, w);
    it->decided = true;
    it->unit = "ms/GiB";
    it->fig_x1000 = cpu_per_gib(w, w->st.median);
    it->lo_x1000 = cpu_per_gib(w, w->st.ci_lo);
    it->hi_x1000 = cpu_per_gib(w, w->st.ci_hi);
    vd_name_cell(w, it->answer, sizeof(it->answer));
    if (!base || base == w)
        return;
    struct cmp cm;
    vd_use_cell(it, base);
    vd_compare(x, "idle", base, w, CMP_Z_X1000, true, &cm);
    vd_set_text(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
    it->base_x1000 = cpu_per_gib(base, base->st.median);
    vd_main_cmp(it, &cm);
    it->decided = cm.outcome != CMP_UNDECIDED;
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(cm.ratio_x1e6);
    it->rlo_x1000 = vd_speedup_x1000(cm.hi_x1e6);
    it->rhi_x1000 = vd_speedup_x1000(cm.lo_x1e6);
    if (!it->decided)
        vd_open(it, cm.na, cm.nb);
}

static void decide_idle(struct vd_ctx *x, struct vd_item *it)
{
    for (size_t i = 0; i < x->n; i++)
        if (is_interf(&x->v[i])) {
            decide_interf(x, it);
            return;
        }
    decide_clear(x, it);
}

/* After the 1 GiB clear item, whose best cell it reads without
 * run=interference. */
HZ_VERDICT_ITEM(item_idle, .key = "idle", .label = "idle zeroer", .form = "idle",
                .runs = "interference,clear", .tcg = false, .decide = decide_idle, .order = 50);
