/*
 * lib/verdict_items.c - the verdict items that are not about one clear
 * call (lib/verdict.h): fault (zeroing in the fault against a pre-zeroed
 * frame) and VM start (T threads against one, and the 16-thread model).
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_priv.h"

#define TIB (1ull << 40)

/* The first fault cell of a kind (prezeroed or not); *bad gets a cell of
 * that kind that is not usable when no usable one exists. */
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

void vd_decide_fault(struct vd_ctx *x, struct vd_item *it)
{
    const struct vd_cell *bad = 0, *s = fault_cell(x, false, &bad), *p = fault_cell(x, true, &bad);
    char h1[160], h2[160], pg[16], r[16], lo[16], hi[16], t[16], why[VD_TEXT_MAX / 2];
    if (!s || !p) {
        if (bad) { /* one is there but left out; else "not measured" */
            vd_cell_usable(bad, why, sizeof(why));
            hz_snprintf(it->reason, sizeof(it->reason), "not decided: %s", why);
        }
        return;
    }
    struct cmp cm;
    vd_use_cell(it, s);
    vd_use_cell(it, p);
    vd_compare(x, VD_FAULT_ITEM, p, s, CMP_Z_X1000, true, &cm);
    it->outcome = (int)cm.outcome;
    it->decided = cm.outcome != CMP_UNDECIDED;
    it->unit = "ms";
    it->fig_x1000 = s->st.median / 1000; /* ns -> ms x 1000 */
    it->lo_x1000 = s->st.ci_lo / 1000;
    it->hi_x1000 = s->st.ci_hi / 1000;
    it->base_x1000 = p->st.median / 1000;
    /* time ratio sync / pre-zeroed */
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = (cm.ratio_x1e6 + 500) / 1000;
    it->rlo_x1000 = (cm.lo_x1e6 + 500) / 1000;
    it->rhi_x1000 = (cm.hi_x1e6 + 500) / 1000;
    hz_snprintf(it->baseline, sizeof(it->baseline), "prezeroed");
    hz_snprintf(it->answer, sizeof(it->answer), "%s",
                cm.outcome == CMP_SLOWER ? "prezero pays"
                : it->decided            ? "no gain"
                                         : "");
    vd_headline(s, h1, sizeof(h1));
    vd_headline(p, h2, sizeof(h2));
    hz_snprintf(it->text, sizeof(it->text),
                "a %s fault takes %s zeroing in the fault vs %s from a pre-zeroed frame: %sx "
                "[%s..%s] the time, %s%s%s",
                fmt_size(pg, sizeof(pg), s->bytes), h1, h2, vd_dec(r, 16, it->ratio_x1000, 1),
                vd_dec(lo, 16, it->rlo_x1000, 1), vd_dec(hi, 16, it->rhi_x1000, 1),
                cm.outcome == CMP_TIE ? "tie within +-" : cmp_outcome_name(cm.outcome),
                cm.outcome == CMP_TIE ? vd_tol(t, 16, x->tol) : "",
                cm.outcome == CMP_TIE ? "%" : "");
    if (x->f->emulated_ring0)
        vd_cat(it->text, sizeof(it->text), strlen(it->text),
               "; ring 0 emulated: the fault path is mostly hypervisor time");
    if (!it->decided)
        vd_undecided(it, x, cm.lo_x1e6, cm.hi_x1e6, false, cm.na, cm.nb);
}

/* The fastest usable cell of kind k with `threads` threads (and strategy
 * s, and non-temporal, when given). */
static const struct vd_cell *best_of(const struct vd_ctx *x, enum vd_kind k, unsigned threads,
                                     const char *s, bool nt)
{
    const struct vd_cell *b = 0;
    char why[8];
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (c->kind == k && c->threads == threads && (!s || strcmp(c->strategy, s) == 0) &&
            (!nt || c->nontemporal) && vd_cell_usable(c, why, sizeof(why)) &&
            (!b || vd_gbps(c) > vd_gbps(b)))
            b = c;
    }
    return b;
}

/* s x 1000 per TiB at g GB/s x 1000 (g x 10^6 B/s): 2^40 / (g x 10^6) s,
 * so 2^40 / (g x 1000) s x 1000, rounded to nearest. */
