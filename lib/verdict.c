/*
 * lib/verdict.c - the verdict's cells, comparisons and trust item, and the
 * entry points (lib/verdict.h, docs/results.md `verdict`). The items live in
 * lib/verdict_clear.c and lib/verdict_items.c. Integer arithmetic only.
 */
#include "lib/verdict.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_priv.h"

#include <stdarg.h>

static const char *const item_names[VD_NITEMS] = {"clear_1g", "clear_2m", "nontemporal", "fault",
                                                  "idle",     "vmstart",  "numa",        "trust"};
static const char *const item_labels[VD_NITEMS] = {"1 GiB page", "2 MiB page",  "non-temporal",
                                                   "fault",      "idle zeroer", "VM start",
                                                   "NUMA",       "trust"};
/* The scenarios that measure each item, comma-separated, the main one first
 * (vd_item.measured_by; "" for trust, which every run has). */
static const char *const item_runs[VD_NITEMS] = {
    "clear", "clear", "clear", "fault,faultclear", "interference,clear", "vmstart", "numa", ""};
/* The scenario of each cell kind, by kind: tests/unit/test_verdict_source.c
 * checks every kind below VD_NKINDS has one, the assert a kind added last. */
static const char *const kind_runs[] = {
    [VD_CLEAR] = "clear",           [VD_SMP] = "smp",
    [VD_FAULT] = "fault",           [VD_VM] = "vmstart",
    [VD_FAULTCLEAR] = "faultclear", [VD_NUMA] = "numa",
    [VD_INTERF] = "interference",
};
_Static_assert(sizeof(kind_runs) / sizeof(kind_runs[0]) == VD_NKINDS,
               "kind_runs[]: a vd_kind without its scenario name");

/* Every comparison's scratch: one at a time (not reentrant, lib/verdict.h). */
static uint64_t scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];

const char *vd_kind_run(enum vd_kind k)
{
    return (unsigned)k < VD_NKINDS && kind_runs[k] ? kind_runs[k] : "?";
}

void vd_cell_id(const struct vd_cell *c, char *buf, size_t cap)
{
    char a[16], b[16];
    fmt_size(b, sizeof(b), c->bytes);
    if (c->kind == VD_FAULTCLEAR) {
        hz_snprintf(buf, cap, "faultclear/%s/%s/%s%s", c->model ? c->model : "?",
                    c->strategy ? c->strategy : "?", b, c->prezeroed ? "/prezeroed" : "");
        return;
    }
    if (c->kind == VD_FAULT) {
        hz_snprintf(buf, cap, "fault/%s/%s", c->prezeroed ? "prezeroed" : "sync", b);
        return;
    }
    if (c->kind == VD_INTERF) {
        hz_snprintf(buf, cap, "interference/%s/%u%%/%s", c->strategy, c->rate_pct, c->victim);
        return;
    }
    if (c->kind == VD_NUMA) {
        fmt_size(a, sizeof(a), c->chunk);
        hz_snprintf(buf, cap, "numa/%s/%s/%uT/n%u-n%u/%s", c->strategy, a, c->threads, c->cpu_node,
                    c->mem_node, b);
        return;
    }
    if (c->kind == VD_SMP || c->kind == VD_VM) {
        hz_snprintf(buf, cap, "%s/%s/%uT/%s", c->kind == VD_SMP ? "smp" : "vmstart", c->strategy,
                    c->threads, b);
        return;
    }
    fmt_size(a, sizeof(a), c->chunk);
    hz_snprintf(buf, cap, "clear/%s/%s/%s/%s", c->strategy, a, c->cold ? "cold" : "warm", b);
}

void vd_cell_short(const struct vd_cell *c, char *buf, size_t cap)
{
    char id[VD_ID_MAX], ch[16];
    if (c->kind == VD_CLEAR) {
        hz_snprintf(buf, cap, "%s/%s %s", c->strategy, fmt_size(ch, sizeof(ch), c->chunk),
                    c->cold ? "cold" : "warm");
        return;
    }
    vd_cell_id(c, id, sizeof(id));
    const char *rest = strchr(id, '/');
    size_t n = hz_snprintf(buf, cap, "%s", rest ? rest + 1 : id);
    if (c->kind == VD_FAULTCLEAR && c->prezeroed && n > 10 && n < cap) /* "/prezeroed" */
        buf[n - 10] = ' ';
}

