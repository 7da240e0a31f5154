/*
 * measure/prezero_smp.c - the several-CPU half of the pre-zeroing runner
 * (measure/prezero_priv.h, docs/prezero.md): with fault_cpus=P the FAULT
 * events of a population are touched by P CPUs in parallel, and with
 * zero_cpus=Z policy idle gets Z CPUs that only clear DIRTY frames; and the
 * check that P + Z fits the CPUs online. measure/prezero_run.c runs it.
 */
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/exit.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "measure/prezero_priv.h"
#include "mm/demand.h"
#include "mm/vm.h"

/* ---- several CPUs: fault_cpus and zero_cpus ------------------------------
 * One smp_run covers the whole run: the BSP (faulting CPU 0) runs the event
 * loop; the other faulting CPUs wait at the measurement CPL for a
 * population (gen changes), touch their share between two barriers and
 * verify it after; zeroers clear DIRTY frames chunk by chunk until zstop. */

#define TEAM_BARRIER_S 60     /* TSC seconds a barrier waits (TCG clears slowly) */
#define TEAM_STOP_US 10000000 /* smp_run: after the loop ends, zeroers stop */

struct pz_team {
    unsigned P, Z;              /* faulting CPUs (role 0 = the BSP), zeroers */
    unsigned cpu[HZ_MAX_CPUS];  /* role -> CPU index: P faulting, then Z zeroers */
    unsigned role[HZ_MAX_CPUS]; /* CPU index -> role */
    volatile uint32_t gen, quit, zstop;
    const struct wl_event *ev; /* the population being faulted */
    size_t n;
    uint64_t t0, t1; /* its first CPU's start and last CPU's end, TSC */
    uint64_t start[HZ_MAX_CPUS], end[HZ_MAX_CPUS]; /* by faulting role: its touches */
    uint64_t cpu_max; /* sum over populations of the slowest role's end - start */
    struct smp_barrier bar;
    size_t not_zero[HZ_MAX_CPUS]; /* by faulting role */
    /* by zeroer: TSC cycles inside the clear routine, the rest of each
     * chunk (lock, pool, ring switches), chunks that cleared something */
    uint64_t zcyc[HZ_MAX_CPUS], zover[HZ_MAX_CPUS], zchunks[HZ_MAX_CPUS];
    uint32_t zbusy;     /* zeroers inside pool_zero_step (pz_zsnap) */
    uint64_t zsteps;    /* pool_zero_step calls zeroers began */
    uint64_t fb, chunk; /* frame bytes, a zeroer's step */
    struct pz_kctx *k;  /* the run's pool, sample flags and not-zero count */
    int rc;             /* pz_run's */
    uint64_t first_word[PZ_POPULATE_MAX];
    bool no_frame[PZ_POPULATE_MAX];   /* demand_touch() failed: page left unmapped */
    bool page_busy[DEMAND_MAX_PAGES]; /* a population's pz_zeroers_busy_since, by page */
};

struct pz_zsnap pz_zeroers_snap(const struct pz_team *tm)
{
    if (!tm)
        return (struct pz_zsnap){0, 0};
    return (struct pz_zsnap){__atomic_load_n(&tm->zbusy, __ATOMIC_ACQUIRE),
                             __atomic_load_n(&tm->zsteps, __ATOMIC_ACQUIRE)};
}

bool pz_zeroers_busy_since(const struct pz_team *tm, struct pz_zsnap before)
{
    struct pz_zsnap now = pz_zeroers_snap(tm);
    return before.busy || now.busy || now.steps != before.steps;
}

struct waiter {
    volatile uint32_t *a, *b; /* return when *a != seen or *b != 0 */
    uint32_t seen;
    uint64_t until; /* and, when not 0, once the TSC passes it */
};

/* Runs at the measurement CPL: polling does not go through an emulated ring 0. */
static void wait_fn(void *arg)
{
    struct waiter *w = arg;
    while (*w->a == w->seen && !*w->b && (!w->until || rdtsc() < w->until))
        cpu_relax();
}

static void team_barrier(struct pz_team *tm, unsigned cpu)
{
    if (!smp_barrier_wait(&tm->bar, cpu, tsc_info()->hz * TEAM_BARRIER_S)) {
        result_fail("prezero.smp", "CPU %u: a faulting CPU missed the barrier for %u s", cpu,
                    TEAM_BARRIER_S);
        hz_exit(HZ_FAIL);
    }
}

