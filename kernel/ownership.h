/*
 * kernel/ownership.h - proof that the kernel never wrote memory it does not
 * own: checksums of the kernel's read-only sections (text, rodata), the boot
 * loader's information block, every ACPI table and every boot module (below
 * 4 GiB; one above is named and skipped), taken at start and
 * compared at the end of the run. A mismatch is a `fail` record.
 */
#ifndef HZ_KERNEL_OWNERSHIP_H
#define HZ_KERNEL_OWNERSHIP_H

#include "boot/bootinfo.h"

/* Take the start-of-run checksums. Call after acpi_init(), before any test. */
void ownership_snapshot(const struct bootinfo *bi);

/* Recompute and compare: one `pass` or `fail` record per region class
 * (ownership.kernel, .bootinfo, .acpi, .module), `skip` for an empty class
 * (none for .module when there are no modules), then ownership.steal
 * (smp_pv_check(), kernel/smp.h). BSP only. */
void ownership_check(void);

#endif /* HZ_KERNEL_OWNERSHIP_H */
