/*
 * lib/verdict_clear.c - the verdict items about clearing (lib/verdict.h):
 * clear_1g and clear_2m (the winner or leading set among the cold cells,
 * against Linux's clear_page), nontemporal (the best non-temporal against
 * the best temporal cell per call size). The idle item is lib/verdict_idle.c.
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_priv.h"

#define GIB (1ull << 30)
#define VD_MAX_CAND 64  /* candidates of one clear item */
#define VD_MAX_CHUNKS 8 /* call sizes the non-temporal item looks at */
#define VD_LIST 6       /* leading members the text lists */

/* A cold clear cell on the target with chunks up to `page`. */
static bool is_cand(const struct vd_cell *c, uint64_t target, uint64_t page)
{
    return c->kind == VD_CLEAR && c->cold && c->bytes == target && c->chunk <= page;
}

/* Linux's clear_page: rep_stosb in 4 KiB calls, cold, on the target. */
static bool is_base(const struct vd_cell *c, uint64_t target)
{
    return is_cand(c, target, 4096) && c->chunk == 4096 && strcmp(c->strategy, "rep_stosb") == 0;
}

const struct vd_cell *vd_clear_base(const struct vd_ctx *x, uint64_t target)
{
    char why[8];
    for (size_t i = 0; i < x->n; i++)
        if (is_base(&x->v[i], target) && vd_cell_usable(&x->v[i], why, sizeof(why)))
            return &x->v[i];
    return 0;
}

/* "rep_stosb/1G" */
static const char *short_id(const struct vd_cell *c, char *b, size_t cap)
{
    char ch[16];
    hz_snprintf(b, cap, "%s/%s", c->strategy, fmt_size(ch, sizeof(ch), c->chunk));
    return b;
}

const char *vd_outcome_words(const struct vd_ctx *x, int o, char *b, size_t cap)
{
    char t[16];
    if (o == CMP_TIE)
        hz_snprintf(b, cap, "tie within +-%s%%", vd_tol(t, sizeof(t), x->tol));
    else
        hz_snprintf(b, cap, "%s", cmp_outcome_name((enum cmp_outcome)o));
    return b;
}

