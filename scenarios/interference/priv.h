/*
 * scenarios/interference/priv.h - the state the `interference` scenario's
 * kernel files share: scenarios/interference/run.c (set-up, runs, peaks, the
 * interleaved rounds), scenarios/interference/refs.c (the residency phase),
 * scenarios/interference/host.c (can this host answer?),
 * scenarios/interference/report.c (the tables and records) and
 * scenarios/interference/rank.c (the ranking and the verdict's cells).
 */
#ifndef HZ_SCENARIOS_INTERFERENCE_PRIV_H
#define HZ_SCENARIOS_INTERFERENCE_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/clear.h"
#include "arch/pmu.h"
#include "lib/compare.h"
#include "lib/plan.h"
#include "lib/stats.h"
#include "scenarios/interference/interference.h"

#define IF_VICTIMS 5
#define IF_REFS 4 /* L2 and LLC references, chase and read (DRAM: the 4 x LLC victims) */
#define IF_RATES 4
#define IF_ZEROERS 6 /* the spin control and five strategies */
#define IF_MAX_CELLS (1 + IF_ZEROERS * IF_RATES)
#define IF_MAX_ROUNDS 50
#define IF_SUBSAMPLES 5      /* timed passes per victim and run: their median is the sample */
#define IF_PEAK_ROUNDS 7     /* interleaved peak cells per zeroer: the base rate's median */
#define IF_RES_ROUNDS 7      /* interleaved runs of the residency phase ... */
#define IF_RES_MIN 3         /* ... at least (a median and its interval) ... */
#define IF_RES_BUDGET_S 15   /* ... and no more starting this long past the start */
#define IF_MISS_PCT 10       /* achieved rate this far from the target: flagged */
#define IF_BURST_PERIODS 100 /* the pacing bucket holds a piece and this many periods */
#define IF_HOST_ROUNDS 6     /* host check rounds: CMP_MIN_N, the fewest a comparison takes */
#define IF_HOST_BUDGET_S 25  /* no host check round starts this long past the start */

/* A victim or a reference: a chase (ns per load) or a read (GB/s). */
struct if_victim {
    const char *name; /* record and column name */
    bool chase;
    uint64_t bytes;                 /* working set */
    uint64_t work;                  /* chase: timed loads; read: timed passes */
    bool warm;                      /* an untimed pass first (sets that fit in the LLC) */
    uint64_t start;                 /* chase: first node */
    uint64_t moved;                 /* chase: loads (or read: bytes) per timed sample */
    const struct split_extent *ext; /* its memory */
    size_t next;
    enum if_level want;  /* the level its size aims at */
    enum if_level level; /* measured (scenarios/interference/refs.c) */
    uint64_t unit_x1000; /* measured alone: ns per load or per 64-byte line read, x 1000 */
};

/* A background zeroer: a strategy and the extent of its calls. */
struct if_zeroer {
    const char *label;              /* "temporal", "rep_stosb_4k", ... */
    const char *strategy;           /* arch/clear.h row */
    uint64_t chunk;                 /* bytes per call, before the share caps it */
    const struct clear_strategy *s; /* NULL: not supported (skipped) */
    uint64_t peak_bps;              /* one CPU's unthrottled rate alone, bytes/s: median ... */
    uint64_t peak_lo, peak_hi;      /* ... of IF_PEAK_ROUNDS interleaved cells, its interval */
    unsigned peak_cover_x100;       /* the interval's coverage */
    bool verified;
};

/* One cell: a zeroer at a rate, or the victims alone (z == NULL). */
struct if_cell {
    struct if_zeroer *z;
    unsigned rate_pct;                         /* 100: unthrottled */
    uint64_t piece;                            /* bytes per paced call (0: unthrottled) */
    uint64_t ns[IF_VICTIMS][IF_MAX_ROUNDS];    /* victim time per round */
    uint64_t steal[IF_VICTIMS][IF_MAX_ROUNDS]; /* victim CPU's steal share, percent x 100 */
    uint64_t zbps[IF_MAX_ROUNDS];              /* all zeroers' bytes/s per round */
    uint64_t zcpg[IF_MAX_ROUNDS];              /* TSC cycles in clear calls per GiB cleared */
    uint64_t pmu[IF_VICTIMS][PMU_EVENTS][IF_MAX_ROUNDS];
    unsigned rounds;
};

struct if_state {
    struct if_victim v[IF_VICTIMS];
    struct if_victim ref[IF_REFS];        /* chase L2/4, chase LLC ref, read L2/4, read LLC ref */
    struct if_refs chase_refs, read_refs; /* x 1000 per access, from the residency phase */
    bool llc_resident;                    /* the LLC-sized victims are classed LLC */
    struct if_zeroer z[IF_ZEROERS];
    struct if_cell cell[IF_MAX_CELLS];
    unsigned ncells, nzcpus, vcpu;
    uint64_t l2, llc, share, period_us;
    uint64_t chase_seed; /* the chases' seed (interf_seed=): build_chases' input */
    const char *cache_source;
    bool pmu;
    unsigned tol_x100;
};

extern const unsigned if_rates[IF_RATES];

/* The cache sizes the victims are sized by into st->l2, st->llc and
 * st->cache_source (CPUID's, the interf_l2= / interf_llc= values l2_opt,
 * llc_opt when not 0, fallbacks under TCG or without the leaves); returns
 * the loads of one chase sample. Takes nothing: if_setup_victims() and
 * the `.plan` hook share it. */
uint64_t if_sizes(struct if_state *st, uint64_t l2_opt, uint64_t llc_opt);

