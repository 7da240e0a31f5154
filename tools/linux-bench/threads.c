/*
 * tools/linux-bench/threads.c - the all-thread cells (`--threads N`): N
 * threads, thread i pinned to the i-th CPU this process may run on
 * (sched_setaffinity), each dirties, (for cold cells) evicts and then clears
 * its own slice of the region in chunks, between two barriers; the cell's
 * time is the wall time max(end) - min(start) over the threads, so no CPU's
 * own interval stands in for the whole. Slices are size / N rounded down to
 * 4 KiB, the last one taking the rest, so every strategy's alignment and
 * multiple hold. Records: `clear` with `threads` = N, cache warm and cold,
 * as the kernel's SMP cells (scenarios/clear/records.md `clear`), so hz compare pairs them.
 */
#define _GNU_SOURCE
#include "tools/linux-bench/bench.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86.h"
#include "lib/record.h"
#include "measure/clear_record.h"
#include "measure/memop.h"

/* The first o->threads CPUs of this process's affinity mask into o->cpus,
 * before main pins itself to one; exits 2 when there are fewer. */
void lb_pick_cpus(struct bench_opts *o)
{
    cpu_set_t set;
    unsigned n = 0;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        CPU_ZERO(&set);
    for (unsigned c = 0; c < CPU_SETSIZE && n < o->threads; c++)
        if (CPU_ISSET(c, &set))
            o->cpus[n++] = c;
    if (n < o->threads) {
        char want[16];
        snprintf(want, sizeof(want), "%u", o->threads);
        fprintf(stderr, "linux-bench: --threads %s: this process may run on %d CPU(s) only\n", want,
                CPU_COUNT(&set));
        exit(2);
    }
}

struct worker {
    pthread_t th;
    unsigned index, cpu;
    uint8_t *p;
    uint64_t bytes;
    uint64_t start, end; /* CLOCK_MONOTONIC ns of the last timed clear */
    uint64_t c0, c1;     /* and the TSC (invariant TSCs agree across CPUs) */
    bool pinned, zero;
};

static struct {
    const struct clear_strategy *s;
    uint64_t chunk;
    bool cold;
    unsigned repeats;
    pthread_barrier_t bar;
    struct worker w[LB_MAX_THREADS];
    uint64_t seed;
} job;

static void *worker_fn(void *arg)
{
    struct worker *w = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(w->cpu, &set);
    w->pinned = sched_setaffinity(0, sizeof(set), &set) == 0;
    w->zero = true;
    for (unsigned it = 0; it <= job.repeats; it++) { /* it 0: warm-up */
        clear_dirty(w->p, w->bytes, job.seed + it * LB_MAX_THREADS + w->index);
        if (job.cold)
            clear_evict(w->p, w->bytes, 0);
        mfence();
        pthread_barrier_wait(&job.bar);
        uint64_t t0 = lb_now_ns(), c0 = rdtsc();
        memop_clear(job.s, w->p, w->bytes, job.chunk);
        mfence(); /* this thread's stores have left the core */
        uint64_t c1 = lb_tsc_end(), t1 = lb_now_ns();
        pthread_barrier_wait(&job.bar);
        w->start = t0;
        w->end = t1;
        w->c0 = c0;
        w->c1 = c1;
        w->zero &= memop_verify_zero(w->p, w->bytes, MEMOP_EXACT, NULL);
        pthread_barrier_wait(&job.bar); /* main reads start/end here */
    }
    return NULL;
}