/* The cells a clear item could not use, as "; left out: WHY (and N more)". */
static size_t left_out(const struct vd_ctx *x, struct vd_item *it, size_t len, uint64_t target,
                       uint64_t page)
{
    char why[VD_TEXT_MAX / 4];
    unsigned k = 0;
    for (size_t i = 0; i < x->n; i++)
        if (is_cand(&x->v[i], target, page) && !vd_cell_usable(&x->v[i], why, sizeof(why)) && !k++)
            len = vd_cat(it->text, sizeof(it->text), len, "; left out: %s", why);
    if (k > 1)
        len = vd_cat(it->text, sizeof(it->text), len, " and %u more", k - 1);
    return len;
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
static size_t leading_set(struct vd_ctx *x, enum vd_item_id id, const struct vd_cell **cand,
                          size_t nc, const struct vd_cell **lead, bool *tie)
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

void vd_decide_clear(struct vd_ctx *x, struct vd_item *it, uint64_t page,
                     const struct vd_cell **best)
{
    const struct vd_cell *cand[VD_MAX_CAND], *lead[VD_MAX_CAND];
    enum vd_item_id id = page >= GIB ? VD_CLEAR_1G : VD_CLEAR_2M;
    uint64_t target = vd_clear_target(x->v, x->n);
    char pg[16], tg[16], why[VD_TEXT_MAX / 2], s[24], a[16], b[16], c[16], d[16], e[16], w[32];
    size_t nc = 0, len;
    bool tie, base_in = false;
    *best = 0;
    fmt_size(pg, sizeof(pg), page);
    if (target < page) { /* a small guest: no target as large as the page */
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not measured: the largest cold target was %s, smaller than a %s page",
                    fmt_size(tg, sizeof(tg), target), pg);
        return;
    }
    for (size_t i = 0; i < x->n; i++)
        if (is_cand(&x->v[i], target, page) && vd_cell_usable(&x->v[i], why, sizeof(why)) &&
            nc < VD_MAX_CAND)
            cand[nc++] = &x->v[i];
    if (!nc) {
        if (left_out(x, it, 0, target, page))
            hz_snprintf(it->reason, sizeof(it->reason), "not decided: no usable cell%s", it->text);
        it->text[0] = 0;
        return;
    }
    size_t nl = leading_set(x, id, cand, nc, lead, &tie);
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
        vd_compare(x, id, base, lead[i], zb, true, &cm);
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
    it->unit = "GB/s";
    it->fig_x1000 = vd_gbps(lead[0]);
    it->lo_x1000 = vd_gbps_lo(lead[0]);
    it->hi_x1000 = vd_gbps_hi(lead[0]);
    short_id(lead[0], it->answer, sizeof(it->answer));
    name_cells(it, lead, nl, base, base_in);
    if (nl == 1) {
        len = vd_cat(it->text, sizeof(it->text), 0, "clear a %s page with %s in %s calls: ", pg,
                     lead[0]->strategy, fmt_size(c, sizeof(c), lead[0]->chunk));
        len += vd_headline(lead[0], it->text + len, sizeof(it->text) - len);
        len = vd_cat(it->text, sizeof(it->text), len, "; it beats every rival (%zu)", nc - 1);
    } else {
        len = vd_cat(it->text, sizeof(it->text), 0, "clear a %s page: ", pg);
        for (size_t i = 0; i < nl && i < VD_LIST; i++)
            len = vd_cat(it->text, sizeof(it->text), len, "%s%s %s [%s..%s]", i ? ", " : "",
                         short_id(lead[i], s, sizeof(s)), vd_dec(a, 16, vd_gbps(lead[i]), 1),
                         vd_dec(b, 16, vd_gbps_lo(lead[i]), 1),
                         vd_dec(c, 16, vd_gbps_hi(lead[i]), 1));
        if (nl > VD_LIST)
            len = vd_cat(it->text, sizeof(it->text), len, " and %zu more", nl - VD_LIST);
        len = vd_cat(it->text, sizeof(it->text), len,
                     " are %s (%s-%s GB/s); the best: ", tie ? "a tie" : "not separated",
                     vd_dec(a, 16, vd_gbps(lead[nl - 1]), 1), vd_dec(b, 16, vd_gbps(lead[0]), 1));
        len += vd_headline(lead[0], it->text + len, sizeof(it->text) - len);
    }
    if (base) {
        hz_snprintf(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
        it->base_x1000 = vd_gbps(base);
        it->ratio_x1000 = base == lead[0] ? 1000 : it->ratio_x1000;
        it->rmin_x1000 = sp.n ? sp.rmin : 1000;
        it->rmax_x1000 = sp.n ? sp.rmax : 1000;
        it->rlo_x1000 = sp.n ? vd_speedup_x1000(sp.hi) : 1000;
        it->rhi_x1000 = sp.n ? vd_speedup_x1000(sp.lo) : 1000;
    }
    if (base && !sp.n)
        len = vd_cat(it->text, sizeof(it->text), len, "; that is Linux clear_page");
    else if (base)
        len = vd_cat(it->text, sizeof(it->text), len,
                     "; %s%s%s%sx [%s..%s] Linux clear_page (rep_stosb, 4 KiB calls: %s GB/s): %s",
                     base_in   ? "Linux clear_page leads too, the others are "
                     : nl == 1 ? ""
                               : "each is ",
                     vd_dec(a, 16, sp.rmin, 2), sp.n > 1 ? "-" : "",
                     sp.n > 1 ? vd_dec(d, 16, sp.rmax, 2) : "", vd_dec(b, 16, it->rlo_x1000, 2),
                     vd_dec(c, 16, it->rhi_x1000, 2), vd_dec(e, 16, it->base_x1000, 1),
                     vd_outcome_words(x, it->outcome, w, sizeof(w)));
    else
        len = vd_cat(it->text, sizeof(it->text), len,
                     "; no usable Linux clear_page cell (rep_stosb/4K) to compare with");
    left_out(x, it, len, target, page);
    if (!it->decided && base && sp.n)
        vd_undecided(it, x, sp.lo, sp.hi, true, sp.nmin, sp.nmax);
    else if (!it->decided)
        hz_snprintf(it->reason, sizeof(it->reason), "not decided: %s", it->text);
}

/* The best usable cell of a kind (nt) at one call size on the target. */
static const struct vd_cell *best_at(const struct vd_ctx *x, uint64_t target, uint64_t chunk,
                                     bool nt)
{
    const struct vd_cell *b = 0;
    char why[8];
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (is_cand(c, target, chunk) && c->chunk == chunk && c->nontemporal == nt &&
            vd_cell_usable(c, why, sizeof(why)) && (!b || vd_gbps(c) > vd_gbps(b)))
            b = c;
    }
    return b;
}