bool vd_cell_usable(const struct vd_cell *c, char *why, size_t cap)
{
    char id[VD_ID_MAX];
    vd_cell_id(c, id, sizeof(id));
    if (!c->verified)
        hz_snprintf(why, cap, "%s not verified", id);
    else if (!c->samples || c->nsamples < CMP_MIN_N)
        hz_snprintf(why, cap, "%s has %zu samples (too few, < %u)", id,
                    c->samples ? c->nsamples : 0, CMP_MIN_N);
    else
        return true;
    return false;
}

void vd_compare(struct vd_ctx *x, enum vd_item_id item, const struct vd_cell *a,
                const struct vd_cell *b, unsigned z_x1000, bool decides, struct cmp *c)
{
    cmp_compare(a->samples, a->nsamples, a->bytes, b->samples, b->nsamples, b->bytes, z_x1000,
                x->tol, scratch, c);
    if (x->log && x->log->n < VD_MAX_CMPS)
        x->log->v[x->log->n++] = (struct vd_cmp){
            .item = item, .a = (size_t)(a - x->v), .b = (size_t)(b - x->v), .c = *c};
    else if (x->log)
        x->log->lost++;
    if (decides && c->outcome == CMP_UNDECIDED) {
        x->nopen++;
        if (x->open)
            x->open[a - x->v] = x->open[b - x->v] = true;
    }
}

uint64_t vd_gbps(const struct vd_cell *c) { return stats_gbps_x1000(c->bytes, c->st.median); }
uint64_t vd_gbps_lo(const struct vd_cell *c) { return stats_gbps_x1000(c->bytes, c->st.ci_hi); }
uint64_t vd_gbps_hi(const struct vd_cell *c) { return stats_gbps_x1000(c->bytes, c->st.ci_lo); }

uint64_t vd_speedup_x1000(uint64_t r) { return r ? stats_scale(1000000000ull, 1, r) : UINT64_MAX; }

const char *vd_dec(char *b, size_t n, uint64_t x1000, unsigned digits)
{
    uint64_t div = digits >= 3 ? 1 : digits == 2 ? 10 : digits == 1 ? 100 : 1000;
    fmt_fixed(b, n, x1000 / div + (x1000 % div >= (div + 1) / 2 && div > 1),
              digits > 3 ? 3 : digits);
    return b;
}

const char *vd_tol(char *b, size_t n, unsigned tol_x100)
{
    if (tol_x100 % 100)
        fmt_fixed(b, n, tol_x100, 2);
    else
        hz_snprintf(b, n, "%u", tol_x100 / 100);
    return b;
}

size_t vd_cat(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
    if (len + 1 >= cap)
        return len;
    va_list ap;
    va_start(ap, fmt);
    int w = hz_vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    len += w > 0 ? (size_t)w : 0;
    return len < cap ? len : cap - 1;
}

size_t vd_headline(const struct vd_cell *c, char *buf, size_t cap)
{
    char m[16], lo[16], hi[16], pk[16], a[16], b[16];
    const struct stats *s = &c->st;
    size_t len;
    if (c->kind == VD_FAULT || c->kind == VD_FAULTCLEAR) /* ns -> ms x 1000 */
        len = vd_cat(buf, cap, 0, "%s ms [%s..%s], best %s", vd_dec(m, 16, s->median / 1000, 2),
                     vd_dec(lo, 16, s->ci_lo / 1000, 2), vd_dec(hi, 16, s->ci_hi / 1000, 2),
                     vd_dec(pk, 16, s->min / 1000, 2));
    else
        len = vd_cat(buf, cap, 0, "%s GB/s [%s..%s], peak %s", vd_dec(m, 16, vd_gbps(c), 1),
                     vd_dec(lo, 16, vd_gbps_lo(c), 1), vd_dec(hi, 16, vd_gbps_hi(c), 1),
                     vd_dec(pk, 16, stats_gbps_x1000(c->bytes, s->min), 1));
    unsigned slow = s->out_hi_mild + s->out_hi_severe;
    if (slow && s->median) {
        vd_dec(a, 16, stats_ratio_x1000(s->out_hi_min, s->median), 2);
        vd_dec(b, 16, stats_ratio_x1000(s->out_hi_max, s->median), 2);
        len = vd_cat(buf, cap, len, ", %u/%zu slow outlier%s%s %s%s%sx the median", slow, s->n,
                     slow > 1 ? "s" : "", s->out_hi_severe ? " (severe)" : "", a,
                     strcmp(a, b) ? "-" : "", strcmp(a, b) ? b : "");
    }
    if (stats_outliers_many(s))
        len = vd_cat(buf, cap, len, " (> 1/4 outliers)");
    return len;
}

