/*
 * lib/verdict_idle.c - the verdict's `idle zeroer` item (lib/verdict.h):
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
 * (bench/interference_work.c), so both keep the sibling CPU busy and the
 * difference is the zeroer's stores; the text says so, with what the spin
 * alone cost.
 *
 * Without run=interference: the CPU per GiB of the 1 GiB item's best
 * clear cell against Linux's clear_page (run=clear), the neighbour cost
 * "not measured: run=interference measures it".
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_priv.h"

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
    char why[8];
    struct vd_log *log = x->log;
    x->log = 0;
    const struct vd_cell *f = g->first;
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i], *a;
        if (!is_interf(c) || c->rate_pct != f->rate_pct || strcmp(c->strategy, f->strategy) ||
            !(a = base_of(x, c->victim, spin)) || !vd_cell_usable(c, why, sizeof(why)) ||
            !vd_cell_usable(a, why, sizeof(why)))
            continue;
        struct cmp m;
        vd_compare(x, VD_IDLE, a, c, CMP_Z95_X1000, false, &m);
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

/* "+12.3" of a ratio x 10^6 (percent, one decimal). */
static const char *pct(char *b, size_t cap, uint64_t r)
{
    char t[16];
    uint64_t d = r >= CMP_ONE ? r - CMP_ONE : CMP_ONE - r;
    fmt_fixed(t, sizeof(t), (d + 500) / 1000, 1);
    hz_snprintf(b, cap, "%c%s", r >= CMP_ONE ? '+' : '-', t);
    return b;
}

/* "+3.1% [-0.4..+6.0] on victim chase_4llc (DRAM), CPU 95.2 ms per GiB" */
static size_t cost(struct vd_item *it, size_t len, const struct vd_cell *c, const struct cmp *m)
{
    char a[16], lo[16], hi[16], ms[16];
    return vd_cat(it->text, sizeof(it->text), len,
                  "neighbour cost %s%% [%s..%s] on victim %s (%s-resident), CPU %s ms per GiB",
                  pct(a, 16, m->ratio_x1e6), pct(lo, 16, m->lo_x1e6), pct(hi, 16, m->hi_x1e6),
                  c->victim, c->level ? c->level : "?",
                  vd_dec(ms, 16, (c->cpu_ns_per_gib + 500) / 1000, 1));
}

static void fill_item(struct vd_ctx *x, struct vd_item *it, const struct group *g, bool spin)
{
    struct cmp m;
    vd_compare(x, VD_IDLE, g->wa, g->worst, CMP_Z95_X1000, false, &m); /* logged */
    vd_use_cell(it, g->worst);
    vd_use_cell(it, g->wa);
    it->unit = "ms/GiB";
    it->fig_x1000 = it->lo_x1000 = it->hi_x1000 = g->worst->cpu_ns_per_gib / 1000;
    hz_snprintf(it->baseline, sizeof(it->baseline), spin ? "spin control" : "alone");
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = g->wc.ratio_x1e6 / 1000;
    it->rlo_x1000 = g->wc.lo_x1e6 / 1000;
    it->rhi_x1000 = g->wc.hi_x1e6 / 1000;
    it->outcome = (int)g->wc.outcome;
}

/* "; L3 pollution not measured (no victim LLC-resident)" when no usable victim is. */
static size_t llc_note(const struct vd_ctx *x, struct vd_item *it, size_t len)
{
    for (size_t i = 0; i < x->n; i++)
        if (is_alone(&x->v[i]) && x->v[i].level && strcmp(x->v[i].level, "LLC") == 0)
            return len;
    return vd_cat(it->text, sizeof(it->text), len,
                  "; L3 pollution not measured (no victim LLC-resident here)");
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
    size_t ng = 0, len = 0;
    char t[16], lo[16], hi[16];
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
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not decided: run=interference left no usable cell (fewer than %u rounds, or "
                    "a zeroer not verified)",
                    CMP_MIN_N);
        return;
    }
    if (vs_spin) { /* said first: every figure after it is against the spin control */
        vd_use_cell(it, spin.worst);
        len = vd_cat(it->text, sizeof(it->text), 0,
                     "CPU contention here: the spin control (a busy sibling CPU, no stores) alone "
                     "slows victim %s by %s%% [%s..%s], so each zeroer is compared with it, not "
                     "with the victim alone (its stores' cost beyond a busy sibling); ",
                     spin.worst->victim, pct(t, 16, spin.wc.ratio_x1e6),
                     pct(lo, 16, spin.wc.lo_x1e6), pct(hi, 16, spin.wc.hi_x1e6));
    }
    if (best) {
        fill_item(x, it, best, vs_spin);
        it->decided = true;
        hz_snprintf(it->answer, sizeof(it->answer), "%s<=%u%%", best->first->strategy,
                    best->first->rate_pct);
        len = vd_cat(it->text, sizeof(it->text), len,
                     "a background zeroer should use %s at <= %u%% of its peak: ",
                     best->first->strategy, best->first->rate_pct);
        len = cost(it, len, best->worst, &best->wc);
        len = vd_cat(it->text, sizeof(it->text), len,
                     "; a tie within +-%s%% on all %u victims (95%% Moses intervals)",
                     vd_tol(t, sizeof(t), x->tol), best->nvict);
        for (size_t j = 0, k = 0; j < ng; j++) /* the others harmless at that rate */
            if (&g[j] != best && harmless(&g[j]) && g[j].first->rate_pct == best->first->rate_pct)
                len = vd_cat(
                    it->text, sizeof(it->text), len, "%s %s (CPU %s ms per GiB)",
                    k++ ? "," : "; as harmless at that rate, chosen by CPU:", g[j].first->strategy,
                    vd_dec(t, sizeof(t), (g[j].worst->cpu_ns_per_gib + 500) / 1000, 1));
        llc_note(x, it, len);
        return;
    }
    if (open) {
        fill_item(x, it, open, vs_spin);
        vd_use_cell(it, open->open); /* the comparison the text quotes */
        vd_use_cell(it, open->oa);
        struct cmp m;
        vd_compare(x, VD_IDLE, open->oa, open->open, CMP_Z95_X1000, false, &m); /* logged */
        len = vd_cat(it->text, sizeof(it->text), len,
                     "no zeroer rate shown harmless yet; open: %s at %u%% on victim %s: ",
                     open->first->strategy, open->first->rate_pct, open->open->victim);
        len = cost(it, len, open->open, &open->oc);
        llc_note(x, it, len);
        vd_undecided(it, x, open->oc.lo_x1e6, open->oc.hi_x1e6, false, open->oc.na, open->oc.nb);
        return;
    }
    fill_item(x, it, least, vs_spin);
    it->decided = !least->miss;
    hz_snprintf(it->answer, sizeof(it->answer), "none");
    len = vd_cat(it->text, sizeof(it->text), len,
                 "every measured zeroer rate slows a neighbour by more than %s%%%s; the least, %s "
                 "at %u%%: ",
                 vd_tol(t, sizeof(t), x->tol), least->miss ? " (some missed their rate)" : "",
                 least->first->strategy, least->first->rate_pct);
    len = cost(it, len, least->worst, &least->wc);
    llc_note(x, it, len);
    if (!it->decided)
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not decided: %s (its rate missed the target by more than 10%%)", it->text);
}

