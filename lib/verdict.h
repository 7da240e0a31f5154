/*
 * lib/verdict.h - how this machine should zero memory: the items of the
 * `verdict` record (docs/results.md `verdict`, issues 13 and 20) decided
 * from the cells a run measured.
 *
 * Rules (issue 20). Every decision is a comparison of two cells' samples
 * by lib/compare.h: the Hodges-Lehmann ratio of time per byte with Moses'
 * interval, faster / slower / tie at the tolerance f->tol_x100 (option
 * `tolerance=`, default 5 %), undecided when the interval straddles a
 * tolerance bound. A cell takes part only when it is verified (every
 * repeat read back zero; a cold cell's coldness checked) and has at least
 * CMP_MIN_N samples; a cell left out is named. CV, min/median and steal
 * are information (the trust item), never a reason to leave a cell out.
 *
 * Among N candidates (clear_1g, clear_2m) the best is the highest median
 * GB/s. It is compared with each of the N - 1 rivals at the Bonferroni z
 * for N - 1 comparisons (cmp_z_bonferroni_x1000): it is the winner only
 * when every rival comes out slower; otherwise the leading set is the
 * candidates not shown slower than the best, a `tie` when every one of
 * those comparisons is a tie, else `not separated`. The item's main
 * comparison is every leading member against Linux's clear_page
 * (rep_stosb, 4 KiB calls) at the Bonferroni z for the set's size; its
 * outcome is that of the union of their intervals. An item is decided when
 * its main comparison comes out faster, slower or tie; else its reason is
 * VD_R_STRADDLES and the record keeps the interval and the sample counts
 * reached. Under TCG no speed item is decided.
 *
 * Decisions are data (issue 29): each item's decide function fills a
 * struct vd_item (outcome, answer, figures, the main comparison, extra
 * figures, a reason code and its arguments, the cells used) and writes no
 * text; lib/verdict_text.h renders it. Adding an item is its decide
 * function and its HZ_VERDICT_ITEM row in its scenario's verdict.c, and
 * rows in lib/verdict_templates.c's template table (and
 * tools/hzlib/verdict_templates.py's). Which scenarios measure an item is in
 * its row (vd_item_def.runs); when none of them
 * ran (vd_facts.ran) the item is VD_R_NOT_IN_RUN and its function is not
 * called. Every item names the cells it used with vd_use_cell()
 * (lib/verdict_priv.h). Figures beside the main one (the fault item's
 * clear_pages() gain, what is left for pre-zeroing) go in vd_item.extra
 * through vd_extra_add(), each with its interval and its coverage.
 *
 * Portable C (no kernel headers, prints nothing): the kernel feeds it its
 * cells, the host unit tests fixture sets (tests/unit/test_verdict.c).
 * Not reentrant: one static scratch area (about 130 KiB) serves every
 * comparison.
 */
#ifndef HZ_LIB_VERDICT_H
#define HZ_LIB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/compare.h"
#include "lib/stats.h"

#define VD_ID_MAX 64
#define VD_ITEM_CELLS 8 /* cells named per item */
#define VD_WORST 3      /* worst-CV cells the trust item names */
#define VD_MAX_CMPS 192 /* comparisons one decision logs (struct vd_log) */

struct vd_cell;

/*
 * A kind of cell: what its samples time and how it is named. Each is
 * defined by the scenario that measures it (scenarios/NAME/kind.c) with
 * HZ_CELL_KIND(); the engine keeps no list of kinds and names none.
 * run: that scenario (run=NAME), the first part of the cell's id and the
 * `run=NAME` of an item's source; no two kinds share it (kernel/registry.c
 * refuses twins at start-up). id: the cell's id past "NAME/" into buf (cap
 * bytes; vd_cell_id()). short_id: its short id (vd_cell_short()); NULL:
 * what id writes. clears: a sample times `threads` CPUs clearing `bytes`
 * (vd_cell_cpus(): lib/compare.h's bound on impossible samples); false for
 * samples that need not clear `bytes` (a fault, a victim's time).
 */
struct vd_kind {
    const char *run;
    void (*id)(const struct vd_cell *c, char *buf, size_t cap);
    void (*short_id)(const struct vd_cell *c, char *buf, size_t cap);
    bool clears;
};

