/*
 * scenarios/clear/verdict.c - the verdict items about clearing (lib/verdict.h):
 * clear_1g and clear_2m (the winner or leading set among the cold cells,
 * against Linux's clear_page), nontemporal (the best non-temporal against
 * the best temporal cell per call size). The idle item is scenarios/interference/verdict.c.
 */
#include "lib/kstring.h"
#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"
#include "measure/verdict_clear.h"

#define GIB (1ull << 30)
#define VD_MAX_CAND 64  /* candidates of one clear item */
#define VD_MAX_CHUNKS 8 /* call sizes the non-temporal item looks at */

/* A cold clear cell on the target with chunks up to `page`. */
static bool is_cand(const struct vd_cell *c, uint64_t target, uint64_t page)
{
    return vd_cell_of(c, "clear") && c->cold && c->bytes == target && c->chunk <= page;
}

/* The cells a clear item could not use: the first of them, and how many
 * (0: none). */
static unsigned left_out(const struct vd_ctx *x, uint64_t target, uint64_t page,
                         const struct vd_cell **first)
{
    unsigned k = 0;
    *first = 0;
    for (size_t i = 0; i < x->n; i++)
        if (is_cand(&x->v[i], target, page) && !vd_cell_usable(&x->v[i]) && !k++)
            *first = &x->v[i];
    return k;
}

/* Running range of a set of comparisons with one baseline. */
struct vd_span {
    uint64_t lo, hi;     /* union of the B/A intervals, x 10^6 */
    uint64_t rmin, rmax; /* speed-up estimates, x 1000 */
    size_t nmin, nmax;   /* samples a side */
    unsigned n;
};

static void span_add(struct vd_span *s, const struct cmp *c)
{
    uint64_t r = vd_speedup_x1000(c->ratio_x1e6);
    size_t lo = c->na < c->nb ? c->na : c->nb, hi = c->na < c->nb ? c->nb : c->na;
    if (!s->n++)
        *s = (struct vd_span){c->lo_x1e6, c->hi_x1e6, r, r, lo, hi, 1};
    s->lo = c->lo_x1e6 < s->lo ? c->lo_x1e6 : s->lo;
    s->hi = c->hi_x1e6 > s->hi ? c->hi_x1e6 : s->hi;
    s->rmin = r < s->rmin ? r : s->rmin;
    s->rmax = r > s->rmax ? r : s->rmax;
    s->nmin = lo < s->nmin ? lo : s->nmin;
    s->nmax = hi > s->nmax ? hi : s->nmax;
}

/* The leading set of the candidates (lib/verdict.h): lead[0] is the best;
 * returns its size, *tie whether every member ties with the best. */
static size_t leading_set(struct vd_ctx *x, const char *id, const struct vd_cell **cand, size_t nc,
                          const struct vd_cell **lead, bool *tie)
{
    size_t b = 0, nl = 1;
    for (size_t i = 1; i < nc; i++)
        b = vd_gbps(cand[i]) > vd_gbps(cand[b]) ? i : b;
    lead[0] = cand[b];
    *tie = true;
    unsigned z = cmp_z_bonferroni_x1000((unsigned)(nc - 1));
    for (size_t i = 0; i < nc; i++) {
        struct cmp c;
        if (i == b)
            continue;
        vd_compare(x, id, cand[b], cand[i], z, true, &c);
        if (c.outcome == CMP_SLOWER)
            continue;
        *tie = *tie && c.outcome == CMP_TIE;
        size_t k = nl++; /* by median GB/s, highest first */
        for (; k > 1 && vd_gbps(lead[k - 1]) < vd_gbps(cand[i]); k--)
            lead[k] = lead[k - 1];
        lead[k] = cand[i];
    }
    return nl;
}

/* Name the leading members and, after them, the baseline. */
static void name_cells(struct vd_item *it, const struct vd_cell **lead, size_t nl,
                       const struct vd_cell *base, bool base_in)
{
    size_t room = VD_ITEM_CELLS - (base && !base_in);
    for (size_t i = 0; i < nl && i < room; i++)
        vd_use_cell(it, lead[i]);
    it->nleaders = it->ncells;
    if (base && !base_in)
        vd_use_cell(it, base);
}