static uint64_t s_per_tib(uint64_t g) { return g ? (TIB + g * 500) / (g * 1000) : 0; }

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/*
 * run=vmstart's cells (policy none: the fault path without pre-zeroing) when
 * there are any, else run=smp's: the all-thread cell (smp: the best
 * non-temporal one) against the same strategy or policy at 1 thread, and
 * the 16-thread model 2^40 B / min(16 x per-thread, peak).
 */
void vd_decide_vmstart(struct vd_ctx *x, struct vd_item *it)
{
    enum vd_kind k = VD_SMP;
    unsigned all = 0;
    char why[8];
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].kind == VD_VM && vd_cell_usable(&x->v[i], why, sizeof(why)))
            k = VD_VM;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].kind == k && x->v[i].threads > all &&
            vd_cell_usable(&x->v[i], why, sizeof(why)))
            all = x->v[i].threads;
    const struct vd_cell *peak = best_of(x, k, all, 0, k == VD_SMP);
    if (!peak) /* no non-temporal strategy ran: the best all-thread cell */
        peak = best_of(x, k, all, 0, false);
    const struct vd_cell *per = peak ? best_of(x, k, 1, peak->strategy, false) : 0;
    if (!per) {
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not decided: no usable %s cell at 1 thread (unverified or too few samples)",
                    k == VD_SMP ? "smp" : "vmstart");
        return;
    }
    vd_use_cell(it, per);
    if (peak != per)
        vd_use_cell(it, peak);
    uint64_t r16 = min_u64(16 * vd_gbps(per), vd_gbps(peak));
    uint64_t r16_lo = min_u64(16 * vd_gbps_lo(per), vd_gbps_lo(peak));
    uint64_t r16_hi = min_u64(16 * vd_gbps_hi(per), vd_gbps_hi(peak));
    char a[16], lo[16], hi[16], pt[16], pk[16], r[16], o[32], t[16];
    it->decided = true;
    it->model = peak->threads != 16;
    it->unit = "s/TiB";
    it->fig_x1000 = s_per_tib(r16);
    it->lo_x1000 = s_per_tib(r16_hi);
    it->hi_x1000 = s_per_tib(r16_lo);
    hz_snprintf(it->answer, sizeof(it->answer), "%s", peak->strategy);
    size_t len =
        vd_cat(it->text, sizeof(it->text), 0,
               "%s%s s per TiB [%s..%s] with 16 threads = 2^40 B / min(16 x %s GB/s per thread "
               "(%s, 1 thread), %s GB/s all-thread peak (%u threads)) = %s GB/s",
               it->model ? "model: " : "", vd_dec(a, 16, it->fig_x1000, 1),
               vd_dec(lo, 16, it->lo_x1000, 1), vd_dec(hi, 16, it->hi_x1000, 1),
               vd_dec(pt, 16, vd_gbps(per), 1), per->strategy, vd_dec(pk, 16, vd_gbps(peak), 1),
               peak->threads, vd_dec(r, 16, r16, 1));
    if (peak == per)
        return;
    struct cmp cm;
    vd_compare(x, VD_VMSTART, per, peak, CMP_Z_X1000, true, &cm);
    hz_snprintf(it->baseline, sizeof(it->baseline), "1 thread");
    it->outcome = (int)cm.outcome;
    it->decided = cm.outcome != CMP_UNDECIDED;
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(cm.ratio_x1e6);
    it->rlo_x1000 = vd_speedup_x1000(cm.hi_x1e6);
    it->rhi_x1000 = vd_speedup_x1000(cm.lo_x1e6);
    it->base_x1000 = s_per_tib(vd_gbps(per));
    hz_snprintf(o, sizeof(o), "%s", cmp_outcome_name(cm.outcome));
    if (cm.outcome == CMP_TIE)
        hz_snprintf(o, sizeof(o), "tie within +-%s%%", vd_tol(t, 16, x->tol));
    vd_cat(it->text, sizeof(it->text), len, "; measured: %u threads are %sx [%s..%s] 1 thread, %s",
           peak->threads, vd_dec(a, 16, it->ratio_x1000, 2), vd_dec(lo, 16, it->rlo_x1000, 2),
           vd_dec(hi, 16, it->rhi_x1000, 2), o);
    if (!it->decided)
        vd_undecided(it, x, cm.lo_x1e6, cm.hi_x1e6, true, cm.na, cm.nb);
}
