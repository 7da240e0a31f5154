/*
 * scenarios/vmstart/vmstart.h - the VM-start model (`run=vmstart`, docs/prezero.md
 * "The VM-start model"): how long a VM of S bytes takes to fault in with T
 * faulting CPUs under each pre-zeroing policy, where adding a CPU stops
 * paying (the knee), and what that predicts for a 2 TiB VM.
 *
 * The qemu rows are QEMU's way of starting a VM (touch_all_pages(),
 * util/oslib-posix.c: T threads touch every page and the kernel clears
 * the frame in the fault): policy none with a Linux-faithful fault clear,
 * fault_clear=linux_4k (today's kernels) and linux_batch=32M (clear_pages()
 * kernels), each with its fault and clear-call counts. Their model,
 * S / min(T x r1, B) for the claim's 2 TB with QEMU's 16 threads
 * (MAX_MEM_PREALLOC_THREAD_COUNT: min(host CPUs, 16, guest CPUs)), is
 * lib/vmmodel.h's: B measured at a plateau, else bw_ceiling=, else unknown
 * (a lower bound only). The knee is where adding a CPU stopped paying
 * linearly: each T against T - 1 by lib/compare.h at the tolerance, the
 * same comparison the model's plateau test and the verdict's VM start
 * item make (lib/vmmodel.h vm_scaling(), vm_knee()). The pre-zeroed policies (boot, idle, batch)
 * report their own costs (`vmstart_cost`): the pre-zeroing before the VM start and the mapping
 * during it, never a GB/s of mapping.
 *
 * The model's arithmetic is lib/vmmodel.c (host-tested); the scenario
 * itself is scenarios/vmstart/run.c. Rates are GB/s x 1000 (10^9 B/s,
 * three decimals), as lib/stats.h stats_gbps_x1000().
 */
#ifndef HZ_SCENARIOS_VMSTART_VMSTART_H
#define HZ_SCENARIOS_VMSTART_VMSTART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/compare.h"
#include "lib/plan.h"
#include "lib/stats.h"
#include "measure/prezero_run.h"

#define VS_SEED_FRAMES 64 /* the seed thread's VM: 64 x 1 GiB faulted at start */

/* ---- kernel side: the cells of one run=vmstart, as scenarios/vmstart/run.c
 * measures them and scenarios/vmstart/report.c prints them */

#define VS_MAX_ROUNDS 20 /* vmstart_rounds= */
#define VS_MAX_T 256     /* thread counts 1..VS_MAX_T */

/* The cell kinds: four pre-zeroing policies on the fault path (none with
 * the fault_clear= option), then the qemu rows: policy none with
 * fault_clear=linux_4k and linux_batch=32M. (The former `fill` row, 2 MiB
 * REP STOSB calls without faults, is not how QEMU preallocates: gone.) */
enum vs_kind { VS_NONE, VS_BOOT, VS_IDLE, VS_BATCH, VS_Q4K, VS_QBATCH, VS_KINDS };

/* True for boot, idle and batch: the frames are zeroed before the VM. */
#define VS_PREZEROED(k) ((k) == VS_BOOT || (k) == VS_IDLE || (k) == VS_BATCH)
#define VS_QEMU(k) ((k) == VS_Q4K || (k) == VS_QBATCH)

struct vs_cell {
    enum vs_kind kind;
    unsigned threads;
    size_t n;                     /* repeats done */
    uint64_t wall[VS_MAX_ROUNDS]; /* ns, last CPU's end - first CPU's start */
    uint64_t pre[VS_MAX_ROUNDS];  /* ns cleared before the faults (boot, batch, idle) */
    uint64_t own[VS_MAX_ROUNDS];  /* ns, the slowest CPU's own time (wall minus skew) */
    uint64_t faults, hits;        /* over every repeat: faults, pre-zeroed ones */
    uint64_t calls;               /* over every repeat: calls of the strategy (fault_clear) */
    bool bad;                     /* a check of a repeat failed (its fail record says which) */
    struct stats st;              /* of wall[], after the rounds */
};

/* What every cell of the run shares. */
struct vs_run {
    uint32_t pages;       /* frames faulted (or filled) per repeat */
    uint64_t frame_bytes; /* 1 GiB, or 2 MiB in the fallback */
    uint64_t bytes;       /* pages x frame_bytes: S */
    unsigned tmax;        /* thread counts 1..tmax */
    unsigned rounds;
    enum vs_kind first;   /* the first kind measured: VS_NONE (all rows) or VS_Q4K (qemu rows) */
    const char *strategy; /* `zero=` */
    char batch[24];       /* the batch policy as written ("batch=6") */
    struct pz_req req;    /* what every repeat starts from: pz_req_options(), its clear path */
};

