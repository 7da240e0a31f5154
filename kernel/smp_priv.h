/*
 * kernel/smp_priv.h - the per-CPU block shared by kernel/smp.c (start-up)
 * and kernel/smp_work.c (dispatch). Not for other subsystems: they use
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

#endif /* HZ_KERNEL_SMP_PRIV_H */
