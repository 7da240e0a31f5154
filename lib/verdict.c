/*
 * lib/verdict.c - the verdict items decided from measured cells
 * (lib/verdict.h, docs/results.md `verdict`). Integer arithmetic only.
 */
#include "lib/verdict.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define GIB (1ull << 30)
#define TIB (1ull << 40)

typedef bool (*vd_pred)(const struct vd_cell *c, const void *arg);

static const char *const item_names[VD_NITEMS] = {"clear_1g", "clear_2m", "nontemporal", "fault",
                                                  "idle",     "vmstart",  "trust"};
static const char *const item_labels[VD_NITEMS] = {
    "1 GiB page", "2 MiB page", "non-temporal", "fault", "idle zeroer", "VM start", "trust"};

void vd_cell_id(const struct vd_cell *c, char *buf, size_t cap)
{
    char a[16], b[16];
    fmt_size(b, sizeof(b), c->bytes);
    if (c->kind == VD_FAULT) {
        hz_snprintf(buf, cap, "fault/%s/%s", c->prezeroed ? "prezeroed" : "sync", b);
        return;
    }
    if (c->kind == VD_SMP) {
        hz_snprintf(buf, cap, "smp/%s/%uT/%s", c->strategy, c->threads, b);
        return;
    }
    fmt_size(a, sizeof(a), c->chunk);
    hz_snprintf(buf, cap, "clear/%s/%s/%s/%s", c->strategy, a, c->cold ? "cold" : "warm", b);
}

bool vd_cell_usable(const struct vd_cell *c, char *why, size_t cap)
{
    char id[VD_ID_MAX], cv[16];
    vd_cell_id(c, id, sizeof(id));
    fmt_fixed(cv, sizeof(cv), c->st.cv_x100, 2);
    if (!c->verified)
        hz_snprintf(why, cap, "%s not verified", id);
    else if (c->st.n < VD_MIN_REPEATS)
        hz_snprintf(why, cap, "%s has %zu repeats (< %u)", id, c->st.n, VD_MIN_REPEATS);
    else if (c->st.cv_x100 > STATS_NOISY_CV_X100)
        hz_snprintf(why, cap, "%s CV %s%% > 10%%", id, cv);
    else if (stats_noisy(&c->st))
        hz_snprintf(why, cap, "%s min/median below 0.8", id);
    else
        return true;
    return false;
}

/* GB/s x 1000 of a clear or smp cell: median, and the interval's ends. */
static uint64_t gbps(const struct vd_cell *c) { return stats_gbps_x1000(c->bytes, c->st.median); }
static uint64_t gbps_lo(const struct vd_cell *c) { return stats_gbps_x1000(c->bytes, c->st.ci_hi); }
static uint64_t gbps_hi(const struct vd_cell *c) { return stats_gbps_x1000(c->bytes, c->st.ci_lo); }

/* v / 1000 rounded to `digits` (0..3) decimals. */
static const char *dec(char *b, size_t n, uint64_t x1000, unsigned digits)
{
    uint64_t div = digits >= 3 ? 1 : digits == 2 ? 10 : digits == 1 ? 100 : 1000;
    fmt_fixed(b, n, (x1000 + div / 2) / div, digits > 3 ? 3 : digits);
    return b;
}

/* The fastest verified cell matching pred (NULL when none). */
static const struct vd_cell *best(const struct vd_cell *v, size_t n, vd_pred pred, const void *arg)
{
    const struct vd_cell *b = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].verified && pred(&v[i], arg) && (!b || gbps(&v[i]) > gbps(b)))
            b = &v[i];
    return b;
}

static bool any(const struct vd_cell *v, size_t n, vd_pred pred, const void *arg)
{
    for (size_t i = 0; i < n; i++)
        if (pred(&v[i], arg))
            return true;
    return false;
}

static void use_cell(struct vd_item *it, const struct vd_cell *c)
{
    if (c && it->ncells < VD_ITEM_CELLS)
        vd_cell_id(c, it->cells[it->ncells++], VD_ID_MAX);
}