void vd_use_cell(struct vd_item *it, const struct vd_cell *c)
{
    char id[VD_ID_MAX];
    if (!c || it->ncells >= VD_ITEM_CELLS)
        return;
    vd_cell_id(c, id, sizeof(id));
    for (unsigned i = 0; i < it->ncells; i++)
        if (strcmp(it->cells[i], id) == 0)
            return; /* named once */
    it->cell_run[it->ncells] = vd_kind_run(c->kind);
    vd_cell_short(c, it->cell_short[it->ncells], VD_ID_MAX);
    vd_cell_id(c, it->cells[it->ncells++], VD_ID_MAX);
}

/* True when `name` is one of the comma-separated names of list. */
static bool in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p = e ? e + 1 : 0;
    }
    return false;
}

bool vd_ran(const struct vd_ctx *x, const char *name)
{
    if (x->f->ran)
        return in_list(x->f->ran, name);
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(vd_kind_run(x->v[i].kind), name) == 0)
            return true;
    return false;
}

struct vd_extra *vd_extra_add(struct vd_item *it, const char *name, const char *unit,
                              uint64_t x1000, uint64_t lo_x1000, uint64_t hi_x1000,
                              unsigned cover_x100, int outcome)
{
    if (it->nextra >= VD_EXTRAS)
        return 0;
    struct vd_extra *e = &it->extra[it->nextra++];
    *e = (struct vd_extra){name, unit, x1000, lo_x1000, hi_x1000, cover_x100, outcome};
    return e;
}

/* it->source from the cells it named, grouped by scenario in first-use
 * order, and " (SOURCE)" after its text and reason. */
static void finish_source(struct vd_item *it)
{
    size_t len = 0;
    bool done[VD_ITEM_CELLS] = {false};
    for (unsigned i = 0; i < it->ncells; i++) {
        if (done[i])
            continue;
        len = vd_cat(it->source, sizeof(it->source), len, "%srun=%s: %s", len ? "; " : "",
                     it->cell_run[i], it->cell_short[i]);
        for (unsigned j = i + 1; j < it->ncells; j++)
            if (!done[j] && strcmp(it->cell_run[j], it->cell_run[i]) == 0) {
                done[j] = true;
                len = vd_cat(it->source, sizeof(it->source), len, ", %s", it->cell_short[j]);
            }
    }
    if (!len)
        return;
    if (it->text[0])
        vd_cat(it->text, sizeof(it->text), strlen(it->text), " (%s)", it->source);
    if (it->reason[0])
        vd_cat(it->reason, sizeof(it->reason), strlen(it->reason), " (%s)", it->source);
}

/* "not measured: run=fault or run=faultclear measures it" */
static void not_measured(struct vd_item *it, const char *runs)
{
    size_t len = vd_cat(it->reason, sizeof(it->reason), 0, "not measured: ");
    for (const char *p = runs; p && *p;) {
        const char *e = strchr(p, ',');
        int n = e ? (int)(e - p) : (int)strlen(p);
        len = vd_cat(it->reason, sizeof(it->reason), len, "%srun=%.*s", p == runs ? "" : " or ", n,
                     p);
        p = e ? e + 1 : 0;
    }
    vd_cat(it->reason, sizeof(it->reason), len, " measures it");
}

