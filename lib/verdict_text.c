/*
 * lib/verdict_text.c - the verdict's one renderer (lib/verdict_text.h):
 * an item's console lines from its template (lib/verdict_templates.c, the
 * table by template family; lib/verdict_names.c names cells).
 * tools/hzlib/verdict_text.py renders the same table;
 * tests/vectors/verdict_render.txt keeps the two the same.
 *
 * A template is text with placeholders: {name} a field of the item,
 * {a:KEY} an argument, {x:NAME} an extra figure with its interval,
 * {xv:NAME} without it; a segment {?...?} is left out when one of its
 * placeholders has no value; "|" separates alternatives, of which the
 * first whose lines all fit VD_LINE_WIDTH is taken (else the last; when
 * the last cannot be filled, "(KEY: no value for {NAME})" names the
 * placeholder that stopped the first alternative to stop on one, e.g.
 * {ratio} of an item with no baseline); a
 * newline starts the one continuation line an item may have (an open
 * one's comparison, the trust item's SMIs and TSC gaps). Figures
 * to 3 significant digits, ratios with 2 decimals below 2 and 1 above,
 * percents with 1, all rounded half up in integer arithmetic.
 */
#include "lib/verdict_text.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* A continuation line's indent: under the answer, past "  " and the label's 12 + 1. */
static const char cont_indent[] = "               ";
#define VD_CONT_INDENT (sizeof(cont_indent) - 1)

/* ---- numbers ------------------------------------------------------------- */

/* v x 1000 with d decimals (0..3), rounded half up. */
static const char *fixed(char *b, size_t cap, uint64_t v, unsigned d)
{
    uint64_t div = d >= 3 ? 1 : d == 2 ? 10 : d == 1 ? 100 : 1000;
    fmt_fixed(b, cap, v / div + (div > 1 && v % div >= div / 2), d);
    return b;
}

/* v x 1000 to 3 significant digits: 0.530, 3.39, 35.7, 123. */
static const char *sig3(char *b, size_t cap, uint64_t v)
{
    return fixed(b, cap, v, v < 1000 ? 3 : v < 9995 ? 2 : v < 99950 ? 1 : 0);
}

/* Decimals of a ratio x 1000: 2 below 2 (where a tie is read), else 1,
 * none from 100. */
static unsigned ratio_digits(uint64_t v) { return v < 1995 ? 2 : v < 99950 ? 1 : 0; }

/* A ratio x 1000 less one as a signed percent, without its sign: "+3.1". */
static const char *pct1(char *b, size_t cap, uint64_t r)
{
    uint64_t d = r >= 1000 ? r - 1000 : 1000 - r;
    hz_snprintf(b, cap, "%c%llu.%llu", r >= 1000 ? '+' : '-', (unsigned long long)(d / 10),
                (unsigned long long)(d % 10));
    return b;
}

/* ---- placeholders -------------------------------------------------------- */

struct rctx {
    const struct vd_item *it;
    const struct vd_facts *f;
    const struct vd_trust *t;
    const char *miss; /* the placeholder whose lack failed the last expand() */
    size_t miss_n;
};

static bool is(const char *name, size_t n, const char *lit)
{
    return strlen(lit) == n && strncmp(name, lit, n) == 0;
}

static const struct vd_extra *extra(const struct vd_item *it, const char *name, size_t n)
{
    for (unsigned i = 0; i < it->nextra; i++)
        if (is(name, n, it->extra[i].name))
            return &it->extra[i];
    return 0;
}

/* An extra's value ("1.41x", "98.4%", "35.2 GB/s") and, with ci, its interval. */
static void extra_text(char *b, size_t cap, const struct vd_extra *e, bool ci)
{
    char v[24], lo[24], hi[24];
    bool x = strcmp(e->unit, "x") == 0, pc = strcmp(e->unit, "%") == 0;
    unsigned d = x ? ratio_digits(e->x1000) : 1;
    if (x || pc) {
        fixed(v, sizeof(v), e->x1000, d);
        fixed(lo, sizeof(lo), e->lo_x1000, d);
        fixed(hi, sizeof(hi), e->hi_x1000, d);
    } else {
        sig3(v, sizeof(v), e->x1000);
        sig3(lo, sizeof(lo), e->lo_x1000);
        sig3(hi, sizeof(hi), e->hi_x1000);
    }
    hz_snprintf(b, cap, "%s%s%s%s%s%s%s", v,
                x    ? "x"
                : pc ? "%"
                     : " ",
                x || pc ? "" : e->unit, ci ? " [" : "", ci ? lo : "", ci ? ".." : "", ci ? hi : "");
    if (ci)
        hz_snprintf(b + strlen(b), cap - strlen(b), "]");
}

