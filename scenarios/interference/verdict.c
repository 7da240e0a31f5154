/*
 * scenarios/interference/verdict.c - the verdict's `idle zeroer` item (lib/verdict.h):
 * which background zeroer, at what share of its peak, and what it costs
 * the neighbours and its own CPU.
 *
 * From run=interference (cells of kind VD_INTERF): a (strategy, rate)
 * group is harmless when, for every victim, the victim's time with the
 * zeroer against the victims alone is a tie at the tolerance
 * (lib/compare.h, CMP_Z95_X1000: each victim's interval at 95 %, and all of
 * them must hold, an intersection-union test, so the group's level is
 * 95 % too), and its achieved rate was within 10 % of the target. The
 * answer is the harmless group with the highest rate (% of its own peak),
 * ties broken by the least CPU per GiB; its figure is that CPU time, and
 * the neighbour cost quoted is its worst victim's (highest ratio). No
 * group harmless: undecided when some group has an open comparison (the
 * one at the highest such rate is named with its interval and n), else
 * decided "none" with the least harmful group. The spin control (no
 * stores) is not a candidate. When it alone is decidedly slower than the
 * victims alone on some victim, the host's CPU contention is in every
 * zeroer's figure: then every group is judged against the spin control's
 * cell of the same victim instead of alone, by the same rule. That is a
 * like-for-like control: a paced zeroer busy-waits between its calls
 * (scenarios/interference/work.c), so both keep the sibling CPU busy and the
 * difference is the zeroer's stores; the text says so, with what the spin
 * alone cost.
 *
 * Without run=interference: the CPU per GiB of the 1 GiB item's best
 * clear cell against Linux's clear_page (run=clear), the neighbour cost
 * "not measured: run=interference measures it".
 */
#include "lib/kstring.h"
#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"

#define GIB (1ull << 30)
#define VD_IF_GROUPS 48 /* (strategy, rate) groups */

/* One (strategy, rate) group and its worst victim against alone. */
struct group {
    const struct vd_cell *first;      /* a cell of the group (strategy, rate, CPU) */
    const struct vd_cell *worst, *wa; /* worst victim's cell and its alone cell */
    struct cmp wc;                    /* their comparison */
    const struct vd_cell *open, *oa;  /* an open comparison's cells ... */
    struct cmp oc;                    /* ... and it */
    unsigned nvict, slower, opened;
    bool miss;
};

static bool is_interf(const struct vd_cell *c) { return c->kind == VD_INTERF; }

static bool is_alone(const struct vd_cell *c)
{
    return is_interf(c) && strcmp(c->strategy, "none") == 0;
}

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
 * hundred; fill_item() logs the one the item quotes). */
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
        g->miss |= c->rate_miss;
        g->nvict++;
        g->slower += m.outcome == CMP_SLOWER;
        if (m.outcome != CMP_SLOWER && m.outcome != CMP_TIE && m.outcome != CMP_FASTER &&
            !g->opened++) {
            g->open = c;
            g->oa = a;
            g->oc = m;
        }
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

/* The item's figures from group g's comparison m of victim cell c with
 * its baseline cell (alone, or the spin control's when spin). */
static void fill_item(struct vd_item *it, const struct group *g, const struct vd_cell *c,
                      const struct cmp *m, bool spin)
{
    it->unit = "ms/GiB";
    it->fig_x1000 = it->lo_x1000 = it->hi_x1000 = c->cpu_ns_per_gib / 1000;
    vd_set_text(it->baseline, sizeof(it->baseline), spin ? "spin control" : "alone");
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = m->ratio_x1e6 / 1000;
    it->rlo_x1000 = m->lo_x1e6 / 1000;
    it->rhi_x1000 = m->hi_x1e6 / 1000;
    vd_main_cmp(it, m);
    vd_arg_str(it, "strategy", g->first->strategy);
    vd_arg_u64(it, "rate_pct", g->first->rate_pct, false);
    vd_arg_str(it, "victim", c->victim);
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

static void decide_interf(struct vd_ctx *x, struct vd_item *it)
{
    static struct group spin;
    static struct group g[VD_IF_GROUPS];
    size_t ng = 0;
    bool vs_spin = contention(x, &spin);
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
    const struct group *best = 0, *open = 0, *least = 0;
    for (size_t j = 0; j < ng; j++) {
        const struct group *h = &g[j];
        if (harmless(h) && (!best || h->first->rate_pct > best->first->rate_pct ||
                            (h->first->rate_pct == best->first->rate_pct &&
                             h->worst->cpu_ns_per_gib < best->worst->cpu_ns_per_gib)))
            best = h;
        if (h->opened && !h->slower && (!open || h->first->rate_pct > open->first->rate_pct))
            open = h;
        if (!least || h->wc.ratio_x1e6 < least->wc.ratio_x1e6)
            least = h;
    }
    if (!ng) {
        it->reason = VD_R_NO_CELL;
        vd_arg_str(it, "need", "interference cell");
        return;
    }
    if (vs_spin) /* every figure after it is against the spin control */
        vd_use_cell(it, spin.worst);
    const struct group *h = best ? best : open ? open : least;
    const struct vd_cell *c = best || !open ? h->worst : h->open,
                         *a = best || !open ? h->wa : h->oa;
    struct cmp m;
    vd_compare(x, "idle", a, c, CMP_Z95_X1000, false, &m); /* logged: the one quoted */
    vd_use_cell(it, c);
    vd_use_cell(it, a);
    fill_item(it, h, c, &m, vs_spin);
    if (best) {
        it->decided = true;
        vd_name_rate(best->first->strategy, best->first->rate_pct, it->answer, sizeof(it->answer));
    } else if (open)
        vd_open(it, it->n_min, it->n_max);
    else {
        it->decided = !least->miss;
        vd_set_text(it->answer, sizeof(it->answer), "none");
        it->reason = least->miss ? VD_R_RATE_MISS : VD_R_NONE;
    }
}

/* ms x 1000 per GiB at g GB/s x 1000 (g x 10^6 B/s): 2^30 / (g x 10^3) s,
 * so 2^30 / g ms x 1000, rounded to nearest. */
static uint64_t ms_per_gib(uint64_t g) { return g ? (GIB + g / 2) / g : 0; }

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
    it->fig_x1000 = ms_per_gib(vd_gbps(w));
    it->lo_x1000 = ms_per_gib(vd_gbps_hi(w));
    it->hi_x1000 = ms_per_gib(vd_gbps_lo(w));
    vd_name_cell(w, it->answer, sizeof(it->answer));
    if (!base || base == w)
        return;
    struct cmp cm;
    vd_use_cell(it, base);
    vd_compare(x, "idle", base, w, CMP_Z_X1000, true, &cm);
    vd_set_text(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
    it->base_x1000 = ms_per_gib(vd_gbps(base));
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
