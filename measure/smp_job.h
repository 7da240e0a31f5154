/*
 * measure/smp_job.h - target memory for a multi-CPU clear and one timed
 * clear on several CPUs at once (the "job", measure/smp_job.c), for the
 * `smp` scenario (scenarios/smp/smp.h) and scenarios/vmstart/run.c.
 */
#ifndef HZ_MEASURE_SMP_JOB_H
#define HZ_MEASURE_SMP_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/clear.h"
#include "arch/numa.h"
#include "kernel/smp.h"
#include "measure/split.h"
#include "mm/frames.h"

#define SMP_TARGET_MAX 1024 /* extents (runs of adjacent frames) */

/* Frames taken from mm/frames.h for a clear target. */
struct smp_target {
    struct split_extent ext[SMP_TARGET_MAX]; /* grouped by domain when asked */
    size_t next;
    uint64_t bytes;           /* sum of ext[].bytes */
    uint64_t frame_bytes;     /* 1 GiB (frames_1g list) or 2 MiB (small pool) */
    size_t g1[FRAMES_MAX_1G]; /* indices of the 1 GiB frames held */
    size_t n1g;
    bool table_full; /* stopped early: SMP_TARGET_MAX extents */
};

/*
 * Take memory for up to `want` bytes: 1 GiB frames while any is free, else
 * 2 MiB frames. With ndom > 0 (1 GiB frames only), up to `want` bytes are
 * taken in each domain doms[0..ndom) (SRAT memory affinity), and the
 * extents are grouped in that order. `whole` rounds each domain's amount up
 * to whole frames; otherwise the last extent may cover part of a frame. The
 * result may hold less than asked (t->bytes says how much). Returns 0, or -1
 * when no frame at all could be taken.
 */
int smp_target_take(struct smp_target *t, uint64_t want, bool whole, const int32_t *doms,
                    unsigned ndom);

/*
 * Take `want` bytes (a multiple of 2 MiB) from one NUMA node, whose memory
 * ranges are r[0..nr) (arch/numa.h): with only_2m false, 1 GiB frames lying
 * inside them when enough are free, else (and with only_2m) 2 MiB frames
 * inside them (mm/frames.h frames_1g_take_in, frames_alloc_in); never
 * memory of another node. The last extent may cover part of a frame. The
 * result may hold less than asked (t->bytes). Returns 0, or -1 when no
 * frame at all lies there.
 */
int smp_target_take_in(struct smp_target *t, uint64_t want, const struct numa_range *r, size_t nr,
                       bool only_2m);

/* Give every frame back. */
void smp_target_release(struct smp_target *t);

struct smp_job;

/* What one CPU's part of a job needs, passed as the single argument of a
 * CPL 3 call (arch/user.h user_run). */
struct smp_job_part {
    struct smp_job *j;
    unsigned slot, cpu;
};

/* One timed clear on n CPUs; slots are positions in cpu[]. */
struct smp_job {
    const struct clear_strategy *s;
    const struct split_extent *ext;
    size_t next;
    unsigned n;
    unsigned cpu[HZ_MAX_CPUS];             /* slot -> CPU index */
    uint16_t slot[HZ_MAX_CPUS];            /* CPU index -> slot */
    struct split_piece piece[HZ_MAX_CPUS]; /* by slot, in target space */
    uint64_t chunk;                        /* bytes per call of s->fn */
    uint64_t seed;                         /* dirty pattern */
    uint64_t timeout_us;
    uint64_t lead_cyc; /* common start after the barrier: smp_start_lead_cyc(), set once */
    struct smp_barrier bar;
    /* results of the last smp_job_run, by slot */
    uint64_t cyc[HZ_MAX_CPUS];   /* the slot's own clear time, TSC cycles */
    uint64_t start[HZ_MAX_CPUS]; /* the slot's TSC when its clear began */
    uint64_t end[HZ_MAX_CPUS];   /* ... and when it had drained */
    uint64_t wall_cyc;           /* max(end) - min(start) over all slots */
    uint64_t start_skew_cyc;     /* max(start) - min(start): part of wall_cyc */
    uint64_t end_skew_cyc;       /* max(end) - min(end): part of wall_cyc */
    unsigned late_starts;        /* slots that reached the common start after it */
    bool late[HZ_MAX_CPUS];      /* by slot: this one did (smp_barrier_start) */
    bool wall_below;             /* wall_cyc < some cyc[k]: a bug (smp.wall) */
    uint64_t steal_ns;           /* KVM steal time of all n CPUs during the job, ns */
    uint64_t steal_base_ns; /* n x the job's span (from before the dirtying to after the check) */
    bool bad[HZ_MAX_CPUS];  /* a non-zero byte was found after the clear */
    uint64_t bad_addr[HZ_MAX_CPUS];
    volatile bool barrier_failed;
    struct smp_job_part part[HZ_MAX_CPUS]; /* by slot */
};

/*
 * Run the job: on every CPU of cpu[0..n) at once, at the measurement CPL
 * (arch/user.h: CPL 3 where the hypervisor emulates ring 0), dirty its piece
 * (clear_dirty), wait at the barrier and spin to the common start TSC it
 * sets, lead_cyc after the last arrival (the caller sets it off the
 * measured path, smp_start_lead_cyc(); kernel/smp.h
 * smp_barrier_start: every CPU is awake and dirtied before the timed
 * region), clear its piece in calls of at most `chunk` bytes, wait at the
 * barrier, then check every byte of its piece. wall_cyc spans the first
 * CPU's start to the last CPU's end (the TSCs of all CPUs are one clock:
 * invariant TSC, SDM Vol. 3B §18.17.1), so it is at least every cyc[k]
 * (wall_below says when it is not); start_skew_cyc and end_skew_cyc are
 * the spreads of the starts and of the ends, the parts of wall_cyc in
 * which not every CPU was clearing (late_starts: CPUs that reached the
 * start after it had passed). With KVM steal time
 * (arch/steal.h) steal_ns sums every CPU's steal over the whole job, whose
 * span times n is steal_base_ns; both 0 without it. Returns 0; -1 when a
 * CPU got stuck (kernel/smp.h smp_run), -2 when the CPUs are not all
 * online, -3 when a barrier timed out.
 */
int smp_job_run(struct smp_job *j);

/* Timeout for a job touching `bytes` bytes: 30 s plus 5 MB/s (TCG-proof). */
uint64_t smp_job_timeout_us(uint64_t bytes);

/* Participants: every online CPU, the BSP first, domains taken in turn so
 * that any prefix spreads over the NUMA nodes. Returns the count. */
unsigned smp_bench_order(unsigned *cpu);

/* The common-start lead, smp_start_lead_us= (microseconds; 0: none). */
uint64_t smp_start_lead_us(void);

/* The same lead in TSC cycles (arch/tsc.h tsc_info()->hz), for a job's
 * lead_cyc: read once when the job is set up, never on the measured path
 * (tests/tools/test_hidden_state.py). */
uint64_t smp_start_lead_cyc(void);

#endif /* HZ_MEASURE_SMP_JOB_H */
