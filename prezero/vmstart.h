/*
 * prezero/vmstart.h - the VM-start model (`run=vmstart`, docs/prezero.md
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
 * (a lower bound only). The pre-zeroed policies (boot, idle, batch) report
 * their own costs (`vmstart_cost`): the pre-zeroing before the VM start
 * and the mapping during it, never a GB/s of mapping.
 *
 * Portable arithmetic (host-tested in tests/unit/test_vmstart.c); the
 * scenario itself is prezero/vmstart.c. Rates are GB/s x 1000 (10^9 B/s,
 * three decimals), as lib/stats.h stats_gbps_x1000().
 */
#ifndef HZ_PREZERO_VMSTART_H
#define HZ_PREZERO_VMSTART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"
#include "measure/prezero_run.h"

#define VS_SEED_FRAMES 64     /* the seed thread's VM: 64 x 1 GiB faulted at start */
#define VS_KNEE_GAIN_X100 110 /* a thread must add at least 10 % to be worth it */

/*
 * The knee of a scaling curve: gbps_x1000[i] is the aggregate rate with
 * i + 1 threads, for n threads counts 1..n. Returns the first T in 2..n
 * whose rate is below 1.10 x the rate with T - 1 (adding the T-th thread
 * added less than 10 %; a drop counts too), or 0 when every added thread
 * added at least 10 % (no knee within 1..n, also for n < 2). A rate of 0
 * before T (nothing measured) gives no knee at T.
 */
unsigned vs_knee(const uint64_t *gbps_x1000, unsigned n);

/* ---- kernel side: the cells of one run=vmstart, as prezero/vmstart.c
 * measures them and prezero/vmstart_report.c prints them */

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
 * prezero/vmstart_report.c. */
void vs_report(const struct vs_run *v, struct vs_cell *cells);

/* ---- prezero/vmstart_qemu.c: the qemu rows and their model */

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

/* The model of qemu kind k from its cells and curve g[] (GB/s x 1000 by
 * T): the `vmstart_model` record and its MODEL line (lib/vmmodel.h). */
void vs_qemu_report(const struct vs_run *v, struct vs_cell *cells, enum vs_kind k,
                    const uint64_t *g);

#endif /* HZ_PREZERO_VMSTART_H */
