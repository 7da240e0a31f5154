/*
 * kernel/header.h - the `header` record that starts every run
 * (docs/results.md): build, boot path, CPU, hypervisor, zeroing-relevant
 * CPUID features and a memory-map summary.
 */
#ifndef HZ_KERNEL_HEADER_H
#define HZ_KERNEL_HEADER_H

#include "boot/bootinfo.h"

/* Print the header record and a human banner. Needs cpu_init() and a parsed
 * boot-information block; `page_size` is "1G" or "2M" (direct-map pages). */
void header_emit(const struct bootinfo *bi, const char *page_size);

#endif /* HZ_KERNEL_HEADER_H */
