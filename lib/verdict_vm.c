/*
 * lib/verdict_vm.c - the verdict's VM start item (lib/verdict.h, issue 24
 * Q2): decided from run=vmstart's qemu rows, QEMU's way of starting a VM
 * (T threads touch every page; each touch faults and the kernel clears the
 * frame, fault_clear=linux_4k for today's kernels), and the model
 * 2 TB / min(16 x r1, B) of lib/vmmodel.h with its ceiling B: measured when
 * the curve reached a plateau (the largest T against the one below it,
 * lib/compare.h at the tolerance), else the bw_ceiling= option, else
 * unknown, and then the item is not decided: it gives the lower bound and
 * says that the ceiling is what is open.
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_priv.h"
#include "lib/vmmodel.h"

/* The usable qemu cell (VD_VM with a fault_clear= model) of `model` with
 * `threads` threads; NULL when there is none. */
static const struct vd_cell *qemu_cell(const struct vd_ctx *x, const char *model, unsigned threads)
{
    char why[8];
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (c->kind == VD_VM && c->model && strncmp(c->model, model, strlen(model)) == 0 &&
            c->threads == threads && vd_cell_usable(c, why, sizeof(why)))
            return c;
    }
    return 0;
}

/* The largest T with a usable qemu cell of `model` (0: none). */
static unsigned top_threads(const struct vd_ctx *x, const char *model)
{
    unsigned top = 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].threads > top && qemu_cell(x, model, x->v[i].threads))
            top = x->v[i].threads;
    return top;
}

/* The clear_pages() gain on VM start: linux_batch against linux_4k at the
 * largest T both have, as an extra figure (information, 95 %), and its
 * words for the text into g ("" without both cells). */
static void batch_gain(struct vd_ctx *x, struct vd_item *it, unsigned top, char *g, size_t cap)
{
    const struct vd_cell *a = qemu_cell(x, "linux_4k", top), *b = qemu_cell(x, "linux_batch", top);
    char r[16], lo[16], hi[16], o[32];
    g[0] = 0;
    if (!a || !b)
        return;
    struct cmp c;
    vd_compare(x, VD_VMSTART, a, b, CMP_Z95_X1000, false, &c);
    vd_use_cell(it, b);
    struct vd_extra *e = vd_extra_add(it, "clear_pages_gain", "x", vd_speedup_x1000(c.ratio_x1e6),
                                      vd_speedup_x1000(c.hi_x1e6), vd_speedup_x1000(c.lo_x1e6),
                                      9500, (int)c.outcome);
    if (e)
        hz_snprintf(g, cap,
                    "; with clear_pages() (fault_clear=linux_batch=32M) at T=%u the start is %sx "
                    "[%s..%s] as fast (95 %% Moses interval), %s",
                    top, vd_dec(r, 16, e->x1000, 2), vd_dec(lo, 16, e->lo_x1000, 2),
                    vd_dec(hi, 16, e->hi_x1000, 2),
                    vd_outcome_words(x, (int)c.outcome, o, sizeof(o)));
}

/* "T=2 vs T=1: tie within +-5%" (or "faster 1.80x [1.70..1.90]") into b. */
static const char *plateau_text(char *b, size_t n, const struct vd_ctx *x, unsigned top,
                                const struct cmp *c)
{
    char r[16], lo[16], hi[16], t[16];
    if (c->outcome == CMP_TIE)
        hz_snprintf(b, n, "T=%u vs T=%u: tie within +-%s%%", top, top - 1, vd_tol(t, 16, x->tol));
    else
        hz_snprintf(b, n, "T=%u vs T=%u: %s, %sx [%s..%s]", top, top - 1,
                    cmp_outcome_name(c->outcome), vd_dec(r, 16, vd_speedup_x1000(c->ratio_x1e6), 2),
                    vd_dec(lo, 16, vd_speedup_x1000(c->hi_x1e6), 2),
                    vd_dec(hi, 16, vd_speedup_x1000(c->lo_x1e6), 2));
    return b;
}

