/*
 * lib/verdict.c - the verdict engine: cells, comparisons, the trust item and
 * the entry points, which decide the items the scenarios register
 * (lib/verdict.h HZ_VERDICT_ITEM, in scenarios/NAME/verdict.c) in their
 * order (docs/results.md `verdict`); their text is lib/verdict_text.c's.
 * Integer arithmetic only.
 */
#include "lib/verdict.h"
#include "lib/kstring.h"
#include "lib/record.h"
#include "lib/verdict_priv.h"

/* The items every scenario registered (lib/verdict.h HZ_VERDICT_ITEM). */
extern const struct vd_item_def __start_hz_verdict_items[], __stop_hz_verdict_items[];
static const char *const reason_names[VD_NREASONS] = {
    [VD_R_NONE] = "",
    [VD_R_NOT_IN_RUN] = "NOT_IN_RUN",
    [VD_R_TCG] = "TCG",
    [VD_R_STRADDLES] = "STRADDLES",
    [VD_R_NO_CELL] = "NO_CELL",
    [VD_R_LEFT_OUT] = "LEFT_OUT",
    [VD_R_TARGET_SMALL] = "TARGET_SMALL",
    [VD_R_NO_BASELINE] = "NO_BASELINE",
    [VD_R_NO_PAIR] = "NO_PAIR",
    [VD_R_RATE_MISS] = "RATE_MISS",
    [VD_R_CEILING_OPEN] = "CEILING_OPEN",
    [VD_R_B_GIVEN] = "B_GIVEN",
    [VD_R_FEW_CPUS] = "FEW_CPUS",
    [VD_R_NO_REMOTE] = "NO_REMOTE",
    [VD_R_CONTENTION] = "CONTENTION",
    [VD_R_NO_LLC] = "NO_LLC",
    [VD_R_TEMPLATES] = "TEMPLATES",
};
/* Every comparison's scratch: one at a time (not reentrant, lib/verdict.h). */
static uint64_t scratch[CMP_MAX_N * CMP_MAX_N + 2 * CMP_MAX_N];

const char *vd_reason_name(enum vd_reason r)
{
    return (unsigned)r < VD_NREASONS && reason_names[r] ? reason_names[r] : "?";
}

bool vd_cell_usable(const struct vd_cell *c)
{
    return c->verified && c->samples && c->nsamples >= CMP_MIN_N;
}

unsigned vd_cell_cpus(const struct vd_cell *c) { return c->kind->clears ? c->threads : 0; }

size_t vd_cell_bad_samples(const struct vd_cell *c)
{
    size_t bad = 0;
    for (size_t i = 0; c->samples && i < c->nsamples; i++)
        bad += cmp_bad_sample(c->samples[i], c->bytes, vd_cell_cpus(c));
    return bad;
}

void vd_compare(struct vd_ctx *x, const char *item, const struct vd_cell *a,
                const struct vd_cell *b, unsigned z_x1000, bool decides, struct cmp *c)
{
    struct cmp_side sa = {a->samples, a->nsamples, a->bytes, vd_cell_cpus(a)};
    struct cmp_side sb = {b->samples, b->nsamples, b->bytes, vd_cell_cpus(b)};
    /* one run: the same factor array (sample i is round i + 1 of both, for
     * the rounds both ran); two runs: two arrays, or two scenarios */
    size_t nf = a->factor_x1e6 != b->factor_x1e6 ? 0
                : a->nfactors < b->nfactors      ? a->nfactors
                                                 : b->nfactors;
    enum cmp_why why = nf ? CMP_WHY_SAME_RUN
                       : a->kind != b->kind || (a->factor_x1e6 && b->factor_x1e6)
                           ? CMP_WHY_APART
                           : CMP_WHY_NO_FACTORS;
    cmp_compare_sides(&sa, &sb, nf ? a->factor_x1e6 : 0, nf, why, z_x1000, x->tol, scratch, c);
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

void vd_use_cell(struct vd_item *it, const struct vd_cell *c)
{
    char id[VD_ID_MAX];
    if (!c || it->ncells >= VD_ITEM_CELLS)
        return;
    vd_cell_id(c, id, sizeof(id));
    for (unsigned i = 0; i < it->ncells; i++)
        if (strcmp(it->cells[i], id) == 0)
            return; /* named once */
    it->cell_run[it->ncells] = c->kind->run;
    vd_cell_short(c, it->cell_short[it->ncells], VD_ID_MAX);
    memcpy(it->cells[it->ncells++], id, VD_ID_MAX);
}

/* True when `name` (n bytes) is one of the comma-separated names of list. */
static bool in_list(const char *list, const char *name, size_t n)
{
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p = e ? e + 1 : 0;
    }
    return false;
}