/* Not decided because of cell c (or of a noisy rival). Returns false. */
static bool blocked(struct vd_item *it, const struct vd_cell *c)
{
    char why[VD_TEXT_MAX - 40];
    vd_cell_usable(c, why, sizeof(why));
    hz_snprintf(it->reason, sizeof(it->reason), "not decided: too noisy (%s)", why);
    return false;
}

/* Winner w of the candidates may decide: it and every verified noisy
 * candidate whose interval reaches above w's median are checked (a cell
 * that left non-zero bytes is a failed strategy, not a rival). */
static bool winner_ok(struct vd_item *it, const struct vd_cell *v, size_t n, vd_pred pred,
                      const void *arg, const struct vd_cell *w)
{
    char why[8];
    if (!vd_cell_usable(w, why, sizeof(why)))
        return blocked(it, w);
    for (size_t i = 0; i < n; i++)
        if (pred(&v[i], arg) && &v[i] != w && v[i].verified &&
            !vd_cell_usable(&v[i], why, sizeof(why)) && gbps_hi(&v[i]) > gbps(w))
            return blocked(it, &v[i]);
    return true;
}

/* ---- cell predicates ----------------------------------------------------- */

struct clear_sel {
    uint64_t target;    /* bytes of the cold large target */
    uint64_t max_chunk; /* chunks up to this */
    uint64_t chunk;     /* exactly this chunk (0: any up to max_chunk) */
    int nt;             /* -1 any, 0 temporal, 1 non-temporal */
};

static bool is_clear_sel(const struct vd_cell *c, const void *arg)
{
    const struct clear_sel *s = arg;
    return c->kind == VD_CLEAR && c->cold && c->bytes == s->target && c->chunk <= s->max_chunk &&
           (!s->chunk || c->chunk == s->chunk) && (s->nt < 0 || c->nontemporal == (s->nt == 1));
}

static bool is_baseline(const struct vd_cell *c, const void *arg)
{
    const struct clear_sel *s = arg;
    return c->kind == VD_CLEAR && c->cold && c->bytes == s->target && c->chunk == 4096 &&
           strcmp(c->strategy, "rep_stosb") == 0;
}

/* The cold large target: the largest bytes of any cold clear cell. */
static uint64_t clear_target(const struct vd_cell *v, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].kind == VD_CLEAR && v[i].cold && v[i].bytes > t)
            t = v[i].bytes;
    return t;
}

/* ---- items --------------------------------------------------------------- */

static void not_measured(struct vd_item *it, const struct vd_facts *f)
{
    hz_snprintf(it->reason, sizeof(it->reason), "not measured in this run (run=%s)",
                f->run ? f->run : "?");
}

/* The fastest way to clear a page of `page` bytes (clear_1g, clear_2m);
 * *win gets the winning cell (for idle). */
