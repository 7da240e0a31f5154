/*
 * kernel/smp_priv.h - the per-CPU block shared by kernel/smp.c (start-up)
 * and kernel/smp_work.c (dispatch), and the start-up log kernel/smp_plan.c
 * plans, kernel/smp.c fills and kernel/smp_report.c prints. Not for other
 * subsystems: they use kernel/smp.h.
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
#include "arch/trampoline.h"
#include "kernel/smp.h"

struct percpu {
    struct percpu *self; /* GS:0 */
    struct smp_cpu info;
    void *ist;               /* GDT_IST_BYTES for gdt_init_cpu() (APs; from the frame allocator) */
    volatile uint32_t stage; /* TRAMP_STAGE_C once smp_ap_main() runs */
    uint32_t seen_apic_id;   /* what the AP's own APIC said, in smp_ap_main() */
    uint32_t cpuid_apic_id;  /* CPUID.0BH:EDX there (valid when cpuid_apic_ok) */
    bool cpuid_apic_ok;      /* leaf 0BH is valid on that CPU */
    uint64_t seen_rsp;       /* a stack address of the AP in smp_ap_main() */
    /* mailbox: written by the BSP (fn, arg, then work_seq), polled by the CPU */
    volatile uint64_t work_seq __attribute__((aligned(64)));
    smp_fn fn;
    void *arg;
    /* written by the CPU: the work_seq it woke for (then TSC at that
     * moment), and the work_seq it ran once fn returned */
    volatile uint64_t woke_seq __attribute__((aligned(64)));
    volatile uint64_t woke_tsc;
    volatile uint64_t done_seq;
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
    SMP_FATE_NOMEM,     /* no memory for its stacks */
    SMP_FATE_PLANNED,   /* to be started (smp_plan); becomes ONLINE or FAILED */
};

/* Why SMP_FATE_LIMIT entries were not started. */
enum smp_limit_by {
    SMP_LIMIT_OPTION, /* smp=N */
    SMP_LIMIT_NOSMP,  /* nosmp */
    SMP_LIMIT_CAP,    /* HZ_MAX_CPUS, the build's maximum */
};

struct smp_start_log {
    uint8_t fate[ACPI_CPUS_MAX];   /* enum smp_fate, per MADT entry */
    int16_t cpu[ACPI_CPUS_MAX];    /* CPU index given, -1 none */
    uint8_t stage[ACPI_CPUS_MAX];  /* SMP_FATE_FAILED: last trampoline stage reached */
    uint16_t fault[ACPI_CPUS_MAX]; /* SMP_FATE_FAILED: TRAMP_FAULT(stage, vector) it reported */
    uint64_t tramp_page;           /* physical address of the trampoline; 0 when none */
    unsigned limit;                /* most CPUs to run, the BSP included */
    enum smp_limit_by limit_by;    /* where `limit` comes from */
    unsigned batch;                /* APs sent INIT-SIPI-SIPI together (smp_batch=) */
    unsigned strays;               /* APs that ran the trampoline and found no open slot */
    uint32_t stray_fault;          /* TRAMP_FAULT() of the last stray that faulted, 0 none */
    uint32_t stray_id;             /* APIC ID the last stray read (valid when strays) */
    uint64_t start_ns;             /* first INIT to the last AP online (0: none started) */
    size_t late_k;                 /* smp_selftest=late: the entry whose slot starts CLOSED */
};

/*
 * Decide the fate of every MADT entry (portable; tests/unit/test_smp_plan.c):
 * DISABLED (Enabled flag clear), DUPLICATE (an APIC ID an earlier enabled
 * entry has), BSP (the first with bsp_id: CPU 0), LIMIT (once
 * log->limit CPUs, the BSP included, are planned), NOADDR (APIC ID above
 * APIC_XAPIC_MAX_ID when `x2apic` is false), else PLANNED with the next CPU
 * index (1, 2, ... in MADT order). Sets log->fate and log->cpu for the
 * m->ncpu entries (at most ACPI_CPUS_MAX) and returns the APs planned;
 * reads log->limit (1..HZ_MAX_CPUS, clamped). Memory only, so it can run at
 * the measurement CPL (arch/user.h). Linear in m->ncpu: APIC IDs are looked
 * up in a bitmap (x2APIC IDs above 2^16 - 1 fall back to a scan).
 */
unsigned smp_plan(struct smp_start_log *log, const struct acpi_madt *m, uint32_t bsp_id,
                  bool x2apic);

