/*
 * lib/verdict_priv.h - what the verdict's files share (lib/verdict.c: cells,
 * comparisons, trust; lib/verdict_clear.c: the clear and non-temporal
 * items; lib/verdict_idle.c: idle zeroer; lib/verdict_items.c: fault;
 * lib/verdict_vm.c: VM start; lib/verdict_numa.c: numa). Not a public
 * interface.
 */
#ifndef HZ_LIB_VERDICT_PRIV_H
#define HZ_LIB_VERDICT_PRIV_H

#include "lib/verdict.h"

/* One decision in progress. */
struct vd_ctx {
    const struct vd_cell *v;
    size_t n;
    const struct vd_facts *f;
    unsigned tol;       /* tolerance, percent x 100 */
    struct vd_log *log; /* NULL: not logged */
    bool *open;         /* verdict_open(): cells of undecided comparisons; NULL otherwise */
    unsigned nopen;     /* undecided comparisons that decide something */
};

/*
 * Compare cell b with cell a (B/A of time per byte, lib/compare.h) at z for
 * item `item` into *c, and log it. `decides`: the comparison decides
 * something, so an undecided outcome opens both cells (verdict_open()).
 */
void vd_compare(struct vd_ctx *x, enum vd_item_id item, const struct vd_cell *a,
                const struct vd_cell *b, unsigned z_x1000, bool decides, struct cmp *c);

/* GB/s x 1000 of a clear, smp or vmstart cell's median, and of its
 * interval's ends. */
uint64_t vd_gbps(const struct vd_cell *c);
uint64_t vd_gbps_lo(const struct vd_cell *c);
uint64_t vd_gbps_hi(const struct vd_cell *c);

/* B/A of time (x 10^6) as a speed-up of B over A x 1000, rounded to nearest;
 * UINT64_MAX for 0. */
uint64_t vd_speedup_x1000(uint64_t ratio_x1e6);

/* x1000 / 1000 with `digits` (0..3) decimals, rounded to nearest, into b. */
const char *vd_dec(char *b, size_t n, uint64_t x1000, unsigned digits);

/* The cell's headline into buf: "38.1 GB/s [37.6..38.5], peak 38.9" (fault:
 * "16.70 ms [16.50..16.90], best 16.20"), then its Tukey count when it has
 * slow outliers (", 2/10 slow outliers 1.30-1.80x the median", "3 severe")
 * and " (> 1/4 outliers)" when stats_outliers_many(). Returns its length. */
size_t vd_headline(const struct vd_cell *c, char *buf, size_t cap);

/* Name cell c in the item's cells (up to VD_ITEM_CELLS, each once; NULL:
 * nothing):
 * its id in it->cells, its scenario and short id for it->source, which
 * verdict_decide() builds after the item (every item function only calls
 * this for each cell it used, and the text gets "(run=NAME: ...)"). */
void vd_use_cell(struct vd_item *it, const struct vd_cell *c);

/* True when scenario `name` ("fault") ran: it is in x->f->ran, or, when
 * that is NULL, a cell of its kind was handed in. */
bool vd_ran(const struct vd_ctx *x, const char *name);

/* Add a figure to it->extra (the record's `figures`; up to VD_EXTRAS, NULL
 * past them): name and unit are static strings; the interval of a
 * lib/compare.h comparison has the nominal coverage of its z
 * (CMP_Z95_X1000: 9500). */
struct vd_extra *vd_extra_add(struct vd_item *it, const char *name, const char *unit,
                              uint64_t x1000, uint64_t lo_x1000, uint64_t hi_x1000,
                              unsigned cover_x100, int outcome);

/* A tolerance (percent x 100) as "5" or "2.50", into b. */
const char *vd_tol(char *b, size_t n, unsigned tol_x100);

/* Appends to buf (cap bytes, NUL-terminated at len) like hz_snprintf;
 * returns the new length (kept below cap). */
size_t vd_cat(char *buf, size_t cap, size_t len, const char *fmt, ...);

/* "not decided: " + text + " (interval [lo..hi] straddles +-X% at n = a..b)"
 * into it->reason: the main comparison's interval is B/A of time,
 * printed as a speed-up when `speed`. */
void vd_undecided(struct vd_item *it, const struct vd_ctx *x, uint64_t lo_x1e6, uint64_t hi_x1e6,
                  bool speed, size_t nmin, size_t nmax);

/* The items (lib/verdict_clear.c, lib/verdict_items.c). *best gets the
 * best usable candidate of a clear item (NULL when none). */
void vd_decide_clear(struct vd_ctx *x, struct vd_item *it, uint64_t page,
                     const struct vd_cell **best);
/* The non-temporal item at the call size of lead1g, the 1 GiB item's
 * winner (NULL when it has none: then the largest call size with both a
 * non-temporal and a temporal cell). */
void vd_decide_nontemporal(struct vd_ctx *x, struct vd_item *it, const struct vd_cell *lead1g);
/* The idle zeroer item (lib/verdict_idle.c): from run=interference's cells
 * when there are any, else the CPU per GiB of `best`, the 1 GiB item's
 * leader (c1g's reason when NULL), with the neighbour cost not measured. */
void vd_decide_idle(struct vd_ctx *x, struct vd_item *it, const struct vd_item *c1g,
                    const struct vd_cell *best);
void vd_decide_fault(struct vd_ctx *x, struct vd_item *it);
/* The VM start item (lib/verdict_vm.c): run=vmstart's qemu rows and the
 * model of lib/vmmodel.h with its ceiling. */
void vd_decide_vmstart(struct vd_ctx *x, struct vd_item *it);
/* The numa item (lib/verdict_numa.c): remote against local clearing. */
void vd_decide_numa(struct vd_ctx *x, struct vd_item *it);

/* Linux's clear_page cell (rep_stosb, 4 KiB calls, cold) on `target` when
 * usable, else NULL (lib/verdict_clear.c). */
const struct vd_cell *vd_clear_base(const struct vd_ctx *x, uint64_t target);
/* An outcome as the item texts say it ("tie within +-5%", "faster", ...), into b. */
const char *vd_outcome_words(const struct vd_ctx *x, int o, char *b, size_t cap);

/* The cold large target: the largest bytes of any cold clear cell (0: none). */
uint64_t vd_clear_target(const struct vd_cell *v, size_t n);

#endif /* HZ_LIB_VERDICT_PRIV_H */
