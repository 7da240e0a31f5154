/*
 * scenarios/clear/cells.c - running the clear benchmark's cells interleaved
 * (scenarios/clear/cells.h).
 */
#include "scenarios/clear/cells.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "kernel/progress.h"
#include "kernel/scenario.h"
#include "measure/clear_record.h"
#include "measure/memop.h"
#include "mm/paging.h"
#include "scenarios/clear/race.h"

static unsigned order[CLEAR_MAX_CELLS];
static uint64_t scratch[CLEAR_MAX_ROUNDS];
static bool open_cells[CLEAR_MAX_CELLS];          /* clear_race_settle()'s answer at a look */
static struct ilv_series series[CLEAR_MAX_CELLS]; /* each cell's ns[], n */

/* Memory work for one step of a cell, run at the measurement CPL
 * (arch/user.h): the dirtying, timed clear and zero check of measure/memop.h,
 * and the eviction, coldness probe and TSC-gap poll. Pure memory work, no
 * printing, no privileged code. */
struct work {
    enum { W_MEMOP, W_EVICT, W_PROBE, W_GAPS } op;
    struct memop m;               /* W_MEMOP; m.p / m.bytes are the target for all */
    const struct clear_cells *cs; /* W_EVICT: the run's eviction frames */
    uint64_t cold_cyc, warm_cyc;  /* W_PROBE */
    uint64_t window_cyc, gap_cyc; /* W_GAPS */
    uint64_t gaps, polled_cyc;    /* W_GAPS: TSC cycles of gaps seen, of time polled */
};

/* A byte range of the arena: what the last pass wrote, what is known dirty. */
struct span {
    uint8_t *p;
    uint64_t bytes;
};

static struct span dirty_known; /* all of it non-zero: left so by the last check-and-dirty */
static struct span written;     /* what the last pass wrote (the cold eviction flushes its tail) */

static bool inside(const struct span *in, const uint8_t *p, uint64_t bytes)
{
    return in->p && p >= in->p && p + bytes <= in->p + in->bytes;
}

/* The tail of [p, p + bytes) that can still be cached after a sequential
 * pass over it: the last 2 x LLC bytes (cs's read buffer's size). */
static void flush_tail(const struct clear_cells *cs, uint8_t *p, uint64_t bytes)
{
    uint64_t tail = cs->nevict * PAGE_SIZE_2M, skip = bytes > tail ? bytes - tail : 0;
    clear_evict(p + skip, bytes - skip, EVICT_LINE);
}

static void work_fn(void *arg)
{
    struct work *w = arg;
    uint8_t *dst = w->m.p;
    switch (w->op) {
    case W_MEMOP:
        memop_run(&w->m);
        break;
    case W_EVICT: /* the tails the passes wrote last: all that can still be cached */
        flush_tail(w->cs, dst, w->m.bytes);
        if (written.p != dst || written.bytes != w->m.bytes)
            flush_tail(w->cs, written.p, written.bytes);
        for (size_t i = 0; i < w->cs->nevict; i++)
            evict_read((const void *)(uintptr_t)w->cs->evict_frames[i], PAGE_SIZE_2M);
        break;
    case W_PROBE:
        w->cold_cyc = evict_probe(dst, w->m.bytes);
        w->warm_cyc = evict_probe(dst, w->m.bytes);
        evict_unprobe(dst, w->m.bytes);
        break;
    case W_GAPS:
        w->gaps = steal_poll_gaps(w->window_cyc, w->gap_cyc, &w->polled_cyc);
        break;
    }
}

static void work(struct work *w, int op)
{
    w->op = op;
    user_run(0, work_fn, w);
}

static void mem(struct work *w, enum memop_op op)
{
    w->m.op = op;
    work(w, W_MEMOP);
}

/* One repeat of cell c of cs: dirty, (cold: evict and probe), timed clear with
 * the steal time around it, then the exact zero check fused with the
 * dirtying for the next repeat (MEMOP_VERIFY_DIRTY); the SMI count around
 * it all and its TSC span for measure/time_lost.h. A cold cell whose
 * target that pass (of any cell: they share the arena) left dirty skips
 * its own dirtying: the eviction flushes the tail of its target and of
 * whatever was written last, and the probe checks it is cold. A warm cell
 * always dirties its own target just before with plain stores (that is
 * what makes it warm); a cold one with the fast string stores.
 * Untimed repeats record nothing (their span only sets the cell's fastest). */