static void decide_clear(struct vd_ctx *x, struct vd_item *it, uint64_t page,
                         const struct vd_cell **best)
{
    const struct vd_cell *cand[VD_MAX_CAND], *lead[VD_MAX_CAND], *out;
    uint64_t target = vd_clear_target(x->v, x->n);
    size_t nc = 0;
    bool tie, base_in = false;
    *best = 0;
    if (!target)
        return;          /* no cold clear cell: NO_CELL */
    if (target < page) { /* a small guest: no target as large as the page */
        it->reason = VD_R_TARGET_SMALL;
        vd_arg_u64(it, "target", target, true);
        return;
    }
    for (size_t i = 0; i < x->n; i++)
        if (is_cand(&x->v[i], target, page) && vd_cell_usable(&x->v[i]) && nc < VD_MAX_CAND)
            cand[nc++] = &x->v[i];
    unsigned nout = left_out(x, target, page, &out);
    if (!nc) {
        if (nout)
            vd_left_out(it, out, nout - 1);
        return;
    }
    size_t nl = leading_set(x, it->item, cand, nc, lead, &tie);
    const struct vd_cell *base = vd_clear_base(x, target);
    *best = lead[0];
    for (size_t i = 0; i < nl; i++)
        base_in = base_in || lead[i] == base;
    struct vd_span sp = {0};
    unsigned zb = cmp_z_bonferroni_x1000((unsigned)(nl - base_in));
    for (size_t i = 0; base && i < nl; i++) {
        struct cmp cm;
        if (lead[i] == base)
            continue;
        vd_compare(x, it->item, base, lead[i], zb, true, &cm);
        span_add(&sp, &cm);
        if (i == 0)
            it->ratio_x1000 = vd_speedup_x1000(cm.ratio_x1e6);
    }
    it->set = nl == 1 ? "winner" : tie ? "tie" : "not separated";
    it->outcome = base && sp.n ? (int)cmp_outcome_of(sp.lo, sp.hi, x->tol) : -1;
    it->decided = !base     ? nl == 1 || tie
                  : !sp.n   ? true /* Linux's clear_page itself leads alone */
                  : base_in ? it->outcome == CMP_TIE
                            : it->outcome != CMP_UNDECIDED;
    it->n_min = sp.nmin;
    it->n_max = sp.nmax;
    it->unit = "GB/s";
    it->fig_x1000 = vd_gbps(lead[0]);
    it->lo_x1000 = vd_gbps_lo(lead[0]);
    it->hi_x1000 = vd_gbps_hi(lead[0]);
    vd_name_cell(lead[0], it->answer, sizeof(it->answer));
    name_cells(it, lead, nl, base, base_in);
    if (base) {
        vd_set_text(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
        it->base_x1000 = vd_gbps(base);
        it->ratio_x1000 = base == lead[0] ? 1000 : it->ratio_x1000;
        it->rmin_x1000 = sp.n ? sp.rmin : 1000;
        it->rmax_x1000 = sp.n ? sp.rmax : 1000;
        it->rlo_x1000 = sp.n ? vd_speedup_x1000(sp.hi) : 1000;
        it->rhi_x1000 = sp.n ? vd_speedup_x1000(sp.lo) : 1000;
    }
    if (!it->decided && base && sp.n)
        vd_open(it, sp.nmin, sp.nmax);
    else if (!it->decided)
        it->reason = VD_R_NO_BASELINE;
}

static void decide_1g(struct vd_ctx *x, struct vd_item *it)
{
    decide_clear(x, it, GIB, &x->best1g);
}

static void decide_2m(struct vd_ctx *x, struct vd_item *it)
{
    const struct vd_cell *best;
    decide_clear(x, it, 2ull << 20, &best);
}

/* The best usable cell of a kind (nt) at one call size on the target. */
static const struct vd_cell *best_at(const struct vd_ctx *x, uint64_t target, uint64_t chunk,
                                     bool nt)
{
    const struct vd_cell *b = 0;
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (is_cand(c, target, chunk) && c->chunk == chunk && c->nontemporal == nt &&
            vd_cell_usable(c) && (!b || vd_gbps(c) > vd_gbps(b)))
            b = c;
    }
    return b;
}

