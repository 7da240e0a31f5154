/*
 * mm/demand.h - the demand region: a virtual range whose pages start not
 * present, so that touching one raises a real #PF (SDM Vol. 3A §4.7) that
 * this module resolves the way a hugetlb fault does: take a frame from the
 * free-frame pool (mm/pool.h), zero it with the pool's clear strategy unless
 * it is already known zero, install the entry, INVLPG, and return so the
 * faulting instruction completes.
 *
 * Page size is the pool's frame size: 1 GiB (a PDPTE with PS=1 when the CPU
 * has pdpe1gb, else a PDPTE to the frame's own page directory of 512 x
 * 2 MiB PDEs, written by demand_init) or 2 MiB (the fallback when no 1 GiB frame exists). Every
 * paging structure the region needs is allocated by demand_init(), so the fault path never
 * allocates.
 *
 * Timing: service time runs from the TSC read in the #PF entry code
 * (arch/trap.asm, just after the registers are saved) to just before the
 * handler returns to the entry code for IRETQ: the handler's time. Access
 * time is the fault as the faulting program sees it: demand_touch() times
 * the load at the measurement CPL (arch/user.h) from a fenced TSC read just
 * before it to one just after it retired (tsc_start/tsc_stop: MFENCE;
 * LFENCE; RDTSC; LFENCE), so it holds the exception delivery, the handler,
 * IRETQ and the retried load. Clear time brackets the zeroing with
 * tsc_start/tsc_stop inside the service window, whose entry read has the
 * same fences, so clear_cyc <= service_cyc by construction on a TSC that
 * runs forward (run=faultclear counts a sample where it does not). All are TSC
 * cycles, kept in memory and printed after the workload, so serial output
 * never lands inside a measured fault.
 */
#ifndef HZ_MM_DEMAND_H
#define HZ_MM_DEMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/spinlock.h"
#include "mm/pool.h"

/* PML4 entry 128 (64 TiB): far above any identity-mapped RAM, and in the
 * lower canonical half, because PVM-style hypervisors reserve the upper half
 * and fault any CPL 3 access there (arch/user.h). */
#define DEMAND_BASE 0x0000400000000000ull
#define DEMAND_MAX_PAGES 512 /* 512 GiB of 1 GiB pages, or 1 GiB of 2 MiB */
#define DEMAND_MAX_SAMPLES 4096
/* Pool frames the region can map; a pool larger than this cannot be mapped
 * (scenarios/fault/run.c asserts FAULT_POOL_MAX fits at compile time). */
#define DEMAND_MAX_FRAMES 1024

struct demand_sample {
    uint32_t page;        /* page index in the region */
    uint32_t pool_idx;    /* frame index in the pool */
    uint64_t phys;        /* frame's physical base */
    uint64_t service_cyc; /* #PF entry to handler return, TSC cycles */
    uint64_t clear_cyc;   /* zeroing in the fault path (0 when pre-zeroed) */
    uint64_t access_cyc;  /* the faulting load as its program saw it (demand_touch);
                           * 0 when the fault came from another access */
    bool prezeroed;       /* the frame was already zero */
};

/*
 * Prepare a region of `npages` pages (1..DEMAND_MAX_PAGES) of the pool's
 * frame size (PAGE_SIZE_1G or PAGE_SIZE_2M), all not present, and install
 * the #PF handler. `lock` guards the pool (shared with whoever else uses it).
 * Returns 0, or -1 after printing why (bad size, no page-table memory).
 * May be called again to start over once every page has been released.
 */
int demand_init(struct pool *pool, struct spinlock *lock, size_t npages);

/* Virtual address of page `page` (no bounds check: see demand_pages). */
static inline volatile uint64_t *demand_page(size_t page, uint64_t page_bytes)
{
    return (volatile uint64_t *)(uintptr_t)(DEMAND_BASE + page * page_bytes);
}

size_t demand_pages(void);
uint64_t demand_page_bytes(void);

/*
 * The first touch of page `page` (< demand_pages()) as a program makes it:
 * one 8-byte load of its first word at the measurement CPL on CPU `cpu`
 * (the calling CPU, called at CPL 0 and not inside user_run), which takes
 * the demand fault when the page is not mapped, timed as described above.
 * Returns 0 with *first (may be NULL) the word read and *access_cyc (may
 * be NULL) the TSC cycles, which also go into the sample of the fault the
 * load took (a mapped page is just a load, and has no sample). Returns -1
 * when the #PF handler found no frame for it (the pool empty, or every free
 * frame still being zeroed after DEMAND_WAIT_S): the page stays unmapped,
 * demand_touch_failures() counts it and demand_error() says why. Any other
 * access to an unmapped page of the region has no way back: the handler
 * leaves it to the crash report. A page is touched by one CPU at a time.
 */
int demand_touch(unsigned cpu, size_t page, uint64_t *first, uint64_t *access_cyc);

/* Failed demand_touch() calls since demand_init(), and the reason of the
 * last one (a constant string; "" when none failed). */
uint64_t demand_touch_failures(void);
const char *demand_error(void);

/* True when page `page` is mapped. */
bool demand_mapped(size_t page);

/*
 * Unmap page `page` and free its frame to the pool (dirty, or zeroed at
 * once when `zero_on_free`: the on_free policy, timed into *zero_cyc when not
 * NULL). Returns 0, or -1 when the page is not mapped (nothing changes).
 */
int demand_release(size_t page, bool zero_on_free, uint64_t *zero_cyc);

/* Samples recorded since the last demand_reset_samples() (capped at
 * DEMAND_MAX_SAMPLES; demand_dropped() counts the rest). */
size_t demand_nsamples(void);
const struct demand_sample *demand_sample(size_t i);
size_t demand_dropped(void);
void demand_reset_samples(void);

/* A fault clears its frame outside the pool lock (the frame is ZEROING and
 * its own), so faults on several CPUs and background zeroers overlap. A
 * fault that finds no ZEROED or DIRTY frame while a background zeroer holds
 * one waits for it, at most DEMAND_WAIT_S seconds (TSC). Faults that find
 * the pool empty, or wait that long, end the run with a clear error
 * (HZ_FAIL); demand_faults() is the count of faults taken since demand_init. */
#define DEMAND_WAIT_S 10
uint64_t demand_faults(void);

/* Faults now waiting for a frame a background zeroer holds; a zeroer that
 * sees one should pause its frame and not begin another chunk until 0. */
unsigned demand_waiters(void);

#endif /* HZ_MM_DEMAND_H */