/* "none", "boot", "idle", the batch policy's name, "qemu_4k", "qemu_batch". */
const char *vs_kind_name(const struct vs_run *v, enum vs_kind k);

/* Print, after the rounds: the `vmstart` record and table line of every
 * cell (cells[kind * tmax + threads - 1]), the knee (`vmstart_knee`) of
 * none and the qemu rows, each pre-zeroed policy's own costs
 * (`vmstart_cost`) and the qemu rows' model (vs_qemu_report()).
 * scenarios/vmstart/report.c. */
void vs_report(const struct vs_run *v, struct vs_cell *cells);

/* ---- scenarios/vmstart/qemu.c: the qemu rows and their model */

/* The fault_clear= name of a qemu kind ("linux_4k", "linux_batch=32M"),
 * static storage; NULL for the other kinds. */
const char *vs_qemu_model(enum vs_kind k);

/* The fault clear of qemu kind k (fault_clear=linux_4k or
 * linux_batch=32M), which its repeats put in their request's path; NULL
 * for the other kinds. */
const struct fault_clear *vs_qemu_clear(enum vs_kind k);

/* The `bw_ceiling=` option, GB/s x 1000 (0: not given). */
uint64_t vs_bw_ceiling_x1000(void);

/* Echo every option that shapes the model (vm_bytes=, bw_ceiling=,
 * fault_clear=, T, tolerance) on the console. */
void vs_model_echo(const struct vs_run *v);

/* The model of qemu kind k from its curve g[] (GB/s x 1000 by T), T=1's
 * cell c1 and the plateau test top (T = tmax against tmax - 1, vs_step();
 * NULL with one T): the `vmstart_model` record and its MODEL line
 * (lib/vmmodel.h). */
void vs_qemu_report(const struct vs_run *v, const struct vs_cell *c1, enum vs_kind k,
                    const uint64_t *g, const struct cmp *top);

/* Its options (scenarios/vmstart/run.c), which its plan reads too. */
struct vmstart_options {
    uint64_t rounds; /* vmstart_rounds= */
    int rows;        /* vmstart_rows=: 0 the profile's, 1 all, 2 qemu */
};
extern struct vmstart_options vs_opts;

/* What a profile runs, where no option overrides it
 * (scenarios/vmstart/plan.c). */
struct vmstart_settings {
    bool all_rows;         /* every pre-zeroing policy too; false: the qemu rows only */
    unsigned lead_idle_ms; /* idle before each repeat's workload (lead_idle=) */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct vmstart_settings *vmstart_settings_get(const struct plan_profile *p);

/* The first kind measured: VS_NONE for every row, VS_Q4K for the qemu rows
 * only (vmstart_rows=, else profile p's all_rows). */
enum vs_kind vs_first_kind(const struct plan_profile *p);

/* The frames of frame_bytes that vmstart_size= asks for (whole frames),
 * or the seed thread's 64 GiB; the run then caps them at the demand region
 * and the free frames. */
uint64_t vs_frames_wanted(uint64_t frame_bytes);

/* The largest T: vmstart_cpus= or every online CPU, at most VS_MAX_T. */
unsigned vs_tmax_of(unsigned online);

/* The `.plan` hook (kernel/scenario.h): the pool size_run() will set up
 * (vs_frames_wanted(), fault_pool_plan() for what is free), kinds x T
 * cells, a warm-up and vmstart_rounds timed rounds; a repeat runs the
 * vm_boot workload: the lead idle, every frame dirtied and cleared (in the
 * fault or ahead of it) and faulted, as lib/plan.h prices run=policies.
 * Boot CPU, after start-up. */
void vmstart_plan(const struct plan_profile *p, const struct plan_machine *m,
                  struct plan_part *out);

/* Step t (2..tmax) of kind k's curve: its cells at T = t (B side) against
 * t - 1 (A side), lib/compare.h cmp_compare() of wall time per byte at
 * CMP_Z_X1000 and the verdict's tolerance, into *c (scenarios/vmstart/report.c). */
void vs_step(const struct vs_run *v, struct vs_cell *cells, unsigned k, unsigned t, struct cmp *c);

/* Its cells' kind (scenarios/vmstart/kind.c, lib/verdict.h struct vd_kind). */
extern const struct vd_kind vmstart_kind;

#endif /* HZ_SCENARIOS_VMSTART_VMSTART_H */