/* Define cell kind `var` (extern in its scenario's header) in the
 * hz_cell_kinds section (kernel and host builds, as HZ_VERDICT_ITEM):
 * HZ_CELL_KIND(numa_kind, .run = "numa", .id = numa_id, .clears = true). */
#define HZ_CELL_KIND(var_, ...)                                                                    \
    const struct vd_kind var_                                                                      \
        __attribute__((used, section("hz_cell_kinds"), aligned(8))) = {__VA_ARGS__}

/* A cell: the shared description of what one scenario measured (each
 * scenario fills the members its kind names; the rest stay 0/NULL). */
struct vd_cell {
    /* What its samples time and how it is named (scenarios/NAME/kind.c);
     * never NULL. */
    const struct vd_kind *kind;
    const char *strategy;    /* clear/smp/faultclear: strategy name; vmstart: the policy
                                ("none"); fault: NULL. Outlives the verdict. */
    const char *model;       /* faultclear, fault, and vmstart's qemu rows: the fault_clear=
                                model ("linux_4k", "linux_batch=32M"; "extent" for a fault:
                                hugezero's own one-call clear); NULL otherwise (unknown).
                                Outlives the verdict. */
    const char *preempt;     /* faultclear: the preemption models the model holds under
                                (measure/fault_clear.h fault_clear_linux(): "any",
                                "none/voluntary", "full/lazy", "-"); NULL otherwise */
    bool nontemporal;        /* the strategy's stores bypass the caches (NT or CLZERO) */
    uint64_t chunk;          /* clear/smp: bytes per call */
    uint64_t bytes;          /* clear/smp/vmstart: bytes per repeat; fault: page bytes */
    bool cold;               /* clear: evicted before every repeat */
    unsigned threads;        /* 1 for clear and fault */
    bool prezeroed;          /* fault: the frame was zeroed before the fault */
    bool verified;           /* read back zero after every repeat (and, cold: coldness checked) */
    struct stats st;         /* of the samples, lib/stats.h stats_compute(): the headline */
    const uint64_t *samples; /* ns per timed repeat (any order; run order preferred) */
    size_t nsamples;         /* what the comparisons use; < CMP_MIN_N: left out */
    uint64_t steal_x100;     /* host steal share during the cell, percent x 100 (0: none
                                or unknown) */
    uint64_t smi;            /* SMIs counted during its timed repeats (measure/time_lost.h;
                                0: none or not counted) */
    unsigned gaps;           /* its timed repeats with a TSC gap (time_lost.h TL_GAP_NS) */
    uint64_t gap_max_ns;     /* the longest of those gaps */
    unsigned cpu_node;       /* numa: node of the clearing CPUs (arch/numa.h index) */
    unsigned mem_node;       /* numa: node of the memory cleared */
    uint64_t ceiling_x1000;  /* vmstart: the bw_ceiling= option, GB/s x 1000 (0: not given) */
    /* interference: the victim, its measured residency ("L2", "LLC", "DRAM"),
     * the zeroer's rate, its CPU time (ns in its calls per GiB cleared, 0:
     * none), whether the achieved rate missed the target by more than 10 %,
     * and whether the zeroer is the spin control (no stores). */
    const char *victim, *level;
    unsigned rate_pct;
    uint64_t cpu_ns_per_gib;
    bool rate_miss, control;
    /* The round factors of the interleaved run the cell is from (lib/interleave.h
     * ilv_round_factors(), entry r - 1 for round r, samples[i] from round i + 1;
     * cells of one run share the array: the same pointer is the same run), NULL:
     * none (not interleaved, or fewer than ILV_FACTOR_MIN_CELLS cells). Outlives
     * the verdict. */
    const uint64_t *factor_x1e6;
    size_t nfactors;
};