/* Faulting role `role` on CPU `cpu` touches its pages of the population. */
static void share(struct pz_team *tm, unsigned role, unsigned cpu)
{
    vm_flush_all(); /* the BSP may have unmapped pages this CPU had cached */
    team_barrier(tm, cpu);
    tm->start[role] = tsc_start();
    for (size_t i = 0; i < tm->n; i++)
        if (tm->ev[i].cpu == role) {
            struct pz_zsnap z = pz_zeroers_snap(tm);
            tm->no_frame[i] = demand_touch(cpu, tm->ev[i].page, &tm->first_word[i], 0) < 0;
            tm->page_busy[tm->ev[i].page] = pz_zeroers_busy_since(tm, z);
        }
    tm->end[role] = tsc_stop();
    team_barrier(tm, cpu);
    if (role == 0) { /* one TSC for all CPUs (invariant TSC, SDM Vol. 3B §18.17.1) */
        uint64_t own = 0;
        tm->t0 = UINT64_MAX;
        tm->t1 = 0;
        for (unsigned r = 0; r < tm->P; r++) {
            tm->t0 = tm->start[r] < tm->t0 ? tm->start[r] : tm->t0;
            tm->t1 = tm->end[r] > tm->t1 ? tm->end[r] : tm->t1;
            own = tm->end[r] - tm->start[r] > own ? tm->end[r] - tm->start[r] : own;
        }
        tm->cpu_max += own;
    }
    for (size_t i = 0; i < tm->n; i++) {
        if (tm->ev[i].cpu != role || tm->no_frame[i]) /* no frame: the count check says so */
            continue;
        struct tenant t = {demand_page(tm->ev[i].page, tm->fb), tm->fb};
        if (tm->first_word[i] != 0 || !fault_verify_zero(t.va, tm->fb))
            tm->not_zero[role]++;
        user_run(cpu, pz_tenant_fn, &t);
    }
    team_barrier(tm, cpu);
}

static uint64_t k_populate(void *ctx, const struct wl_event *ev, size_t n)
{
    struct pz_kctx *k = ctx;
    struct pz_team *tm = k->team;
    uint64_t a = tsc_stop();
    size_t first = demand_nsamples();
    tm->ev = ev;
    tm->n = n;
    __atomic_store_n(&tm->gen, tm->gen + 1, __ATOMIC_RELEASE);
    share(tm, 0, 0);
    for (size_t i = first; i < demand_nsamples(); i++) /* a page faults once per population */
        k->sample_busy[i] = tm->page_busy[demand_sample(i)->page];
    return tsc_stop() - a - (tm->t1 - tm->t0);
}

static void zeroer(struct pz_team *tm, unsigned z, unsigned cpu)
{
    struct fault_env *env = tm->k->env;
    struct pool *p = &env->pool;
    while (!__atomic_load_n(&tm->zstop, __ATOMIC_ACQUIRE)) {
        uint32_t idx;
        uint64_t done = 0;
        if (demand_waiters()) { /* a fault waits for a frame: let it have one */
            struct waiter w = {&tm->zstop, &tm->zstop, 0, rdtsc() + tsc_info()->hz / 50000};
            user_run(cpu, wait_fn, &w);
            continue;
        }
        uint64_t a = tsc_start();
        spin_lock(&env->lock);
        int rc = pool_pick_background(p, &idx);
        if (rc == POOL_OK)
            rc = pool_zero_begin(p, idx, ZERO_IDLE);
        spin_unlock(&env->lock);
        if (rc != POOL_OK) { /* nothing DIRTY: look again in 20 us */
            struct waiter w = {&tm->zstop, &tm->zstop, 0, rdtsc() + tsc_info()->hz / 50000};
            user_run(cpu, wait_fn, &w);
            continue;
        }
        uint64_t c0 = fault_clear_cycles();
        __atomic_fetch_add(&tm->zsteps, 1, __ATOMIC_ACQ_REL);
        __atomic_fetch_add(&tm->zbusy, 1, __ATOMIC_ACQ_REL);
        pool_zero_step(p, idx, tm->chunk, 0, &done); /* the frame is ours: no lock */
        __atomic_fetch_sub(&tm->zbusy, 1, __ATOMIC_ACQ_REL);
        uint64_t c = fault_clear_cycles() - c0;
        spin_lock(&env->lock);
        pool_zero_pause(p, idx); /* back to DIRTY for a fault to take, or ZEROED */
        spin_unlock(&env->lock);
        uint64_t all = tsc_stop() - a;
        tm->zcyc[z] += c;
        tm->zover[z] += all > c ? all - c : 0;
        tm->zchunks[z] += done != 0;
    }
}

struct team_run {
    struct pz_team *tm;
    const struct pz_config *c;
    const struct pz_ops *ops;
    struct pz_tally *t;
    const char **why;
};

