/*
 * tests/unit/test_verdict_text.c - lib/verdict_text.c against the shared
 * vectors of tests/vectors/verdict_render.txt (tests/tools/test_verdict_text.py
 * reads the same file): each `verdict` record, read back into the struct
 * vd_item, vd_facts and vd_trust the kernel wrote it from, renders to the
 * case's lines byte for byte (a record's own `templates` rows as the
 * item's vd_item.templates); every line fits VD_LINE_WIDTH.
 *
 * The record reader below knows the JSON the kernel writes (lib/record.c:
 * objects, arrays, strings without escapes but \" and \\, decimals,
 * true/false/null); a malformed vector fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_text.h"

#define VECTORS "tests/vectors/verdict_render.txt"

/* The end of the JSON value at p. */
static const char *jskip(const char *p)
{
    int depth = 0;
    do {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                p += *p == '\\';
        } else if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        else if (depth == 0)
            while (p[1] && !strchr(",}]", p[1]))
                p++;
        assert_true(*p != 0);
        p++;
    } while (depth > 0);
    return p;
}

/* The next member of the object or array whose body (after its opening
 * bracket) *p is in: its key (obj) and value; false at the end. */
static bool next(const char **p, bool obj, char *key, size_t cap, const char **val)
{
    while (**p == ',')
        (*p)++;
    if (**p == '}' || **p == ']' || !**p)
        return false;
    if (obj) {
        const char *e = strchr(*p + 1, '"');
        size_t n = (size_t)(e - *p - 1);
        assert_true(n < cap);
        memcpy(key, *p + 1, n);
        key[n] = 0;
        *p = e + 2; /* past '":' */
    }
    *val = *p;
    *p = jskip(*p);
    return true;
}

static bool is_null(const char *v) { return strncmp(v, "null", 4) == 0; }

/* The strings of the record being read (reset per record). */
static char pool[1 << 16];
static size_t pool_used;

static char *str(const char *v)
{
    if (is_null(v))
        return 0;
    assert_int_equal(v[0], '"');
    assert_true(pool_used + strlen(v) < sizeof(pool));
    char *s = pool + pool_used, *o = s;
    for (v++; *v != '"'; v++)
        *o++ = *v == '\\' ? *++v : *v;
    *o = 0;
    pool_used += (size_t)(o - s) + 1;
    return s;
}

/* A decimal x 10^digits, exactly. */
static uint64_t dec(const char *v, unsigned digits)
{
    uint64_t x = 0;
    unsigned frac = 0;
    bool dot = false;
    for (; (*v >= '0' && *v <= '9') || *v == '.'; v++) {
        if (*v == '.') {
            dot = true;
            continue;
        }
        if (dot && frac == digits)
            continue;
        x = x * 10 + (uint64_t)(*v - '0');
        frac += dot;
    }
    for (; frac < digits; frac++)
        x *= 10;
    return x;
}

static uint64_t size_of(const char *s)
{
    char *e;
    uint64_t v = strtoull(s, &e, 10);
    const char *u = strchr("KMGT", *e);
    for (int i = *e && u ? (int)(u - "KMGT") + 1 : 0; i > 0; i--)
        v *= 1024;
    return v;
}

static int outcome_of(const char *s)
{
    for (int o = 0; o <= CMP_TOO_FEW; o++)
        if (s && strcmp(s, cmp_outcome_name((enum cmp_outcome)o)) == 0)
            return o;
    return -1;
}

static void read_figure(const char *v, struct vd_extra *e)
{
    char k[32];
    const char *p = v + 1, *x;
    *e = (struct vd_extra){.outcome = -1};
    while (next(&p, true, k, sizeof(k), &x)) {
        if (!strcmp(k, "name"))
            e->name = str(x);
        else if (!strcmp(k, "unit"))
            e->unit = str(x);
        else if (!strcmp(k, "value"))
            e->x1000 = dec(x, 3);
        else if (!strcmp(k, "lo"))
            e->lo_x1000 = dec(x, 3);
        else if (!strcmp(k, "hi"))
            e->hi_x1000 = dec(x, 3);
        else if (!strcmp(k, "chunk") && !is_null(x))
            e->chunk = size_of(str(x));
    }
}