void vd_undecided(struct vd_item *it, const struct vd_ctx *x, uint64_t lo, uint64_t hi, bool speed,
                  size_t nmin, size_t nmax)
{
    char a[16], b[16], t[16];
    uint64_t l = speed ? vd_speedup_x1000(hi) : lo / 1000,
             h = speed ? vd_speedup_x1000(lo) : hi / 1000;
    size_t len = vd_cat(it->reason, sizeof(it->reason), 0, "not decided: %s", it->text);
    len = vd_cat(it->reason, sizeof(it->reason), len,
                 " (interval [%s..%s] straddles +-%s%% at n = %zu", vd_dec(a, 16, l, 2),
                 vd_dec(b, 16, h, 2), vd_tol(t, 16, x->tol), nmin);
    if (nmax != nmin)
        len = vd_cat(it->reason, sizeof(it->reason), len, "..%zu", nmax);
    vd_cat(it->reason, sizeof(it->reason), len, ")");
}

uint64_t vd_clear_target(const struct vd_cell *v, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].kind == VD_CLEAR && v[i].cold && v[i].bytes > t)
            t = v[i].bytes;
    return t;
}

/* ---- trust --------------------------------------------------------------- */

static void decide_trust(struct vd_item *it, struct vd_trust *t, const struct vd_cell *v, size_t n,
                         const struct vd_facts *f)
{
    char why[8], cv[16], steal[16], ws[16], tol[16];
    uint64_t cvs[VD_WORST] = {0}; /* parallel to t->worst, highest first */
    *t = (struct vd_trust){.cells = (unsigned)n};
    for (size_t i = 0; i < n; i++) {
        uint64_t c = v[i].st.cv_x100;
        unsigned k = t->nworst;
        t->left_out += !vd_cell_usable(&v[i], why, sizeof(why));
        t->noisy_cells += stats_noisy(&v[i].st);
        if (stats_outliers_many(&v[i].st) && !t->outlier_cells++)
            vd_cell_id(&v[i], t->outlier_cell, VD_ID_MAX);
        if (v[i].steal_x100 > t->worst_steal_x100) {
            t->worst_steal_x100 = v[i].steal_x100;
            vd_cell_id(&v[i], t->worst_steal_cell, VD_ID_MAX);
        }
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
    it->measured = true;
    fmt_fixed(cv, sizeof(cv), t->worst_cv_x100, 2);
    fmt_fixed(steal, sizeof(steal), f->steal_x100, 2);
    fmt_fixed(ws, sizeof(ws), t->worst_steal_x100, 2);
    vd_tol(tol, sizeof(tol), f->tol_x100 ? f->tol_x100 : CMP_TOL_X100);
    size_t len = vd_cat(
        it->text, sizeof(it->text), 0,
        "%s, TSC %s %s, guest RAM %s, CPL %d, ring 0 %s, steal %s%s (worst cell %s%%%s%s), "
        "tolerance +-%s%%; ",
        f->tcg                              ? "TCG (emulator timings: no speed verdict)"
        : f->hypervisor && f->hypervisor[0] ? f->hypervisor
                                            : "bare metal",
        f->tsc_source ? f->tsc_source : "?", f->tsc_invariant ? "invariant" : "NOT invariant",
        f->backing ? f->backing : "unknown", f->cpl, f->emulated_ring0 ? "emulated" : "native",
        f->steal_known ? steal : "unknown", f->steal_known ? "%" : "", ws,
        t->worst_steal_cell[0] ? " " : "", t->worst_steal_cell, tol);
    if (!n) { /* no CV to speak of: no "worst CV 0.00% (no cells)" */
        vd_cat(it->text, sizeof(it->text), len, "no cells: no scenario of this run measured any");
        return;
    }
    len = vd_cat(it->text, sizeof(it->text), len,
                 "%u of %u cells left out (unverified or too few samples); information only: "
                 "worst CV %s%% (%s), %u cells noisy",
                 t->left_out, t->cells, cv, t->worst[0], t->noisy_cells);
    if (t->outlier_cells)
        vd_cat(it->text, sizeof(it->text), len,
               "; warning: %u cells with more than 1/4 outliers (%s)", t->outlier_cells,
               t->outlier_cell);
}

/* ---- entry points -------------------------------------------------------- */

static bool any_kind(const struct vd_cell *v, size_t n, enum vd_kind k)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].kind == k)
            return true;
    return false;
}

