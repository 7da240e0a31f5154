/*
 * bench/interference_priv.h - the state the `interference` scenario's two
 * files share: bench/interference.c (set-up, the interleaved rounds) and
 * bench/interference_report.c (the table and the records).
 */
#ifndef HZ_BENCH_INTERFERENCE_PRIV_H
#define HZ_BENCH_INTERFERENCE_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/clear.h"
#include "arch/pmu.h"

#define IF_VICTIMS 5
#define IF_RATES 4
#define IF_ZEROERS 6 /* the spin control and five strategies */
#define IF_MAX_CELLS (1 + IF_ZEROERS * IF_RATES)
#define IF_MAX_ROUNDS 50
#define IF_SUBSAMPLES 5 /* timed passes per victim and run: their median is the sample */

/* A victim: a chase (ns per load) or a read (GB/s). */
struct if_victim {
    const char *name; /* record and column name */
    bool chase;
    uint64_t bytes; /* working set */
    uint64_t work;  /* chase: timed loads; read: timed passes */
    bool warm;      /* an untimed pass first (sets that fit in the LLC) */
    uint64_t start; /* chase: first node */
    uint64_t moved; /* chase: loads (or read: bytes) per timed sample */
};

/* A background zeroer: a strategy and the extent of its calls. */
struct if_zeroer {
    const char *label;              /* "temporal", "rep_stosb_4k", ... */
    const char *strategy;           /* arch/clear.h row */
    uint64_t chunk;                 /* bytes per call, before the share caps it */
    const struct clear_strategy *s; /* NULL: not supported (skipped) */
    uint64_t peak_bps;              /* one CPU's unthrottled rate alone, bytes/s (median) */
    bool verified;
};

/* One cell: a zeroer at a rate, or the victims alone (z == NULL). */
struct if_cell {
    struct if_zeroer *z;
    unsigned rate_pct;                         /* 100: unthrottled */
    uint64_t ns[IF_VICTIMS][IF_MAX_ROUNDS];    /* victim time per round */
    uint64_t steal[IF_VICTIMS][IF_MAX_ROUNDS]; /* victim CPU's steal share, percent x 100 */
    uint64_t zbps[IF_MAX_ROUNDS];              /* all zeroers' bytes/s per round */
    uint64_t pmu[IF_VICTIMS][PMU_EVENTS][IF_MAX_ROUNDS];
    unsigned rounds;
};

struct if_state {
    struct if_victim v[IF_VICTIMS];
    struct if_zeroer z[IF_ZEROERS];
    struct if_cell cell[IF_MAX_CELLS];
    unsigned ncells, nzcpus, vcpu;
    uint64_t l2, llc, share, period_us;
    const char *cache_source;
    bool pmu;
};

extern const unsigned if_rates[IF_RATES];

/* Print the table and emit the `interference_victim` and `interference`
 * records (docs/results.md) from the finished rounds. */
void if_report(const struct if_state *st);

#endif /* HZ_BENCH_INTERFERENCE_PRIV_H */