static void team_fn(unsigned cpu, void *arg)
{
    struct team_run *tr = arg;
    struct pz_team *tm = tr->tm;
    unsigned role = tm->role[cpu];
    if (cpu == 0) {
        tm->rc = pz_run(&tm->k->env->pool, &tm->k->env->lock, tr->c, tr->ops, tr->t, tr->why);
        __atomic_store_n(&tm->zstop, 1, __ATOMIC_RELEASE);
        __atomic_store_n(&tm->quit, 1, __ATOMIC_RELEASE);
    } else if (role >= tm->P) {
        zeroer(tm, role - tm->P, cpu);
    } else {
        uint32_t seen = 0;
        for (;;) {
            struct waiter w = {&tm->gen, &tm->quit, seen, 0};
            user_run(cpu, wait_fn, &w);
            if (__atomic_load_n(&tm->quit, __ATOMIC_ACQUIRE))
                return;
            seen = __atomic_load_n(&tm->gen, __ATOMIC_ACQUIRE);
            share(tm, role, cpu);
        }
    }
}

/* Run the loop with P faulting CPUs and Z zeroers (the first P + Z online
 * CPUs). Returns pz_run's result; a CPU that does not stop is a failure. */
int pz_team_run(struct pz_kctx *k, const struct pz_config *c, struct pz_ops *ops,
                struct pz_tally *t, const char **why, unsigned P, unsigned Z, uint64_t *cpu_max)
{
    static struct pz_team team; /* room for every CPU's figures; each run clears it */
    struct pz_team *tm = &team;
    struct smp_set set;
    struct team_run tr = {tm, c, ops, t, why};
    memset(tm, 0, sizeof(*tm));
    tm->P = P;
    tm->Z = Z;
    tm->k = k;
    tm->fb = k->env->frame_bytes;
    tm->chunk = c->chunk_bytes;
    smp_set_clear(&set);
    for (unsigned i = 0, k = 0; i < smp_count() && k < P + Z; i++)
        if (smp_cpu(i)->state == SMP_CPU_ONLINE) {
            tm->cpu[k] = i;
            tm->role[i] = k++;
            smp_set_add(&set, i);
        }
    smp_barrier_init(&tm->bar, P);
    if (P > 1)
        ops->populate = k_populate;
    k->team = tm;
    int rc = smp_run(&set, team_fn, &tr, TEAM_STOP_US);
    k->team = 0;
    ops->populate = 0;
    if (rc != 0) {
        result_fail("prezero.smp", "smp_run: %s",
                    rc == -1 ? "a CPU did not stop in time" : "a CPU of the set is not online");
        return -1;
    }
    for (unsigned r = 0; r < P; r++)
        k->not_zero += tm->not_zero[r];
    *cpu_max = tm->cpu_max;
    for (unsigned z = 0; z < Z; z++) {
        t->idle_zeroing += tm->zcyc[z];
        t->idle_overhead += tm->zover[z];
        t->idle_chunks += tm->zchunks[z];
    }
    return tm->rc;
}

/* fault_cpus + zero_cpus must fit the CPUs online: a config error otherwise. */
void pz_check_cpus(uint64_t opt_fault_cpus, uint64_t opt_zero_cpus)
{
    unsigned online = smp_online();
    if (opt_fault_cpus + opt_zero_cpus <= online)
        return;
    bool f = opt_fault_cpus > online;
    char val[24], why[96], buf[HZ_RECORD_MAX];
    struct rec x;
    hz_snprintf(val, sizeof(val), "%llu", (unsigned long long)(f ? opt_fault_cpus : opt_zero_cpus));
    if (online == 1)
        hz_snprintf(why, sizeof(why), "SMP absent: only the boot CPU is online");
    else
        hz_snprintf(why, sizeof(why), "fault_cpus + zero_cpus = %llu but %u CPUs are online",
                    (unsigned long long)(opt_fault_cpus + opt_zero_cpus), online);
    char line[256];
    cmdline_error_line(f ? "fault_cpus" : "zero_cpus", val, why, NULL, line, sizeof(line));
    kprintf("%s\n", line);
    rec_begin(&x, buf, sizeof(buf), "config");
    rec_str(&x, "option", f ? "fault_cpus" : "zero_cpus");
    rec_str(&x, "value", val);
    rec_str(&x, "error", why);
    rec_str(&x, "accepted", f ? PZ_FAULT_CPUS_ACCEPTED : PZ_ZERO_CPUS_ACCEPTED);
    record_emit(&x);
    hz_exit(HZ_CONFIG);
}
