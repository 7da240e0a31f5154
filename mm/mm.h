/*
 * mm/mm.h - memory start-up: exclusions, the frame allocator (mm/frames.h)
 * and the kernel page tables (mm/vm.h), in that order, and the layout
 * printout (human lines plus the `vm`, `frame`, `frame_reject` and
 * `maxphyaddr` records, docs/results.md).
 */
#ifndef HZ_MM_MM_H
#define HZ_MM_MM_H

#include "mm/frames.h"
#include "mm/vm.h"

/*
 * Read the MTRRs and PAT (mm/mtrr.h), cut the memory map at MAXPHYADDR
 * (CPUID 0x80000008 EAX[7:0]; a printed line and a `maxphyaddr` record say
 * how much RAM that left out), exclude what the kernel does not own
 * (first MiB, kernel image, and the nboot ranges of boot[]: the boot
 * information, boot modules, the RSDP page, boot/bootinfo.h
 * bootinfo_exclusions; at most MM_BOOT_EXCL; `lost` more that did not fit
 * are reported on a line),
 * start the allocator, build and load the page tables (splitting large pages
 * whose MTRR type is mixed), list the 1 GiB frames with their memory type,
 * and print the layout. Returns 0, or -1 after printing why when memory
 * could not be set up (the caller ends the run).
 */
int mm_init(const struct memmap *map, const struct frame_excl *boot, size_t nboot, size_t lost);

/* Most boot-information exclusions mm_init() takes: the allocator's, less
 * the first MiB and the kernel image. */
#define MM_BOOT_EXCL (FRAMES_MAX_EXCL - 2)

/* Effective memory type (enum mem_cache of mm/mtrr.h: MC_WB, MC_UC, ...,
 * MC_MIXED) of [base, base + size) as the direct map maps it (PAT index 0);
 * MC_NONE when the MTRRs could not be decoded. */
int mm_mem_type(uint64_t base, uint64_t size);

/* The allocator (valid after a successful mm_init). */
struct frames *mm_frames(void);

#endif /* HZ_MM_MM_H */
