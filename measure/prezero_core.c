/*
 * measure/prezero_core.c - the portable half of the pre-zeroing runner
 * (measure/prezero.h): policy names and parsing, durations, the event loop,
 * the idle loop and the result arithmetic. Prints nothing; the host unit
 * tests (tests/unit/test_prezero.c) drive it with a simulated demand region.
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "measure/prezero.h"

static const char *const policy_names[PZ_NPOLICIES] = {"none", "boot", "on_free", "idle", "batch"};

const char *pz_policy_name(unsigned kind) { return kind < PZ_NPOLICIES ? policy_names[kind] : "?"; }

/* Decimal digits only, at least one, value <= max; *end after the digits. */
static int parse_dec(const char *s, uint64_t max, uint64_t *v, const char **end)
{
    uint64_t x = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (max - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    if (p == s)
        return -1;
    *v = x;
    *end = p;
    return 0;
}

int pz_policy_parse(const char *s, struct pz_policy_cfg *out)
{
    if (!s || !out)
        return -1;
    for (unsigned k = 0; k < PZ_NPOLICIES; k++)
        if (k != PZ_BATCH && strcmp(s, policy_names[k]) == 0) {
            *out = (struct pz_policy_cfg){(enum pz_policy)k, 0};
            return 0;
        }
    if (strncmp(s, "batch=", 6) != 0)
        return -1;
    uint64_t n;
    const char *end;
    if (parse_dec(s + 6, UINT32_MAX, &n, &end) < 0 || *end || n == 0)
        return -1;
    *out = (struct pz_policy_cfg){PZ_BATCH, (uint32_t)n};
    return 0;
}

int pz_policy_format(char *buf, size_t cap, const struct pz_policy_cfg *p)
{
    if (p->kind == PZ_BATCH)
        return hz_snprintf(buf, cap, "batch=%u", p->batch);
    return hz_snprintf(buf, cap, "%s", pz_policy_name(p->kind));
}

int pz_parse_ns(const char *s, uint64_t max_ns, uint64_t *ns)
{
    static const struct {
        const char *name;
        uint64_t mul;
    } units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    uint64_t v;
    const char *end;
    if (!s || !ns || parse_dec(s, UINT64_MAX, &v, &end) < 0)
        return -1;
    if (!*end) { /* a bare number: only 0 needs no unit */
        if (v != 0)
            return -1;
        *ns = 0;
        return 0;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(end, units[i].name) != 0)
            continue;
        if (v > UINT64_MAX / units[i].mul || v * units[i].mul > max_ns)
            return -1;
        *ns = v * units[i].mul;
        return 0;
    }
    return -1;
}

int pz_format_ns(char *buf, size_t cap, uint64_t ns)
{
    static const char *const unit[] = {"ns", "us", "ms", "s"};
    unsigned u = 0;
    uint64_t scale = 1;
    while (u < 3 && ns / scale >= 1000) {
        scale *= 1000;
        u++;
    }
    uint64_t whole = ns / scale;
    if (u == 0 || whole >= 100)
        return hz_snprintf(buf, cap, "%llu %s", (unsigned long long)whole, unit[u]);
    /* three significant digits: x.yy or xx.y, truncated */
    if (whole >= 10)
        return hz_snprintf(buf, cap, "%llu.%01llu %s", (unsigned long long)whole,
                           (unsigned long long)((ns % scale) / (scale / 10)), unit[u]);
    return hz_snprintf(buf, cap, "%llu.%02llu %s", (unsigned long long)whole,
                       (unsigned long long)((ns % scale) / (scale / 100)), unit[u]);
}

/* ns -> clock ticks, rounded down. Whole seconds and the rest apart, so no
 * 128-bit division is needed (the kernel has no libgcc): with hz < 2^34 and
 * the rest < 10^9 < 2^30 the product fits in 64 bits. */
static uint64_t ticks(const struct pz_ops *ops, uint64_t ns)
{
    return ns / 1000000000u * ops->hz + ns % 1000000000u * ops->hz / 1000000000u;
}

void pz_idle_zero(struct pool *pool, struct spinlock *lock, uint64_t chunk_bytes, uint64_t deadline,
                  const struct pz_ops *ops, struct pz_tally *t)
{
    for (;;) {
        uint64_t a = ops->now(ops->ctx);
        if (a >= deadline) /* pending work: the idle period is over */
            return;
        uint64_t cleared = 0, c0 = ops->clear_ticks(ops->ctx);
        spin_lock(lock);
        int rc = pool_idle_chunk(pool, chunk_bytes, &cleared);
        spin_unlock(lock);
        if (rc != POOL_OK) /* nothing DIRTY is left */
            return;
        uint64_t b = ops->now(ops->ctx), c = ops->clear_ticks(ops->ctx) - c0;
        t->idle_zeroing += c;
        t->idle_overhead += b - a > c ? b - a - c : 0;
        t->idle_chunks++;
        if (b > deadline && b - deadline > t->idle_overrun_max)
            t->idle_overrun_max = b - deadline;
    }
}