/* ms x 1000 per GiB at g GB/s x 1000 (g x 10^6 B/s): 2^30 / (g x 10^3) s,
 * so 2^30 / g ms x 1000, rounded to nearest. */
static uint64_t ms_per_gib(uint64_t g) { return g ? (GIB + g / 2) / g : 0; }

/* Without run=interference: the CPU a zeroer needs per GiB (run=clear). */
static void decide_clear(struct vd_ctx *x, struct vd_item *it, const struct vd_item *c1g,
                         const struct vd_cell *w)
{
    char a[16], lo[16], hi[16], b[16], r[16], rl[16], rh[16], ch[16], o[32];
    if (!w) {
        hz_snprintf(it->reason, sizeof(it->reason), "%s", c1g->reason);
        return;
    }
    const struct vd_cell *base = vd_clear_base(x, w->bytes);
    vd_use_cell(it, w);
    it->decided = true;
    it->unit = "ms/GiB";
    it->fig_x1000 = ms_per_gib(vd_gbps(w));
    it->lo_x1000 = ms_per_gib(vd_gbps_hi(w));
    it->hi_x1000 = ms_per_gib(vd_gbps_lo(w));
    hz_snprintf(it->answer, sizeof(it->answer), "%s/%s", w->strategy,
                fmt_size(ch, sizeof(ch), w->chunk));
    size_t len =
        vd_cat(it->text, sizeof(it->text), 0,
               "a background zeroer needs %s ms [%s..%s] of idle CPU per GiB (%s, %s "
               "calls, the 1 GiB item's best); neighbour cost not measured: run=interference "
               "measures it",
               vd_dec(a, 16, it->fig_x1000, 1), vd_dec(lo, 16, it->lo_x1000, 1),
               vd_dec(hi, 16, it->hi_x1000, 1), w->strategy, fmt_size(ch, sizeof(ch), w->chunk));
    if (!base || base == w)
        return;
    struct cmp cm;
    vd_use_cell(it, base);
    vd_compare(x, VD_IDLE, base, w, CMP_Z_X1000, true, &cm);
    hz_snprintf(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
    it->base_x1000 = ms_per_gib(vd_gbps(base));
    it->outcome = (int)cm.outcome;
    it->decided = cm.outcome != CMP_UNDECIDED;
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(cm.ratio_x1e6);
    it->rlo_x1000 = vd_speedup_x1000(cm.hi_x1e6);
    it->rhi_x1000 = vd_speedup_x1000(cm.lo_x1e6);
    vd_cat(it->text, sizeof(it->text), len,
           "; %s ms with rep_stosb in 4 KiB calls: %sx [%s..%s] as fast, %s",
           vd_dec(b, 16, it->base_x1000, 1), vd_dec(r, 16, it->ratio_x1000, 2),
           vd_dec(rl, 16, it->rlo_x1000, 2), vd_dec(rh, 16, it->rhi_x1000, 2),
           vd_outcome_words(x, it->outcome, o, sizeof(o)));
    if (!it->decided)
        vd_undecided(it, x, cm.lo_x1e6, cm.hi_x1e6, true, cm.na, cm.nb);
}

void vd_decide_idle(struct vd_ctx *x, struct vd_item *it, const struct vd_item *c1g,
                    const struct vd_cell *best)
{
    for (size_t i = 0; i < x->n; i++)
        if (is_interf(&x->v[i])) {
            decide_interf(x, it);
            return;
        }
    decide_clear(x, it, c1g, best);
}
