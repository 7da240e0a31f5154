/*
 * measure/prezero_run.h - one run of the pre-zeroing runner on real faults
 * (docs/prezero.md), as the scenarios that use it ask for it: run=prezero
 * and run=policies (scenarios/prezero/run.c) and run=vmstart (scenarios/vmstart/run.c).
 * A run is a request (struct pz_req): everything it depends on, the clear
 * strategy and fault-clear model included, travels in it, from the
 * scenario down to the pool's clear function (measure/fault_pool.h); the
 * runner keeps no setting between runs. The options that fill a request
 * (`prezero=`, `workload=`, `pages=`, `prezero_chunk=`, ..., docs/options.md)
 * are measure/prezero_opts.c's, since several scenarios share them.
 */
#ifndef HZ_MEASURE_PREZERO_RUN_H
#define HZ_MEASURE_PREZERO_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/plan.h"
#include "measure/fault_pool.h"
#include "measure/prezero.h"

/* One run of a workload under one policy. */
struct pz_req {
    struct pz_policy_cfg policy; /* batch 0: zero_request's N, else every page */
    enum wl_kind kind;
    uint32_t pages;         /* 0: every frame the pool got */
    unsigned fault_cpus;    /* 1..the CPUs online (pz_check_cpus() or the caller checks) */
    unsigned zero_cpus;     /* policy idle: dedicated zeroer CPUs (0: none) */
    uint64_t chunk_bytes;   /* most bytes the idle loop and zeroers clear per step */
    uint64_t lead_idle_ns;  /* idle before the first event, <= WL_MAX_NS */
    uint32_t cycles;        /* churn/burst cycles, restart restarts */
    uint64_t think_ns;      /* churn: mean think time */
    uint64_t hold_ns;       /* churn/restart/burst: pages held */
    uint64_t idle_ns;       /* burst/restart idle; PZ_IDLE_WORKLOAD: the workload's default */
    uint64_t seed;          /* the workload's random seed */
    uint32_t zero_request;  /* frames a ZERO_REQUEST asks for; 0: every page */
    struct fault_path path; /* the strategy and fault-clear model every clear uses */
    /* policy idle with zero_cpus: the zeroer CPUs stay off and the idle
     * loop runs on the faulting CPU in the idle periods, so no other CPU
     * clears while a fault runs; nothing is printed and the checks are
     * named prezero.<workload>.idle_off.* */
    bool zeroers_off;
    bool quiet; /* no record, line or pass: only the fail records of its checks */
};

#define PZ_IDLE_WORKLOAD UINT64_MAX /* struct pz_req idle_ns: the workload's own default */

/*
 * The request the options ask for (measure/prezero_opts.c): prezero=,
 * workload=, pages=, fault_cpus=, zero_cpus=, prezero_chunk=, cycles=,
 * think=, hold=, idle=, workload_seed=, zero= and fault_clear= as given or
 * by default, and the lead idle of pz_lead_idle_ns(lead_idle_ms). A
 * scenario changes the fields it sets itself before pz_run_one().
 */
struct pz_req pz_req_options(unsigned lead_idle_ms);

/* The lead idle every workload run starts with, ns: lead_idle= where
 * given, else lead_idle_ms, the calling scenario's default under its run
 * profile (its scenarios/NAME/plan.c). */
uint64_t pz_lead_idle_ns(unsigned lead_idle_ms);

/* The price of `runs` runs of the requested workload with a default lead
 * idle of lead_idle_ms (lib/plan.h plan_policies_ms()): the pool
 * pz_run_one() sets up, the lead idle; for the `.plan` hooks of
 * run=prezero and run=policies. */
uint64_t pz_plan_ms(unsigned lead_idle_ms, const struct plan_machine *m, unsigned runs);

/*
 * Set up the pool (every frame dirty) with q->path, run q (with
 * q->zero_cpus zeroers for policy idle unless q->zeroers_off), verify and
 * check it, print its `prezero` record and `fault` records unless quiet or
 * zeroers_off, and give the frames back. Returns 0 (checks reported, *r
 * filled: r->ok says whether every check passed), or -1 when the run could
 * not start (skip/fail recorded). r->has_off, off_hit and off_miss are
 * kept (run=policies sets them before the idle run).
 */
int pz_run_one(const struct pz_req *q, struct pz_result *r);

/* fault_cpus + zero_cpus must fit the CPUs online: return when they do,
 * else print a `config` record and end the run with HZ_CONFIG.
 * measure/prezero_smp.c. */
void pz_check_cpus(uint64_t fault_cpus, uint64_t zero_cpus);

#endif /* HZ_MEASURE_PREZERO_RUN_H */