/* True when scenario name[0..n) ran. */
static bool ran(const struct vd_ctx *x, const char *name, size_t n)
{
    if (x->f->ran)
        return in_list(x->f->ran, name, n);
    for (size_t i = 0; i < x->n; i++) {
        const char *k = x->v[i].kind->run;
        if (strlen(k) == n && strncmp(k, name, n) == 0)
            return true;
    }
    return false;
}

bool vd_ran(const struct vd_ctx *x, const char *name) { return ran(x, name, strlen(name)); }

bool vd_cell_of(const struct vd_cell *c, const char *run) { return strcmp(c->kind->run, run) == 0; }

struct vd_extra *vd_extra_add(struct vd_item *it, const char *name, const char *unit,
                              uint64_t x1000, uint64_t lo_x1000, uint64_t hi_x1000,
                              unsigned cover_x100, int outcome)
{
    if (it->nextra >= VD_EXTRAS)
        return 0;
    struct vd_extra *e = &it->extra[it->nextra++];
    *e = (struct vd_extra){name, unit, x1000, lo_x1000, hi_x1000, cover_x100, outcome, 0};
    return e;
}

static struct vd_arg *arg_add(struct vd_item *it, const char *key)
{
    for (unsigned i = 0; i < it->nargs; i++)
        if (strcmp(it->args[i].key, key) == 0)
            return &it->args[i];
    if (it->nargs >= VD_ARGS)
        return 0;
    it->args[it->nargs] = (struct vd_arg){.key = key};
    return &it->args[it->nargs++];
}

void vd_arg_str(struct vd_item *it, const char *key, const char *s)
{
    struct vd_arg *a = arg_add(it, key);
    if (a)
        *a = (struct vd_arg){.key = key, .s = s ? s : "?"};
}

void vd_arg_u64(struct vd_item *it, const char *key, uint64_t u, bool size)
{
    struct vd_arg *a = arg_add(it, key);
    if (a)
        *a = (struct vd_arg){.key = key, .u = u, .size = size};
}

