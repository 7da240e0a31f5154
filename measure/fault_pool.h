/*
 * measure/fault_pool.h - the free-frame pool the fault scenarios share
 * (run=fault, run=faultclear, the pre-zeroing runner): set-up from mm/frames.h, the
 * strategy (`zero=`) and model (`fault_clear=`, measure/fault_clear.h) a
 * fault clears with, the check that faulted memory reads back zero
 * (`verify=`), and the `fault` records.
 */
#ifndef HZ_MEASURE_FAULT_POOL_H
#define HZ_MEASURE_FAULT_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"
#include "lib/spinlock.h"
#include "measure/fault_clear.h"
#include "mm/pool.h"

/* Most frames a fault pool holds; at most DEMAND_MAX_FRAMES (mm/demand.h), which
 * measure/fault_pool.c asserts. */
#define FAULT_POOL_MAX 1024

/* How a pool's frames are cleared, given by the scenario with each set-up:
 * the strategy (`zero=`), how a fault applies it (`fault_clear=`), and the
 * NUMA node its frames come from (`zero_node=`). */
struct fault_path {
    const struct clear_strategy *zero;
    struct fault_clear clear;
    int node; /* arch/numa.h index for fault_pool_setup(_size); -1: any */
};

/* The `zero=`, `fault_clear=` and `zero_node=` options as given (defaults
 * rep_stosb, extent and any node): the path every pool clears with unless
 * its scenario says otherwise. Read when a scenario builds its request,
 * never on the measured path (tests/tools/test_hidden_state.py). */
struct fault_path fault_path_option(void);

struct fault_env {
    struct pool pool;
    struct spinlock lock;
    const struct clear_strategy *zero; /* the strategy faults and zeroers use */
    struct fault_clear clear;          /* how a fault applies it */
    uint64_t frame_bytes;              /* 1 GiB, or 2 MiB in the fallback */
    int node;                          /* NUMA node the frames come from (arch/numa.h); -1 any */
    size_t nframes;
    size_t asked; /* pages an option asked for (fault_pages=, prezero's pages), set by
                   * the caller after setup for fault_numa_record; 0: every free frame */
};

/*
 * Fill env->pool with up to `max` free frames: every free 1 GiB frame, or
 * when there is none, 2 MiB frames (saying so), and dirty each with a
 * non-zero pattern as an earlier tenant would have left it. The pool clears
 * the way *path says (its strategy checked against the CPU; the frames'
 * clear function reads env->zero and env->clear, which a scenario may
 * change between runs through its own env). Fewer free frames than `max` is
 * no error (env->asked, set by the caller, lets fault_numa_record say so).
 * Returns 0, or -1 after a
 * `skip` (no frames, or a strategy this CPU lacks) or `fail` record.
 */
int fault_pool_setup(struct fault_env *env, size_t max, const struct fault_path *path);

/* The same with frames of `frame_bytes` (PAGE_SIZE_1G or PAGE_SIZE_2M;
 * 0 picks as fault_pool_setup does): -1 after a `skip` when there are none. */
int fault_pool_setup_size(struct fault_env *env, size_t max, uint64_t frame_bytes,
                          const struct fault_path *path);

/* The same with every frame from NUMA node `node` (an index of numa_get(),
 * arch/numa.h), or from anywhere for -1. The 2 MiB fallback (frame_bytes 0)
 * is taken when the node has no free 1 GiB frame. A node that does not
 * exist or has no free frame of the size gives a `skip` and -1: frames of
 * another node are never used. */
int fault_pool_setup_node(struct fault_env *env, size_t max, uint64_t frame_bytes, int node,
                          const struct fault_path *path);

/* The pool fault_pool_setup_node(max, *frame_bytes, node) would build now,
 * taking nothing (a scenario's `.plan` hook, kernel/scenario.h): sets
 * *frame_bytes by the same rule (0 picks) and returns the frames it would
 * get, the free ones up to max and the pool's caps (0 for a node that does
 * not exist). The 2 MiB count is the machine's, not the node's. */
size_t fault_pool_plan(size_t max, uint64_t *frame_bytes, int node);

/* The `zero_node=` option (measure/fault_node.c): the NUMA node (arch/numa.h
 * index) every fault pool takes its frames from (fault_path_option() puts
 * it in the path fault_pool_setup and fault_pool_setup_size pass on); -1
 * when not given (any node). */
int fault_zero_node(void);

/* The `fault_node=` option: the node whose first online CPU takes
 * run=fault's faults; -1 when not given (the boot CPU). */
int fault_cpu_node(void);

/* The first online CPU of node `node` (index order), 0 for node -1; -1
 * when the node has no online CPU or does not exist. */
int fault_node_cpu(int node);

/* The `fault_numa` record (scenarios/fault/records.md) of a run faulting on CPU
 * `cpu` with env's pool: the CPU's node, env->node, and how many pool
 * frames lie wholly in it; `fault.zero_node` fails when one does not. */
void fault_numa_record(const struct fault_env *env, unsigned cpu);

/* TSC cycles the calling CPU has spent inside the `zero=` strategy on pool
 * frames (faults, idle, boot, on_free, batch), fenced at the measurement CPL
 * around the strategy call alone: no ring switch, lock or pool work. A
 * running total since boot: callers take differences. */
uint64_t fault_clear_cycles(void);

/* Calls of the `zero=` strategy the calling CPU has made on pool frames
 * (a fault under fault_clear=linux_4k makes one per 4 KiB); a running total
 * since boot, like fault_clear_cycles(). */
uint64_t fault_clear_calls(void);

/* fault_clear_calls() summed over every CPU: a running total since boot. */
uint64_t fault_clear_calls_all(void);

/* Give the pool's frames back to the allocator (pool must be all free). */
void fault_pool_teardown(struct fault_env *env);

/* True when [p, p + bytes) reads back zero: every byte with `verify=full`,
 * else the first and last 4 KiB and 62 pseudo-random 64-byte lines
 * (`verify=sampled`, the default). The mode name is fault_verify_mode(). */
bool fault_verify_zero(const volatile void *p, uint64_t bytes);
const char *fault_verify_mode(void);

/* Print `fault` records for the demand samples (workload names the
 * workload, or NULL to leave the member out; policy the pre-zero policy in
 * force; m the model the faults cleared with, the pool's env->clear) and a
 * latency summary line; returns the sample count. */
size_t fault_emit(const char *workload, const char *policy, const struct fault_clear *m);

struct stats;

/* The same for the samples of one kind: all (kind < 0), or those with
 * prezeroed == kind; *acc gets their access-time statistics. The
 * self-test's sync median (no workload, kind 0) also goes to results=lava. */
size_t fault_emit_kind(const char *workload, const char *policy, int kind, struct stats *acc,
                       const struct fault_clear *m);

#endif /* HZ_MEASURE_FAULT_POOL_H */
