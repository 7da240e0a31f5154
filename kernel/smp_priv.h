/*
 * kernel/smp_priv.h - the per-CPU block shared by kernel/smp.c (start-up)
 * and kernel/smp_work.c (dispatch), and the start-up log kernel/smp.c fills
 * and kernel/smp_report.c prints. Not for other subsystems: they use
 * kernel/smp.h.
 *
 * Each CPU's GS base (MSR IA32_GS_BASE, SDM Vol. 3A §3.4.4.1) holds the
 * address of its block; `self` at offset 0 lets `mov %gs:0` find it. The
 * mailbox and the completion word sit on cache lines of their own, so the
 * polling CPU and the dispatching BSP do not share a line more than needed.
 */
#ifndef HZ_KERNEL_SMP_PRIV_H
#define HZ_KERNEL_SMP_PRIV_H

#include <stddef.h>

#include "arch/acpi.h"
#include "kernel/smp.h"

struct percpu {
    struct percpu *self; /* GS:0 */
    struct smp_cpu info;
    /* mailbox: written by the BSP (fn, arg, then work_seq), polled by the CPU */
    volatile uint64_t work_seq __attribute__((aligned(64)));
    smp_fn fn;
    void *arg;
    /* written by the CPU when fn returned: the work_seq it ran */
    volatile uint64_t done_seq __attribute__((aligned(64)));
} __attribute__((aligned(64)));

_Static_assert(offsetof(struct percpu, self) == 0, "GS:0 holds the block's own address");

extern struct percpu smp_percpu[HZ_MAX_CPUS];
extern unsigned smp_ncpu;         /* CPUs with an index */
extern volatile int smp_gs_ready; /* the BSP's GS base is set */

/* What became of each MADT entry, for the table and the `cpu` records. */
enum smp_fate {
    SMP_FATE_NONE,      /* not started: start-up stopped first (no usable local APIC) */
    SMP_FATE_BSP,       /* the boot CPU */
    SMP_FATE_ONLINE,    /* started */
    SMP_FATE_FAILED,    /* INIT-SIPI-SIPI twice, no answer */
    SMP_FATE_DISABLED,  /* MADT Enabled flag clear */
    SMP_FATE_LIMIT,     /* beyond smp=N or nosmp */
    SMP_FATE_DUPLICATE, /* an APIC ID listed before */
    SMP_FATE_NOADDR,    /* APIC ID above 254 in xAPIC mode */
};

struct smp_start_log {
    uint8_t fate[ACPI_CPUS_MAX];  /* enum smp_fate, per MADT entry */
    int16_t cpu[ACPI_CPUS_MAX];   /* CPU index given, -1 none */
    uint8_t stage[ACPI_CPUS_MAX]; /* SMP_FATE_FAILED: last trampoline stage reached */
    uint64_t tramp_page;          /* physical address of the trampoline; 0 when none */
};

/* The name of trampoline stage `stage` (TRAMP_STAGE_*, arch/trampoline.h);
 * "?" past TRAMP_STAGE_C. */
const char *smp_stage_name(uint8_t stage);

/*
 * Print the start-up table and `cpu` records from log and MADT m (m->present
 * false: the boot CPU alone), the `smp` record, and the smp.start result:
 * skip (with apic_note) without a MADT or usable APIC, fail when any of the
 * `tried` APs did not come up, else pass. limit is the smp=/nosmp CPU limit.
 */
void smp_report(const struct smp_start_log *log, const struct acpi_madt *m, const char *apic_note,
                unsigned tried, unsigned limit);

#endif /* HZ_KERNEL_SMP_PRIV_H */
