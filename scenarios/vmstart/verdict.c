/*
 * scenarios/vmstart/verdict.c - the verdict's VM start item (lib/verdict.h, issue 24
 * Q2): decided from run=vmstart's qemu rows, QEMU's way of starting a VM
 * (T threads touch every page; each touch faults and the kernel clears the
 * frame, fault_clear=linux_4k for today's kernels), and the model
 * 2 TB / min(16 x r1, B) of lib/vmmodel.h with its ceiling B: measured when
 * the curve reached a plateau (the largest T against the one below it,
 * lib/compare.h at the tolerance); only then is it decided. Else B is the
 * bw_ceiling= option, a figure the user gave: the time is "model (B
 * given)", never decided (B_GIVEN). Else B is unknown: the item gives the
 * lower bound S / (16 x r1) (linear scaling), and says what is open: on
 * fewer CPUs than QEMU's 16 threads, what a larger host would settle
 * (FEW_CPUS, args cpus and want), else the ceiling (CEILING_OPEN). When the
 * plateau comparison shows the top thread paid less than linearly
 * (lib/vmmodel.h vm_scaling() sub-linear), Amdahl's law fitted to the
 * curve gives a second figure beside the lower bound (extras `amdahl`,
 * `amdahl_serial`); arg `scaling` says which case it was. Under TCG the
 * item keeps its figures, decides nothing and names the timings (arg
 * `timings` TCG; a plateau gives reason TCG): a model of emulator timings.
 */
#include "lib/kstring.h"
#include "lib/stats.h"
#include "lib/verdict_priv.h"
#include "lib/verdict_text.h"
#include "lib/vmmodel.h"

#define VM_FIT_MAX 64          /* thread counts the Amdahl fit reads */
#define VM_FIT_COVER_X100 9818 /* the plateau comparison's z, 2.361: its nominal coverage */

/* The usable qemu cell (run=vmstart's, with a fault_clear= model) of `model` with
 * `threads` threads; NULL when there is none. */