/*
 * Choose how idle APs wait for work (option `smp_idle=`, kernel/smp_work.c)
 * and install the wake IPI's handler. Call on the BSP before the first AP
 * starts, after user_init() (user_ring0_emulated()). `auto` takes mwait only
 * where CPUID has MONITOR/MWAIT, not under TCG (MWAIT is a no-op: idle CPUs
 * would spin) and not where ring 0 is emulated (MONITOR there stops the VM);
 * `smp_idle=mwait` where ring 0 is emulated is a configuration error (exits
 * with status 3), under TCG a warning that idle CPUs spin. Prints the choice.
 */
void smp_idle_init(void);

#define SMP_IPI_TIMEOUT_US 20000 /* an ICR still pending after 20 ms is stuck */
#define SMP_WAKE_RESEND_US 2000  /* a CPU that has not woken 2 ms after its wake: wake again */

/*
 * Dispatch (kernel/smp_work.c), BSP only. smp_post(): give CPU `cpu`
 * (an online AP) fn(cpu, arg) in its mailbox; returns the work_seq it will
 * acknowledge in woke_seq and done_seq. smp_kick(): wake it the way idle
 * CPUs wait: the wake IPI (hlt), a store to the mailbox line (mwait; the
 * same sequence again), nothing (poll); -1 when the IPI stayed pending for
 * SMP_IPI_TIMEOUT_US. Call smp_kick() again for a CPU whose woke_seq has
 * not moved after SMP_WAKE_RESEND_US (a lost wake).
 */
uint64_t smp_post(unsigned cpu, smp_fn fn, void *arg);
int smp_kick(unsigned cpu);

/* How idle APs wait ("hlt", "mwait", "poll") and why that method (a
 * sentence for the `park` record); valid after smp_idle_init(). */
const char *smp_idle_method(void);
const char *smp_idle_why(void);

/*
 * The park/wake stress (kernel/smp_park.c): `smp_park_rounds=` rounds
 * (default SMP_PARK_ROUNDS), each waking one online AP (round-robin) with
 * a no-op and waiting for its acknowledgement, re-sending the wake after
 * SMP_WAKE_RESEND_US; then the `park` record and smp.park. Call on the BSP
 * after start-up; nothing with no AP online or smp_park_rounds=0. The
 * default is short: SMP_PARK_ROUNDS (~0.3 s under nested KVM, where a round
 * takes ~1.3 ms) when the run selects run=smp or nothing (run=none: the
 * boot check), else SMP_PARK_QUICK_ROUNDS, a wake check in proportion to a
 * run that does not measure the SMP paths; smp_park_rounds=10000 is the
 * stress.
 */
#define SMP_PARK_ROUNDS 200
#define SMP_PARK_QUICK_ROUNDS 20
void smp_park_stress(void);

extern struct tramp_slot smp_slots[HZ_MAX_CPUS]; /* by CPU index; the trampoline's table */
extern uint64_t smp_online_cyc[HZ_MAX_CPUS];     /* by CPU index: TSC when seen online, 0 not yet */

/*
 * Start the APs of MADT entries k[0..n) together (kernel/smp_start.c): open
 * their slots (smp_slots, filled before, by CPU index log->cpu[k]), INIT to
 * each, SMP_INIT_DELAY_US, START-UP to each, SMP_SIPI_DELAY_US, START-UP to
 * each, then wait until all are online or SMP_START_TIMEOUT_MS passes with no
 * new one, or until each one not online has reported an early fault in its
 * slot's mailbox (arch/trampoline.h "Early faults"). Each AP that did not
 * report gets one more attempt alone, then is given up (slot closed, state
 * SMP_CPU_FAILED, INIT); one that reported a fault halted itself and is
 * given up at once, with its stage and vector in log->fault and the line
 * "CPU N did not come up (stage S, vector V ...)". The slot of entry
 * log->late_k (if in k) starts CLOSED, as if the BSP had given up on it
 * before it ran: the AP must halt as a stray. Sets log->fate (ONLINE
 * or FAILED), log->stage and log->fault for failures, start_ns of each online CPU and
 * smp_online_cyc. The trampoline is at log->tramp_page, its parameter block
 * filled. Every wait is bounded.
 */
void smp_start_batch(struct smp_start_log *log, const size_t *k, unsigned n);

/* The name of trampoline stage `stage` (TRAMP_STAGE_*, arch/trampoline.h);
 * "?" past TRAMP_STAGE_C. */
const char *smp_stage_name(uint8_t stage);

/*
 * Print the start-up table and `cpu` records from log and MADT m (m->present
 * false: the boot CPU alone), the `smp` record, and the smp.start result:
 * skip (with apic_note) without a MADT or usable APIC, fail when any of the
 * `tried` APs did not come up, else pass. The count line names what limited
 * it (log->limit_by, no memory, xAPIC addressing).
 */
void smp_report(const struct smp_start_log *log, const struct acpi_madt *m, const char *apic_note,
                unsigned tried);

#endif /* HZ_KERNEL_SMP_PRIV_H */
