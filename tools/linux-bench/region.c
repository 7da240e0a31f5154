/*
 * tools/linux-bench/region.c - map the measurement region and time Linux's
 * own fault path on it.
 *
 * Order of preference: a 1 GiB hugetlb page (mmap MAP_HUGETLB |
 * MAP_HUGE_1GB), 2 MiB hugetlb pages (MAP_HUGE_2MB), then ordinary anonymous
 * memory with madvise(MADV_HUGEPAGE) (transparent huge pages). hugetlb pages
 * come from a pool the administrator reserves (Documentation/admin-guide/mm/
 * hugetlbpage.rst); mmap fails with ENOMEM when the pool is empty. The first
 * write to each huge page makes Linux allocate and zero it (clear_huge_page /
 * folio_zero_user), which is exactly the cost hugezero studies.
 */
#define _GNU_SOURCE
#include "tools/linux-bench/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arch/x86.h"
#include "lib/fmt.h"
#include "lib/record.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif

#define SZ_2M (2ull << 20)
#define SZ_1G (1ull << 30)

static const struct {
    const char *name, *page_size, *sysfs; /* sysfs: hugetlb pool directory */
    size_t page;
    int flags;
} backings[BACKING_COUNT] = {
    [BACKING_HUGETLB_1G] = {"hugetlb_1g", "1G", "hugepages-1048576kB", SZ_1G,
                            MAP_HUGETLB | MAP_HUGE_1GB},
    [BACKING_HUGETLB_2M] = {"hugetlb_2m", "2M", "hugepages-2048kB", SZ_2M,
                            MAP_HUGETLB | MAP_HUGE_2MB},
    [BACKING_THP] = {"thp", "thp", NULL, SZ_2M, 0},
};

const char *backing_name(enum backing b) { return backings[b].name; }
const char *backing_page_size(enum backing b) { return backings[b].page_size; }