static void decide_nontemporal(struct vd_ctx *x, struct vd_item *it)
{
    /* only a winner fixes the call size: among leaders that are not
     * separated the first is a coin toss, and so would the size be */
    const struct vd_item *c1g = vd_done_item(x, "clear_1g");
    const struct vd_cell *lead1g =
        c1g && c1g->set && strcmp(c1g->set, "winner") == 0 ? x->best1g : 0;
    uint64_t target = vd_clear_target(x->v, x->n), ch[VD_MAX_CHUNKS];
    const struct vd_cell *nt[VD_MAX_CHUNKS], *tm[VD_MAX_CHUNKS];
    struct cmp cm[VD_MAX_CHUNKS];
    size_t nch = 0, m = VD_MAX_CHUNKS;
    if (!target)
        return;                         /* no cold clear cell: NO_CELL */
    for (size_t i = 0; i < x->n; i++) { /* the call sizes, ascending */
        uint64_t k = x->v[i].chunk;
        size_t j = 0;
        if (!is_cand(&x->v[i], target, UINT64_MAX))
            continue;
        while (j < nch && ch[j] < k)
            j++;
        if ((j < nch && ch[j] == k) || nch == VD_MAX_CHUNKS)
            continue;
        memmove(&ch[j + 1], &ch[j], (nch++ - j) * sizeof(ch[0]));
        ch[j] = k;
    }
    for (size_t j = 0; j < nch; j++) {
        nt[j] = best_at(x, target, ch[j], true);
        tm[j] = best_at(x, target, ch[j], false);
        if (nt[j] && tm[j] && (m == VD_MAX_CHUNKS || !lead1g || ch[m] != lead1g->chunk))
            m = j; /* the 1 GiB leader's call size, else the largest with both */
    }
    if (m == VD_MAX_CHUNKS) {
        it->reason = VD_R_NO_PAIR;
        return;
    }
    for (size_t j = 0; j < nch; j++)
        if (nt[j] && tm[j])
            vd_compare(x, it->item, tm[j], nt[j], CMP_Z_X1000, j == m, &cm[j]);
    vd_use_cell(it, nt[m]);
    vd_use_cell(it, tm[m]);
    vd_main_cmp(it, &cm[m]);
    it->decided = cm[m].outcome != CMP_UNDECIDED;
    it->unit = "GB/s";
    it->fig_x1000 = vd_gbps(nt[m]);
    it->lo_x1000 = vd_gbps_lo(nt[m]);
    it->hi_x1000 = vd_gbps_hi(nt[m]);
    it->base_x1000 = vd_gbps(tm[m]);
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(cm[m].ratio_x1e6);
    it->rlo_x1000 = vd_speedup_x1000(cm[m].hi_x1e6);
    it->rhi_x1000 = vd_speedup_x1000(cm[m].lo_x1e6);
    vd_name_cell(tm[m], it->baseline, sizeof(it->baseline));
    vd_set_text(it->answer, sizeof(it->answer),
                cm[m].outcome == CMP_FASTER   ? "yes"
                : cm[m].outcome == CMP_SLOWER ? "no"
                : cm[m].outcome == CMP_TIE    ? "tie"
                                              : "");
    vd_arg_str(it, "nt", nt[m]->strategy);
    vd_arg_u64(it, "chunk", ch[m], true);
    /* the other call sizes, information: z 2.361 is 98.18 % for one look */
    for (size_t j = 0; j < nch; j++) {
        if (j == m || !nt[j] || !tm[j])
            continue;
        struct vd_extra *e =
            vd_extra_add(it, "nt_speedup", "x", vd_speedup_x1000(cm[j].ratio_x1e6),
                         vd_speedup_x1000(cm[j].hi_x1e6), vd_speedup_x1000(cm[j].lo_x1e6), 9818,
                         (int)cm[j].outcome);
        if (e)
            e->chunk = ch[j];
    }
    if (!it->decided)
        vd_open(it, it->n_min, it->n_max);
}

/* The winner (or leading set) on 1 GiB and 2 MiB pages, then non-temporal
 * against temporal stores at the 1 GiB winner's call size. */
HZ_VERDICT_ITEM(item_clear_1g, .key = "clear_1g", .label = "clear 1 GiB", .form = "clear",
                .runs = "clear", .tcg = false, .decide = decide_1g, .order = 10);
HZ_VERDICT_ITEM(item_clear_2m, .key = "clear_2m", .label = "clear 2 MiB", .form = "clear",
                .runs = "clear", .tcg = false, .decide = decide_2m, .order = 20);
HZ_VERDICT_ITEM(item_nontemporal, .key = "nontemporal", .label = "non-temporal",
                .form = "nontemporal", .runs = "clear", .tcg = false, .decide = decide_nontemporal,
                .order = 30);