/* One all-thread cell; false when a thread could not start or be pinned. */
static bool thread_cell(const struct bench_opts *o, const struct region *r, uint64_t chunk,
                        bool cold, struct clear_result *res, bool *verified)
{
    static uint64_t ns[LB_MAX_REPEATS], cyc[LB_MAX_REPEATS];
    static uint64_t order[LB_MAX_REPEATS]; /* ns in run order: stats_compute() sorts ns */
    unsigned n = o->threads, started = 0;
    uint64_t slice = r->size / n / 4096 * 4096;
    job.chunk = chunk;
    job.cold = cold;
    job.repeats = o->repeats;
    job.seed += 0x10000;
    pthread_barrier_init(&job.bar, NULL, n + 1);
    for (unsigned i = 0; i < n; i++) {
        struct worker *w = &job.w[i];
        *w = (struct worker){.index = i, .cpu = o->cpus[i], .p = r->base + i * slice};
        w->bytes = i + 1 < n ? slice : r->size - i * slice;
        if (pthread_create(&w->th, NULL, worker_fn, w) != 0)
            break;
        started++;
    }
    if (started < n) { /* the started ones wait at the barrier: end the process */
        fprintf(stderr, "linux-bench: --threads %u: could not start thread %u\n", n, started);
        exit(2);
    }
    for (unsigned it = 0; it <= o->repeats; it++) {
        pthread_barrier_wait(&job.bar); /* clears start */
        pthread_barrier_wait(&job.bar); /* clears done */
        pthread_barrier_wait(&job.bar); /* times written */
        uint64_t lo = UINT64_MAX, hi = 0, clo = UINT64_MAX, chi = 0;
        for (unsigned i = 0; i < n; i++) {
            const struct worker *w = &job.w[i];
            lo = w->start < lo ? w->start : lo;
            hi = w->end > hi ? w->end : hi;
            clo = w->c0 < clo ? w->c0 : clo;
            chi = w->c1 > chi ? w->c1 : chi;
        }
        if (it > 0) {
            ns[it - 1] = order[it - 1] = hi - lo;
            cyc[it - 1] = chi - clo;
        }
    }
    bool pinned = true;
    *verified = true;
    for (unsigned i = 0; i < n; i++) {
        pthread_join(job.w[i].th, NULL);
        pinned &= job.w[i].pinned;
        *verified &= job.w[i].zero;
    }
    pthread_barrier_destroy(&job.bar);
    memset(res, 0, sizeof(*res));
    struct stats cs;
    stats_compute(&res->ns, ns, o->repeats);
    stats_compute(&cs, cyc, o->repeats);
    res->samples = order;
    res->nsamples = o->repeats;
    res->min_cyc = cs.min;
    res->strategy = job.s->name;
    res->chunk = chunk;
    res->bytes = r->size;
    res->cache = cold ? "cold" : "warm";
    res->threads = n;
    res->repeats = o->repeats;
    res->verified = *verified;
    res->source = "linux";
    return pinned;
}

void measure_threads(const struct bench_opts *o, const struct region *r, struct tally *t)
{
    char name[64], line[HZ_RECORD_MAX];
    bool can_evict = cpu_has(X86_FEATURE_CLFLUSHOPT) || cpu_has(X86_FEATURE_CLFLUSH);
    printf("\n%u threads, pinned to CPUs", o->threads);
    for (unsigned i = 0; i < o->threads; i++)
        printf(" %u", o->cpus[i]);
    printf(": wall time from the first thread's start to the last one's end\n");
    for (size_t i = 0; i < o->n_strategies; i++) {
        job.s = o->strategies[i];
        if (!clear_supported(job.s, NULL))
            continue; /* measure_all() already said why */
        bool all_ok = true;
        for (size_t k = 0; k < 2 * o->n_chunks; k++) {
            struct clear_result res;
            bool cold = k % 2, verified;
            if (o->chunks[k / 2] > r->size / o->threads || (cold && !can_evict))
                continue;
            if (!thread_cell(o, r, o->chunks[k / 2], cold, &res, &verified))
                printf("linux-bench: a thread could not be pinned (timings may include "
                       "migrations)\n");
            lb_print_row(&res);
            lb_emit(clear_record(line, sizeof(line), &res));
            all_ok &= verified;
        }
        snprintf(name, sizeof(name), "clear.threads.%s", job.s->name);
        lb_check(t, all_ok ? "pass" : "fail", name, all_ok ? NULL : "a slice was not zero");
    }
}
