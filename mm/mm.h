/*
 * mm/mm.h - memory start-up: exclusions, the frame allocator (mm/frames.h)
 * and the kernel page tables (mm/vm.h), in that order, and the layout
 * printout (human lines plus `frame` and `excl` records, docs/results.md).
 */
#ifndef HZ_MM_MM_H
#define HZ_MM_MM_H

#include "boot/bootinfo.h"
#include "mm/frames.h"
#include "mm/vm.h"

/*
 * Read the MTRRs and PAT (mm/mtrr.h), cut the memory map at MAXPHYADDR
 * (CPUID 0x80000008 EAX[7:0]; a printed line and a `maxphyaddr` record say
 * how much RAM that left out), exclude what the kernel does not own
 * (first MiB, kernel image, boot information, boot modules, the RSDP page),
 * start the allocator, build and load the page tables (splitting large pages
 * whose MTRR type is mixed), list the 1 GiB frames with their memory type,
 * and print the layout. Returns 0, or -1 after printing why when memory
 * could not be set up (the caller ends the run).
 */
int mm_init(const struct bootinfo *bi);

/* Effective memory type (enum mem_cache of mm/mtrr.h: MC_WB, MC_UC, ...,
 * MC_MIXED) of [base, base + size) as the direct map maps it (PAT index 0);
 * MC_NONE when the MTRRs could not be decoded. */
int mm_mem_type(uint64_t base, uint64_t size);

/* The allocator (valid after a successful mm_init). */
struct frames *mm_frames(void);

#endif /* HZ_MM_MM_H */