static void decide_clear(struct vd_item *it, const struct vd_cell *v, size_t n, uint64_t page,
                         const struct vd_cell **win)
{
    struct clear_sel sel = {clear_target(v, n), page, 0, -1};
    const struct vd_cell *w = best(v, n, is_clear_sel, &sel);
    const struct vd_cell *base = best(v, n, is_baseline, &sel);
    char g[16], lo[16], hi[16], bg[16], r[16], ch[16], pg[16];
    *win = 0;
    fmt_size(pg, sizeof(pg), page);
    if (sel.target < page) { /* a small guest: no target as large as the page */
        fmt_size(ch, sizeof(ch), sel.target);
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not measured: the largest cold target was %s, smaller than a %s page", ch, pg);
        return;
    }
    if (!w)
        return;
    use_cell(it, w);
    if (base != w)
        use_cell(it, base);
    if (!winner_ok(it, v, n, is_clear_sel, &sel, w) || (base && !winner_ok(it, v, 0, 0, 0, base)))
        return;
    *win = w;
    it->decided = true;
    it->unit = "GB/s";
    it->fig_x1000 = gbps(w);
    it->lo_x1000 = gbps_lo(w);
    it->hi_x1000 = gbps_hi(w);
    fmt_size(ch, sizeof(ch), w->chunk);
    hz_snprintf(it->answer, sizeof(it->answer), "%s/%s", w->strategy, ch);
    size_t len = (size_t)hz_snprintf(
        it->text, sizeof(it->text), "clear a %s page with %s in %s calls: %s GB/s [%s..%s]", pg,
        w->strategy, ch, dec(g, sizeof(g), it->fig_x1000, 1), dec(lo, sizeof(lo), it->lo_x1000, 1),
        dec(hi, sizeof(hi), it->hi_x1000, 1));
    if (base && len < sizeof(it->text)) {
        hz_snprintf(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
        it->base_x1000 = gbps(base);
        it->ratio_x100 = it->base_x1000 ? it->fig_x1000 * 100 / it->base_x1000 : 0;
        hz_snprintf(it->text + len, sizeof(it->text) - len,
                    ", %sx Linux clear_page (rep_stosb, 4 KiB calls: %s GB/s)",
                    dec(r, sizeof(r), it->ratio_x100 * 10, 2),
                    dec(bg, sizeof(bg), it->base_x1000, 1));
    }
}

static void decide_nontemporal(struct vd_item *it, const struct vd_cell *v, size_t n)
{
    static const uint64_t chunks[] = {4096, 2ull << 20, 32ull << 20, 1ull << 30};
    uint64_t target = clear_target(v, n), from = 0;
    const struct vd_cell *fnt = 0, *ftm = 0, *lnt = 0, *ltm = 0;
    for (unsigned k = 0; k < 4; k++) {
        struct clear_sel nt = {target, chunks[k], chunks[k], 1},
                         tm = {target, chunks[k], chunks[k], 0};
        const struct vd_cell *a = best(v, n, is_clear_sel, &nt), *b = best(v, n, is_clear_sel, &tm);
        if (!a || !b)
            continue;
        use_cell(it, a);
        use_cell(it, b);
        if (!winner_ok(it, v, n, is_clear_sel, &nt, a) ||
            !winner_ok(it, v, n, is_clear_sel, &tm, b))
            return;
        lnt = a, ltm = b;
        if (gbps_lo(a) > gbps_hi(b)) { /* intervals apart, NT faster */
            if (!from)
                from = chunks[k], fnt = a, ftm = b;
        } else {
            from = 0; /* must pay at every larger extent too */
        }
    }
    if (!lnt)
        return;
    const struct vd_cell *a = from ? fnt : lnt, *b = from ? ftm : ltm;
    char ch[16], g[16], bg[16], r[16];
    it->decided = true;
    it->unit = "GB/s";
    it->fig_x1000 = gbps(a);
    it->lo_x1000 = gbps_lo(a);
    it->hi_x1000 = gbps_hi(a);
    it->base_x1000 = gbps(b);
    it->ratio_x100 = it->base_x1000 ? it->fig_x1000 * 100 / it->base_x1000 : 0;
    fmt_size(ch, sizeof(ch), a->chunk);
    hz_snprintf(it->baseline, sizeof(it->baseline), "%s/%s", b->strategy, ch);
    if (from)
        hz_snprintf(it->answer, sizeof(it->answer), "from %s", ch);
    else
        hz_snprintf(it->answer, sizeof(it->answer), "no");
    hz_snprintf(it->text, sizeof(it->text), "%s: at %s calls %s %s GB/s vs %s %s GB/s (%sx)%s",
                from ? "pay" : "do not pay", ch, a->strategy, dec(g, sizeof(g), it->fig_x1000, 1),
                b->strategy, dec(bg, sizeof(bg), it->base_x1000, 1),
                dec(r, sizeof(r), it->ratio_x100 * 10, 2),
                from ? " and at every larger extent measured"
                     : ": intervals overlap or temporal wins");
}

static bool is_fault(const struct vd_cell *c, const void *arg)
{
    return c->kind == VD_FAULT && c->prezeroed == *(const bool *)arg;
}

/* Faults have no GB/s: the first matching cell. */
static const struct vd_cell *first(const struct vd_cell *v, size_t n, vd_pred pred, const void *arg)
{
    for (size_t i = 0; i < n; i++)
        if (pred(&v[i], arg))
            return &v[i];
    return 0;
}

static void decide_fault(struct vd_item *it, const struct vd_cell *v, size_t n,
                         const struct vd_facts *f)
{
    bool no = false, yes = true;
    const struct vd_cell *s = first(v, n, is_fault, &no), *p = first(v, n, is_fault, &yes);
    char a[16], lo[16], hi[16], b[16], r[16], pg[16];
    if (!s || !p)
        return;
    use_cell(it, s);
    use_cell(it, p);
    if (!winner_ok(it, v, 0, 0, 0, s) || !winner_ok(it, v, 0, 0, 0, p))
        return;
    it->decided = true;
    it->unit = "ms";
    it->fig_x1000 = s->st.median / 1000; /* ns -> ms x 1000 */
    it->lo_x1000 = s->st.ci_lo / 1000;
    it->hi_x1000 = s->st.ci_hi / 1000;
    it->base_x1000 = p->st.median / 1000;
    it->ratio_x100 = p->st.median ? s->st.median * 100 / p->st.median : 0;
    hz_snprintf(it->baseline, sizeof(it->baseline), "prezeroed");
    hz_snprintf(it->answer, sizeof(it->answer), "%s",
                p->st.ci_hi < s->st.ci_lo ? "prezero pays" : "no gain");
    fmt_size(pg, sizeof(pg), s->bytes);
    hz_snprintf(it->text, sizeof(it->text),
                "a %s fault takes %s ms [%s..%s] zeroing in the fault vs %s ms from a pre-zeroed "
                "frame (%sx)%s",
                pg, dec(a, sizeof(a), it->fig_x1000, 2), dec(lo, sizeof(lo), it->lo_x1000, 2),
                dec(hi, sizeof(hi), it->hi_x1000, 2), dec(b, sizeof(b), it->base_x1000, 3),
                dec(r, sizeof(r), it->ratio_x100 * 10, 1),
                f->emulated_ring0 ? "; ring 0 emulated: the fault path is mostly hypervisor time"
                                  : "");
}

/* ms x 1000 per GiB at g GB/s x 1000 (g x 10^6 B/s): 2^30 / (g x 10^3) s,
 * so 2^30 / g ms x 1000, rounded to nearest. */
static uint64_t ms_per_gib(uint64_t g) { return g ? (GIB + g / 2) / g : 0; }

static void decide_idle(struct vd_item *it, const struct vd_item *c1g, const struct vd_cell *w,
                        const struct vd_cell *v, size_t n)
{
    struct clear_sel sel = {w ? w->bytes : 0, 1ull << 30, 0, -1};
    const struct vd_cell *base = w ? best(v, n, is_baseline, &sel) : 0;
    char a[16], lo[16], hi[16], b[16], ch[16];
    if (!w) {
        hz_snprintf(it->reason, sizeof(it->reason), "%s", c1g->reason);
        return;
    }
    use_cell(it, w);
    if (base != w)
        use_cell(it, base);
    it->decided = true;
    it->unit = "ms/GiB";
    it->fig_x1000 = ms_per_gib(gbps(w));
    it->lo_x1000 = ms_per_gib(gbps_hi(w));
    it->hi_x1000 = ms_per_gib(gbps_lo(w));
    fmt_size(ch, sizeof(ch), w->chunk);
    hz_snprintf(it->answer, sizeof(it->answer), "%s/%s", w->strategy, ch);
    size_t len = (size_t)hz_snprintf(it->text, sizeof(it->text),
                                     "a background zeroer needs %s ms [%s..%s] of idle CPU per GiB "
                                     "(%s, %s calls)",
                                     dec(a, sizeof(a), it->fig_x1000, 1),
                                     dec(lo, sizeof(lo), it->lo_x1000, 1),
                                     dec(hi, sizeof(hi), it->hi_x1000, 1), w->strategy, ch);
    if (base && len < sizeof(it->text)) {
        hz_snprintf(it->baseline, sizeof(it->baseline), "rep_stosb/4K");
        it->base_x1000 = ms_per_gib(gbps(base));
        it->ratio_x100 = it->base_x1000 ? it->fig_x1000 * 100 / it->base_x1000 : 0;
        hz_snprintf(it->text + len, sizeof(it->text) - len, "; %s ms with rep_stosb in 4 KiB calls",
                    dec(b, sizeof(b), it->base_x1000, 1));
    }
}

static bool is_smp(const struct vd_cell *c, const void *arg)
{
    const struct vd_cell *want = arg; /* threads, and strategy/nontemporal when set */
    return c->kind == VD_SMP && c->threads == want->threads &&
           (!want->strategy || strcmp(c->strategy, want->strategy) == 0) &&
           (!want->nontemporal || c->nontemporal);
}

/* s x 1000 per TiB at g GB/s x 1000 (g x 10^6 B/s): 2^40 / (g x 10^6) s,
 * so 2^40 / (g x 1000) s x 1000, rounded to nearest. */
static uint64_t s_per_tib(uint64_t g) { return g ? (TIB + g * 500) / (g * 1000) : 0; }

static void decide_vmstart(struct vd_item *it, const struct vd_cell *v, size_t n)
{
    unsigned all = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].kind == VD_SMP && v[i].threads > all)
            all = v[i].threads;
    struct vd_cell want = {.threads = all, .nontemporal = true};
    const struct vd_cell *peak = best(v, n, is_smp, &want);
    if (!peak) { /* no non-temporal strategy ran: the best all-thread cell */
        want.nontemporal = false;
        peak = best(v, n, is_smp, &want);
    }
    if (!peak)
        return;
    struct vd_cell one = {.threads = 1, .strategy = peak->strategy};
    const struct vd_cell *per = best(v, n, is_smp, &one);
    if (!per)
        return;
    use_cell(it, per);
    use_cell(it, peak);
    if (!winner_ok(it, v, n, is_smp, &want, peak) || !winner_ok(it, v, 0, 0, 0, per))
        return;
    uint64_t r16 = 16 * gbps(per) < gbps(peak) ? 16 * gbps(per) : gbps(peak);
    uint64_t r16_lo = 16 * gbps_lo(per) < gbps_lo(peak) ? 16 * gbps_lo(per) : gbps_lo(peak);
    uint64_t r16_hi = 16 * gbps_hi(per) < gbps_hi(peak) ? 16 * gbps_hi(per) : gbps_hi(peak);
    char a[16], lo[16], hi[16], pt[16], pk[16], r[16];
    it->decided = true;
    it->model = peak->threads != 16;
    it->unit = "s/TiB";
    it->fig_x1000 = s_per_tib(r16);
    it->lo_x1000 = s_per_tib(r16_hi);
    it->hi_x1000 = s_per_tib(r16_lo);
    hz_snprintf(it->answer, sizeof(it->answer), "%s", peak->strategy);
    hz_snprintf(it->text, sizeof(it->text),
                "%s%s s per TiB [%s..%s] with 16 threads = 2^40 B / min(16 x %s GB/s per thread "
                "(%s, 1 thread), %s GB/s all-thread peak (%u threads)) = %s GB/s",
                it->model ? "model: " : "", dec(a, sizeof(a), it->fig_x1000, 1),
                dec(lo, sizeof(lo), it->lo_x1000, 1), dec(hi, sizeof(hi), it->hi_x1000, 1),
                dec(pt, sizeof(pt), gbps(per), 1), per->strategy,
                dec(pk, sizeof(pk), gbps(peak), 1), peak->threads, dec(r, sizeof(r), r16, 1));
}