/* The record's own template rows (`templates`) into it->templates. */
static void read_templates(const char *v, struct vd_item *it)
{
    static struct vd_template rows[8];
    char k[48], q[52];
    const char *p = v + 1, *x;
    unsigned n = 0;
    while (next(&p, true, k, sizeof(k), &x)) {
        assert_true(n + 1 < sizeof(rows) / sizeof(rows[0]));
        snprintf(q, sizeof(q), "\"%s\"", k);
        rows[n++] = (struct vd_template){str(q), str(x)};
    }
    rows[n] = (struct vd_template){0, 0};
    it->templates = rows;
}

static void read_args(const char *v, struct vd_item *it)
{
    char k[32];
    const char *p = v + 1, *x;
    while (next(&p, true, k, sizeof(k), &x)) {
        struct vd_arg *a = &it->args[it->nargs++];
        assert_true(it->nargs <= VD_ARGS);
        char q[40];
        snprintf(q, sizeof(q), "\"%s\"", k);
        *a = (struct vd_arg){.key = str(q)};
        if (*x == '"')
            a->s = str(x);
        else
            a->u = dec(x, 0);
    }
}

/* A member of the record into it, f or t. */
static void member(const char *k, const char *x, struct vd_item *it, struct vd_facts *f,
                   struct vd_trust *t)
{
    static const char *const ratios[] = {"ratio", "ratio_min", "ratio_max", "ratio_lo", "ratio_hi"};
    uint64_t *rv[] = {&it->ratio_x1000, &it->rmin_x1000, &it->rmax_x1000, &it->rlo_x1000,
                      &it->rhi_x1000};
    char *s = *x == '"' ? str(x) : 0;
    const char *p = x + 1, *y;
    char kk[32];
    if (!strcmp(k, "item"))
        it->item = s;
    else if (!strcmp(k, "label"))
        it->label = s;
    else if (!strcmp(k, "form"))
        it->form = s;
    else if (!strcmp(k, "decided"))
        it->decided = *x == 't';
    else if (!strcmp(k, "outcome"))
        it->outcome = outcome_of(s);
    else if (!strcmp(k, "reason"))
        for (int r = 0; s && r < VD_NREASONS; r++)
            it->reason =
                strcmp(s, vd_reason_name((enum vd_reason)r)) ? it->reason : (enum vd_reason)r;
    else if (!strcmp(k, "answer") && s)
        snprintf(it->answer, sizeof(it->answer), "%s", s);
    else if (!strcmp(k, "unit"))
        it->unit = s;
    else if (!strcmp(k, "figure") && !is_null(x))
        it->fig_x1000 = dec(x, 3);
    else if (!strcmp(k, "lo") && !is_null(x))
        it->lo_x1000 = dec(x, 3);
    else if (!strcmp(k, "hi") && !is_null(x))
        it->hi_x1000 = dec(x, 3);
    else if (!strcmp(k, "baseline") && s)
        snprintf(it->baseline, sizeof(it->baseline), "%s", s);
    else if (!strcmp(k, "baseline_figure") && !is_null(x))
        it->base_x1000 = dec(x, 3);
    else if (!strcmp(k, "n_min") && !is_null(x))
        it->n_min = dec(x, 0);
    else if (!strcmp(k, "n_max") && !is_null(x))
        it->n_max = dec(x, 0);
    else if (!strcmp(k, "tol_pct"))
        f->tol_x100 = (unsigned)dec(x, 2);
    else if (!strcmp(k, "set"))
        it->set = s;
    else if (!strcmp(k, "leaders"))
        while (next(&p, false, kk, sizeof(kk), &y))
            it->nleaders++;
    else if (!strcmp(k, "measured_by")) {
        static char runs[8][64];
        static unsigned nr;
        char *m = runs[nr++ % 8];
        m[0] = 0;
        while (next(&p, false, kk, sizeof(kk), &y))
            snprintf(m + strlen(m), 64 - strlen(m), "%s%s", m[0] ? "," : "", str(y));
        it->measured_by = m;
    } else if (!strcmp(k, "figures"))
        while (next(&p, false, kk, sizeof(kk), &y))
            read_figure(y, &it->extra[it->nextra++]);
    else if (!strcmp(k, "args"))
        read_args(x, it);
    else if (!strcmp(k, "templates"))
        read_templates(x, it);
    else if (!strcmp(k, "tcg"))
        f->tcg = *x == 't';
    else if (!strcmp(k, "hypervisor"))
        f->hypervisor = s;
    else if (!strcmp(k, "tsc_invariant"))
        f->tsc_invariant = *x == 't';
    else if (!strcmp(k, "emulated_ring0"))
        f->emulated_ring0 = *x == 't';
    else if (!strcmp(k, "backing"))
        f->backing = s;
    else if (!strcmp(k, "steal_pct") && !is_null(x))
        f->steal_known = true, f->steal_x100 = dec(x, 2);
    else if (!strcmp(k, "steal_why"))
        f->steal_why = s;
    else if (!strcmp(k, "left_out_cells"))
        t->left_out = (unsigned)dec(x, 0);
    else if (!strcmp(k, "cells_seen"))
        t->cells = (unsigned)dec(x, 0);
    else if (!strcmp(k, "smi"))
        t->smi = dec(x, 0);
    else if (!strcmp(k, "smi_cells"))
        t->smi_cells = (unsigned)dec(x, 0);
    else if (!strcmp(k, "gap_cells"))
        t->gap_cells = (unsigned)dec(x, 0);
    else if (!strcmp(k, "gap_max_ns"))
        t->gap_max_ns = dec(x, 0);
    else if (!strcmp(k, "gap_max_cell") && s)
        snprintf(t->gap_max_cell, sizeof(t->gap_max_cell), "%s", s);
    else if (!strcmp(k, "run_text") || (!strcmp(k, "profile") && !f->run)) /* older: `profile` */
        f->run = s;
    for (unsigned i = 0; i < 5; i++)
        if (!strcmp(k, ratios[i]) && !is_null(x))
            *rv[i] = dec(x, 3);
}

