/*
 * scenarios/clear/race.c - the looks of the clear cells' race and the A/A and
 * A/B controls (scenarios/clear/race.h).
 */
#include "scenarios/clear/race.h"
#include "arch/user.h"
#include "kernel/exit.h"
#include "kernel/options.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/compare.h"
#include "lib/compare_record.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"

#define PCT_ACCEPTED "STRATEGY:PCT (PCT 1..100)"

static const struct clear_strategy *aa_s, *ab_s; /* aa=, ab_delay= (NULL: none) */
static unsigned ab_pct;

static int aa_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (!(aa_s = clear_find(v)))
        return hz_snprintf(err, n, "no strategy '%s'", v), -1;
    return 0;
}

static int ab_opt(const struct option *o, const char *v, char *err, size_t n)
{
    char name[32];
    const char *colon = strchr(v, ':');
    uint64_t pct;
    if (!colon || (size_t)(colon - v) >= sizeof(name))
        return hz_snprintf(err, n, "expected " PCT_ACCEPTED), -1;
    hz_snprintf(name, sizeof(name), "%.*s", (int)(colon - v), v);
    if (!(ab_s = clear_find(name)))
        return hz_snprintf(err, n, "no strategy '%s'", name), -1;
    if (cmdline_parse_size(colon + 1, &pct) < 0 || pct < 1 || pct > 100)
        return hz_snprintf(err, n, "percent '%s' is not 1..100", colon + 1), -1;
    ab_pct = (unsigned)pct;
    return 0;
}

HZ_OPTION(opt_aa, .name = "aa", .kind = OPT_CUSTOM, .parse = aa_opt, .accepted = "STRATEGY",
          .help = "A/A control of run=clear: measure each of STRATEGY's cells twice, as two "
                  "interleaved cells, and print a `control` record per pair (expect a tie)");
HZ_OPTION(opt_ab_delay, .name = "ab_delay", .kind = OPT_CUSTOM, .parse = ab_opt,
          .accepted = PCT_ACCEPTED,
          .help = "A/B control of run=clear: a twin of each of STRATEGY's cells whose every "
                  "timed clear gets a TSC spin of PCT % of its own time added inside the timing; "
                  "a `control` record per pair");

/* Add a twin of every cell of s with delay pct; the count added. */
static size_t twins_of(struct clear_cells *cs, const struct clear_strategy *s, unsigned pct,
                       const char *opt)
{
    size_t own = cs->n, added = 0;
    for (size_t i = 0; i < own; i++) {
        if (cs->cell[i].s != s || cs->cell[i].twin_of >= 0)
            continue;
        if (cs->n >= CLEAR_MAX_CELLS) {
            options_config_error(opt, s->name, "too many clear cells for a twin of each", 0);
            hz_exit(HZ_CONFIG);
        }
        struct clear_cell *t = &cs->cell[cs->n++];
        *t = cs->cell[i];
        t->twin_of = (int)i;
        t->delay_pct = pct;
        added++;
    }
    if (!added) {
        options_config_error(opt, s->name, "the strategy has no clear cell in this run", 0);
        hz_exit(HZ_CONFIG);
    }
    return added;
}

size_t clear_race_twins(struct clear_cells *cs)
{
    size_t n = 0;
    if (aa_s)
        n += twins_of(cs, aa_s, 0, "aa");
    if (ab_s)
        n += twins_of(cs, ab_s, ab_pct, "ab_delay");
    return n;
}

/* Control pair t (a twin) against the cell it copies, into *c: one run,
 * so its round factors (cs->nfactors of them) take the rounds out. */
static void control_compare(const struct clear_cells *cs, const struct clear_cell *t,
                            uint64_t *scratch, struct cmp *c)
{
    const struct clear_cell *a = &cs->cell[t->twin_of];
    struct cmp_side sa = {a->ns, a->n, a->bytes, 1}, sb = {t->ns, t->n, t->bytes, 1};
    cmp_compare_sides(&sa, &sb, cs->nfactors ? cs->factor_x1e6 : 0, cs->nfactors,
                      cs->nfactors ? CMP_WHY_SAME_RUN : CMP_WHY_NO_FACTORS, CMP_Z_X1000,
                      verdict_tolerance_x100(), scratch, c);
}

/* What a look decides, at the measurement CPL: pure memory work. */
struct look {
    struct clear_cells *cs;
    bool *open;
    struct vd_facts f;
};

static uint64_t cmp_scratch[CLEAR_MAX_ROUNDS * CLEAR_MAX_ROUNDS + 2 * CLEAR_MAX_ROUNDS];
_Static_assert(sizeof(cmp_scratch) / sizeof(cmp_scratch[0]) >= CLEAR_FACTOR_SCRATCH,
               "cmp_scratch: too small for clear_cells_factors()");
