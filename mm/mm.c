/*
 * mm/mm.c - memory start-up and the layout printout.
 */
#include "mm/mm.h"
#include "arch/cpu.h"
#include "lib/print.h"
#include "lib/record.h"
#include "mm/mtrr.h"
#include "mm/paging.h"

extern char __kernel_start[], __kernel_end[];

static struct frames frames;
static struct mtrr_state mtrr;
static struct memmap map; /* the boot map, clamped to MAXPHYADDR */

/* A large page over [base, base + size) would get an implementation-defined
 * memory type (SDM Vol. 3A §11.11.9): map it with smaller pages. */
static bool mtrr_mixed(uint64_t base, uint64_t size)
{
    struct mtrr_range r;
    if (!mtrr.valid || mtrr_range_type(&mtrr, base, base + size, &r) != MTRR_OK)
        return false;
    return r.type == MC_MIXED || r.type == MC_UNDEFINED;
}

int mm_mem_type(uint64_t base, uint64_t size)
{
    return mtrr.valid ? mtrr_pat0_type(&mtrr, base, base + size) : MC_NONE;
}

static void init_mtrr(void)
{
    struct mtrr_msrs raw;
    char line[160];
    mtrr_read(&raw);
    if (mtrr_decode(&mtrr, &raw, line, sizeof(line)) != MTRR_OK)
        kprintf("mtrr: %s: memory types unknown, large pages are not split for them\n", line);
    for (size_t it = 0; mtrr_layout_line(&mtrr, &it, line, sizeof(line));)
        kprintf("mtrr: %s\n", line);
}

struct frames *mm_frames(void) { return &frames; }

/* The first MiB, the kernel image and the boot information's nboot ranges
 * (at most MM_BOOT_EXCL are kept) into x. */
static size_t exclusions(const struct frame_excl *boot, size_t nboot, size_t lost,
                         struct frame_excl *x)
{
    size_t n = 0;
    x[n++] = (struct frame_excl){0, 0x100000, "first MiB"};
    x[n++] =
        (struct frame_excl){(uintptr_t)__kernel_start, (uintptr_t)__kernel_end, "kernel image"};
    if (nboot > MM_BOOT_EXCL) {
        lost += nboot - MM_BOOT_EXCL;
        nboot = MM_BOOT_EXCL;
    }
    for (size_t i = 0; i < nboot; i++)
        x[n++] = boot[i];
    if (lost)
        kprintf("mm: %zu boot-information range(s) not excluded: more than %d exclusions\n", lost,
                FRAMES_MAX_EXCL);
    return n;
}

/* The `vm` record: what vm_init() built (docs/results.md `vm`). */
static void vm_record(void)
{
    const struct vm_info *v = vm_info();
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "vm");
    rec_u64(&r, "map_bytes", v->map_end);
    rec_str(&r, "pages", v->pages_1g ? "1G" : "2M");
    rec_u64(&r, "split_1g", v->split_1g);
    rec_u64(&r, "mixed_1g", v->mixed_1g);
    rec_bool(&r, "nx", v->nx);
    rec_u64(&r, "tables", v->tables);
    record_emit(&r);
}

static void print_layout(void)
{
    char line[160], buf[HZ_RECORD_MAX];
    struct rec r;
    for (size_t it = 0; frames_layout_line(&frames, &it, line, sizeof(line));)
        kprintf("mm: %s\n", line);
    for (size_t i = 0; i < frames_1g_count(&frames); i++) {
        rec_begin(&r, buf, sizeof(buf), "frame");
        rec_u64(&r, "index", i);
        rec_hex(&r, "base", frames_1g_base(&frames, i));
        rec_u64(&r, "bytes", PAGE_SIZE_1G);
        rec_str(&r, "mtype", mem_cache_name(mm_mem_type(frames_1g_base(&frames, i), PAGE_SIZE_1G)));
        record_emit(&r);
    }
    for (size_t i = 0; i < frames_reject_count(&frames); i++) {
        const struct frames_reject *j = frames_reject_get(&frames, i);
        frames_reject_text(&frames, i, line, sizeof(line));
        rec_begin(&r, buf, sizeof(buf), "frame_reject");
        rec_hex(&r, "base", j->base);
        rec_u64(&r, "count", j->count);
        rec_str(&r, "reason", line);
        record_emit(&r);
    }
}

/* The loader's map cut at MAXPHYADDR (CPUID 0x80000008 EAX[7:0]): RAM past
 * it cannot be mapped, and a PTE pointing there faults with RSVD. */
static void clamp_to_maxphyaddr(const struct memmap *in)
{
    unsigned bits = cpu_leaf_reg(0x80000008u, 0, CPUID_EAX) & 0xff;
    uint64_t limit = memmap_phys_limit(bits);
    map = *in;
    uint64_t cut = memmap_clamp(&map, limit);
    if (cut)
        kprintf("mm: MAXPHYADDR %u bits (%s): %llu MiB of RAM at or above 0x%llx left out\n",
                bits ? bits : MEMMAP_PHYS_BITS_DEFAULT,
                bits ? "CPUID 0x80000008 EAX[7:0]" : "CPUID 0x80000008 absent, assumed",
                (unsigned long long)(cut >> 20), (unsigned long long)limit);
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "maxphyaddr");
    rec_u64(&r, "bits", bits ? bits : MEMMAP_PHYS_BITS_DEFAULT);
    rec_str(&r, "source", bits ? "cpuid 0x80000008" : "default");
    rec_hex(&r, "limit", limit);
    rec_u64(&r, "clamped_bytes", cut);
    record_emit(&r);
}

int mm_init(const struct memmap *boot_map, const struct frame_excl *boot, size_t nboot, size_t lost)
{
    struct frame_excl x[FRAMES_MAX_EXCL];
    init_mtrr();
    clamp_to_maxphyaddr(boot_map);
    size_t nx = exclusions(boot, nboot, lost, x);
    int rc = frames_init(&frames, &map, x, nx);
    if (rc == FRAMES_OK)
        rc = vm_init(&frames, &map, mtrr_mixed);
    if (rc == FRAMES_OK)
        rc = frames_build_1g(&frames);
    if (rc != FRAMES_OK) {
        kprintf("mm: cannot set up memory: %s\n", frames_strerror(rc));
        return -1;
    }
    vm_record();
    print_layout();
    return 0;
}