static long read_pool(const char *dir, const char *file)
{
    char path[160];
    long v = -1;
    snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* THP: over-map by one huge page, trim to a 2 MiB-aligned window, advise. */
static void *map_thp(size_t len)
{
    uint8_t *raw =
        mmap(NULL, len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + SZ_2M - 1) & ~(uintptr_t)(SZ_2M - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + len < raw + len + SZ_2M)
        munmap(p + len, (size_t)(raw + len + SZ_2M - (p + len)));
    if (madvise(p, len, MADV_HUGEPAGE) != 0)
        printf("linux-bench: madvise(MADV_HUGEPAGE): %s (4 KiB pages likely)\n", strerror(errno));
    return p;
}

static void *map_backing(enum backing b, size_t len)
{
    if (b == BACKING_THP)
        return map_thp(len);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | backings[b].flags, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void explain_failure(enum backing b, size_t len, int err)
{
    const char *dir = backings[b].sysfs;
    if (!dir) {
        printf("linux-bench: no %s region of %zu bytes: mmap: %s\n", backings[b].name, len,
               strerror(err));
        return;
    }
    long nr = read_pool(dir, "nr_hugepages"), fr = read_pool(dir, "free_hugepages");
    size_t need = len / backings[b].page;
    printf("linux-bench: no %s region of %zu bytes: mmap: %s (pool %s: nr_hugepages=%ld "
           "free_hugepages=%ld, need %zu)\n",
           backings[b].name, len, strerror(err), dir, nr, fr, need);
    printf("linux-bench:   to reserve them, as root: echo %zu > "
           "/sys/kernel/mm/hugepages/%s/nr_hugepages   (or boot with hugepagesz=%s "
           "hugepages=%zu)\n",
           need, dir, backings[b].page_size, need);
}

/* AnonHugePages of this process, bytes (/proc/self/smaps_rollup); 0 if unknown. */
static uint64_t anon_huge_bytes(void)
{
    char line[256];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

static int try_backing(struct region *r, enum backing b, unsigned repeats)
{
    static uint64_t ns[LB_MAX_REPEATS], mmap_ns[LB_MAX_REPEATS], cyc[LB_MAX_REPEATS],
        touch_ns[LB_MAX_REPEATS];
    size_t page = backings[b].page;
    size_t len = (r->size + page - 1) / page * page;

    for (unsigned it = 0; it <= repeats; it++) { /* it 0 is the warm-up */
        uint64_t t0 = lb_now_ns(), c0 = rdtsc();
        volatile uint8_t *p = map_backing(b, len);
        uint64_t t1 = lb_now_ns();
        if (!p) {
            if (it == 0) {
                explain_failure(b, len, errno);
                return -1;
            }
            printf("linux-bench: %s: mapping failed on repeat %u: %s\n", backings[b].name, it,
                   strerror(errno));
            return -1;
        }
        for (size_t off = 0; off < len; off += page)
            p[off] = 1; /* the fault: Linux allocates and zeroes the page */
        mfence();
        uint64_t c1 = lb_tsc_end(), t2 = lb_now_ns();
        if (it > 0) {
            ns[it - 1] = t2 - t0;
            mmap_ns[it - 1] = t1 - t0;
            touch_ns[it - 1] = r->touch_run[it - 1] = (t2 - t1) / (len / page);
            cyc[it - 1] = c1 - c0;
        }
        if (it < repeats) {
            munmap((void *)p, len);
            continue;
        }
        r->base = (uint8_t *)p;
        r->map_bytes = len;
        r->page_bytes = page;
        r->backing = b;
        r->thp_bytes = b == BACKING_THP ? anon_huge_bytes() : 0;
    }
    struct stats s;
    stats_compute(&r->fault_ns, ns, repeats);
    stats_compute(&s, mmap_ns, repeats);
    r->mmap_ns_median = s.median;
    stats_compute(&r->touch_ns, touch_ns, repeats);
    stats_compute(&s, cyc, repeats);
    r->fault_min_cyc = s.min;
    r->repeats = repeats;
    return 0;
}

int region_map(struct region *r, uint64_t size, unsigned repeats)
{
    memset(r, 0, sizeof(*r));
    r->size = size;
    for (enum backing b = 0; b < BACKING_COUNT; b++) {
        if (try_backing(r, b, repeats) == 0)
            return 0;
        if (b + 1 < BACKING_COUNT)
            printf("linux-bench: falling back to %s\n", backings[b + 1].name);
    }
    printf("linux-bench: cannot map %llu bytes at all\n", (unsigned long long)size);
    return -1;
}

void region_unmap(struct region *r)
{
    if (r->base)
        munmap(r->base, r->map_bytes);
    r->base = NULL;
}

void region_report(const struct region *r)
{
    char buf[HZ_RECORD_MAX], ms[3][32], g[32];
    uint64_t gbps = stats_gbps_x1000(r->map_bytes, r->fault_ns.min);

    fmt_fixed(ms[0], sizeof(ms[0]), r->fault_ns.min / 1000, 3);
    fmt_fixed(ms[1], sizeof(ms[1]), r->fault_ns.median / 1000, 3);
    fmt_fixed(ms[2], sizeof(ms[2]), r->mmap_ns_median / 1000, 3);
    fmt_fixed(g, sizeof(g), gbps, 3);
    char tm[32];
    fmt_fixed(tm, sizeof(tm), r->touch_ns.median / 1000, 3);
    printf("fault: %s, %zu bytes in %zu pages: mmap + first touch min %s ms, median %s ms "
           "(mmap alone %s ms; one page's faulting write alone, median %s ms), %s GB/s\n",
           backing_name(r->backing), r->map_bytes, r->map_bytes / r->page_bytes, ms[0], ms[1],
           ms[2], tm, g);
    if (r->backing == BACKING_THP)
        printf("fault: THP: AnonHugePages after the touch: %llu bytes of %zu\n",
               (unsigned long long)r->thp_bytes, r->map_bytes);

    struct rec rec;
    rec_begin(&rec, buf, sizeof(buf), "linux_fault");
    rec_str(&rec, "backing", backing_name(r->backing));
    rec_u64(&rec, "page_bytes", r->page_bytes);
    rec_u64(&rec, "bytes", r->map_bytes);
    rec_u64(&rec, "pages", r->map_bytes / r->page_bytes);
    rec_u64(&rec, "repeats", r->repeats);
    rec_u64(&rec, "min_ns", r->fault_ns.min);
    rec_u64(&rec, "median_ns", r->fault_ns.median);
    rec_u64(&rec, "max_ns", r->fault_ns.max);
    rec_u64(&rec, "mmap_ns", r->mmap_ns_median);
    rec_u64(&rec, "touch_min_ns", r->touch_ns.min);
    rec_u64(&rec, "touch_median_ns", r->touch_ns.median);
    rec_arr_begin(&rec, "touch_samples_ns"); /* make bench's fault ratio compares them */
    for (unsigned i = 0; i < r->repeats && i < CLEAR_RECORD_SAMPLES; i++)
        rec_u64(&rec, 0, r->touch_run[i]);
    rec_arr_end(&rec);
    rec_fixed(&rec, "gbps", gbps, 3);
    rec_fixed(&rec, "cpb", stats_cpb_x1000(r->fault_min_cyc, r->map_bytes), 3);
    rec_fixed(&rec, "cv_pct", r->fault_ns.cv_x100, 2);
    if (r->backing == BACKING_THP)
        rec_u64(&rec, "thp_bytes", r->thp_bytes);
    rec_str(&rec, "source", "linux");
    lb_emit(rec_end(&rec));
}