static int last_cell = -1; /* the cell whose repeat ran last */

static void repeat(const struct clear_cells *cs, struct clear_cell *c, bool timed, uint64_t pattern)
{
    bool cold = c->cache[0] == 'c';
    struct work w = {.cs = cs,
                     .m = {.p = c->dst,
                           .bytes = c->bytes,
                           .s = c->s,
                           .chunk = c->chunk,
                           .seed = pattern,
                           .check = MEMOP_EXACT,
                           .delay_pct = c->delay_pct}};
    uint64_t smi0, smi1;
    bool smi = timed && tl_smi_read(&smi0);
    uint64_t s0 = steal_ns(0), t0 = rdtsc();
    if (!cold || !inside(&dirty_known, c->dst, c->bytes)) {
        mem(&w, cold ? MEMOP_DIRTY : MEMOP_DIRTY_CACHED);
        written = (struct span){c->dst, c->bytes};
    }
    if (cold) {
        work(&w, W_EVICT);
        work(&w, W_PROBE);
    }
    mem(&w, MEMOP_CLEAR);
    uint64_t cyc = w.m.cycles;
    w.m.seed = pattern + 0x100; /* the next repeat's data differs from this one's */
    mem(&w, MEMOP_VERIFY_DIRTY);
    written = (struct span){c->dst, c->bytes};
    if (!inside(&dirty_known, c->dst, c->bytes))
        dirty_known = written;
    uint64_t stolen = steal_ns(0) - s0, span = rdtsc() - t0;
    c->ok &= w.m.zero;
    tl_repeat(&c->lost, tsc_to_ns(span), timed && c->n < CLEAR_MAX_ROUNDS);
    if (!timed || c->n >= CLEAR_MAX_ROUNDS)
        return;
    scenario_timed(cyc);
    smi = smi && tl_smi_read(&smi1);
    c->lost.smi_known = smi && (c->n == 0 || c->lost.smi_known);
    c->lost.smi += c->lost.smi_known ? (uint32_t)(smi1 - smi0) : 0; /* bits 31:0 count */
    uint64_t ns = tsc_to_ns(cyc);
    if (cold)
        c->ratio_x100[c->n] = w.warm_cyc ? (uint32_t)(w.cold_cyc * 100 / w.warm_cyc) : 0;
    c->prev[c->n] = (int16_t)last_cell;
    c->steal_rep[c->n] =
        steal_available() ? (uint32_t)(stolen > UINT32_MAX ? UINT32_MAX : stolen) : 0;
    c->ns[c->n++] = ns;
    c->min_cyc = cyc < c->min_cyc ? cyc : c->min_cyc;
    if (steal_available()) {
        c->steal_ns += stolen;
        c->base_ns += tsc_to_ns(span);
        return;
    }
    uint64_t hz = tsc_info()->hz;
    struct work g = {.window_cyc = mul_div_u64(CLEAR_GAP_WINDOW_NS, hz, 1000000000),
                     .gap_cyc = mul_div_u64(STEAL_GAP_NS, hz, 1000000000)};
    work(&g, W_GAPS);
    c->steal_ns += tsc_to_ns(g.gaps);
    c->base_ns += tsc_to_ns(g.polled_cyc);
}

static bool cell_repeat(void *arg, size_t cell, unsigned round)
{
    struct clear_cells *cs = arg;
    repeat(cs, &cs->cell[cell], round > 0, round + 1);
    last_cell = (int)cell;
    return true;
}

static void round_begins(void *arg, unsigned round) { progress_step(round); }

/* series[i] is cell i's samples. */
static void series_of(const struct clear_cells *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        series[i] = (struct ilv_series){cs->cell[i].ns, &cs->cell[i].n};
}

void clear_cells_factors(struct clear_cells *cs, uint64_t *scratch)
{
    size_t rounds = 0;
    for (size_t i = 0; i < cs->n; i++)
        rounds = cs->cell[i].n > rounds ? cs->cell[i].n : rounds;
    cs->nfactors = cs->n < ILV_FACTOR_MIN_CELLS ? 0 : rounds;
    series_of(cs);
    ilv_round_factors(series, cs->n, cs->factor_x1e6, cs->nfactors, scratch);
}