static size_t tol_text(char *b, size_t cap, const struct vd_facts *f)
{
    unsigned t = f->tol_x100 ? f->tol_x100 : CMP_TOL_X100;
    if (t % 100)
        return fmt_fixed(b, cap, t, 2) + (size_t)hz_snprintf(b + strlen(b), cap - strlen(b), "%%");
    return (size_t)hz_snprintf(b, cap, "%u%%", t / 100);
}

/* The trust item's time lost (vd_trust.smi, gap_*): "SMIs 3 in 1 cell, gaps
 * > 10 ms in 2 cells (longest 5.00 s, rep_stosb/2M cold)", the parts it has. */
static void lost_text(char *b, size_t cap, const struct vd_trust *t)
{
    char d[24];
    size_t len = 0;
    if (t->smi)
        len = (size_t)hz_snprintf(b, cap, "SMIs %llu in %u cell%s", (unsigned long long)t->smi,
                                  t->smi_cells, t->smi_cells == 1 ? "" : "s");
    if (!t->gap_cells || len + 1 >= cap)
        return;
    bool s = t->gap_max_ns >= 1000000000ull; /* seconds, else ms */
    hz_snprintf(b + len, cap - len, "%sgaps > 10 ms in %u cell%s (longest %s %s, %s)",
                len ? ", " : "", t->gap_cells, t->gap_cells == 1 ? "" : "s",
                sig3(d, sizeof(d), s ? t->gap_max_ns / 1000000 : t->gap_max_ns / 1000),
                s ? "s" : "ms", t->gap_max_cell);
}

