/*
 * lib/verdict_priv.h - what the verdict's files share (lib/verdict.c: cells,
 * comparisons, trust; scenarios/clear/verdict.c: the clear and non-temporal
 * items; scenarios/interference/verdict.c: idle zeroer; scenarios/fault/verdict.c: fault;
 * scenarios/vmstart/verdict.c: VM start; scenarios/numa/verdict.c: numa). Not a public
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
    unsigned tol;          /* tolerance, percent x 100 */
    struct vd_log *log;    /* NULL: not logged */
    bool *open;            /* verdict_open(): cells of undecided comparisons; NULL otherwise */
    unsigned nopen;        /* undecided comparisons that decide something */
    struct vd_item *items; /* the items decided so far, in order ... */
    size_t nitems;         /* ... and how many (vd_done_item()) */
    const struct vd_cell *best1g; /* the 1 GiB item's best usable candidate, or NULL */
    struct vd_trust *t;           /* the trust item's members */
};

/*
 * Compare cell b with cell a (B/A of time per byte, lib/compare.h
 * cmp_compare_sides()) at z for item `item` into *c, and log it. Cells of
 * one interleaved run (the same factor_x1e6, nfactors > 0) have their
 * rounds removed (rule "rounds removed", why "same run", over the rounds
 * both ran); else two samples, why "different runs" (two factor arrays,
 * or two kinds of cell) or "no round factors". Each side's CPUs are
 * vd_cell_cpus(). `decides`: the comparison decides something, so an
 * undecided outcome opens both cells (verdict_open()).
 */
void vd_compare(struct vd_ctx *x, const char *item, const struct vd_cell *a,
                const struct vd_cell *b, unsigned z_x1000, bool decides, struct cmp *c);

/* GB/s x 1000 of a clear, smp or vmstart cell's median, and of its
 * interval's ends. */
uint64_t vd_gbps(const struct vd_cell *c);
uint64_t vd_gbps_lo(const struct vd_cell *c);
uint64_t vd_gbps_hi(const struct vd_cell *c);

/* B/A of time (x 10^6) as a speed-up of B over A x 1000, rounded to nearest;
 * UINT64_MAX for 0. */
uint64_t vd_speedup_x1000(uint64_t ratio_x1e6);

/* Name cell c in the item's cells (up to VD_ITEM_CELLS, each once; NULL:
 * nothing): its id in it->cells, its scenario and short id for
 * vd_item_source() (lib/verdict_text.h; every item function only calls
 * this for each cell it used). */
void vd_use_cell(struct vd_item *it, const struct vd_cell *c);

/* True when scenario `name` ("fault") ran: it is in x->f->ran, or, when
 * that is NULL, a cell of its kind was handed in. */
bool vd_ran(const struct vd_ctx *x, const char *name);

/* True when cell c was measured by scenario `run` ("faultclear"): its
 * kind's run. An item reads another scenario's cells this way, as its row
 * names the scenarios that measure it (.runs), with no header of theirs. */
bool vd_cell_of(const struct vd_cell *c, const char *run);

/* Add a figure to it->extra (the record's `figures`; up to VD_EXTRAS, NULL
 * past them): name and unit are static strings; the interval of a
 * lib/compare.h comparison has the nominal coverage of its z
 * (CMP_Z95_X1000: 9500). */
struct vd_extra *vd_extra_add(struct vd_item *it, const char *name, const char *unit,
                              uint64_t x1000, uint64_t lo_x1000, uint64_t hi_x1000,
                              unsigned cover_x100, int outcome);

/* Add argument `key` (a static string) to it->args as text s (static or
 * outliving the item; NULL: "?"), or as the number u (a size in bytes,
 * written "2M", when `size`); a key given twice keeps the last value. */
void vd_arg_str(struct vd_item *it, const char *key, const char *s);
void vd_arg_u64(struct vd_item *it, const char *key, uint64_t u, bool size);

/* Copy src into dst (cap bytes, cut, NUL-terminated): a static answer or
 * baseline ("prezero pays"). */
void vd_set_text(char *dst, size_t cap, const char *src);

/* Reason VD_R_LEFT_OUT: cell c (the first candidate left out) and how many
 * more were. */
void vd_left_out(struct vd_item *it, const struct vd_cell *c, unsigned more);

/* The main comparison's outcome and samples a side into it. */
void vd_main_cmp(struct vd_item *it, const struct cmp *c);

/* Not decided: the main comparison's interval straddles a tolerance bound
 * (VD_R_STRADDLES) at nmin..nmax samples a side. */
void vd_open(struct vd_item *it, size_t nmin, size_t nmax);

/* The item with record key `key` when it was decided before the one being
 * decided (a lower order, lib/verdict.h HZ_VERDICT_ITEM), else NULL: the
 * non-temporal and idle items read the 1 GiB clear item this way. */
const struct vd_item *vd_done_item(const struct vd_ctx *x, const char *key);

#endif /* HZ_LIB_VERDICT_PRIV_H */
