/*
 * mm/demand.c - demand faults on the demand region.
 */
#include "mm/demand.h"
#include "arch/cpu.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "lib/print.h"
#include "mm/paging.h"
#include "mm/vm.h"

static struct pool *pool;
static struct spinlock *pool_lock;
static size_t npages;
static uint64_t page_bytes;
static bool leaf_1g;                       /* 1 GiB pages as PDPTE PS=1 */
static uint64_t *pdpt;                     /* the region's PDPT */
static uint64_t pd_phys[DEMAND_MAX_PAGES]; /* 2 MiB pages: the region's page directories */
/* 1 GiB pages without pdpe1gb: one ready page directory per pool frame, so a
 * fault installs a single PDPTE (its 512 PDEs were written at demand_init). */
static uint64_t frame_pd[DEMAND_MAX_FRAMES], frame_pd_maps[DEMAND_MAX_FRAMES];
static uint32_t page_frame[DEMAND_MAX_PAGES];
static bool mapped[DEMAND_MAX_PAGES];
static size_t page_slot[DEMAND_MAX_PAGES]; /* sample of the page's last fault */
static struct demand_sample samples[DEMAND_MAX_SAMPLES];
static size_t nsamples, dropped;
static uint64_t nfaults, touch_failures;
static const char *last_error = "";

static bool demand_fault(struct trap_frame *f);

size_t demand_pages(void) { return npages; }
uint64_t demand_page_bytes(void) { return page_bytes; }
bool demand_mapped(size_t page) { return page < npages && mapped[page]; }
size_t demand_nsamples(void)
{
    return nsamples < DEMAND_MAX_SAMPLES ? nsamples : DEMAND_MAX_SAMPLES;
}
const struct demand_sample *demand_sample(size_t i)
{
    return i < demand_nsamples() ? &samples[i] : 0;
}
size_t demand_dropped(void) { return dropped; }
uint64_t demand_faults(void) { return nfaults; }
uint64_t demand_touch_failures(void) { return __atomic_load_n(&touch_failures, __ATOMIC_ACQUIRE); }
const char *demand_error(void) { return __atomic_load_n(&last_error, __ATOMIC_ACQUIRE); }

/*
 * demand_touch_read(va): RAX = the 8 bytes at va, RDX = 0. The load at
 * demand_touch_insn is the one access whose #PF may fail without a crash:
 * when no frame is left the handler resumes at demand_touch_fail, which
 * returns RAX = 0, RDX = 1 (the System V ABI returns this struct in
 * RAX:RDX). Like Linux's exception-table fixups, with a single entry.
 */
struct touch_result {
    uint64_t value, failed;
};
struct touch_result demand_touch_read(const volatile uint64_t *va);
extern const char demand_touch_insn[], demand_touch_fail[];
__asm__(".pushsection .text\n"
        ".globl demand_touch_read\n"
        ".type demand_touch_read, @function\n"
        "demand_touch_read:\n"
        "    xorl %edx, %edx\n"
        "demand_touch_insn:\n"
        "    movq (%rdi), %rax\n"
        "    ret\n"
        "demand_touch_fail:\n"
        "    xorl %eax, %eax\n"
        "    movl $1, %edx\n"
        "    ret\n"
        ".size demand_touch_read, . - demand_touch_read\n"
        ".popsection\n");

void demand_reset_samples(void)
{
    nsamples = 0;
    dropped = 0;
}