/* What the run knows about how far its figures can be trusted. */
struct vd_facts {
    const char *run; /* run= as given: "default", "faultclear,clear" (the record's `run_text`) */
    const char *ran; /* the scenarios that ran, comma-separated ("clear,fault,smp"):
                        an item none of whose scenarios ran is "not measured: run=X
                        measures it". NULL: those that handed in a cell */
    bool tcg;        /* QEMU TCG: emulator timings */
    const char *hypervisor; /* "KVM", "TCG", ... or "" on bare metal */
    const char *tsc_source; /* arch/tsc.h: "cpuid-15h", "hv-leaf", "pit", ... */
    bool tsc_invariant;     /* CPUID 0x80000007 EDX[8] */
    const char *backing;    /* guest RAM backing: "4k", "hugetlbfs-2M", "hugetlbfs-1G",
                               "unknown", "bare metal" */
    int cpl;                /* privilege level of the measurements (0 or 3) */
    bool emulated_ring0;    /* the start-up probe found ring 0 emulated */
    bool steal_known;       /* steal_x100 was measured */
    const char *steal_why;  /* when not: why ("no KVM steal time: bare metal", ...) */
    uint64_t steal_x100;    /* host steal share of the measured cells, percent x 100 */
    unsigned tol_x100;      /* the tolerance, percent x 100 (`tolerance=`); 0: CMP_TOL_X100 */
    /* The CPU (arch/cpu.h: CPUID vendor string, family, model), for the
     * published figures of the same CPU family (lib/published.h); vendor
     * NULL: unknown (none is set beside a figure). */
    const char *cpu_vendor;
    unsigned cpu_family, cpu_model;
};

#define VD_MAX_ITEMS 16 /* items one build may register: linker.ld refuses more */

struct vd_ctx;
struct vd_item;
struct rec; /* lib/record.h */

/* A template row of an item's own ("form:key" -> template, as
 * lib/verdict_templates.c's table); a row with key NULL ends a list. */
struct vd_template {
    const char *key, *tpl;
};

/* Bytes an item's own rows may take in its `verdict` record: its member
 * `templates` as vd_templates_rec() writes it must fit a record of this
 * many bytes (the record's opening and closing included). The rest of the
 * record keeps HZ_RECORD_MAX - VD_TEMPLATES_MAX, 3072 bytes: the project's
 * largest verdict record, a decided fault item's with five figures, eight
 * cells and their source, takes about 2 KiB. */
#define VD_TEMPLATES_MAX 1024

/*
 * One verdict item, registered where its scenario lives
 * (scenarios/NAME/verdict.c) with HZ_VERDICT_ITEM(); the engine
 * (lib/verdict.c) keeps no list of items but its own trust row. key is the
 * record's `item`, label the console's, form the renderer's template family
 * (lib/verdict_templates.c), runs the scenarios that measure it (comma-separated,
 * the main one first; "" for an item every run has), tcg whether it is
 * decided under TCG, decide its function (lib/verdict_priv.h: fills the
 * item from the cells, no text), order its place: items are decided, shown
 * and recorded in ascending order (an item may read those before it:
 * vd_done_item()); no two items share an order. templates (NULL: none) are
 * rows of its own the renderer takes before its table's: for an item whose
 * words live only in its scenario (a scenario of one test build); its
 * `verdict` record carries them (member `templates`), so the host renders
 * it from the record alone. Rows past VD_TEMPLATES_MAX are refused when the
 * engine reads the row: the item is not decided (reason VD_R_TEMPLATES)
 * and its record carries none. The project's items keep theirs in
 * lib/verdict_templates.c's table, which tools/hzlib/verdict_templates.py
 * and tests/vectors/verdict_render.txt mirror. model: its figure is a
 * model, not a measurement: its record says so (member `model`, from
 * vd_item.model; null without a figure). facts: its record carries the
 * run's facts and the trust figures (struct vd_facts, struct vd_trust):
 * the engine's trust item.
 */
struct vd_item_def {
    const char *key, *label, *form, *runs;
    bool tcg;
    void (*decide)(struct vd_ctx *x, struct vd_item *it);
    unsigned order;
    const struct vd_template *templates;
    bool model, facts;
};

/* Register a verdict item in the hz_verdict_items section (kernel and host
 * builds; the kernel's linker.ld collects it, a host link's
 * __start_/__stop_ symbols do): HZ_VERDICT_ITEM(var, .key = "clear_1g",
 * .label = "clear 1 GiB", .form = "clear", .runs = "clear", .tcg = false,
 * .decide = decide_1g, .order = 10). */
