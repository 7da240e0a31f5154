/*
 * measure/smp_job.c - target memory and one timed multi-CPU clear
 * (measure/smp_job.h). Memory affinity comes from the
 * ACPI SRAT (ACPI 6.5 §5.2.16.2) when there is one.
 */
#include "measure/smp_job.h"
#include "arch/acpi.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "lib/cmdline.h"
#include "lib/kstring.h"
#include "measure/memop.h"
#include "mm/mm.h"
#include "mm/paging.h"

static int32_t mem_domain(uint64_t pa)
{
    const struct acpi_srat *s = &acpi_get()->srat;
    return s->present ? (int32_t)acpi_srat_mem_domain(s, pa) : -1;
}

/* Append [base, base + bytes), merging with an adjacent last extent of the
 * same domain. False when the table is full. */
static bool add_ext(struct smp_target *t, uint64_t base, uint64_t bytes, int32_t dom)
{
    struct split_extent *last = t->next ? &t->ext[t->next - 1] : 0;
    if (last && last->base + last->bytes == base && last->domain == dom) {
        last->bytes += bytes;
    } else if (t->next == SMP_TARGET_MAX) {
        t->table_full = true;
        return false;
    } else {
        t->ext[t->next++] = (struct split_extent){base, bytes, dom};
    }
    t->bytes += bytes;
    return true;
}