/* One idle period of ns: the idle loop (policy idle), then wait out the rest. */
static void idle_period(struct pool *pool, struct spinlock *lock, const struct pz_config *c,
                        const struct pz_ops *ops, struct pz_tally *t, uint64_t ns)
{
    uint64_t len = ticks(ops, ns);
    uint64_t deadline = ops->now(ops->ctx) + len;
    t->idle_ns += ns;
    if (c->policy.kind == PZ_IDLE && !c->background)
        pz_idle_zero(pool, lock, c->chunk_bytes, deadline, ops, t);
    ops->wait_until(ops->ctx, deadline);
}

static const char *check_config(const struct pool *pool, const struct pz_config *c,
                                const struct pz_ops *ops)
{
    if (!ops || !ops->now || !ops->clear_ticks || !ops->wait_until || !ops->fault ||
        !ops->release || !ops->hz || ops->hz >= PZ_MAX_HZ)
        return "ops";
    if ((unsigned)c->policy.kind >= PZ_NPOLICIES ||
        (c->policy.kind == PZ_BATCH) != (c->policy.batch != 0))
        return "policy";
    if (c->chunk_bytes < PZ_CHUNK_ALIGN || c->chunk_bytes % PZ_CHUNK_ALIGN)
        return "chunk_bytes";
    if (c->lead_idle_ns > WL_MAX_NS)
        return "lead_idle_ns";
    if (!pool || c->wl.pages > pool->n)
        return "pages";
    return 0;
}

/* Hand the buffered FAULT events to ops->populate; times them as faults. */
static void flush_faults(const struct pz_ops *ops, struct pz_tally *t, const struct wl_event *ev,
                         size_t *n)
{
    if (!*n)
        return;
    uint64_t a = ops->now(ops->ctx);
    uint64_t skip = ops->populate(ops->ctx, ev, *n);
    t->populate += ops->now(ops->ctx) - a - skip;
    t->excluded += skip;
    t->faults += *n;
    *n = 0;
}

int pz_run(struct pool *pool, struct spinlock *lock, const struct pz_config *c,
           const struct pz_ops *ops, struct pz_tally *t, const char **why)
{
    struct wl_gen g;
    struct wl_event e;
    const char *bad = c ? check_config(pool, c, ops) : "policy";
    *t = (struct pz_tally){0};
    if (!bad && workload_init(&g, &c->wl, &bad) == WL_OK)
        bad = 0;
    if (why)
        *why = bad ? bad : "";
    if (bad)
        return -1;
    void *x = ops->ctx;

    uint64_t a = ops->now(x);
    if (c->policy.kind == PZ_BOOT) { /* before the workload, timed apart */
        spin_lock(lock);
        pool_zero_some(pool, UINT32_MAX, ZERO_BOOT, 0);
        spin_unlock(lock);
        t->prezero = ops->now(x) - a;
    }
    if (c->lead_idle_ns) {
        t->lead_idle_ns = c->lead_idle_ns;
        idle_period(pool, lock, c, ops, t, c->lead_idle_ns);
    }

    static struct wl_event buf[PZ_POPULATE_MAX]; /* the runner is not re-entered */
    size_t nbuf = 0;
    bool parallel = ops->populate && c->wl.cpus > 1;
    uint64_t start = ops->now(x), nominal = 0;
    while (workload_next(&g, &e)) {
        if (!parallel || e.op != WL_FAULT || e.at_ns > nominal)
            flush_faults(ops, t, buf, &nbuf); /* a run of FAULTs ends */
        if (e.at_ns > nominal) {              /* hold time: pages in use, the CPU busy */
            ops->wait_until(x, ops->now(x) + ticks(ops, e.at_ns - nominal));
            nominal = e.at_ns;
        }
        if (parallel && e.op == WL_FAULT) {
            buf[nbuf++] = e;
            if (nbuf == PZ_POPULATE_MAX)
                flush_faults(ops, t, buf, &nbuf);
            continue;
        }
        a = ops->now(x);
        switch (e.op) {
        case WL_FAULT: {
            uint64_t skip = ops->fault(x, e.page);
            t->populate += ops->now(x) - a - skip;
            t->excluded += skip;
            t->faults++;
            break;
        }
        case WL_FREE:
            if (ops->release(x, e.page, c->policy.kind == PZ_ON_FREE) < 0)
                t->release_errors++;
            t->free_time += ops->now(x) - a;
            t->frees++;
            break;
        case WL_IDLE:
            idle_period(pool, lock, c, ops, t, e.arg);
            nominal += e.arg;
            t->idles++;
            break;
        case WL_ZERO_REQUEST:
            t->requests++;
            if (c->policy.kind == PZ_BATCH) {
                uint32_t k = 0;
                spin_lock(lock);
                pool_zero_some(pool, c->policy.batch, ZERO_BATCH, &k);
                spin_unlock(lock);
                t->batch_frames += k;
                t->prezero += ops->now(x) - a;
            }
            break;
        }
    }
    flush_faults(ops, t, buf, &nbuf);
    t->total = ops->now(x) - start - t->excluded;
    return 0;
}