#define HZ_VERDICT_ITEM(var_, ...)                                                                 \
    static const struct vd_item_def var_                                                           \
        __attribute__((used, section("hz_verdict_items"), aligned(8))) = {__VA_ARGS__}

/* Why an item is not decided (record member `reason`, docs/results.md
 * `verdict`): VD_R_NONE when it is. Names by vd_reason_name(). */
enum vd_reason {
    VD_R_NONE,
    VD_R_NOT_IN_RUN,   /* none of its scenarios ran */
    VD_R_TCG,          /* emulator timings */
    VD_R_STRADDLES,    /* the main comparison's interval straddles a tolerance bound */
    VD_R_NO_CELL,      /* a scenario ran without the cell it needs (arg `need`) */
    VD_R_LEFT_OUT,     /* every candidate left out (args cell, why, samples, more) */
    VD_R_TARGET_SMALL, /* the largest cold target is below the page (arg target) */
    VD_R_NO_BASELINE,  /* leaders not separated, no Linux clear_page cell */
    VD_R_NO_PAIR,      /* no call size with a non-temporal and a temporal cell */
    VD_R_RATE_MISS,    /* idle: the least harmful zeroer missed its rate */
    VD_R_CEILING_OPEN, /* vmstart: no plateau up to 16 threads, no bw_ceiling=: a lower bound */
    VD_R_B_GIVEN,      /* vmstart: no plateau; B is the user's bw_ceiling=: model (B given) */
    VD_R_FEW_CPUS,     /* vmstart: no plateau on fewer CPUs than QEMU's 16 threads (args
                          cpus, want): a lower bound, a larger host would settle B */
    VD_R_NO_REMOTE,    /* numa: no usable remote cell beside a local one */
    VD_R_CONTENTION,   /* idle: no zeroer measured; the spin control alone slows a victim
                          (args victim, needs: the host it takes) */
    VD_R_NO_LLC,       /* idle: no LLC-resident victim, so no harmless rate can be told
                          (arg needs; the candidate quoted: strategy, rate_pct, victim) */
    VD_R_TEMPLATES,    /* its own template rows do not fit VD_TEMPLATES_MAX (arg max):
                          not decided, its record carries none */
    VD_NREASONS
};

#define VD_EXTRAS 8 /* vd_item.extra */
#define VD_ARGS 8   /* vd_item.args */

/* A figure an item gives beside its main one (record member `figures`):
 * e.g. the fault item's predicted clear_pages() gain. */
struct vd_extra {
    const char *name;            /* record key: "clear_pages_gain", "left_for_prezero" */
    const char *unit;            /* "x" (a ratio), "%" (a share of a fault's time), "GB/s" */
    uint64_t x1000;              /* the estimate x 1000 */
    uint64_t lo_x1000, hi_x1000; /* its interval */
    unsigned cover_x100;         /* the interval's coverage, percent x 100 (its z) */
    int outcome;                 /* enum cmp_outcome of the comparison behind it; -1: none */
    uint64_t chunk;              /* bytes per call it was measured at (nt_speedup); 0: none */
};

/* One argument of an item's template or reason (record member `args`):
 * text s when not NULL, else the number u, written as a size ("2M") when
 * `size`. */
struct vd_arg {
    const char *key; /* "chunk", "victim", ... (static) */
    const char *s;   /* static, a cell's string, or vd_item.arg_cell */
    uint64_t u;
    bool size;
};

/* One item's decision: data only (issue 29). lib/verdict_text.c turns it
 * into text; kernel/verdict.c writes it as a `verdict` record. */
