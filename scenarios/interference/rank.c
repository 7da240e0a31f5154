/*
 * scenarios/interference/rank.c - the decisions of the `interference` scenario
 * by lib/compare.h's rule: each victim's slowdown under a zeroer against
 * the victims alone (Hodges-Lehmann ratio, Moses interval, the tolerance),
 * the achieved pacing rate against its target, the ranking of the
 * unthrottled strategies per victim (`interference_rank` records, adjacent
 * pairs compared at the Bonferroni z; a pair the interval does not separate
 * is "undecided"), and the cells handed to the verdict's `idle zeroer`
 * item (kernel/verdict.h, scenarios/interference/verdict.c).
 */
#include "arch/tsc.h"
#include "arch/x86.h"
#include "kernel/verdict.h"
#include "lib/compare_record.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "scenarios/interference/priv.h"

static uint64_t scratch[IF_MAX_ROUNDS * IF_MAX_ROUNDS + 2 * IF_MAX_ROUNDS];

int64_t if_ratio_pct_x100(uint64_t r)
{
    return r >= CMP_ONE ? (int64_t)((r - CMP_ONE) / 100) : -(int64_t)((CMP_ONE - r) / 100);
}

void if_slowdown(const struct if_state *st, const struct if_cell *c, unsigned vi, struct cmp *out)
{
    const struct if_cell *a = &st->cell[0];
    uint64_t bytes = st->v[vi].bytes;
    cmp_compare(a->ns[vi], a->rounds, bytes, c->ns[vi], c->rounds, bytes, CMP_Z95_X1000,
                st->tol_x100, scratch, out);
}

void if_rate(const struct if_state *st, const struct if_cell *c, uint64_t *bps, uint64_t *target,
             uint64_t *pct_x100)
{
    uint64_t w[IF_MAX_ROUNDS];
    *bps = c->z && c->rounds ? stats_median_copy(c->zbps, c->rounds, w) : 0;
    *target =
        c->z && c->z->s && c->rate_pct < 100 ? c->z->peak_bps / 100 * c->rate_pct * st->nzcpus : 0;
    *pct_x100 = *target ? mul_div_u64(*bps, 10000, *target) : 0;
}

bool if_rate_missed(const struct if_state *st, const struct if_cell *c)
{
    uint64_t bps, target, pct;
    if_rate(st, c, &bps, &target, &pct);
    return target && (pct > 10000 + IF_MISS_PCT * 100 || pct < 10000 - IF_MISS_PCT * 100);
}

static void rank_record(const char *victim, const char *a, const char *b, const struct cmp *c)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "interference_rank");
    rec_str(&r, "victim", victim);
    rec_str(&r, "a", a);
    rec_str(&r, "b", b);
    rec_fixed(&r, "ratio", c->ratio_x1e6 / 1000, 3);
    rec_fixed(&r, "ratio_lo", c->lo_x1e6 / 1000, 3);
    rec_fixed(&r, "ratio_hi", c->hi_x1e6 / 1000, 3);
    rec_cmp_members(&r, c);
    record_emit(&r);
}

/* One victim's ranking line: least cost first; '<' decided (the right one
 * slows the victim more), '~' a tie, '?' undecided. */
static void rank_victim(const struct if_state *st, unsigned vi)
{
    const struct if_cell *c[IF_ZEROERS];
    uint64_t ratio[IF_ZEROERS];
    unsigned k = 0, gaps = 0;
    char line[256];
    for (unsigned i = 1; i < st->ncells; i++) {
        const struct if_cell *x = &st->cell[i];
        struct cmp m;
        if (!x->z->s || x->rate_pct != 100 || x->rounds < CMP_MIN_N)
            continue;
        if_slowdown(st, x, vi, &m);
        unsigned j = k++;
        for (; j > 0 && ratio[j - 1] > m.ratio_x1e6; j--) { /* insertion by HL ratio */
            c[j] = c[j - 1];
            ratio[j] = ratio[j - 1];
        }
        c[j] = x;
        ratio[j] = m.ratio_x1e6;
    }
    if (k < 2)
        return;
    unsigned z = cmp_z_bonferroni_x1000(k - 1);
    size_t len = (size_t)hz_snprintf(line, sizeof(line), "%s", c[0]->z->label);
    for (unsigned j = 0; j + 1 < k; j++) {
        struct cmp m;
        uint64_t bytes = st->v[vi].bytes;
        cmp_compare(c[j]->ns[vi], c[j]->rounds, bytes, c[j + 1]->ns[vi], c[j + 1]->rounds, bytes, z,
                    st->tol_x100, scratch, &m);
        char rel = m.outcome == CMP_SLOWER ? '<' : m.outcome == CMP_TIE ? '~' : '?';
        gaps += rel == '?';
        len +=
            (size_t)hz_snprintf(line + len, sizeof(line) - len, " %c %s", rel, c[j + 1]->z->label);
        rank_record(st->v[vi].name, c[j]->z->label, c[j + 1]->z->label, &m);
    }
    kprintf("interference:   %-15s %-4s %s%s\n", st->v[vi].name, if_level_name(st->v[vi].level),
            line, gaps ? "  (undecided where '?')" : "");
}

void if_rank(const struct if_state *st)
{
    if (st->cell[0].rounds < CMP_MIN_N) {
        kprintf("interference: ranking: undecided (%u rounds, fewer than %u)\n", st->cell[0].rounds,
                CMP_MIN_N);
        return;
    }
    kprintf("interference: unthrottled ranking per victim, least cost first ('<' decided, "
            "'~' within the tolerance, '?' undecided; adjacent pairs, Bonferroni z):\n");
    for (unsigned v = 0; v < IF_VICTIMS; v++)
        rank_victim(st, v);
}

void if_verdict_cells(const struct if_state *st)
{
    uint64_t w[IF_MAX_ROUNDS];
    for (unsigned i = 0; i < st->ncells; i++) {
        const struct if_cell *c = &st->cell[i];
        const struct if_zeroer *z = c->z;
        if (!c->rounds || (z && !z->s && z->strategy))
            continue;
        uint64_t cpg = z ? stats_median_copy(c->zcpg, c->rounds, w) : 0;
        for (unsigned vi = 0; vi < IF_VICTIMS; vi++) {
            uint64_t sum = 0;
            for (unsigned r = 0; r < c->rounds; r++)
                sum += c->steal[vi][r];
            struct vd_cell v = {.kind = &interference_kind,
                                .strategy = z ? z->label : "none",
                                .victim = st->v[vi].name,
                                .level = if_level_name(st->v[vi].level),
                                .rate_pct = z ? c->rate_pct : 0,
                                .threads = z ? st->nzcpus : 0,
                                .chunk = if_call_bytes(st, c),
                                .bytes = st->v[vi].bytes,
                                .verified = z ? z->verified : true,
                                .samples = c->ns[vi],
                                .nsamples = c->rounds,
                                .steal_x100 = sum / c->rounds,
                                .cpu_ns_per_gib = cpg ? tsc_to_ns(cpg) : 0,
                                .rate_miss = if_rate_missed(st, c),
                                .control = z && !z->s};
            memcpy(w, c->ns[vi], sizeof(uint64_t) * c->rounds);
            stats_compute(&v.st, w, c->rounds);
            verdict_add(&v);
        }
    }
}
