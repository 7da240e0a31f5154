/*
 * lib/verdict.h - how this machine should zero memory: the items of the
 * `verdict` record (docs/results.md `verdict`, issue 13) decided from the
 * cells a run measured.
 *
 * Rules. A cell may decide an item only when it is verified (every repeat
 * read back zero; a cold cell's coldness checked), not `noisy` (lib/stats.h
 * stats_noisy(): CV above 10 % or min/median below 0.8) and has at least
 * VD_MIN_REPEATS repeats; otherwise the item is "not decided: too noisy"
 * naming the cell. A noisy candidate whose interval reaches above the
 * winner's median blocks the item too (it might be the faster one). Under
 * TCG no speed item is decided. "Faster" in an answer means the 95 %
 * intervals of the medians do not overlap.
 *
 * Portable C (no kernel headers, prints nothing): the kernel feeds it its
 * cells, the host unit tests fixture sets (tests/unit/test_verdict.c).
 */
#ifndef HZ_LIB_VERDICT_H
#define HZ_LIB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

#define VD_MIN_REPEATS 10
#define VD_TEXT_MAX 320
#define VD_ID_MAX 48
#define VD_ITEM_CELLS 4 /* cells named per item */
#define VD_WORST 3      /* worst-CV cells the trust item names */

enum vd_kind {
    VD_CLEAR, /* run=clear: one thread, st = ns per repeat */
    VD_SMP,   /* run=smp scaling: st = wall ns per repeat on `threads` CPUs */
    VD_FAULT, /* run=fault: st = access ns of one demand fault */
};

struct vd_cell {
    enum vd_kind kind;
    const char *strategy; /* clear/smp: strategy name (outlives the call); fault: NULL */
    bool nontemporal;     /* the strategy's stores bypass the caches (NT or CLZERO) */
    uint64_t chunk;       /* clear/smp: bytes per call */
    uint64_t bytes;       /* clear/smp: bytes cleared per repeat; fault: page bytes */
    bool cold;            /* clear: evicted before every repeat */
    unsigned threads;     /* 1 for clear and fault */
    bool prezeroed;       /* fault: the frame was zeroed before the fault */
    bool verified;        /* read back zero after every repeat (and, cold: coldness checked) */
    struct stats st;      /* in ns, lib/stats.h stats_compute() */
};

/* What the run knows about how far its figures can be trusted. */
struct vd_facts {
    const char *run;        /* "default", "full", "list" (for "not measured in run=...") */
    bool tcg;               /* QEMU TCG: emulator timings */
    const char *hypervisor; /* "KVM", "TCG", ... or "" on bare metal */
    const char *tsc_source; /* arch/tsc.h: "cpuid-15h", "hv-leaf", "pit", ... */
    bool tsc_invariant;     /* CPUID 0x80000007 EDX[8] */
    const char *backing;    /* guest RAM backing: "4k", "hugetlbfs-2M", "hugetlbfs-1G",
                               "unknown", "bare metal" */
    int cpl;                /* privilege level of the measurements (0 or 3) */
    bool emulated_ring0;    /* the start-up probe found ring 0 emulated */
    bool steal_known;       /* steal_x100 was measured */
    uint64_t steal_x100;    /* host steal share of the measured cells, percent x 100 */
};

enum vd_item_id {
    VD_CLEAR_1G,
    VD_CLEAR_2M,
    VD_NONTEMPORAL,
    VD_FAULT_ITEM,
    VD_IDLE,
    VD_VMSTART,
    VD_TRUST,
    VD_NITEMS
};

struct vd_item {
    const char *item;  /* "clear_1g", ... (record key `item`) */
    const char *label; /* "1 GiB page", ... (console block) */
    bool decided;
    char text[VD_TEXT_MAX];      /* the sentence, with figure, interval and baseline */
    char answer[32];             /* short answer ("avx512_nt/2M", "from 2M", "no"); "" = null */
    const char *unit;            /* "GB/s", "ms", "ms/GiB", "s/TiB"; NULL = no figure */
    uint64_t fig_x1000;          /* the deciding figure x 1000 ... */
    uint64_t lo_x1000, hi_x1000; /* ... and its 95 % interval */
    char baseline[32];           /* what it is compared with, "" = none */
    uint64_t base_x1000;         /* baseline figure x 1000 (same unit) */
    uint64_t ratio_x100;         /* figure / baseline x 100 (0 = none) */
    char cells[VD_ITEM_CELLS][VD_ID_MAX]; /* ids of the cells used */
    unsigned ncells;
    char reason[VD_TEXT_MAX]; /* when !decided */
    bool model;               /* vmstart: extrapolated, not measured */
};

/* The trust item's extra members. */
struct vd_trust {
    uint64_t worst_cv_x100;          /* highest CV of any cell (0 with none) */
    char worst[VD_WORST][VD_ID_MAX]; /* the cells with the highest CVs, worst first */
    unsigned nworst;
    unsigned noisy_cells; /* cells that are noisy, unverified or short of repeats */
    unsigned cells;       /* cells seen */
};

/*
 * The id of cell c into buf (cap bytes, VD_ID_MAX is enough):
 * "clear/avx512_nt/2M/cold/1G" (strategy/chunk/cache/target),
 * "smp/avx512_nt/2T/1G" (strategy/threads/bytes), "fault/sync/1G" or
 * "fault/prezeroed/1G". Sizes as 4K, 2M, 1G, 64M (the largest exact unit).
 */
void vd_cell_id(const struct vd_cell *c, char *buf, size_t cap);

/* True when c may decide an item (see the rules above); else *why (cap
 * bytes) says why not, e.g. "clear/x/4K/cold/1G CV 14.20% > 10%". */
bool vd_cell_usable(const struct vd_cell *c, char *why, size_t cap);

/*
 * Decide every item from cells[0..n) (n may be 0) under facts f, into
 * out[VD_NITEMS] (in enum order, the order of the record) and *t.
 * Deterministic; never fails: an item without its cells is not decided
 * with reason "not measured in this run (run=...)".
 */
void verdict_decide(const struct vd_cell *cells, size_t n, const struct vd_facts *f,
                    struct vd_item out[VD_NITEMS], struct vd_trust *t);

#endif /* HZ_LIB_VERDICT_H */