static void decide_all(struct vd_ctx *x, struct vd_item out[VD_NITEMS], struct vd_trust *t)
{
    const struct vd_cell *b1g = 0, *b2m = 0;
    const struct vd_facts *f = x->f;
    for (unsigned i = 0; i < VD_NITEMS; i++) {
        out[i] = (struct vd_item){.item = item_names[i],
                                  .label = item_labels[i],
                                  .outcome = -1,
                                  .measured_by = item_runs[i]};
        for (const char *p = item_runs[i]; p && *p;) { /* any of its scenarios ran? */
            const char *e = strchr(p, ',');
            char one[24];
            hz_snprintf(one, sizeof(one), "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
            out[i].measured |= vd_ran(x, one);
            p = e ? e + 1 : 0;
        }
    }
    decide_trust(&out[VD_TRUST], t, x->v, x->n, f);
    if (any_kind(x->v, x->n, VD_NUMA)) /* one node is said even under TCG */
        vd_decide_numa(x, &out[VD_NUMA_ITEM]);
    for (unsigned i = 0; i < VD_TRUST; i++)
        if (!out[i].measured)
            not_measured(&out[i], item_runs[i]);
    if (f->tcg) {
        for (unsigned i = 0; i < VD_TRUST; i++)
            if (out[i].measured)
                hz_snprintf(out[i].reason, sizeof(out[i].reason), "TCG: no timing");
        return;
    }
    if (vd_clear_target(x->v, x->n) && out[VD_CLEAR_1G].measured) {
        vd_decide_clear(x, &out[VD_CLEAR_1G], 1ull << 30, &b1g);
        vd_decide_clear(x, &out[VD_CLEAR_2M], 2ull << 20, &b2m);
        /* only a winner fixes the call size: among leaders that are not
         * separated the first is a coin toss, and so would the size be */
        bool won = out[VD_CLEAR_1G].set && strcmp(out[VD_CLEAR_1G].set, "winner") == 0;
        vd_decide_nontemporal(x, &out[VD_NONTEMPORAL], won ? b1g : 0);
    }
    if (out[VD_IDLE].measured)
        vd_decide_idle(x, &out[VD_IDLE], &out[VD_CLEAR_1G], b1g);
    if (out[VD_FAULT_ITEM].measured)
        vd_decide_fault(x, &out[VD_FAULT_ITEM]);
    if (out[VD_VMSTART].measured && (any_kind(x->v, x->n, VD_SMP) || any_kind(x->v, x->n, VD_VM)))
        vd_decide_vmstart(x, &out[VD_VMSTART]);
    for (unsigned i = 0; i < VD_TRUST; i++) { /* a part missing (no baseline, no pre-zeroed) */
        if (!out[i].decided && !out[i].reason[0])
            hz_snprintf(out[i].reason, sizeof(out[i].reason),
                        "not decided: no usable cell for it in this run (run=%s)",
                        f->run ? f->run : "?");
        finish_source(&out[i]);
    }
}

static unsigned tolerance(const struct vd_facts *f)
{
    return f->tol_x100 ? f->tol_x100 : CMP_TOL_X100;
}

void verdict_decide(const struct vd_cell *v, size_t n, const struct vd_facts *f,
                    struct vd_item out[VD_NITEMS], struct vd_trust *t, struct vd_log *log)
{
    struct vd_ctx x = {.v = v, .n = n, .f = f, .tol = tolerance(f), .log = log};
    if (log)
        log->n = log->lost = 0;
    decide_all(&x, out, t);
}

unsigned verdict_open(const struct vd_cell *v, size_t n, const struct vd_facts *f, bool *open)
{
    static struct vd_item items[VD_NITEMS];
    struct vd_trust t;
    struct vd_ctx x = {.v = v, .n = n, .f = f, .tol = tolerance(f), .open = open};
    for (size_t i = 0; i < n; i++)
        open[i] = false;
    decide_all(&x, items, &t);
    return x.nopen;
}