static void take_1g(struct smp_target *t, uint64_t want, bool whole, const int32_t *doms,
                    unsigned ndom)
{
    static size_t idx[FRAMES_MAX_1G];
    static bool keep[FRAMES_MAX_1G];
    struct frames *f = mm_frames();
    size_t n = 0;
    while (n < FRAMES_MAX_1G && frames_1g_take(f, &idx[n]) == FRAMES_OK)
        keep[n++] = false;
    for (unsigned r = 0; r < (ndom ? ndom : 1); r++) {
        uint64_t got = 0;
        for (size_t i = 0; i < n && got < want; i++) {
            uint64_t base = frames_1g_base(f, idx[i]);
            if (keep[i] || (ndom && mem_domain(base) != doms[r]))
                continue;
            uint64_t len = whole || want - got >= PAGE_SIZE_1G ? PAGE_SIZE_1G : want - got;
            if (!add_ext(t, base, len, mem_domain(base)))
                break;
            keep[i] = true;
            got += len;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (keep[i])
            t->g1[t->n1g++] = idx[i];
        else
            frames_1g_put(f, idx[i]);
}

int smp_target_take(struct smp_target *t, uint64_t want, bool whole, const int32_t *doms,
                    unsigned ndom)
{
    struct frames *f = mm_frames();
    memset(t, 0, sizeof(*t));
    if (frames_1g_free_count(f)) {
        t->frame_bytes = PAGE_SIZE_1G;
        take_1g(t, want, whole, doms, ndom);
    } else {
        t->frame_bytes = PAGE_SIZE_2M;
        uint64_t pa;
        while (t->bytes < want && frames_alloc(f, PAGE_SIZE_2M, FRAMES_NO_LIMIT, &pa) == FRAMES_OK)
            if (!add_ext(t, pa, PAGE_SIZE_2M, mem_domain(pa))) {
                frames_free(f, pa, PAGE_SIZE_2M);
                break;
            }
    }
    return t->next ? 0 : -1;
}

int smp_target_take_in(struct smp_target *t, uint64_t want, const struct numa_range *r, size_t nr,
                       bool only_2m)
{
    struct frames *f = mm_frames();
    size_t idx;
    uint64_t pa;
    memset(t, 0, sizeof(*t));
    t->frame_bytes = PAGE_SIZE_1G;
    while (!only_2m && t->bytes < want && frames_1g_take_in(f, r, nr, &idx) == FRAMES_OK) {
        uint64_t base = frames_1g_base(f, idx), left = want - t->bytes;
        t->g1[t->n1g++] = idx;
        if (!add_ext(t, base, left < PAGE_SIZE_1G ? left : PAGE_SIZE_1G, mem_domain(base)))
            break;
    }
    if (t->bytes < want) { /* too few 1 GiB frames there: 2 MiB frames of the node */
        smp_target_release(t);
        memset(t, 0, sizeof(*t));
        t->frame_bytes = PAGE_SIZE_2M;
        while (t->bytes < want && frames_alloc_in(f, PAGE_SIZE_2M, r, nr, &pa) == FRAMES_OK)
            if (!add_ext(t, pa, PAGE_SIZE_2M, mem_domain(pa))) {
                frames_free(f, pa, PAGE_SIZE_2M);
                break;
            }
    }
    return t->next ? 0 : -1;
}

void smp_target_release(struct smp_target *t)
{
    struct frames *f = mm_frames();
    for (size_t i = 0; i < t->n1g; i++)
        frames_1g_put(f, t->g1[i]);
    if (t->frame_bytes == PAGE_SIZE_2M)
        for (size_t i = 0; i < t->next; i++)
            for (uint64_t pa = t->ext[i].base; pa < t->ext[i].base + t->ext[i].bytes;
                 pa += PAGE_SIZE_2M)
                frames_free(f, pa, PAGE_SIZE_2M);
    t->next = t->n1g = 0;
    t->bytes = 0;
}

unsigned smp_bench_order(unsigned *cpu)
{
    static bool used[HZ_MAX_CPUS];
    int32_t doms[HZ_MAX_CPUS];
    unsigned nd = 0, n = 0, count = smp_count();
    for (unsigned i = 0; i < count; i++) {
        used[i] = smp_cpu(i)->state != SMP_CPU_ONLINE;
        unsigned d = 0;
        while (d < nd && doms[d] != smp_cpu(i)->domain)
            d++;
        if (d == nd && !used[i])
            doms[nd++] = smp_cpu(i)->domain;
    }
    for (bool progress = true; progress;) {
        progress = false;
        for (unsigned d = 0; d < nd; d++)
            for (unsigned i = 0; i < count; i++)
                if (!used[i] && smp_cpu(i)->domain == doms[d]) {
                    used[i] = progress = true;
                    cpu[n++] = i;
                    break;
                }
    }
    return n;
}

uint64_t smp_job_timeout_us(uint64_t bytes) { return 30000000ull + bytes / 5; }

static uint64_t lead_us = 100;
HZ_OPTION(opt_smp_start_lead, .name = "smp_start_lead_us", .kind = OPT_U64, .dest = &lead_us,
          .min = 0, .max = 1000000, .accepted = "0..1000000 (microseconds)",
          .help = "the CPUs of an smp clear start together this long after the last is ready "
                  "(default 100; 0: each starts when it sees the barrier open)");

uint64_t smp_start_lead_us(void) { return lead_us; }

uint64_t smp_start_lead_cyc(void) { return mul_div_u64(lead_us, tsc_info()->hz, 1000000); }

/* One CPU's part, at the measurement CPL: memory work, the TSC and the
 * barrier only (nothing privileged, no GS: see arch/user.h). */
static void job_part(void *arg)
{
    struct smp_job_part *p = arg;
    struct smp_job *j = p->j;
    unsigned k = p->slot, cpu = p->cpu;
    uint64_t to = mul_div_u64(j->timeout_us, tsc_info()->hz, 1000000);
    struct split_iter it;
    uint64_t base, len;

    split_iter_init(&it, j->ext, j->next, j->piece[k].off, j->piece[k].bytes);
    while (split_iter_next(&it, &base, &len))
        clear_dirty((void *)(uintptr_t)base, len, j->seed * HZ_MAX_CPUS + k);
    if (!smp_barrier_start(&j->bar, cpu, to, j->lead_cyc, &j->late[k])) {
        j->barrier_failed = true;
        return;
    }
    uint64_t t0 = tsc_start();
    split_iter_init(&it, j->ext, j->next, j->piece[k].off, j->piece[k].bytes);
    while (split_iter_next(&it, &base, &len))
        memop_clear(j->s, (void *)(uintptr_t)base, len, j->chunk);
    uint64_t t1 = tsc_stop();
    j->start[k] = t0;
    j->end[k] = t1;
    j->cyc[k] = t1 - t0;
    if (!smp_barrier_wait(&j->bar, cpu, to)) {
        j->barrier_failed = true;
        return;
    }
    split_iter_init(&it, j->ext, j->next, j->piece[k].off, j->piece[k].bytes);
    while (split_iter_next(&it, &base, &len)) {
        uint64_t first;
        if (!memop_verify_zero((const void *)(uintptr_t)base, len, MEMOP_EXACT, &first)) {
            j->bad[k] = true;
            j->bad_addr[k] = base + first;
            break;
        }
    }
}

static void job_fn(unsigned cpu, void *arg)
{
    struct smp_job *j = arg;
    user_run(cpu, job_part, &j->part[j->slot[cpu]]);
}

int smp_job_run(struct smp_job *j)
{
    static uint64_t steal0[HZ_MAX_CPUS];
    struct smp_set set;
    smp_set_clear(&set);
    smp_barrier_init(&j->bar, j->n);
    j->barrier_failed = false;
    j->wall_cyc = 0;
    for (unsigned k = 0; k < j->n; k++) {
        j->cyc[k] = 0;
        j->bad[k] = false;
        j->slot[j->cpu[k]] = (uint16_t)k;
        j->part[k] = (struct smp_job_part){j, k, j->cpu[k]};
        smp_set_add(&set, j->cpu[k]);
    }
    bool steal = steal_available();
    for (unsigned k = 0; k < j->n && steal; k++)
        steal0[k] = steal_ns(j->cpu[k]);
    uint64_t t0 = rdtsc();
    int rc = smp_run(&set, job_fn, j, j->timeout_us);
    uint64_t span = rdtsc() - t0;
    if (rc < 0)
        return rc;
    j->steal_ns = j->steal_base_ns = 0;
    for (unsigned k = 0; k < j->n && steal; k++) {
        j->steal_ns += steal_ns(j->cpu[k]) - steal0[k];
        j->steal_base_ns += tsc_to_ns(span);
    }
    if (j->barrier_failed)
        return -3;
    uint64_t first = UINT64_MAX, last = 0, last_start = 0, first_end = UINT64_MAX;
    j->late_starts = 0;
    for (unsigned k = 0; k < j->n; k++) {
        first = j->start[k] < first ? j->start[k] : first;
        last_start = j->start[k] > last_start ? j->start[k] : last_start;
        last = j->end[k] > last ? j->end[k] : last;
        first_end = j->end[k] < first_end ? j->end[k] : first_end;
        j->late_starts += j->late[k];
    }
    j->wall_cyc = last - first;
    j->start_skew_cyc = last_start - first;
    j->end_skew_cyc = last - first_end;
    j->wall_below = false;
    for (unsigned k = 0; k < j->n; k++)
        j->wall_below |= j->cyc[k] > j->wall_cyc;
    return 0;
}