void vd_decide_nontemporal(struct vd_ctx *x, struct vd_item *it, const struct vd_cell *lead1g)
{
    uint64_t target = vd_clear_target(x->v, x->n), ch[VD_MAX_CHUNKS];
    const struct vd_cell *nt[VD_MAX_CHUNKS], *tm[VD_MAX_CHUNKS];
    struct cmp cm[VD_MAX_CHUNKS];
    size_t nch = 0, m = VD_MAX_CHUNKS;
    char a[16], b[16], c[16], d[16], e[16], g[16], w[32], s1[24], s2[24];
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
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not measured: no call size with both a usable non-temporal and a temporal "
                    "cell");
        return;
    }
    for (size_t j = 0; j < nch; j++)
        if (nt[j] && tm[j])
            vd_compare(x, VD_NONTEMPORAL, tm[j], nt[j], CMP_Z_X1000, j == m, &cm[j]);
    vd_use_cell(it, nt[m]);
    vd_use_cell(it, tm[m]);
    it->outcome = (int)cm[m].outcome;
    it->decided = cm[m].outcome != CMP_UNDECIDED;
    it->unit = "GB/s";
    it->fig_x1000 = vd_gbps(nt[m]);
    it->lo_x1000 = vd_gbps_lo(nt[m]);
    it->hi_x1000 = vd_gbps_hi(nt[m]);
    it->base_x1000 = vd_gbps(tm[m]);
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(cm[m].ratio_x1e6);
    it->rlo_x1000 = vd_speedup_x1000(cm[m].hi_x1e6);
    it->rhi_x1000 = vd_speedup_x1000(cm[m].lo_x1e6);
    short_id(tm[m], it->baseline, sizeof(it->baseline));
    hz_snprintf(it->answer, sizeof(it->answer), "%s",
                cm[m].outcome == CMP_FASTER   ? "yes"
                : cm[m].outcome == CMP_SLOWER ? "no"
                : cm[m].outcome == CMP_TIE    ? "tie"
                                              : "");
    size_t len = vd_cat(
        it->text, sizeof(it->text), 0,
        "at %s calls (%s) the best non-temporal %s %s GB/s is %sx [%s..%s] the best temporal %s "
        "%s GB/s: %s",
        fmt_size(e, sizeof(e), ch[m]),
        lead1g && lead1g->chunk == ch[m] ? "the 1 GiB leader's" : "the largest measured",
        short_id(nt[m], s1, sizeof(s1)), vd_dec(a, 16, it->fig_x1000, 1),
        vd_dec(b, 16, it->ratio_x1000, 2), vd_dec(c, 16, it->rlo_x1000, 2),
        vd_dec(d, 16, it->rhi_x1000, 2), short_id(tm[m], s2, sizeof(s2)),
        vd_dec(g, 16, it->base_x1000, 1), vd_outcome_words(x, it->outcome, w, sizeof(w)));
    for (size_t j = 0, k = 0; j < nch; j++) {
        if (j == m || !nt[j] || !tm[j])
            continue;
        len = vd_cat(it->text, sizeof(it->text), len, "%s %s %s %sx [%s..%s]",
                     k++ ? "," : "; other call sizes:", fmt_size(e, sizeof(e), ch[j]),
                     cmp_outcome_name(cm[j].outcome),
                     vd_dec(a, 16, vd_speedup_x1000(cm[j].ratio_x1e6), 2),
                     vd_dec(b, 16, vd_speedup_x1000(cm[j].hi_x1e6), 2),
                     vd_dec(c, 16, vd_speedup_x1000(cm[j].lo_x1e6), 2));
    }
    if (!it->decided)
        vd_undecided(it, x, cm[m].lo_x1e6, cm[m].hi_x1e6, true, cm[m].na, cm[m].nb);
}
