/*
 * prezero/vmstart.h - the VM-start model (`run=vmstart`, docs/prezero.md
 * "The VM-start model"): how long a VM of S bytes takes to fault in with T
 * faulting CPUs under each pre-zeroing policy, where adding a CPU stops
 * paying (the knee), and what that predicts for a 2 TiB VM.
 *
 * The prediction is a model, never a measurement: from the measured rate of
 * one thread r1 and the measured peak P (the best median over T = 1..all),
 * a VM of B bytes faulted by T threads takes B / min(T x r1, P). It assumes
 * the per-thread rate holds up to the peak and that no more bandwidth than
 * the measured peak exists (a machine with more CPUs than the guest may
 * have more). QEMU faults guest RAM in with at most 16 threads
 * (MAX_MEM_PREALLOC_THREAD_COUNT, util/oslib-posix.c: min(host CPUs, 16,
 * guest CPUs) memset threads).
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

#define VS_QEMU_THREADS 16              /* QEMU's preallocation thread cap (above) */
#define VS_MODEL_BYTES (2ull << 40)     /* the modelled VM: 2 TiB */
#define VS_SEED_FRAMES 64               /* the seed thread's VM: 64 x 1 GiB faulted at start */
#define VS_SEED_CLAIM_NS 40000000000ull /* its claim: over 40 s for 2 TB with 16 threads */
#define VS_KNEE_GAIN_X100 110           /* a thread must add at least 10 % to be worth it */

/*
 * The knee of a scaling curve: gbps_x1000[i] is the aggregate rate with
 * i + 1 threads, for n threads counts 1..n. Returns the first T in 2..n
 * whose rate is below 1.10 x the rate with T - 1 (adding the T-th thread
 * added less than 10 %; a drop counts too), or 0 when every added thread
 * added at least 10 % (no knee within 1..n, also for n < 2). A rate of 0
 * before T (nothing measured) gives no knee at T.
 */
unsigned vs_knee(const uint64_t *gbps_x1000, unsigned n);

/* The rate the model gives T threads: min(T x per_thread, peak), GB/s x
 * 1000 (saturating; peak 0 means no cap). */
uint64_t vs_model_gbps_x1000(unsigned threads, uint64_t per_thread_x1000, uint64_t peak_x1000);

/*
 * The model's time for `bytes` at that rate: bytes / min(T x per_thread,
 * peak) in ns, rounded to nearest. UINT64_MAX when the rate is 0 (nothing
 * measured) or the time does not fit in 64 bits.
 */
uint64_t vs_model_ns(uint64_t bytes, unsigned threads, uint64_t per_thread_x1000,
                     uint64_t peak_x1000);

/* ---- kernel side: the cells of one run=vmstart, as prezero/vmstart.c
 * measures them and prezero/vmstart_report.c prints them */

#define VS_MAX_ROUNDS 20 /* vmstart_rounds= */
#define VS_MAX_T 256     /* thread counts 1..VS_MAX_T */

/* The cell kinds: four pre-zeroing policies on the fault path, then the
 * QEMU-like fill (no fault: T CPUs zero the frames in 2 MiB calls). */
enum vs_kind { VS_NONE, VS_BOOT, VS_IDLE, VS_BATCH, VS_FILL, VS_KINDS };

struct vs_cell {
    enum vs_kind kind;
    unsigned threads;
    size_t n;                     /* repeats done */
    uint64_t wall[VS_MAX_ROUNDS]; /* ns, last CPU's end - first CPU's start */
    uint64_t pre[VS_MAX_ROUNDS];  /* ns cleared before the faults (boot, batch, idle) */
    uint64_t own[VS_MAX_ROUNDS];  /* ns, the slowest CPU's own time (wall minus skew) */
    uint64_t faults, hits;        /* over every repeat: faults, pre-zeroed ones */
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
    const char *strategy; /* `zero=` */
    char batch[24];       /* the batch policy as written ("batch=6") */
};

/* "none", "boot", "idle", the batch policy's name, "fill". */
const char *vs_kind_name(const struct vs_run *v, enum vs_kind k);

/* Print, after the rounds: the `vmstart` record and table line of every
 * cell (cells[kind * tmax + threads - 1]), then per kind the knee
 * (`vmstart_knee`) and the 2 TiB model (`vmstart_model`, labelled model).
 * prezero/vmstart_report.c. */
void vs_report(const struct vs_run *v, struct vs_cell *cells);

#endif /* HZ_PREZERO_VMSTART_H */