struct vd_item {
    const char *item;  /* "clear_1g", ... (record key `item`) */
    const char *label; /* "clear 1 GiB", ... (the console's label) */
    const char *form;  /* the renderer's template family: "clear", "idle_cpu", ... */
    const struct vd_template *templates; /* its own rows (vd_item_def), or NULL */
    const struct vd_item_def *def;       /* the row it was decided from (NULL: an item a
                                            test built by hand) */
    bool decided;
    enum vd_reason reason;       /* VD_R_NONE when decided */
    struct vd_arg args[VD_ARGS]; /* the template's and reason's arguments */
    unsigned nargs;
    char arg_cell[VD_ID_MAX];    /* a cell id an argument names */
    char answer[32];             /* short answer ("avx512_nt/2M", "yes"); "" = null */
    const char *unit;            /* "GB/s", "ms", "ms/GiB", "s"; NULL = no figure */
    uint64_t fig_x1000;          /* the best cell's median figure x 1000 ... */
    uint64_t lo_x1000, hi_x1000; /* ... and its 95 % interval (of the median) */
    char baseline[32];           /* what it is compared with, "" = none */
    uint64_t base_x1000;         /* baseline's median figure x 1000 (same unit) */
    /* The main comparison, as "how many times the baseline" in the figure's
     * unit (clear, nontemporal, idle_cpu, numa, vmstart: speed-up; fault,
     * idle: time ratio): Hodges-Lehmann estimate of the best cell, the
     * range of the estimates across a leading set, the union of their
     * intervals, and the samples a side (fewest, most). 0: none. */
    uint64_t ratio_x1000, rmin_x1000, rmax_x1000, rlo_x1000, rhi_x1000;
    size_t n_min, n_max;
    int outcome;     /* enum cmp_outcome of the main comparison; -1: none made */
    const char *set; /* clear items: "winner", "tie", "not separated"; NULL otherwise */
    char cells[VD_ITEM_CELLS][VD_ID_MAX]; /* ids of the cells used, the leaders first */
    unsigned ncells;
    unsigned nleaders; /* clear items: the first nleaders cells are the leading set */
    bool model;        /* extrapolated, not measured (also when not decided): items whose
                          vd_item_def says .model (vmstart) */
    /* Where it came from (issue 24): the scenarios that measure the item
     * (its HZ_VERDICT_ITEM row, "fault,faultclear"), whether any of them
     * ran, and the scenario and short id of every cell named by
     * vd_use_cell() (vd_item_source() lists them). */
    const char *measured_by;
    bool measured;
    const char *cell_run[VD_ITEM_CELLS];       /* scenario of cells[i] ("clear") */
    char cell_short[VD_ITEM_CELLS][VD_ID_MAX]; /* short id of cells[i] */
    struct vd_extra extra[VD_EXTRAS];
    unsigned nextra;
};

/* The trust item's extra members. Nothing here blocks a decision. */
struct vd_trust {
    uint64_t worst_cv_x100;          /* highest CV of any cell (0 with none) */
    char worst[VD_WORST][VD_ID_MAX]; /* the cells with the highest CVs, worst first */
    unsigned nworst;
    unsigned noisy_cells;             /* cells stats_noisy() calls noisy (information only) */
    unsigned left_out;                /* cells unverified or with fewer than CMP_MIN_N samples */
    unsigned outlier_cells;           /* cells with more than a quarter outliers */
    char outlier_cell[VD_ID_MAX];     /* the first of them */
    uint64_t worst_steal_x100;        /* highest per-cell steal share */
    char worst_steal_cell[VD_ID_MAX]; /* its cell ("" with no steal) */
    uint64_t smi;                     /* SMIs counted in all cells (vd_cell.smi) */
    unsigned smi_cells;               /* cells with any */
    unsigned gap_cells;               /* cells with a TSC gap (vd_cell.gaps) */
    uint64_t gap_max_ns;              /* the longest gap of any cell */
    char gap_max_cell[VD_ID_MAX];     /* its cell, short ("rep_stosb/2M cold"; "": no gap) */
    unsigned cells;                   /* cells seen */
    unsigned bad_samples;             /* samples of all cells that are impossible
                                         (vd_cell_bad_samples()): the comparisons leave
                                         them out */
};

/* One comparison a decision made: B/A of time per byte (lib/compare.h). */
struct vd_cmp {
    const char *item; /* the item's key ("clear_1g") */
    size_t a, b;      /* indices into the cells handed to verdict_decide() */
    struct cmp c;
};

/* Where verdict_decide() logs its comparisons: the first VD_MAX_CMPS, the
 * rest counted in lost. */
