/*
 * measure/fault_clear.h - how a demand fault clears its frame (`fault_clear=`):
 * one model per value, each following a named Linux function and version.
 * The instruction is still `zero=` (Linux: clear_page_erms is REP STOSB,
 * clear_page_rep REP STOSQ; arch/x86/lib/clear_page_64.S).
 *
 *   extent          one call of the strategy over the whole frame (hugezero's
 *                   own fault path, no Linux counterpart)
 *   linux_4k        4 KiB clear_page calls in address order with a
 *                   cond_resched() check point between them:
 *                   clear_gigantic_page() / folio_zero_user() (mm/memory.c)
 *                   before the January 2026 clear_pages() series
 *   linux_hot_last  4 KiB calls in process_huge_page() order (Huang Ying,
 *                   v4.14, mm/memory.c), see fault_clear_hot_order(); for a
 *                   frame above 2 MiB (1 GiB) the 2 MiB units are ordered the
 *                   same way (hugezero's extension: Linux clears gigantic
 *                   pages in address order)
 *   linux_batch=S   clear_pages() over contiguous, S-aligned extents of at
 *                   most S bytes in address order, a check point between
 *                   them (the January 2026 series; S defaults to 32 MiB,
 *                   PROCESS_PAGES_NON_PREEMPT_BATCH as merged in commit
 *                   94962b2628; v5-v8 used 8 MiB)
 *
 * Which Linux build each model stands for depends on the frame size:
 * fault_clear_linux() says (docs/prezero.md "Linux-faithful fault clearing").
 *
 * A check point models cond_resched() on a non-preemptible kernel with
 * nothing else to run: one load of a flag that is never set and a branch.
 *
 * Portable (memory accesses and the TSC only), like measure/memop.h: runs at
 * CPL 3 under arch/user.h and in host unit tests.
 */
#ifndef HZ_MEASURE_FAULT_CLEAR_H
#define HZ_MEASURE_FAULT_CLEAR_H

#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"
#include "lib/compare.h"

#define FAULT_CLEAR_PAGE 4096ull                /* clear_page()'s unit: PAGE_SIZE on x86-64 */
#define FAULT_CLEAR_UNIT (2ull << 20)           /* HPAGE_PMD_SIZE: process_huge_page's page */
#define FAULT_CLEAR_BATCH_DEFAULT (32ull << 20) /* linux_batch's default bound */
/* MAX_ORDER_NR_PAGES x 4 KiB on x86-64 (MAX_PAGE_ORDER 10, include/linux/
 * mmzone.h): a folio above it is gigantic (clear_gigantic_page() before the
 * series, one straight extent with it), one at or below it goes through
 * process_huge_page() before the series. */
#define FAULT_CLEAR_MAX_ORDER_BYTES (4ull << 20)

enum fault_clear_model {
    FAULT_CLEAR_EXTENT,
    FAULT_CLEAR_LINUX_4K,
    FAULT_CLEAR_LINUX_HOT_LAST,
    FAULT_CLEAR_LINUX_BATCH,
    FAULT_CLEAR_NMODELS
};

struct fault_clear {
    enum fault_clear_model model;
    uint64_t batch; /* LINUX_BATCH: bytes per clear_pages() extent */
};

/*
 * Parse a `fault_clear=` value: "extent", "linux_4k", "linux_hot_last",
 * "linux_batch" (32 MiB) or "linux_batch=SIZE" (lib/cmdline.h sizes; a
 * multiple of 4 KiB, 4 KiB..1 GiB). Returns 0 and *out, or -1 with a reason
 * in err (n bytes) and *out unchanged.
 */
int fault_clear_parse(const char *v, struct fault_clear *out, char *err, size_t n);

/* The model's name as records print it: "extent", "linux_4k",
 * "linux_hot_last", "linux_batch=32M" (size in K/M/G when exact). */
void fault_clear_name(const struct fault_clear *m, char *buf, size_t n);

/* The Linux build a model stands for on frames of a given size. */
struct fault_clear_linux {
    const char *kernel;  /* "before_series": before the clear_pages() series;
                          * "series": with it as merged (94962b2628);
                          * "none": no kernel build clears this way */
    const char *preempt; /* the preemption models it holds under: "any",
                          * "none/voluntary" (batches: cond_resched() needs
                          * them), "full/lazy" (the whole folio in one extent);
                          * "-" with kernel "none" */
};

/*
 * What a Linux build does that model m stands for on frames of frame_bytes:
 *   linux_4k        before_series/any above FAULT_CLEAR_MAX_ORDER_BYTES
 *                   (clear_gigantic_page()), else none;
 *   linux_hot_last  before_series/any at or below it (process_huge_page()),
 *                   else none;
 *   linux_batch=32M series/none-voluntary when the frame is above 32 MiB,
 *                   else series/any (one extent either way); another size
 *                   is none (v5-v8's 8 MiB was never merged);
 *   extent          series/full-lazy above 32 MiB (preemptible models
 *                   ignore the batch: one extent), else series/any.
 * Static strings; never NULL.
 */
