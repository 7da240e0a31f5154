/*
 * lib/verdict_items.c - the verdict items that are not about one clear
 * call (lib/verdict.h): fault (zeroing in the fault against a pre-zeroed
 * frame, run=fault; the predicted clear_pages() gain and what is left for
 * pre-zeroing after it, run=faultclear) and VM start (T threads against
 * one, and the 16-thread model).
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_priv.h"

/* The first usable run=fault cell of a kind (prezeroed or not); *bad gets
 * a cell of that kind that is not usable when no usable one exists. */
static const struct vd_cell *fault_cell(const struct vd_ctx *x, bool prezeroed,
                                        const struct vd_cell **bad)
{
    char why[8];
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].kind == VD_FAULT && x->v[i].prezeroed == prezeroed) {
            if (vd_cell_usable(&x->v[i], why, sizeof(why)))
                return &x->v[i];
            *bad = *bad ? *bad : &x->v[i];
        }
    return 0;
}

/* The run=faultclear cell of Linux's clear_page (rep_stosb) on `frame`
 * bytes under a model starting with `model` (prezeroed: the clear taken
 * out); usable or, failing that, the first one (*usable says which). */
static const struct vd_cell *fc_cell(const struct vd_ctx *x, uint64_t frame, const char *model,
                                     bool prezeroed, bool *usable)
{
    const struct vd_cell *first = 0;
    char why[8];
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (c->kind != VD_FAULTCLEAR || c->bytes != frame || c->prezeroed != prezeroed ||
            !c->model || strncmp(c->model, model, strlen(model)) != 0 || !c->strategy ||
            strcmp(c->strategy, "rep_stosb") != 0)
            continue;
        if (vd_cell_usable(c, why, sizeof(why)))
            return *usable = true, c;
        first = first ? first : c;
    }
    *usable = false;
    return first;
}

/* "93.4% [91.2..95.0]" of an extra in percent x 1000. */
static const char *pct_text(char *b, size_t n, const struct vd_extra *e)
{
    char v[16], lo[16], hi[16];
    hz_snprintf(b, n, "%s%% [%s..%s]", vd_dec(v, 16, e->x1000, 1), vd_dec(lo, 16, e->lo_x1000, 1),
                vd_dec(hi, 16, e->hi_x1000, 1));
    return b;
}

/* Fill the item's main figures from the comparison of a fault that clears
 * (s) with one that does not (p): B = s over A = p, a time ratio. */
static void fault_main(struct vd_item *it, const struct vd_cell *s, const struct vd_cell *p,
                       const struct cmp *cm)
{
    it->outcome = (int)cm->outcome;
    it->decided = cm->outcome != CMP_UNDECIDED && cm->outcome != CMP_TOO_FEW;
    it->unit = "ms";
    it->fig_x1000 = s->st.median / 1000; /* ns -> ms x 1000 */
    it->lo_x1000 = s->st.ci_lo / 1000;
    it->hi_x1000 = s->st.ci_hi / 1000;
    it->base_x1000 = p->st.median / 1000;
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = (cm->ratio_x1e6 + 500) / 1000;
    it->rlo_x1000 = (cm->lo_x1e6 + 500) / 1000;
    it->rhi_x1000 = (cm->hi_x1e6 + 500) / 1000;
    hz_snprintf(it->baseline, sizeof(it->baseline), "prezeroed");
    hz_snprintf(it->answer, sizeof(it->answer), "%s",
                cm->outcome == CMP_SLOWER ? "prezero pays"
                : it->decided             ? "no gain"
                                          : "");
}

/* "; left for pre-zeroing: ..." of fault s against pre-zeroed p at 95 %:
 * the share of s's time that p saves. */