static void decide_trust(struct vd_item *it, struct vd_trust *t, const struct vd_cell *v, size_t n,
                         const struct vd_facts *f)
{
    char why[8], cv[16], steal[16];
    uint64_t cvs[VD_WORST] = {0}; /* parallel to t->worst, highest first */
    *t = (struct vd_trust){.cells = (unsigned)n};
    for (size_t i = 0; i < n; i++) {
        uint64_t c = v[i].st.cv_x100;
        unsigned k = t->nworst;
        t->noisy_cells += !vd_cell_usable(&v[i], why, sizeof(why));
        if (k == VD_WORST && c <= cvs[VD_WORST - 1])
            continue;
        if (k == VD_WORST)
            k--;
        else
            t->nworst++;
        for (; k > 0 && cvs[k - 1] < c; k--) { /* insertion, highest first */
            cvs[k] = cvs[k - 1];
            memcpy(t->worst[k], t->worst[k - 1], VD_ID_MAX);
        }
        cvs[k] = c;
        vd_cell_id(&v[i], t->worst[k], VD_ID_MAX);
    }
    t->worst_cv_x100 = cvs[0];
    it->decided = true;
    fmt_fixed(cv, sizeof(cv), t->worst_cv_x100, 2);
    fmt_fixed(steal, sizeof(steal), f->steal_x100, 2);
    hz_snprintf(
        it->text, sizeof(it->text),
        "%s, TSC %s %s, guest RAM %s, CPL %d, ring 0 %s, steal %s%s, worst CV %s%% (%s), "
        "%u of %u cells noisy",
        f->tcg                              ? "TCG (emulator timings: no speed verdict)"
        : f->hypervisor && f->hypervisor[0] ? f->hypervisor
                                            : "bare metal",
        f->tsc_source ? f->tsc_source : "?", f->tsc_invariant ? "invariant" : "NOT invariant",
        f->backing ? f->backing : "unknown", f->cpl, f->emulated_ring0 ? "emulated" : "native",
        f->steal_known ? steal : "unknown", f->steal_known ? "%" : "", cv,
        t->nworst ? t->worst[0] : "no cells", t->noisy_cells, t->cells);
}