static void read_record(const char *json, struct vd_item *it, struct vd_facts *f,
                        struct vd_trust *t)
{
    char k[48];
    const char *p = json + 1, *x;
    pool_used = 0;
    *it = (struct vd_item){.outcome = -1};
    *f = (struct vd_facts){0};
    *t = (struct vd_trust){0};
    while (next(&p, true, k, sizeof(k), &x))
        member(k, x, it, f, t);
}

/* Every case of the vectors renders to its lines (and header), and there
 * are at least 20 of them, covering every reason code. */
static void test_shared_vectors(void **state)
{
    (void)state;
    FILE *fp = fopen(VECTORS, "r");
    assert_non_null(fp);
    char line[2048], want[2048] = "", got[VD_LINES_MAX], head[160];
    struct vd_item it;
    struct vd_facts f;
    struct vd_trust t;
    bool have = false, host = false, reasons[VD_NREASONS] = {false};
    unsigned cases = 0;
    for (;;) {
        char *l = fgets(line, sizeof(line), fp);
        if (!l || strncmp(l, "case ", 5) == 0) { /* the case before is whole */
            if (have) {
                vd_item_lines(&it, &f, &t, got, sizeof(got));
                assert_string_equal(got, want);
                for (char *q = got; *q; q = strchr(q, '\n') + 1)
                    assert_true(strchr(q, '\n') - q <= VD_LINE_WIDTH);
                reasons[it.reason] = true;
                cases++;
            }
            if (!l)
                break;
            have = false;
            host = strstr(l, " host\n") != 0;
            want[0] = 0;
        } else if (strncmp(l, "rec ", 4) == 0 && !host) {
            read_record(l + 4, &it, &f, &t);
            have = true;
        } else if (strncmp(l, "line ", 5) == 0)
            snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s", l + 5);
        else if (strncmp(l, "head ", 5) == 0 && have) {
            vd_header_line(&f, head, sizeof(head));
            l[strcspn(l, "\n")] = 0;
            assert_string_equal(head, l + 5);
        }
    }
    fclose(fp);
    assert_true(cases >= 20);
    for (int r = 0; r < VD_NREASONS; r++)
        assert_true(reasons[r]);
    printf("verdict_render: %u cases rendered\n", cases);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_vectors),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
