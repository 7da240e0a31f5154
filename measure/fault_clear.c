/*
 * measure/fault_clear.c - the fault-clearing models of `fault_clear=`
 * (measure/fault_clear.h): Linux's clear_gigantic_page / folio_zero_user
 * (4 KiB clear_page calls), process_huge_page (v4.14, hot subpage last) and
 * clear_pages() batches (January 2026), each a sequence of memop_clear()
 * calls with cond_resched() check points between them.
 */
#include "measure/fault_clear.h"

#include <stdbool.h>

#include "arch/tsc.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "measure/memop.h"

static const char *const model_names[FAULT_CLEAR_NMODELS] = {"extent", "linux_4k", "linux_hot_last",
                                                             "linux_batch"};

int fault_clear_parse(const char *v, struct fault_clear *out, char *err, size_t n)
{
    for (int m = 0; m < FAULT_CLEAR_NMODELS; m++) {
        size_t len = strlen(model_names[m]);
        if (strncmp(v, model_names[m], len) != 0 || (v[len] && v[len] != '='))
            continue;
        if (v[len] && m != FAULT_CLEAR_LINUX_BATCH)
            return hz_snprintf(err, n, "%s takes no size", model_names[m]), -1;
        uint64_t batch = FAULT_CLEAR_BATCH_DEFAULT;
        if (v[len] && (cmdline_parse_size(v + len + 1, &batch) < 0 || batch < FAULT_CLEAR_PAGE ||
                       batch > (1ull << 30) || batch % FAULT_CLEAR_PAGE))
            return hz_snprintf(err, n, "linux_batch size must be a multiple of 4K in 4K..1G"), -1;
        *out = (struct fault_clear){(enum fault_clear_model)m, batch};
        return 0;
    }
    return hz_snprintf(err, n, "no model '%s'", v), -1;
}

void fault_clear_name(const struct fault_clear *m, char *buf, size_t n)
{
    if (m->model != FAULT_CLEAR_LINUX_BATCH) {
        hz_snprintf(buf, n, "%s", model_names[m->model]);
        return;
    }
    static const char units[] = "KMG";
    uint64_t v = m->batch;
    int u = -1;
    while (u < 2 && v % 1024 == 0)
        v /= 1024, u++;
    if (u < 0)
        hz_snprintf(buf, n, "linux_batch=%llu", (unsigned long long)v);
    else
        hz_snprintf(buf, n, "linux_batch=%llu%c", (unsigned long long)v, units[u]);
}

struct fault_clear_linux fault_clear_linux(const struct fault_clear *m, uint64_t frame_bytes)
{
    const struct fault_clear_linux none = {"none", "-"};
    bool gigantic = frame_bytes > FAULT_CLEAR_MAX_ORDER_BYTES;
    switch (m->model) {
    case FAULT_CLEAR_LINUX_4K:
        return gigantic ? (struct fault_clear_linux){"before_series", "any"} : none;
    case FAULT_CLEAR_LINUX_HOT_LAST:
        return gigantic ? none : (struct fault_clear_linux){"before_series", "any"};
    case FAULT_CLEAR_LINUX_BATCH:
        if (m->batch != FAULT_CLEAR_BATCH_DEFAULT)
            return none;
        return (struct fault_clear_linux){"series",
                                          frame_bytes > m->batch ? "none/voluntary" : "any"};
    default:
        return (struct fault_clear_linux){
            "series", frame_bytes > FAULT_CLEAR_BATCH_DEFAULT ? "full/lazy" : "any"};
    }
}

uint32_t fault_clear_hot_order(uint32_t nr, uint32_t t, uint32_t i)
{
    uint32_t base, l, head;
    if (2 * t <= nr) { /* target in the first half: the end first, downwards */
        base = 0;
        l = t;
        head = nr - 2 * t;
        if (i < head)
            return nr - 1 - i;
    } else { /* target in the second half: the beginning first, upwards */
        base = 2 * t - nr;
        l = nr - t;
        head = base;
        if (i < head)
            return i;
    }
    uint32_t j = i - head, k = j / 2; /* left-right pairs converging on t */
    return j % 2 ? base + 2 * l - 1 - k : base + k;
}

/* cond_resched() with nothing to run: a flag read and a branch. Never set:
 * hugezero runs one task per CPU. */