void verdict_decide(const struct vd_cell *v, size_t n, const struct vd_facts *f,
                    struct vd_item out[VD_NITEMS], struct vd_trust *t)
{
    const struct vd_cell *w1g = 0, *w2m = 0;
    for (unsigned i = 0; i < VD_NITEMS; i++)
        out[i] = (struct vd_item){.item = item_names[i], .label = item_labels[i]};
    decide_trust(&out[VD_TRUST], t, v, n, f);
    for (unsigned i = 0; i < VD_TRUST; i++)
        not_measured(&out[i], f); /* kept unless decided below */
    if (f->tcg) {
        for (unsigned i = 0; i < VD_TRUST; i++)
            hz_snprintf(out[i].reason, sizeof(out[i].reason), "TCG: no timing");
        return;
    }
    struct clear_sel sel = {clear_target(v, n), 1ull << 30, 0, -1};
    if (any(v, n, is_clear_sel, &sel)) {
        out[VD_CLEAR_1G].reason[0] = out[VD_CLEAR_2M].reason[0] = 0;
        out[VD_NONTEMPORAL].reason[0] = out[VD_IDLE].reason[0] = 0;
        decide_clear(&out[VD_CLEAR_1G], v, n, 1ull << 30, &w1g);
        decide_clear(&out[VD_CLEAR_2M], v, n, 2ull << 20, &w2m);
        decide_nontemporal(&out[VD_NONTEMPORAL], v, n);
        decide_idle(&out[VD_IDLE], &out[VD_CLEAR_1G], w1g, v, n);
    }
    bool no = false;
    if (first(v, n, is_fault, &no)) {
        out[VD_FAULT_ITEM].reason[0] = 0;
        decide_fault(&out[VD_FAULT_ITEM], v, n, f);
    }
    struct vd_cell one = {.threads = 1};
    if (any(v, n, is_smp, &one)) {
        out[VD_VMSTART].reason[0] = 0;
        decide_vmstart(&out[VD_VMSTART], v, n);
    }
    for (unsigned i = 0; i < VD_TRUST; i++) /* a part missing (no baseline, no pre-zeroed) */
        if (!out[i].decided && !out[i].reason[0])
            not_measured(&out[i], f);
}