/* Placeholder name[0..n) of r into b (cap bytes); false: it has no value. */
static bool field(const struct rctx *r, const char *name, size_t n, char *b, size_t cap)
{
    const struct vd_item *it = r->it;
    char x[24], y[24], z[24];
    bool cmp = it->baseline[0] && it->ratio_x1000;
    unsigned d = ratio_digits(it->ratio_x1000);
    b[0] = 0;
    if (n > 2 && strncmp(name, "a:", 2) == 0) {
        for (unsigned i = 0; i < it->nargs; i++)
            if (is(name + 2, n - 2, it->args[i].key)) {
                const struct vd_arg *a = &it->args[i];
                if (a->s)
                    hz_snprintf(b, cap, "%s", a->s);
                else if (a->size)
                    fmt_size(b, cap, a->u);
                else
                    hz_snprintf(b, cap, "%llu", (unsigned long long)a->u);
                return true;
            }
        return false;
    }
    if (n > 3 && (strncmp(name, "x:", 2) == 0 || strncmp(name, "xv:", 3) == 0)) {
        size_t k = name[1] == ':' ? 2 : 3;
        const struct vd_extra *e = extra(it, name + k, n - k);
        if (e)
            extra_text(b, cap, e, k == 2);
        return e != 0;
    }
    if (is(name, n, "answer") && it->answer[0])
        return hz_snprintf(b, cap, "%s", it->answer), true;
    if (is(name, n, "fig") && it->unit)
        return hz_snprintf(b, cap, "%s %s", sig3(x, 24, it->fig_x1000), it->unit), true;
    if (is(name, n, "ci") && it->unit && it->lo_x1000 != it->hi_x1000)
        return hz_snprintf(b, cap, "[%s..%s]", sig3(x, 24, it->lo_x1000),
                           sig3(y, 24, it->hi_x1000)),
               true;
    if (is(name, n, "bfig") && it->unit && it->baseline[0] && it->base_x1000)
        return hz_snprintf(b, cap, "%s %s", sig3(x, 24, it->base_x1000), it->unit), true;
    if (is(name, n, "base") && it->baseline[0])
        return hz_snprintf(b, cap, "%s", it->baseline), true;
    if (is(name, n, "ratio") && cmp) {
        if (it->rmin_x1000 != it->rmax_x1000)
            hz_snprintf(b, cap, "%s-%sx", fixed(x, 24, it->rmin_x1000, d),
                        fixed(y, 24, it->rmax_x1000, d));
        else
            hz_snprintf(b, cap, "%sx", fixed(x, 24, it->ratio_x1000, d));
        return true;
    }
    if (is(name, n, "ratio1") && cmp)
        return hz_snprintf(b, cap, "%sx", fixed(x, 24, it->ratio_x1000, d)), true;
    if (is(name, n, "rci") && cmp)
        return hz_snprintf(b, cap, "[%s..%s]", fixed(x, 24, it->rlo_x1000, d),
                           fixed(y, 24, it->rhi_x1000, d)),
               true;
    if (is(name, n, "cost") && cmp)
        return hz_snprintf(b, cap, "%s%%", pct1(x, 24, it->ratio_x1000)), true;
    if (is(name, n, "costci") && cmp)
        return hz_snprintf(b, cap, "[%s..%s]", pct1(x, 24, it->rlo_x1000),
                           pct1(y, 24, it->rhi_x1000)),
               true;
    if (is(name, n, "n") && it->n_max) {
        if (it->n_min == it->n_max)
            hz_snprintf(b, cap, "n=%zu", it->n_min);
        else
            hz_snprintf(b, cap, "n=%zu..%zu", it->n_min, it->n_max);
        return true;
    }
    if (is(name, n, "tol"))
        return tol_text(b, cap, r->f), true;
    if (is(name, n, "more") && it->set && it->nleaders > 1)
        return hz_snprintf(b, cap, "%u", it->nleaders - 1), true;
    if (is(name, n, "setw") && it->set && strcmp(it->set, "winner") != 0)
        return hz_snprintf(b, cap, "%s", strcmp(it->set, "tie") == 0 ? "tied" : it->set), true;
    if (is(name, n, "runs") && it->measured_by && it->measured_by[0]) {
        size_t len = 0;
        for (const char *p = it->measured_by; p && *p && len + 1 < cap;) {
            const char *e = strchr(p, ',');
            int k = e ? (int)(e - p) : (int)strlen(p);
            len += (size_t)hz_snprintf(b + len, cap - len, "%srun=%.*s", len ? " or " : "", k, p);
            p = e ? e + 1 : 0;
        }
        return true;
    }
    if (is(name, n, "others")) {
        size_t len = 0;
        for (unsigned i = 0; i < it->nextra && len + 1 < cap; i++)
            if (strcmp(it->extra[i].name, "nt_speedup") == 0) {
                extra_text(z, sizeof(z), &it->extra[i], false);
                len += (size_t)hz_snprintf(b + len, cap - len, "%s%s %s", len ? ", " : "",
                                           fmt_size(x, 24, it->extra[i].chunk), z);
            }
        return len > 0;
    }
    if (is(name, n, "hv"))
        return hz_snprintf(b, cap, "%s",
                           r->f->tcg                                 ? "TCG"
                           : r->f->hypervisor && r->f->hypervisor[0] ? r->f->hypervisor
                                                                     : "bare metal"),
               true;
    if (is(name, n, "tsc"))
        return hz_snprintf(b, cap, "%s", r->f->tsc_invariant ? "invariant" : "NOT invariant"), true;
    if (is(name, n, "ring0"))
        return hz_snprintf(b, cap, "%s", r->f->emulated_ring0 ? "emulated" : "native"), true;
    if (is(name, n, "backing") && r->f->backing)
        return hz_snprintf(b, cap, "%s", r->f->backing), true;
    if (is(name, n, "left_out") && r->t)
        return hz_snprintf(b, cap, "%u", r->t->left_out), true;
    if (is(name, n, "lost") && r->t && (r->t->smi || r->t->gap_cells))
        return lost_text(b, cap, r->t), true;
    if (is(name, n, "cells") && r->t)
        return hz_snprintf(b, cap, "%u", r->t->cells), true;
    if (is(name, n, "steal")) {
        if (r->f->steal_known)
            return hz_snprintf(b, cap, "%s%%", fixed(x, 24, r->f->steal_x100 * 10, 2)), true;
        return hz_snprintf(b, cap, "unknown (%s)",
                           r->f->steal_why ? r->f->steal_why : "not measured"),
               true;
    }
    return false;
}

/* ---- templates ----------------------------------------------------------- */

/* Expand tpl[0..n) into b (cap bytes, at len); false when a placeholder
 * outside {?...?} has no value (r->miss names it). Returns the new length
 * in *len. */