static volatile uint32_t need_resched;

/* Clear the part of [off, off + len) at or above job->from, then a check point. */
static void piece(struct fault_clear_job *job, uint64_t off, uint64_t len)
{
    if (off + len <= job->from)
        return;
    if (off < job->from) {
        len -= job->from - off;
        off = job->from;
    }
    memop_clear(job->s, job->frame + off, len, 0);
    job->calls++;
    if (need_resched)
        need_resched = 0;
}

/* 4 KiB subpages of [unit, unit + bytes) in process_huge_page order, target
 * subpage t. */
static void hot_unit(struct fault_clear_job *job, uint64_t unit, uint64_t bytes, uint32_t t)
{
    uint32_t nr = (uint32_t)(bytes / FAULT_CLEAR_PAGE);
    for (uint32_t i = 0; i < nr; i++)
        piece(job, unit + fault_clear_hot_order(nr, t, i) * FAULT_CLEAR_PAGE, FAULT_CLEAR_PAGE);
}

static void hot_last(struct fault_clear_job *job, uint64_t hint)
{
    if (job->frame_bytes <= FAULT_CLEAR_UNIT) {
        hot_unit(job, 0, job->frame_bytes, (uint32_t)(hint / FAULT_CLEAR_PAGE));
        return;
    }
    /* 2 MiB units in process_huge_page order (faulting unit last), each one's
     * subpages too, with the target at the fault's offset in its unit. */
    uint32_t nu = (uint32_t)(job->frame_bytes / FAULT_CLEAR_UNIT);
    uint32_t tu = (uint32_t)(hint / FAULT_CLEAR_UNIT);
    uint32_t ts = (uint32_t)(hint % FAULT_CLEAR_UNIT / FAULT_CLEAR_PAGE);
    for (uint32_t i = 0; i < nu; i++)
        hot_unit(job, fault_clear_hot_order(nu, tu, i) * FAULT_CLEAR_UNIT, FAULT_CLEAR_UNIT, ts);
}

void fault_clear_run(void *arg)
{
    struct fault_clear_job *job = arg;
    uint64_t hint = job->hint < job->frame_bytes ? job->hint : job->frame_bytes - 1;
    uint64_t step = job->m->model == FAULT_CLEAR_LINUX_4K      ? FAULT_CLEAR_PAGE
                    : job->m->model == FAULT_CLEAR_LINUX_BATCH ? job->m->batch
                                                               : job->frame_bytes;
    job->calls = 0;
    uint64_t t0 = tsc_start();
    if (job->m->model == FAULT_CLEAR_LINUX_HOT_LAST) {
        hot_last(job, hint);
    } else {
        for (uint64_t off = 0; off < job->frame_bytes; off += step)
            piece(job, off, job->frame_bytes - off < step ? job->frame_bytes - off : step);
    }
    job->cycles = tsc_stop() - t0;
}

size_t fault_clear_taken_out(const uint64_t *service, const uint64_t *clear, size_t n,
                             uint64_t *out)
{
    size_t unnested = 0;
    for (size_t i = 0; i < n; i++) {
        bool nested = clear[i] <= service[i];
        unnested += !nested;
        out[i] = nested ? service[i] - clear[i] : service[i];
    }
    return unnested;
}

void fault_clear_gain(const uint64_t *t4k, size_t n4k, const uint64_t *tb, const uint64_t *tb_pre,
                      size_t nb, unsigned tol_x100, uint64_t *scratch, struct fault_clear_gain *g)
{
    const uint64_t same = 1ull << 30; /* equal sizes: times compared as they are */
    *g = (struct fault_clear_gain){.cover_x100 = 9500};
    cmp_compare(tb, nb, same, t4k, n4k, same, CMP_Z95_X1000, tol_x100, scratch, &g->gain);
    cmp_compare(tb, nb, same, tb_pre, nb, same, CMP_Z95_X1000, tol_x100, scratch, &g->left);
    g->left_pct_x1000 = cmp_saved_pct_x1000(g->left.ratio_x1e6);
    g->left_lo_x1000 = cmp_saved_pct_x1000(g->left.hi_x1e6);
    g->left_hi_x1000 = cmp_saved_pct_x1000(g->left.lo_x1e6);
}