struct fault_clear_linux fault_clear_linux(const struct fault_clear *m, uint64_t frame_bytes);

/*
 * The i-th (0-based) subpage process_huge_page() processes in a huge page
 * of nr subpages whose target (faulting) subpage is t (t < nr, i < nr):
 *   2t <= nr: nr-1, nr-2, ..., 2t, then t pairs  (k, 2t-1-k) for k = 0..t-1
 *   2t >  nr: 0, 1, ..., b-1 with b = 2t-nr, then nr-t pairs
 *             (b+k, b+2(nr-t)-1-k) for k = 0..nr-t-1
 * so the subpages far from t come first and t itself is last. Example,
 * nr 8: t 2 gives 7 6 5 4 0 3 1 2; t 5 gives 0 1 2 7 3 6 4 5.
 */
uint32_t fault_clear_hot_order(uint32_t nr, uint32_t t, uint32_t i);

/* One frame to clear: the argument of fault_clear_run(). */
struct fault_clear_job {
    const struct fault_clear *m;
    const struct clear_strategy *s; /* the `zero=` strategy, supported on this CPU */
    uint8_t *frame;                 /* frame base, 4 KiB aligned */
    uint64_t frame_bytes;           /* a multiple of 4 KiB; above 2 MiB: of 2 MiB */
    uint64_t from;                  /* bytes [0, from) are already zero: skipped */
    uint64_t hint;                  /* offset of the faulting address (addr_hint) */
    /* results */
    uint64_t cycles; /* TSC cycles, tsc_start() to tsc_stop() (arch/tsc.h) */
    uint64_t calls;  /* calls of the strategy made */
};

/*
 * Clear [frame + from, frame + frame_bytes) the way job->m says, through
 * memop_clear() (measure/memop.h): the shape of arch/user.h's user_run()
 * callback. Pieces that start below `from` are cut at it; `from` and every
 * piece must meet the strategy's contract (4 KiB multiples do for every row
 * of arch/clear.c). hint >= frame_bytes is taken as frame_bytes - 1.
 */
void fault_clear_run(void *arg);

/*
 * What run=faultclear predicts for one strategy and frame size
 * (docs/prezero.md "Linux-faithful fault clearing"), by lib/compare.h's
 * rule at CMP_Z95_X1000, one look: a 95 % distribution-free interval
 * (Hodges-Lehmann ratio, Moses interval; large-sample rank).
 */
struct fault_clear_gain {
    /* B = linux_4k over A = linux_batch service time: ratio_x1e6 / 10^6 is
     * the predicted clear_pages() gain, [lo, hi] its interval; outcome
     * `slower` (linux_4k slower) is a gain at the tolerance */
    struct cmp gain;
    /* B = linux_batch service - clear (the fault from a pre-zeroed frame)
     * over A = linux_batch service */
    struct cmp left;
    /* 1 - left: the share of a clear_pages() fault that pre-zeroing takes
     * out, percent x 1000, and its interval (cmp_saved_pct_x1000()) */
    uint64_t left_pct_x1000, left_lo_x1000, left_hi_x1000;
    unsigned cover_x100; /* the intervals' nominal coverage: 9500 */
};

/*
 * out[i] = service[i] - clear[i], i < n: what each fault would have cost
 * from a pre-zeroed frame. The clear's window lies inside the service
 * window on one clock with the same fences (mm/demand.h), so clear <=
 * service by construction; a sample where it is not (a TSC that stepped
 * back) gets out[i] = service[i], nothing taken out, so it can only make
 * pre-zeroing look worse, never better, and is counted: returns how many.
 * out may be service.
 */
size_t fault_clear_taken_out(const uint64_t *service, const uint64_t *clear, size_t n,
                             uint64_t *out);

/*
 * The prediction into *g from the linux_4k service times t4k[0..n4k) and
 * the linux_batch ones tb[0..nb) with tb_pre[0..nb) their clear taken out
 * (fault_clear_taken_out()), all ns for frames of the same size, at the
 * tolerance tol_x100. scratch holds cmp_scratch_len(CMP_MAX_N, CMP_MAX_N)
 * entries; past CMP_MAX_N samples a side the first CMP_MAX_N are used. Too
 * few samples (< CMP_MIN_N) give CMP_TOO_FEW outcomes, never a crash.
 */
void fault_clear_gain(const uint64_t *t4k, size_t n4k, const uint64_t *tb, const uint64_t *tb_pre,
                      size_t nb, unsigned tol_x100, uint64_t *scratch, struct fault_clear_gain *g);

#endif /* HZ_MEASURE_FAULT_CLEAR_H */
