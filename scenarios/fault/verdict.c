/*
 * scenarios/fault/verdict.c - the verdict items that are not about one clear
 * call (lib/verdict.h): fault (zeroing in the fault against a pre-zeroed
 * frame, run=fault, naming its fault path and, when that is hugezero's own
 * extent clear, the Linux-faithful fault beside it; the predicted
 * clear_pages() gain with its preemption model and the published gain for
 * that model, and what is left for pre-zeroing after it, run=faultclear).
 */
#include "lib/kstring.h"
#include "lib/published.h"
#include "lib/verdict_priv.h"

/* The first usable run=fault cell of a kind (prezeroed or not); *bad gets
 * a cell of that kind that is not usable when no usable one exists. */
static const struct vd_cell *fault_cell(const struct vd_ctx *x, bool prezeroed,
                                        const struct vd_cell **bad)
{
    for (size_t i = 0; i < x->n; i++)
        if (vd_cell_of(&x->v[i], "fault") && x->v[i].prezeroed == prezeroed) {
            if (vd_cell_usable(&x->v[i]))
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
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (!vd_cell_of(c, "faultclear") || c->bytes != frame || c->prezeroed != prezeroed ||
            !c->model || strncmp(c->model, model, strlen(model)) != 0 || !c->strategy ||
            strcmp(c->strategy, "rep_stosb") != 0)
            continue;
        if (vd_cell_usable(c))
            return *usable = true, c;
        first = first ? first : c;
    }
    *usable = false;
    return first;
}

/* Fill the item's main figures from the comparison of a fault that clears
 * (s) with one that does not (p): B = s over A = p, a time ratio. */
static void fault_main(struct vd_item *it, const struct vd_cell *s, const struct vd_cell *p,
                       const struct cmp *cm)
{
    vd_main_cmp(it, cm);
    it->decided = cm->outcome != CMP_UNDECIDED && cm->outcome != CMP_TOO_FEW;
    it->unit = "ms";
    it->fig_x1000 = s->st.median / 1000; /* ns -> ms x 1000 */
    it->lo_x1000 = s->st.ci_lo / 1000;
    it->hi_x1000 = s->st.ci_hi / 1000;
    it->base_x1000 = p->st.median / 1000;
    it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = (cm->ratio_x1e6 + 500) / 1000;
    it->rlo_x1000 = (cm->lo_x1e6 + 500) / 1000;
    it->rhi_x1000 = (cm->hi_x1e6 + 500) / 1000;
    vd_set_text(it->baseline, sizeof(it->baseline), "prezeroed");
    vd_set_text(it->answer, sizeof(it->answer),
                cm->outcome == CMP_SLOWER ? "prezero pays"
                : it->decided             ? "no gain"
                                          : "");
    vd_arg_u64(it, "page", s->bytes, true);
}

/* What is left for pre-zeroing, as extra `name`: the share of fault s's
 * time that pre-zeroed p saves, at 95 %. */
static void left_part(struct vd_ctx *x, struct vd_item *it, const char *name,
                      const struct vd_cell *s, const struct vd_cell *p)
{
    struct cmp c;
    vd_compare(x, "fault", s, p, CMP_Z95_X1000, false, &c); /* B/A = p / s */
    vd_extra_add(it, name, "%", cmp_saved_pct_x1000(c.ratio_x1e6), cmp_saved_pct_x1000(c.hi_x1e6),
                 cmp_saved_pct_x1000(c.lo_x1e6), 9500, (int)c.outcome);
}

/* The gain's preemption model (the linux_batch cell b's: the series clears
 * in batches only under preempt=none/voluntary) as arg `gain_preempt`, and
 * the published gain for that model on this CPU family beside it
 * (lib/published.h; 1 GiB pages only): extra `published_gain`, args
 * `published_cpu`, `published_version`, `published_batch`. */
static void published(const struct vd_ctx *x, struct vd_item *it, const struct vd_cell *b)
{
    if (!b->preempt)
        return;
    vd_arg_str(it, "gain_preempt", b->preempt);
    const char *cpu = pub_fault_cpu(x->f->cpu_vendor, x->f->cpu_family, x->f->cpu_model);
    const struct pub_fault *p = b->bytes == PUB_FAULT_BYTES ? pub_fault_find(cpu, b->preempt) : 0;
    if (!p)
        return;
    uint64_t g = pub_fault_gain_x1000(p);
    vd_extra_add(it, "published_gain", "x", g, g, g, 0, -1);
    vd_arg_str(it, "published_cpu", cpu);
    vd_arg_str(it, "published_version", p->version);
    if (p->batch)
        vd_arg_u64(it, "published_batch", p->batch, true);
}