/* Size the victims and the references from CPUID's caches (or the
 * interf_l2= / interf_llc= values l2_opt, llc_opt; 0: CPUID), take their
 * memory and build the chases with `seed`; false with a `skip` record when
 * memory is short (scenarios/interference/refs.c). if_release_victims() gives
 * the memory back. */
bool if_setup_victims(struct if_state *st, uint64_t l2_opt, uint64_t llc_opt, uint64_t seed);
void if_release_victims(void);

/* Run the listed victims (or refs) once on the victim CPU with no zeroer,
 * their times per access into unit_x1000 of each (scenarios/interference/run.c).
 * False when the run failed (a result_fail said why). */
bool if_run_alone(struct if_victim *const *list, unsigned n, uint64_t *ns_out);

/* One run of every victim with cell c's zeroer (none for the victims alone)
 * at its rate, appended to c's rounds; contend: each victim pass also
 * spends its own length again inside its timed window, as a tenant
 * sharing the victim's CPU would take it (interf_host=contend, a test
 * aid). False when c is full or the run failed (a result_fail said why). */
bool if_run_cell(struct if_cell *c, uint64_t seed, bool contend);

/* Can this host answer? After the residency phase and before any zeroer:
 * IF_HOST_ROUNDS interleaved rounds of the victims alone and with the spin
 * control (cells 0 and 1; their rounds are emptied again afterwards),
 * until 25 s past t0 (a TSC count at the scenario's start) at most. Emits
 * the `interference_host` record and its console lines; false when the
 * scenario must stop here (interf_host=stop or contend, and the spin control
 * decidedly slows a victim or no LLC-sized victim is LLC-resident),
 * with a `skip` record that says why (scenarios/interference/host.c). */
bool if_host_check(struct if_state *st, uint64_t t0);

/* The residency phase: IF_RES_ROUNDS interleaved runs of every victim and
 * reference alone (at least IF_RES_MIN; none starts IF_RES_BUDGET_S past
 * t0, a TSC count at the scenario's start, so that the host check can stop
 * the scenario within 30 s); classes each victim, prints them and emits the
 * `interference_residency` records (scenarios/interference/refs.c). False when
 * a run failed. */
bool if_residency(struct if_state *st, uint64_t t0);

/* Time per access x 1000 of victim v for a sample of `ns`: ns per load
 * (chase) or per 64-byte line read. */
uint64_t if_unit_x1000(const struct if_victim *v, uint64_t ns);

/* Victim vi with zeroer cell c against the victims alone (cell 0) by
 * cmp_compare at CMP_Z95_X1000 and the tolerance (scenarios/interference/rank.c). */
void if_slowdown(const struct if_state *st, const struct if_cell *c, unsigned vi, struct cmp *out);

/* Bytes per clear call of zeroer z when unthrottled: its chunk, at most
 * the share (0 for the spin control). */
uint64_t if_chunk(const struct if_state *st, const struct if_zeroer *z);

/* Bytes per clear call cell c's zeroer issued: the paced piece (one
 * period's bytes), else if_chunk(); 0 for the victims alone and the spin
 * control. What its CPU per GiB (stats_per_gib) holds at. */
uint64_t if_call_bytes(const struct if_state *st, const struct if_cell *c);

/* Percent x 100 (signed) of a B/A ratio x 10^6: (ratio - 1) x 100. */
int64_t if_ratio_pct_x100(uint64_t ratio_x1e6);

/* The achieved rate of cell c against its target: all zeroers' median
 * bytes/s, the target (0: unthrottled or none), percent x 100 of target. */
void if_rate(const struct if_state *st, const struct if_cell *c, uint64_t *bps, uint64_t *target,
             uint64_t *pct_x100);
bool if_rate_missed(const struct if_state *st, const struct if_cell *c);

/* Print the tables and emit the `interference` and `interference_peak`
 * records (scenarios/interference/records.md) from the finished rounds
 * (scenarios/interference/report.c). */
void if_report(const struct if_state *st);

/* The unthrottled ranking per victim (`interference_rank` records) and the
 * cells handed to the verdict (kernel/verdict.h), scenarios/interference/rank.c. */
void if_rank(const struct if_state *st);
void if_verdict_cells(const struct if_state *st);

/* What a profile runs, where no option overrides it
 * (scenarios/interference/plan.c). */
struct interference_settings {
    unsigned rounds; /* interleaved rounds of every cell */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct interference_settings *interference_settings_get(const struct plan_profile *p);

/* Rounds of every cell under run profile p: interf_rounds=, else 2 under
 * TCG (emulator timings: a check, not a measurement), else p's. */
unsigned if_rounds_of(const struct plan_profile *p);

/* The options its plan reads too (scenarios/interference/run.c); 0: the
 * default each names. */
struct interference_options {
    uint64_t rounds; /* interf_rounds= */
    uint64_t l2;     /* interf_l2=, bytes */
    uint64_t llc;    /* interf_llc=, bytes */
    uint64_t share;  /* interf_zero_bytes=, bytes */
};
extern struct interference_options if_opts;

/* The zeroers of the run's table this CPU supports (the spin control not
 * counted). */
unsigned if_zeroers_supported(void);

/* The `.plan` hook (kernel/scenario.h): the runs the scenario makes
 * (residency, the host check's rounds, the peaks' holds, the rounds of
 * every cell: as if the host check let it go on), each the victims' own
 * work (a chase load at 600 ns, a read at the check rate) plus the
 * zeroers' re-dirtying of their share (at most all of it) and the fixed
 * cost of a repeat. Boot CPU, after start-up. */
void interference_plan(const struct plan_profile *p, const struct plan_machine *m,
                       struct plan_part *out);

#endif /* HZ_SCENARIOS_INTERFERENCE_PRIV_H */