void pz_latency(const uint64_t *sorted, size_t n, struct pz_lat *l)
{
    *l = (struct pz_lat){.n = n};
    if (!n)
        return;
    l->min = sorted[0];
    l->p50 = stats_percentile(sorted, n, 50);
    l->has_p90 = n >= stats_percentile_min_n(90);
    l->has_p99 = n >= stats_percentile_min_n(99);
    l->p90 = l->has_p90 ? stats_percentile(sorted, n, 90) : 0;
    l->p99 = l->has_p99 ? stats_percentile(sorted, n, 99) : 0;
    l->max = sorted[n - 1];
}

/* The samples of one group into scratch, sorted, and their latency. */
static void group(const struct pz_sample *s, size_t n, uint64_t *scratch, int kind, bool busy,
                  struct pz_lat *l)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((kind < 0 || s[i].prezeroed == (kind == 1)) && (!busy || s[i].busy))
            scratch[k++] = s[i].ns;
    stats_compute(&(struct stats){0}, scratch, k); /* sorts */
    pz_latency(scratch, k, l);
}

void pz_split_latency(const struct pz_sample *s, size_t n, uint64_t *scratch, struct pz_split *out)
{
    group(s, n, scratch, -1, false, &out->all);
    group(s, n, scratch, 1, false, &out->hit);
    group(s, n, scratch, 0, false, &out->miss);
    group(s, n, scratch, 1, true, &out->busy_hit);
    group(s, n, scratch, 0, true, &out->busy_miss);
}

uint32_t pz_hit_pct_x100(uint64_t hits, uint64_t faults)
{
    if (!faults)
        return 0;
    if (hits > faults)
        hits = faults;
    /* Past 2^50 faults, scale down; faults + 1 keeps the ratio from rising. */
    unsigned k = 0;
    while ((faults >> k) >= (1ull << 50))
        k++;
    if (k)
        return (uint32_t)((hits >> k) * 10000 / ((faults >> k) + 1));
    return (uint32_t)(hits * 10000 / faults);
}

/* The first accounting rule the pool breaks, or NULL. */
static const char *broken_rule(const struct pool *p, const struct pz_policy_cfg *pc,
                               uint32_t n_dirty_at_start)
{
    static const enum zero_origin own[PZ_NPOLICIES] = {ZERO_FAULT, ZERO_BOOT, ZERO_ON_FREE,
                                                       ZERO_IDLE, ZERO_BATCH};
    const struct pool_counters *c = &p->c;
    struct pool_summary s;
    unsigned __int128 sum = 0;
    if ((unsigned)pc->kind >= PZ_NPOLICIES)
        return "unknown policy";
    for (unsigned o = 0; o < ZERO_NORIGINS; o++) {
        sum += c->bytes_zeroed[o];
        if (o != ZERO_FAULT && o != own[pc->kind] && c->bytes_zeroed[o])
            return "bytes cleared by an origin the policy does not use";
    }
    pool_summarise(p, &s);
    if (c->zeroed_twice || c->bytes_wasted)
        return "a frame was zeroed twice";
    if (sum != (unsigned __int128)c->zero_completed * p->frame_bytes + s.partial_bytes)
        return "cleared bytes != completed frames x frame size + partial cursors";
    if (pc->kind == PZ_NONE && c->taken_prezeroed)
        return "policy none served a pre-zeroed frame";
    if (pc->kind == PZ_BOOT &&
        c->bytes_zeroed[ZERO_BOOT] != (uint64_t)n_dirty_at_start * p->frame_bytes)
        return "boot did not clear every frame exactly once";
    if (pc->kind == PZ_ON_FREE && c->bytes_zeroed[ZERO_ON_FREE] != c->frees * p->frame_bytes)
        return "on_free did not clear exactly one frame per free";
    return 0;
}

int pz_check_accounting(const struct pool *p, const struct pz_policy_cfg *pc,
                        uint32_t n_dirty_at_start, const char **why)
{
    const char *bad = p && pc ? broken_rule(p, pc, n_dirty_at_start) : "no pool";
    if (why)
        *why = bad ? bad : "";
    return bad ? -1 : 0;
}