void vd_decide_vmstart(struct vd_ctx *x, struct vd_item *it)
{
    unsigned top = top_threads(x, "linux_4k");
    const struct vd_cell *one = qemu_cell(x, "linux_4k", 1);
    if (!one) {
        hz_snprintf(it->reason, sizeof(it->reason),
                    "not decided: no usable qemu_4k cell at T=1 (run=vmstart's qemu row with "
                    "fault_clear=linux_4k: unverified, too few samples or not run)");
        return;
    }
    const struct vd_cell *below = qemu_cell(x, "linux_4k", top - 1),
                         *high = qemu_cell(x, "linux_4k", top);
    vd_use_cell(it, one);
    uint64_t peak = 0;
    for (unsigned t = 1; t <= top; t++) {
        const struct vd_cell *c = qemu_cell(x, "linux_4k", t);
        peak = c && vd_gbps(c) > peak ? vd_gbps(c) : peak;
    }
    struct cmp pl = {.outcome = CMP_TOO_FEW};
    char pls[96] = "one thread count: no plateau can be measured";
    if (top > 1 && below) {
        vd_use_cell(it, below);
        vd_use_cell(it, high);
        vd_compare(x, VD_VMSTART, below, high, CMP_Z_X1000, true, &pl);
        plateau_text(pls, sizeof(pls), x, top, &pl);
        it->outcome = (int)pl.outcome;
        it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(pl.ratio_x1e6);
        it->rlo_x1000 = vd_speedup_x1000(pl.hi_x1e6);
        it->rhi_x1000 = vd_speedup_x1000(pl.lo_x1e6);
        hz_snprintf(it->baseline, sizeof(it->baseline), "T=%u", top - 1);
    }
    struct vm_model m = {
        .bytes = VM_CLAIM_BYTES, .threads = VM_QEMU_THREADS, .r1_x1000 = vd_gbps(one)};
    m.src =
        vm_ceiling(top > 1 && below ? (int)pl.outcome : -1, peak, one->ceiling_x1000, &m.b_x1000);
    struct vm_model lo = m, hi = m;
    lo.r1_x1000 = vd_gbps_hi(one); /* the fastest rate gives the shortest time */
    hi.r1_x1000 = vd_gbps_lo(one);
    vm_model_eval(&m);
    vm_model_eval(&lo);
    vm_model_eval(&hi);
    char s[16], sl[16], sh[16], r1[16], b[16];
    it->model = true;
    it->unit = "s";
    it->fig_x1000 = m.ns / 1000000;
    it->lo_x1000 = lo.ns / 1000000;
    it->hi_x1000 = hi.ns / 1000000;
    hz_snprintf(it->answer, sizeof(it->answer), "%s%s s", m.lower_bound ? ">= " : "",
                vd_dec(s, 16, it->fig_x1000, 1));
    vd_dec(sl, 16, it->lo_x1000, 1);
    vd_dec(sh, 16, it->hi_x1000, 1);
    vd_dec(r1, 16, m.r1_x1000, 2);
    char gain[192];
    batch_gain(x, it, top_threads(x, "linux_batch"), gain, sizeof(gain));
    if (m.lower_bound) {
        vd_cat(it->text, sizeof(it->text), 0,
               "the ceiling B is open (%s; no bw_ceiling= given): 2 TB with %u threads, "
               "fault_clear=linux_4k, takes at least %s s [%s..%s] = 2 TB / (%u x %s GB/s per "
               "thread, T=1), model; no upper bound without B%s",
               pls, VM_QEMU_THREADS, s, sl, sh, VM_QEMU_THREADS, r1, gain);
        hz_snprintf(it->reason, sizeof(it->reason), "not decided: %s", it->text);
        it->outcome = -1;
        return;
    }
    it->decided = true;
    vd_cat(it->text, sizeof(it->text), 0,
           "model: 2 TB with %u threads (QEMU's cap), fault_clear=linux_4k: %s s [%s..%s] = 2 TB / "
           "min(%u x %s GB/s per thread (T=1), B = %s GB/s, %s%s%s)%s; the seed thread's claim: "
           "over 40 s%s",
           VM_QEMU_THREADS, s, sl, sh, VM_QEMU_THREADS, r1, vd_dec(b, 16, m.b_x1000, 2),
           vm_bsrc_text(m.src), m.src == VM_B_MEASURED ? ": " : "",
           m.src == VM_B_MEASURED ? pls : "", m.capped ? ", the ceiling sets it" : "", gain);
}