int demand_init(struct pool *p, struct spinlock *lock, size_t n)
{
    uint64_t fb = p->frame_bytes;
    size_t gib = fb == PAGE_SIZE_1G ? n : (n * fb + PAGE_SIZE_1G - 1) / PAGE_SIZE_1G;
    if ((fb != PAGE_SIZE_1G && fb != PAGE_SIZE_2M) || n == 0 || n > DEMAND_MAX_PAGES) {
        kprintf("demand: bad region: %zu pages of %llu bytes\n", n, (unsigned long long)fb);
        return -1;
    }
    for (size_t i = 0; i < npages; i++)
        if (mapped[i]) {
            kprintf("demand: page %zu still mapped; release it first\n", i);
            return -1;
        }
    pool = p;
    pool_lock = lock;
    npages = n;
    page_bytes = fb;
    leaf_1g = fb == PAGE_SIZE_1G && vm_info()->pages_1g;
    uint64_t *e = vm_entry(DEMAND_BASE, PT_LEVEL_PDPT, true);
    if (!e)
        goto nomem;
    pdpt = e; /* entry 0 of the region's PDPT */
    for (size_t g = 0; g < gib && fb == PAGE_SIZE_2M; g++) {
        if (!pd_phys[g] && !(pd_phys[g] = vm_alloc_table()))
            goto nomem;
        pdpt[g] = pte_make_table(pd_phys[g], PTE_P | PTE_RW | PTE_US); /* PDEs per fault */
    }
    uint64_t fl = PTE_P | PTE_RW | PTE_US | (vm_info()->nx ? PTE_NX : 0);
    for (uint32_t i = 0; i < p->n && fb == PAGE_SIZE_1G && !leaf_1g; i++) {
        uint64_t phys = pool_phys(p, i);
        if (i >= DEMAND_MAX_FRAMES || (!frame_pd[i] && !(frame_pd[i] = vm_alloc_table())))
            goto nomem;
        if (frame_pd_maps[i] == phys)
            continue;
        uint64_t *pd = (uint64_t *)(uintptr_t)frame_pd[i];
        for (unsigned k = 0; k < PT_ENTRIES; k++)
            pd[k] = pte_make_2m(phys + k * PAGE_SIZE_2M, fl);
        frame_pd_maps[i] = phys;
    }
    for (size_t i = 0; i < n; i++)
        mapped[i] = false;
    nfaults = 0;
    touch_failures = 0;
    last_error = "";
    demand_reset_samples();
    vm_flush_all();
    trap_set_handler(14, demand_fault);
    return 0;
nomem:
    kprintf("demand: no memory for the region's page tables\n");
    return -1;
}

/*
 * Install page `page` -> pool frame idx at phys (SDM Vol. 3A §4.5: PDPTE
 * PS=1, or a PDPTE to the frame's ready PD, or one PDE). NX: data only.
 *
 * Every case turns one entry from not present into present. SDM Vol. 3A
 * §4.10.4.3 (Optional Invalidation): that needs no invalidation, because no
 * TLB or paging-structure-cache entry is ever created from an entry whose P
 * flag is 0 -- provided the last present -> not-present change of it was
 * invalidated (the section's footnote), which demand_release() does. One
 * INVLPG of the page is kept as the single flush: it also drops every
 * paging-structure-cache entry (§4.10.4.1), so no walk cached under an
 * earlier mapping of the region can outlive it. The CR3 reload that used to
 * follow it flushed the whole non-global TLB on every fault for nothing.
 */
static void map_page(size_t page, uint32_t idx, uint64_t phys)
{
    uint64_t fl = PTE_P | PTE_RW | PTE_US | (vm_info()->nx ? PTE_NX : 0);
    uint64_t va = DEMAND_BASE + page * page_bytes;
    if (leaf_1g) {
        pdpt[page] = pte_make_1g(phys, fl);
    } else if (page_bytes == PAGE_SIZE_1G) {
        pdpt[page] = pte_make_table(frame_pd[idx], PTE_P | PTE_RW | PTE_US);
    } else {
        uint64_t *pd = (uint64_t *)(uintptr_t)pd_phys[va_pdpt_index(va)];
        pd[va_pd_index(va)] = pte_make_2m(phys, fl);
    }
    invlpg((void *)(uintptr_t)va);
}

/* pool_take under the lock. When every free frame is being zeroed by a
 * background zeroer, wait for one (at most DEMAND_WAIT_S seconds of TSC)
 * rather than fail; POOL_EBUSY after that. */
#define POOL_EBUSY (-100)
static uint32_t waiters; /* faults waiting for a background zeroer */

unsigned demand_waiters(void) { return __atomic_load_n(&waiters, __ATOMIC_ACQUIRE); }

static int take_frame(uint32_t *idx, bool *pre)
{
    uint64_t deadline = 0;
    for (;;) {
        spin_lock(pool_lock);
        int rc = pool_take(pool, idx, pre);
        bool busy = rc == POOL_EEMPTY && pool_background_busy(pool);
        spin_unlock(pool_lock);
        if (!busy || (deadline && rdtsc() >= deadline)) {
            if (deadline)
                __atomic_fetch_sub(&waiters, 1, __ATOMIC_RELEASE);
            return busy ? POOL_EBUSY : rc;
        }
        if (!deadline) {
            deadline = rdtsc() + tsc_info()->hz * DEMAND_WAIT_S;
            __atomic_fetch_add(&waiters, 1, __ATOMIC_ACQ_REL);
        }
        for (int k = 0; k < 64; k++)
            cpu_relax();
    }
}