enum ilv_verdict clear_cells_run(struct clear_cells *cs, const struct ilv_rule *rule,
                                 uint64_t budget_s, bool race, unsigned *done)
{
    struct ilv_run run = {.seed = cs->seed,
                          .rule = rule,
                          .ncells = cs->n,
                          .order = order,
                          .scratch = scratch,
                          .series = series,
                          .repeat = cell_repeat,
                          .round_begins = round_begins,
                          .arg = cs,
                          .clock = tsc_now,
                          .budget = budget_s * tsc_info()->hz,
                          .budget_from = rule->min_rounds + 1, /* the race's rounds */
                          .stop = cs->stop,
                          .settle = race ? clear_race_settle : 0,
                          .open = open_cells};
    series_of(cs);
    dirty_known = written = (struct span){0, 0}; /* nothing known before the first pass */
    progress_begin("clear", rule->max_rounds + 1);
    enum ilv_verdict v = ilv_run(&run, done);
    progress_step(rule->max_rounds + 1);
    return v;
}

bool clear_cell_verified(const struct clear_cells *cs, const struct clear_cell *c,
                         uint64_t *scratch, uint64_t *ratio_x100, int *check, const char **why)
{
    const char *w = 0;
    *ratio_x100 = 0;
    *check = CACHE_UNCHECKED;
    if (why)
        *why = 0;
    if (c->cache[0] != 'c')
        return c->ok;
    struct stats rs;
    for (unsigned i = 0; i < c->n; i++)
        scratch[i] = c->ratio_x100[i];
    stats_compute(&rs, scratch, c->n);
    *ratio_x100 = rs.median;
    *check = clear_cache_check(cs->flush != EVICT_NONE, cpu_is_tcg(), rs.median, &w);
    if (why)
        *why = w;
    return c->ok && *check == CACHE_VERIFIED;
}

void clear_cell_vd(const struct clear_cells *cs, const struct clear_cell *c, const struct stats *st,
                   bool verified, struct vd_cell *v)
{
    *v = (struct vd_cell){.kind = &clear_kind,
                          .strategy = c->s->name,
                          .nontemporal = c->s->nontemporal,
                          .chunk = c->chunk,
                          .bytes = c->bytes,
                          .cold = c->cache[0] == 'c',
                          .threads = 1,
                          .verified = verified,
                          .st = *st,
                          .samples = c->ns,
                          .nsamples = c->n,
                          .factor_x1e6 = cs->nfactors ? cs->factor_x1e6 : 0,
                          .nfactors = cs->nfactors,
                          .steal_x100 = stats_pct_x100(c->steal_ns, c->base_ns),
                          .smi = c->lost.smi,
                          .gaps = c->lost.gaps,
                          .gap_max_ns = c->lost.gap_max_ns};
}

uint64_t clear_cells_once(const struct clear_strategy *s, uint8_t *dst, uint64_t bytes, bool *zero)
{
    struct work w = {.m = {.p = dst, .bytes = bytes, .s = s, .chunk = bytes, .check = MEMOP_EXACT}};
    mem(&w, MEMOP_CLEAR);
    uint64_t cyc = w.m.cycles;
    mem(&w, MEMOP_VERIFY);
    *zero = w.m.zero;
    return cyc;
}

void clear_cells_evict_take(struct clear_cells *cs, struct frames *f, uint64_t llc)
{
    size_t want = (size_t)((2 * (llc ? llc : 8ull << 20) + PAGE_SIZE_2M - 1) / PAGE_SIZE_2M);
    if (want > CLEAR_EVICT_FRAMES)
        want = CLEAR_EVICT_FRAMES;
    if (cpu_is_tcg())
        want = 2;
    cs->flush = evict_method();
    for (cs->nevict = 0; cs->nevict < want; cs->nevict++)
        if (frames_alloc(f, PAGE_SIZE_2M, FRAMES_NO_LIMIT, &cs->evict_frames[cs->nevict]) !=
            FRAMES_OK)
            break;
}

void clear_cells_evict_put(struct clear_cells *cs, struct frames *f)
{
    for (size_t i = 0; i < cs->nevict; i++)
        frames_free(f, cs->evict_frames[i], PAGE_SIZE_2M);
    cs->nevict = 0;
}