struct vd_log {
    struct vd_cmp v[VD_MAX_CMPS];
    size_t n, lost;
};

/*
 * The id of cell c into buf (cap bytes, VD_ID_MAX is enough): its kind's
 * run, "/", and what its kind's id writes: "clear/avx512_nt/2M/cold/1G"
 * (strategy/chunk/cache/target), "smp/avx512_nt/2T/1G"
 * (strategy/threads/bytes), "fault/sync/1G", "fault/prezeroed/1G",
 * "vmstart/none/2T/4G" (policy/threads/bytes),
 * "faultclear/linux_4k/rep_stosb/1G" (model/strategy/frame, "/prezeroed"
 * appended for the clear taken out), "numa/rep_stosb/2M/1T/n0-n1/256M"
 * (strategy/chunk/threads/CPU node-memory node/bytes),
 * "interference/nt/25%/chase_4llc" (zeroer/rate/victim). Sizes as 4K, 2M,
 * 1G, 64M (the largest exact unit).
 */
void vd_cell_id(const struct vd_cell *c, char *buf, size_t cap);

/* The short id of cell c, as an item's `source` lists it after its
 * "run=NAME: ": its kind's short_id, or its id past "NAME/":
 * "avx512_nt/2M cold" (clear: strategy/chunk and the cache state),
 * "avx512_nt/2T/1G", "sync/1G", "none/2T/4G",
 * "linux_4k/rep_stosb/1G" ("... prezeroed"). */
void vd_cell_short(const struct vd_cell *c, char *buf, size_t cap);

/* True when c may take part in a comparison: verified and at least
 * CMP_MIN_N samples. */
bool vd_cell_usable(const struct vd_cell *c);

/* The CPUs whose clear a sample of c times, for lib/compare.h's bound on
 * impossible samples: threads when its kind `clears` (clear, smp and numa
 * cells: time to clear `bytes`), else 0 (unknown: only 0 ns is impossible;
 * a pre-zeroed fault, a victim's time). */
unsigned vd_cell_cpus(const struct vd_cell *c);

/* How many of c's samples lib/compare.h leaves out as impossible
 * (cmp_bad_sample() with vd_cell_cpus()). */
size_t vd_cell_bad_samples(const struct vd_cell *c);

/* The name of reason r ("STRADDLES"; "" for VD_R_NONE). */
const char *vd_reason_name(enum vd_reason r);

/*
 * Decide every registered item from cells[0..n) (n may be 0) under facts f,
 * into out[0..returned) (in the items' order, the order of the record; at
 * most VD_MAX_ITEMS) and *t; every comparison made goes to *log when log is
 * not NULL. Deterministic; never fails: an item none of whose scenarios ran
 * (f->ran) is not decided with reason "not measured: run=X measures it"
 * (also under TCG); one whose scenario ran without a usable cell says which
 * part is missing.
 */
size_t verdict_decide(const struct vd_cell *cells, size_t n, const struct vd_facts *f,
                      struct vd_item out[VD_MAX_ITEMS], struct vd_trust *t, struct vd_log *log);

/* Write an item's own rows t (vd_item_def.templates; NULL: none) into
 * record r as its member `templates`: {"form:key": "template", ...}. */
void vd_templates_rec(struct rec *r, const struct vd_template *t);

/* The item of items[0..n) whose key is `key` ("fault"), or NULL. */
const struct vd_item *vd_item_find(const struct vd_item *items, size_t n, const char *key);

/*
 * For the racing loop: decide as verdict_decide() does and set open[i] =
 * true for every cell i (0..n) used by a comparison that decides something
 * and is still CMP_UNDECIDED; other entries are set false. Returns the
 * number of such undecided comparisons (0: nothing left to race for; also
 * under TCG). A comparison that is information only (non-temporal at a
 * call size other than the main one) opens nothing. Pure: no output but
 * open[], so the kernel may run it at CPL 3 (arch/user.h user_run).
 */
unsigned verdict_open(const struct vd_cell *cells, size_t n, const struct vd_facts *f, bool *open);

#endif /* HZ_LIB_VERDICT_H */