/* The run=faultclear part: the predicted clear_pages() gain, linux_4k /
 * linux_batch time at 95 %, and what is left for pre-zeroing after it.
 * main (not NULL when run=fault gave no comparison) gets the item's main
 * comparison: the linux_batch fault against its clear taken out. */
static void faultclear_part(struct vd_ctx *x, struct vd_item *it, struct cmp *main)
{
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
    if (!vd_ran(x, "faultclear") || !a || !b || !u4 || !ub) {
        const struct vd_cell *bad = a && !u4 ? a : b && !ub ? b : 0;
        if (main && bad) /* no main comparison: say which cell was left out */
            vd_left_out(it, bad, 0);
        return;
    }
    struct cmp g;
    vd_use_cell(it, a);
    vd_use_cell(it, b);
    vd_compare(x, "fault", b, a, CMP_Z95_X1000, false, &g); /* B/A = 4k / batch */
    if (main && p && up) { /* no run=fault: the batch fault against its clear taken out */
        vd_use_cell(it, p);
        vd_compare(x, "fault", p, b, CMP_Z_X1000, true, main);
        fault_main(it, b, p, main);
    }
    vd_extra_add(it, "clear_pages_gain", "x", (g.ratio_x1e6 + 500) / 1000, (g.lo_x1e6 + 500) / 1000,
                 (g.hi_x1e6 + 500) / 1000, 9500, (int)g.outcome);
    published(x, it, b);
    if (p && up) {
        vd_use_cell(it, p);
        left_part(x, it, "left_after_clear_pages", b, p);
    }
}

/* The fault path of run=fault's cell s (its fault_clear= model: "extent"
 * is hugezero's own one-call clear, arg `path` hugezero_extent; a Linux
 * model, `linux`) and, for hugezero's own, the Linux-faithful figure when
 * run=faultclear measured one on the same page: today's kernel, linux_4k
 * (extra `linux_4k_fault`, ms, its median's 95 % interval). */
static void fault_path(const struct vd_ctx *x, struct vd_item *it, const struct vd_cell *s)
{
    if (!s->model)
        return;
    bool own = strcmp(s->model, "extent") == 0, usable;
    vd_arg_str(it, "path", own ? "hugezero_extent" : "linux");
    const struct vd_cell *l = own ? fc_cell(x, s->bytes, "linux_4k", false, &usable) : 0;
    if (!l || !usable)
        return;
    vd_use_cell(it, l);
    vd_extra_add(it, "linux_4k_fault", "ms", l->st.median / 1000, l->st.ci_lo / 1000,
                 l->st.ci_hi / 1000, l->st.ci_cover_x100, -1);
}

static void decide_fault(struct vd_ctx *x, struct vd_item *it)
{
    const struct vd_cell *bad = 0, *s = fault_cell(x, false, &bad), *p = fault_cell(x, true, &bad);
    struct cmp cm = {.outcome = CMP_TOO_FEW};
    if (s && p) {
        vd_use_cell(it, s);
        vd_use_cell(it, p);
        vd_compare(x, "fault", p, s, CMP_Z_X1000, true, &cm);
        fault_main(it, s, p, &cm);
        left_part(x, it, "left_for_prezero", s, p);
    } else if (bad && vd_ran(x, "fault"))
        vd_left_out(it, bad, 0);
    faultclear_part(x, it, s && p ? 0 : &cm);
    if (s && p)
        fault_path(x, it, s);
    if (it->outcome >= 0) /* a main comparison after all: no cell is missing */
        it->reason = VD_R_NONE;
    else if (it->reason == VD_R_NONE) { /* a fault without its pre-zeroed counterpart */
        it->reason = VD_R_NO_CELL;
        vd_arg_str(it, "need", "pre-zeroed cell");
    }
    if (it->outcome >= 0 && !it->decided)
        vd_open(it, it->n_min, it->n_max);
}

HZ_VERDICT_ITEM(item_fault, .key = "fault", .label = "fault", .form = "fault",
                .runs = "fault,faultclear", .tcg = false, .decide = decide_fault, .order = 40);