static size_t left_part(struct vd_ctx *x, struct vd_item *it, size_t len, const char *name,
                        const struct vd_cell *s, const struct vd_cell *p, const char *what)
{
    struct cmp c;
    char b[48];
    vd_compare(x, VD_FAULT_ITEM, s, p, CMP_Z95_X1000, false, &c); /* B/A = p / s */
    struct vd_extra *e = vd_extra_add(it, name, "%", cmp_saved_pct_x1000(c.ratio_x1e6),
                                      cmp_saved_pct_x1000(c.hi_x1e6),
                                      cmp_saved_pct_x1000(c.lo_x1e6), 9500, (int)c.outcome);
    if (!e)
        return len;
    return vd_cat(it->text, sizeof(it->text), len,
                  "; left for pre-zeroing%s: %s of the fault's time (95 %% Moses interval)", what,
                  pct_text(b, sizeof(b), e));
}

/* The run=faultclear part: the predicted clear_pages() gain, linux_4k /
 * linux_batch time at 95 %, and what is left for pre-zeroing after it.
 * main (not NULL when run=fault gave no comparison) gets the item's main
 * comparison: the linux_batch fault against its clear taken out. */
static size_t faultclear_part(struct vd_ctx *x, struct vd_item *it, size_t len, struct cmp *main)
{
    char r[16], lo[16], hi[16], pg[16], h1[160], h2[160], t[16], why[VD_TEXT_MAX / 4];
    bool u4 = false, ub = false, up = false;
    uint64_t frame = 0;
    const struct vd_cell *a = 0, *b = 0, *p = 0;
    /* 1 GiB frames when both cells there are usable, else 2 MiB, else the
     * first size with a linux_4k cell (to say what is missing) */
    for (int pass = 0; pass < 2 && !frame; pass++)
        for (uint64_t f = 1ull << 30; f >= (2ull << 20) && !frame; f >>= 9) {
            a = fc_cell(x, f, "linux_4k", false, &u4);
            b = fc_cell(x, f, "linux_batch", false, &ub);
            if (a && (pass == 1 || (b && u4 && ub)))
                frame = f;
        }
    if (frame)
        p = fc_cell(x, frame, "linux_batch", true, &up);
    else
        a = b = 0;
    const char *sep = len ? "; " : "";
    if (!vd_ran(x, "faultclear"))
        return vd_cat(it->text, sizeof(it->text), len,
                      "%sclear_pages() gain not measured: run=faultclear measures it", sep);
    if (!a || !b || !u4 || !ub) {
        const struct vd_cell *bad = a && !u4 ? a : b && !ub ? b : 0;
        if (bad)
            vd_cell_usable(bad, why, sizeof(why));
        else
            hz_snprintf(why, sizeof(why), "no rep_stosb linux_4k and linux_batch cells");
        return vd_cat(it->text, sizeof(it->text), len, "%sclear_pages() gain not decided: %s", sep,
                      why);
    }
    struct cmp g;
    vd_use_cell(it, a);
    vd_use_cell(it, b);
    vd_compare(x, VD_FAULT_ITEM, b, a, CMP_Z95_X1000, false, &g); /* B/A = 4k / batch */
    fmt_size(pg, sizeof(pg), frame);
    if (main && p && up) { /* no run=fault: the batch fault against its clear taken out */
        struct cmp cm;
        vd_use_cell(it, p);
        vd_compare(x, VD_FAULT_ITEM, p, b, CMP_Z_X1000, true, &cm);
        fault_main(it, b, p, &cm);
        *main = cm;
        vd_headline(b, h1, sizeof(h1));
        vd_headline(p, h2, sizeof(h2));
        len = vd_cat(it->text, sizeof(it->text), len,
                     "a %s %s fault (rep_stosb) takes %s vs %s with its clear taken out (a "
                     "pre-zeroed frame): %sx [%s..%s] the time, %s%s%s",
                     pg, b->model, h1, h2, vd_dec(r, 16, it->ratio_x1000, 1),
                     vd_dec(lo, 16, it->rlo_x1000, 1), vd_dec(hi, 16, it->rhi_x1000, 1),
                     cm.outcome == CMP_TIE ? "tie within +-" : cmp_outcome_name(cm.outcome),
                     cm.outcome == CMP_TIE ? vd_tol(t, 16, x->tol) : "",
                     cm.outcome == CMP_TIE ? "%" : "");
        sep = "; ";
    }
    vd_extra_add(it, "clear_pages_gain", "x", (g.ratio_x1e6 + 500) / 1000, (g.lo_x1e6 + 500) / 1000,
                 (g.hi_x1e6 + 500) / 1000, 9500, (int)g.outcome);
    len = vd_cat(it->text, sizeof(it->text), len,
                 "%spredicted clear_pages() gain on %s (rep_stosb, linux_4k / %s time): %sx "
                 "[%s..%s] (95 %% Moses interval), %s",
                 sep, pg, b->model, vd_dec(r, 16, (g.ratio_x1e6 + 500) / 1000, 2),
                 vd_dec(lo, 16, (g.lo_x1e6 + 500) / 1000, 2),
                 vd_dec(hi, 16, (g.hi_x1e6 + 500) / 1000, 2),
                 g.outcome == CMP_SLOWER   ? "a gain"
                 : g.outcome == CMP_FASTER ? "a loss"
                 : g.outcome == CMP_TIE    ? "no gain (tie)"
                                           : "not decided");
    if (p && up) {
        vd_use_cell(it, p);
        len = left_part(x, it, len, "left_after_clear_pages", b, p, " after clear_pages()");
    } else
        len = vd_cat(it->text, sizeof(it->text), len,
                     "; left for pre-zeroing after clear_pages(): no usable %s cell with its "
                     "clear taken out",
                     b->model);
    return len;
}

