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
 * Exclude what the kernel does not own (first MiB, kernel image, boot
 * information, boot modules, the RSDP page), start the allocator, build and
 * load the page tables, list the 1 GiB frames, and print the layout. Returns
 * 0, or -1 after printing why when memory could not be set up (the caller
 * ends the run). `mixed` reports MTRR-mixed ranges (mm/vm.h; may be NULL).
 */
int mm_init(const struct bootinfo *bi, vm_mixed_fn mixed);

/* The allocator (valid after a successful mm_init). */
struct frames *mm_frames(void);

#endif /* HZ_MM_MM_H */