static bool expand(struct rctx *r, const char *tpl, size_t n, char *b, size_t cap, size_t *len)
{
    char v[VD_LINES_MAX];
    for (size_t i = 0; i < n;) {
        if (tpl[i] == '{' && i + 1 < n && tpl[i + 1] == '?') {
            size_t j = i + 2, seg = *len;
            while (j + 1 < n && !(tpl[j] == '?' && tpl[j + 1] == '}'))
                j++;
            if (!expand(r, tpl + i + 2, j - i - 2, b, cap, len))
                *len = seg, b[seg] = 0; /* the segment is left out */
            i = j + 2;
        } else if (tpl[i] == '{') {
            size_t j = i + 1;
            while (j < n && tpl[j] != '}')
                j++;
            if (!field(r, tpl + i + 1, j - i - 1, v, sizeof(v))) {
                r->miss = tpl + i + 1, r->miss_n = j - i - 1;
                return false;
            }
            *len += (size_t)hz_snprintf(b + *len, cap - *len, "%s", v);
            i = j + 1;
        } else {
            *len += (size_t)hz_snprintf(b + *len, cap - *len, "%c", tpl[i]);
            i++;
        }
        *len = *len < cap ? *len : cap - 1;
    }
    return true;
}

/* The item's template row and its key (for "no template for ..."). */
/* The template of `key` in family `form`: the item's own rows
 * (vd_item.templates) first, then the table's (vd_template()). */
static const char *lookup(const struct vd_item *it, const char *form, const char *key)
{
    size_t fl = strlen(form);
    for (const struct vd_template *r = it->templates; r && r->key; r++)
        if (strncmp(r->key, form, fl) == 0 && r->key[fl] == ':' &&
            strcmp(r->key + fl + 1, key) == 0)
            return r->tpl;
    return vd_template(form, key);
}

static const char *row(const struct vd_item *it, char *key, size_t cap)
{
    const char *t;
    if (it->reason != VD_R_NONE) {
        const char *code = vd_reason_name(it->reason);
        hz_snprintf(key, cap, "%s:%s", it->form, code);
        if ((t = lookup(it, it->form, code)))
            return t;
        hz_snprintf(key, cap, "*:%s", code);
        return lookup(it, "*", code);
    }
    const char *o = it->outcome >= 0 ? cmp_outcome_name((enum cmp_outcome)it->outcome) : "none";
    hz_snprintf(key, cap, "%s:%s", it->form, o);
    if ((t = lookup(it, it->form, o)))
        return t;
    hz_snprintf(key, cap, "%s:none", it->form);
    return lookup(it, it->form, "none");
}

size_t vd_header_line(const struct vd_facts *f, char *buf, size_t cap)
{
    char t[16];
    tol_text(t, sizeof(t), f);
    return (size_t)hz_snprintf(
        buf, cap, "== verdict (run=%s; Hodges-Lehmann ratio intervals, tolerance +-%s)",
        f->run ? f->run : "?", t);
}

size_t vd_item_lines(const struct vd_item *it, const struct vd_facts *f, const struct vd_trust *t,
                     char *buf, size_t cap)
{
    struct rctx r = {it, f, t, 0, 0};
    char key[48], body[VD_LINES_MAX];
    const char *miss = 0; /* what stopped the first alternative that stopped */
    size_t miss_n = 0;
    size_t lab = (size_t)hz_snprintf(buf, cap, "  %-12s ", it->label), blen = 0;
    const char *tpl = row(it, key, sizeof(key));
    bool ok = false;
    for (const char *p = tpl; p;) { /* the alternatives */
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        blen = 0;
        body[0] = 0;
        ok = expand(&r, p, n, body, sizeof(body), &blen);
        if (!ok && !miss)
            miss = r.miss, miss_n = r.miss_n;
        const char *nl = strchr(body, '\n');
        size_t first = nl ? (size_t)(nl - body) : blen, cont = nl ? blen - first - 1 : 0;
        if (ok && lab + first <= VD_LINE_WIDTH && VD_CONT_INDENT + cont <= VD_LINE_WIDTH)
            break;
        p = bar ? bar + 1 : 0;
    }
    if (!ok && miss) /* a row, none of whose alternatives could be filled */
        hz_snprintf(body, sizeof(body), "(%s: no value for {%.*s})", key, (int)miss_n, miss);
    else if (!ok)
        hz_snprintf(body, sizeof(body), "(no template for %s)", key);
    size_t len = lab;
    for (const char *p = body; len + 1 < cap;) { /* the first line, then its continuation */
        const char *nl = strchr(p, '\n');
        int k = nl ? (int)(nl - p) : (int)strlen(p);
        len += (size_t)hz_snprintf(buf + len, cap - len, "%s%.*s\n", p == body ? "" : cont_indent,
                                   k, p);
        if (!nl)
            break;
        p = nl + 1;
    }
    return len < cap ? len : cap - 1;
}