void vd_decide_fault(struct vd_ctx *x, struct vd_item *it)
{
    const struct vd_cell *bad = 0, *s = fault_cell(x, false, &bad), *p = fault_cell(x, true, &bad);
    char h1[160], h2[160], pg[16], r[16], lo[16], hi[16], t[16], why[VD_TEXT_MAX / 2];
    size_t len = 0;
    struct cmp cm = {0};
    if (s && p) {
        vd_use_cell(it, s);
        vd_use_cell(it, p);
        vd_compare(x, VD_FAULT_ITEM, p, s, CMP_Z_X1000, true, &cm);
        fault_main(it, s, p, &cm);
        vd_headline(s, h1, sizeof(h1));
        vd_headline(p, h2, sizeof(h2));
        len = vd_cat(it->text, sizeof(it->text), 0,
                     "a %s fault takes %s zeroing in the fault vs %s from a pre-zeroed frame: "
                     "%sx [%s..%s] the time, %s%s%s",
                     fmt_size(pg, sizeof(pg), s->bytes), h1, h2, vd_dec(r, 16, it->ratio_x1000, 1),
                     vd_dec(lo, 16, it->rlo_x1000, 1), vd_dec(hi, 16, it->rhi_x1000, 1),
                     cm.outcome == CMP_TIE ? "tie within +-" : cmp_outcome_name(cm.outcome),
                     cm.outcome == CMP_TIE ? vd_tol(t, 16, x->tol) : "",
                     cm.outcome == CMP_TIE ? "%" : "");
        len = left_part(x, it, len, "left_for_prezero", s, p, "");
    } else if (vd_ran(x, "fault")) {
        if (bad)
            vd_cell_usable(bad, why, sizeof(why));
        else
            hz_snprintf(why, sizeof(why), "no fault cell zeroed in the fault and one pre-zeroed");
        len = vd_cat(it->text, sizeof(it->text), 0, "run=fault: %s", why);
    }
    len = faultclear_part(x, it, len, s && p ? 0 : &cm);
    if (x->f->emulated_ring0 && it->outcome >= 0)
        len = vd_cat(it->text, sizeof(it->text), len,
                     "; ring 0 emulated: the fault's entry and mapping run in the hypervisor's "
                     "emulator (most of a pre-zeroed fault's time), the clear at CPL 3 natively");
    if (it->outcome < 0) /* no main comparison: say what is open */
        hz_snprintf(it->reason, sizeof(it->reason), "not decided: %s", it->text);
    else if (!it->decided)
        vd_undecided(it, x, cm.lo_x1e6, cm.hi_x1e6, false, cm.na, cm.nb);
}