void vd_set_text(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    n = n < cap ? n : cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

void vd_left_out(struct vd_item *it, const struct vd_cell *c, unsigned more)
{
    it->reason = VD_R_LEFT_OUT;
    vd_cell_id(c, it->arg_cell, sizeof(it->arg_cell));
    vd_arg_str(it, "cell", it->arg_cell);
    vd_arg_str(it, "why", !c->verified ? "not verified" : "too few samples");
    vd_arg_u64(it, "samples", c->samples ? c->nsamples : 0, false);
    if (more)
        vd_arg_u64(it, "more", more, false);
}

void vd_main_cmp(struct vd_item *it, const struct cmp *c)
{
    it->outcome = (int)c->outcome;
    it->n_min = c->na < c->nb ? c->na : c->nb;
    it->n_max = c->na < c->nb ? c->nb : c->na;
}

void vd_open(struct vd_item *it, size_t nmin, size_t nmax)
{
    it->decided = false;
    it->reason = VD_R_STRADDLES;
    it->n_min = nmin;
    it->n_max = nmax;
}

/* ---- trust --------------------------------------------------------------- */

static void decide_trust(struct vd_ctx *x, struct vd_item *it)
{
    struct vd_trust *t = x->t;
    const struct vd_cell *v = x->v;
    uint64_t cvs[VD_WORST] = {0}; /* parallel to t->worst, highest first */
    *t = (struct vd_trust){.cells = (unsigned)x->n};
    for (size_t i = 0; i < x->n; i++) {
        uint64_t c = v[i].st.cv_x100;
        unsigned k = t->nworst;
        t->left_out += !vd_cell_usable(&v[i]);
        t->noisy_cells += stats_noisy(&v[i].st);
        t->bad_samples += (unsigned)vd_cell_bad_samples(&v[i]);
        if (stats_outliers_many(&v[i].st) && !t->outlier_cells++)
            vd_cell_id(&v[i], t->outlier_cell, VD_ID_MAX);
        t->smi += v[i].smi;
        t->smi_cells += v[i].smi > 0;
        t->gap_cells += v[i].gaps > 0;
        if (v[i].gaps && v[i].gap_max_ns > t->gap_max_ns) {
            t->gap_max_ns = v[i].gap_max_ns;
            vd_cell_short(&v[i], t->gap_max_cell, VD_ID_MAX);
        }
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
}

/* The engine's own item: what can be trusted, in every run, last. */
HZ_VERDICT_ITEM(item_trust, .key = "trust", .label = "trust", .form = "trust", .runs = "",
                .tcg = true, .decide = decide_trust, .order = 1000, .facts = true);

/* ---- entry points -------------------------------------------------------- */

/* The registered items into d[] in ascending order (insertion: a handful);
 * returns how many, at most VD_MAX_ITEMS (tests/unit/test_verdict_item.c
 * checks the orders are distinct and the registry fits). */
static size_t registered(const struct vd_item_def *d[VD_MAX_ITEMS])
{
    size_t n = 0;
    for (const struct vd_item_def *r = __start_hz_verdict_items;
         r < __stop_hz_verdict_items && n < VD_MAX_ITEMS; r++) {
        size_t k = n++;
        for (; k > 0 && d[k - 1]->order > r->order; k--)
            d[k] = d[k - 1];
        d[k] = r;
    }
    return n;
}

void vd_templates_rec(struct rec *r, const struct vd_template *t)
{
    rec_obj_begin(r, "templates");
    for (; t && t->key; t++)
        rec_str(r, t->key, t->tpl);
    rec_obj_end(r);
}

/* True when rows t fit VD_TEMPLATES_MAX (lib/verdict.h): written into a
 * record of that size, nothing is dropped. */
static bool templates_fit(const struct vd_template *t)
{
    char buf[VD_TEMPLATES_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "verdict");
    vd_templates_rec(&r, t);
    return !r.overflow;
}

const struct vd_item *vd_item_find(const struct vd_item *items, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(items[i].item, key) == 0)
            return &items[i];
    return 0;
}

const struct vd_item *vd_done_item(const struct vd_ctx *x, const char *key)
{
    return vd_item_find(x->items, x->nitems, key);
}

static size_t decide_all(struct vd_ctx *x, struct vd_item out[VD_MAX_ITEMS])
{
    const struct vd_item_def *defs[VD_MAX_ITEMS];
    size_t n = registered(defs);
    x->items = out;
    x->nitems = 0;
    x->best1g = 0;
    for (size_t i = 0; i < n; i++, x->nitems = i) {
        const struct vd_item_def *d = defs[i];
        struct vd_item *it = &out[i];
        *it = (struct vd_item){.item = d->key,
                               .label = d->label,
                               .form = d->form,
                               .templates = d->templates,
                               .def = d,
                               .outcome = -1,
                               .measured_by = d->runs,
                               .measured = !d->runs[0]};
        for (const char *p = d->runs; p && *p;) { /* any of its scenarios ran? */
            const char *e = strchr(p, ',');
            it->measured |= ran(x, p, e ? (size_t)(e - p) : strlen(p));
            p = e ? e + 1 : 0;
        }
        if (d->templates && !templates_fit(d->templates)) { /* its words: the record's */
            it->templates = 0;
            it->reason = VD_R_TEMPLATES;
            vd_arg_u64(it, "max", VD_TEMPLATES_MAX, false);
            continue;
        }
        if (!it->measured) {
            it->reason = VD_R_NOT_IN_RUN;
            continue;
        }
        if (!x->f->tcg || d->tcg)
            d->decide(x, it);
        if (!it->decided && it->reason == VD_R_NONE) { /* a part missing */
            it->reason = x->f->tcg ? VD_R_TCG : VD_R_NO_CELL;
            if (!x->f->tcg)
                vd_arg_str(it, "need", "cell for it");
        }
    }
    return n;
}

static unsigned tolerance(const struct vd_facts *f)
{
    return f->tol_x100 ? f->tol_x100 : CMP_TOL_X100;
}

size_t verdict_decide(const struct vd_cell *v, size_t n, const struct vd_facts *f,
                      struct vd_item out[VD_MAX_ITEMS], struct vd_trust *t, struct vd_log *log)
{
    struct vd_ctx x = {.v = v, .n = n, .f = f, .tol = tolerance(f), .log = log, .t = t};
    if (log)
        log->n = log->lost = 0;
    return decide_all(&x, out);
}

unsigned verdict_open(const struct vd_cell *v, size_t n, const struct vd_facts *f, bool *open)
{
    static struct vd_item scratch_items[VD_MAX_ITEMS];
    struct vd_trust t;
    struct vd_ctx x = {.v = v, .n = n, .f = f, .tol = tolerance(f), .open = open, .t = &t};
    for (size_t i = 0; i < n; i++)
        open[i] = false;
    decide_all(&x, scratch_items);
    return x.nopen;
}