static const struct vd_cell *qemu_cell(const struct vd_ctx *x, const char *model, unsigned threads)
{
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (vd_cell_of(c, "vmstart") && c->model && strncmp(c->model, model, strlen(model)) == 0 &&
            c->threads == threads && vd_cell_usable(c))
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
 * largest T both have, as an extra figure (information, 95 %). */
static void batch_gain(struct vd_ctx *x, struct vd_item *it, unsigned top)
{
    const struct vd_cell *a = qemu_cell(x, "linux_4k", top), *b = qemu_cell(x, "linux_batch", top);
    if (!a || !b)
        return;
    struct cmp c;
    vd_compare(x, "vmstart", a, b, CMP_Z95_X1000, false, &c);
    vd_use_cell(it, b);
    vd_extra_add(it, "clear_pages_gain", "x", vd_speedup_x1000(c.ratio_x1e6),
                 vd_speedup_x1000(c.hi_x1e6), vd_speedup_x1000(c.lo_x1e6), 9500, (int)c.outcome);
}

/* Amdahl's law fitted to the qemu_4k curve T = 1..top (lib/vmmodel.h
 * vm_amdahl_fit(), medians) as extras: `amdahl`, the 16-thread time it
 * gives (s; its interval from the plateau comparison's, the top point's
 * speed-up over T - 1 at either end of it, r1 at its median), and
 * `amdahl_serial`, the fitted serial fraction (%); a given B (lin's)
 * caps it as it caps the linear model. Nothing when the fit has no point. */
static void amdahl(struct vd_item *it, const struct vd_ctx *x, unsigned top, const struct cmp *pl,
                   const struct vm_model *lin)
{
    uint64_t g[VM_FIT_MAX];
    unsigned n = top < VM_FIT_MAX ? top : VM_FIT_MAX;
    for (unsigned t = 1; t <= n; t++) {
        const struct vd_cell *c = qemu_cell(x, "linux_4k", t);
        g[t - 1] = c ? vd_gbps(c) : 0;
    }
    int64_t s = vm_amdahl_fit(g, n), ends[2];
    if (s < 0 || n != top || !g[top - 2])
        return;
    const uint64_t r1 = g[0], up[2] = {pl->hi_x1e6, pl->lo_x1e6}; /* slowest, fastest top */
    for (int e = 0; e < 2; e++) {
        g[top - 1] = stats_scale(g[top - 2], 1000000, up[e]);
        int64_t se = vm_amdahl_fit(g, n);
        ends[e] = se < 0 ? s : se;
    }
    uint64_t ns[3];
    const int64_t fit[3] = {s, ends[0], ends[1]};
    for (int i = 0; i < 3; i++) {
        struct vm_model m = {.bytes = VM_CLAIM_BYTES,
                             .threads = 1,
                             .r1_x1000 = vm_amdahl_rate(r1, (uint64_t)fit[i], VM_QEMU_THREADS),
                             .b_x1000 = lin->b_x1000,
                             .src = lin->src};
        vm_model_eval(&m);
        ns[i] = m.ns / 1000000;
    }
    vd_extra_add(it, "amdahl", "s", ns[0], ns[2], ns[1], VM_FIT_COVER_X100, -1);
    vd_extra_add(it, "amdahl_serial", "%", (uint64_t)s / 10, (uint64_t)ends[1] / 10,
                 (uint64_t)ends[0] / 10, VM_FIT_COVER_X100, -1);
}

static void decide_vmstart(struct vd_ctx *x, struct vd_item *it)
{
    bool any = false;
    for (size_t i = 0; i < x->n; i++)
        any |= vd_cell_of(&x->v[i], "smp") || vd_cell_of(&x->v[i], "vmstart");
    if (!any)
        return; /* no cell of its scenario: NO_CELL */
    unsigned top = top_threads(x, "linux_4k");
    const struct vd_cell *one = qemu_cell(x, "linux_4k", 1);
    if (!one) {
        it->reason = VD_R_NO_CELL;
        vd_arg_str(it, "need", "qemu_4k cell at T=1");
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
    enum vm_scale sc = VM_SCALE_OPEN;
    if (top > 1 && below) {
        vd_use_cell(it, below);
        vd_use_cell(it, high);
        /* under TCG nothing is decided: the comparison races nothing */
        vd_compare(x, "vmstart", below, high, CMP_Z_X1000, !x->f->tcg, &pl);
        vd_main_cmp(it, &pl);
        it->ratio_x1000 = it->rmin_x1000 = it->rmax_x1000 = vd_speedup_x1000(pl.ratio_x1e6);
        it->rlo_x1000 = vd_speedup_x1000(pl.hi_x1e6);
        it->rhi_x1000 = vd_speedup_x1000(pl.lo_x1e6);
        vd_name_num("T=", top - 1, it->baseline, sizeof(it->baseline));
        vd_arg_u64(it, "top", top, false);
        vd_arg_u64(it, "below", top - 1, false);
        sc = vm_scaling(&pl, top);
    }
    vd_arg_str(it, "scaling", vm_scale_key(sc));
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
    it->model = true;
    it->unit = "s";
    it->fig_x1000 = m.ns / 1000000;
    it->lo_x1000 = lo.ns / 1000000;
    it->hi_x1000 = hi.ns / 1000000;
    vd_arg_u64(it, "threads", VM_QEMU_THREADS, false);
    batch_gain(x, it, top_threads(x, "linux_batch"));
    if (sc == VM_SCALE_SUBLINEAR)
        amdahl(it, x, top, &pl, &m);
    if (m.src != VM_B_UNKNOWN) {
        vd_arg_str(it, "b_source", vm_bsrc_key(m.src));
        vd_extra_add(it, "ceiling", "GB/s", m.b_x1000, m.b_x1000, m.b_x1000, 0, -1);
    }
    if (m.src == VM_B_MEASURED && !x->f->tcg) {
        it->decided = true;
        return;
    }
    if (x->f->tcg) /* said on the figure's own line: a model of emulator timings */
        vd_arg_str(it, "timings", "TCG");
    if (m.src == VM_B_MEASURED) { /* a plateau of emulator timings: the model, undecided */
        it->reason = VD_R_TCG;
        return;
    }
    /* open: B is the user's (never decides) or unknown (a lower bound) */
    it->outcome = -1;
    vd_arg_u64(it, "cpus", top, false);
    vd_arg_u64(it, "want", VM_QEMU_THREADS, false);
    it->reason = m.src == VM_B_OPTION    ? VD_R_B_GIVEN
                 : top < VM_QEMU_THREADS ? VD_R_FEW_CPUS
                                         : VD_R_CEILING_OPEN;
}

HZ_VERDICT_ITEM(item_vmstart, .key = "vmstart", .label = "VM start", .form = "vmstart",
                .runs = "vmstart", .tcg = true, .decide = decide_vmstart, .order = 60,
                .model = true);