static bool demand_fault(struct trap_frame *f)
{
    uint64_t va = read_cr2();
    if (va < DEMAND_BASE || va >= DEMAND_BASE + npages * page_bytes || (f->error_code & 1))
        return false; /* not ours, or a protection fault: crash report */
    size_t page = (va - DEMAND_BASE) / page_bytes;
    uint32_t idx;
    bool pre;
    uint64_t c0 = 0, c1 = 0;

    int rc = take_frame(&idx, &pre);
    if (rc == POOL_OK && !pre) {
        /* The frame is ZEROING[fault] and this CPU's alone: clear it outside
         * the lock (mm/pool.h), so other CPUs' faults and zeroers go on. */
        c0 = tsc_start();
        rc = pool_zero_step(pool, idx, page_bytes, va, 0);
        c1 = tsc_stop();
        spin_lock(pool_lock);
        if (rc == POOL_OK)
            rc = pool_zero_end(pool, idx);
        spin_unlock(pool_lock);
    }
    if (rc != POOL_OK) {
        const char *why = rc == POOL_EEMPTY ? "the free-frame pool is empty"
                          : rc == POOL_EBUSY
                              ? "every free frame is still being zeroed after the wait"
                              : "the free-frame pool is inconsistent";
        kprintf("demand: fault on page %zu at 0x%llx: %s\n", page, (unsigned long long)va, why);
        __atomic_store_n(&last_error, why, __ATOMIC_RELEASE);
        if (f->rip != (uintptr_t)demand_touch_insn)
            return false; /* no way back from this access: crash report */
        __atomic_fetch_add(&touch_failures, 1, __ATOMIC_ACQ_REL);
        f->rip = (uintptr_t)demand_touch_fail; /* demand_touch() returns -1 */
        return true;
    }
    uint64_t phys = pool_phys(pool, idx);
    map_page(page, idx, phys);
    page_frame[page] = idx;
    mapped[page] = true;
    __atomic_fetch_add(&nfaults, 1, __ATOMIC_RELAXED);
    size_t slot = __atomic_fetch_add(&nsamples, 1, __ATOMIC_RELAXED);
    uint64_t end = tsc_stop();
    page_slot[page] = slot;
    if (slot < DEMAND_MAX_SAMPLES)
        samples[slot] =
            (struct demand_sample){(uint32_t)page, idx, phys, end - f->tsc, c1 - c0, 0, pre};
    else
        __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return true;
}

struct touch {
    const volatile uint64_t *va;
    struct touch_result r;
    uint64_t cyc;
};

/* At the measurement CPL: demand_touch_read() (its load, and the call and
 * return around it) between the two fenced TSC reads. A failed fault
 * resumes at demand_touch_fail in this ring too. */
static void touch_fn(void *arg)
{
    struct touch *t = arg;
    uint64_t a = tsc_start();
    t->r = demand_touch_read(t->va);
    t->cyc = tsc_stop() - a;
}

int demand_touch(unsigned cpu, size_t page, uint64_t *first, uint64_t *access_cyc)
{
    struct touch t = {demand_page(page, page_bytes), {0, 0}, 0};
    page_slot[page] = SIZE_MAX;
    user_run(cpu, touch_fn, &t);
    if (t.r.failed)
        return -1;
    size_t slot = page_slot[page];
    if (slot < DEMAND_MAX_SAMPLES)
        samples[slot].access_cyc = t.cyc;
    if (first)
        *first = t.r.value;
    if (access_cyc)
        *access_cyc = t.cyc;
    return 0;
}

int demand_release(size_t page, bool zero_on_free, uint64_t *zero_cyc)
{
    if (!demand_mapped(page))
        return -1;
    uint64_t va = DEMAND_BASE + page * page_bytes;
    if (page_bytes == PAGE_SIZE_2M)
        ((uint64_t *)(uintptr_t)pd_phys[va_pdpt_index(va)])[va_pd_index(va)] = 0;
    else
        pdpt[page] = 0;
    if (page_bytes == PAGE_SIZE_1G && !leaf_1g)
        vm_flush_all(); /* 512 PDE translations: one CR3 reload */
    else
        invlpg((void *)(uintptr_t)va);
    mapped[page] = false;

    uint32_t idx = page_frame[page];
    spin_lock(pool_lock);
    int rc = pool_free(pool, idx, zero_on_free);
    spin_unlock(pool_lock);
    if (rc == POOL_OK && zero_on_free) {
        /* ZEROING[on_free] and ours: cleared outside the lock (mm/pool.h). */
        uint64_t c0 = tsc_start();
        rc = pool_zero_step(pool, idx, page_bytes, 0, 0);
        if (zero_cyc)
            *zero_cyc = tsc_stop() - c0;
        spin_lock(pool_lock);
        if (rc == POOL_OK)
            rc = pool_zero_end(pool, idx);
        spin_unlock(pool_lock);
    }
    return rc == POOL_OK ? 0 : -1;
}