static uint64_t sorted[CLEAR_MAX_ROUNDS];
static struct vd_cell vd[CLEAR_MAX_CELLS];
static size_t vd_of[CLEAR_MAX_CELLS]; /* vd[k] is cell vd_of[k] */
static bool vd_open[CLEAR_MAX_CELLS];

/* The verdict's comparisons over the cells (twins left out) as they stand. */
static void verdict_look(struct look *l)
{
    struct clear_cells *cs = l->cs;
    size_t n = 0;
    for (size_t i = 0; i < cs->n; i++) {
        const struct clear_cell *c = &cs->cell[i];
        uint64_t ratio;
        int check;
        struct stats st;
        if (c->twin_of >= 0)
            continue;
        bool verified = clear_cell_verified(cs, c, sorted, &ratio, &check, 0);
        for (unsigned k = 0; k < c->n; k++)
            sorted[k] = c->ns[k];
        stats_compute(&st, sorted, c->n);
        clear_cell_vd(cs, c, &st, verified, &vd[n]);
        vd_of[n++] = i;
    }
    verdict_open(vd, n, &l->f, vd_open);
    for (size_t k = 0; k < n; k++)
        l->open[vd_of[k]] |= vd_open[k];
}

static void look_fn(void *arg)
{
    struct look *l = arg;
    struct clear_cells *cs = l->cs;
    clear_cells_factors(cs, cmp_scratch);
    if (!l->f.tcg)
        verdict_look(l);
    for (size_t i = 0; i < cs->n; i++) {
        struct clear_cell *t = &cs->cell[i];
        struct cmp c;
        if (t->twin_of < 0)
            continue;
        control_compare(cs, t, cmp_scratch, &c);
        if (c.outcome == CMP_UNDECIDED || c.outcome == CMP_TOO_FEW)
            l->open[i] = l->open[t->twin_of] = true;
    }
}

void clear_race_settle(void *arg, bool *open)
{
    struct look l = {.cs = arg, .open = open};
    verdict_facts(&l.f);
    user_run(0, look_fn, &l);
}

void clear_race_report(const struct clear_cells *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        const struct clear_cell *t = &cs->cell[i];
        if (t->twin_of < 0)
            continue;
        const struct clear_cell *a = &cs->cell[t->twin_of];
        struct cmp c;
        struct vd_cell v;
        char buf[HZ_RECORD_MAX], ida[VD_ID_MAX], idb[VD_ID_MAX + 16], r[3][24];
        control_compare(cs, t, cmp_scratch, &c);
        clear_cell_vd(cs, a, &(struct stats){0}, a->ok, &v);
        vd_cell_id(&v, ida, sizeof(ida));
        if (t->delay_pct)
            hz_snprintf(idb, sizeof(idb), "%s+delay%u%%", ida, t->delay_pct);
        else
            hz_snprintf(idb, sizeof(idb), "%s+aa", ida);
        struct rec rec;
        rec_begin(&rec, buf, sizeof(buf), "control");
        rec_str(&rec, "kind", t->delay_pct ? "ab" : "aa");
        rec_str(&rec, "a", ida);
        rec_str(&rec, "b", idb);
        rec_u64(&rec, "pct", t->delay_pct);
        rec_fixed(&rec, "ratio", c.ratio_x1e6, 6);
        rec_fixed(&rec, "lo", c.lo_x1e6, 6);
        rec_fixed(&rec, "hi", c.hi_x1e6, 6);
        rec_cmp_members(&rec, &c);
        rec_str(&rec, "stop", ilv_verdict_name(cs->stop[i]));
        rec_bool(&rec, "verified", a->ok && t->ok);
        record_emit(&rec);
        fmt_fixed(r[0], sizeof(r[0]), c.ratio_x1e6 / 1000, 3);
        fmt_fixed(r[1], sizeof(r[1]), c.lo_x1e6 / 1000, 3);
        fmt_fixed(r[2], sizeof(r[2]), c.hi_x1e6 / 1000, 3);
        kprintf("clear: control %s: %s / %s = %sx [%s..%s] at n = %zu, %zu: %s (+-%u%%; "
                "expected %s)\n",
                t->delay_pct ? "A/B" : "A/A", idb, ida, r[0], r[1], r[2], c.na, c.nb,
                cmp_outcome_name(c.outcome), c.tol_x100 / 100,
                !t->delay_pct                     ? "tie"
                : t->delay_pct > c.tol_x100 / 100 ? "slower"
                                                  : "not slower");
    }
}
