/*
 * kernel/smp.h - every CPU of the machine: start-up of the application
 * processors (APs) listed in the ACPI MADT (ACPI 6.5 §5.2.12), per-CPU
 * blocks, and running work on a set of CPUs with a barrier.
 *
 * Start-up (kernel/smp.c) follows Intel SDM Vol. 3A §9.4.4.1 (AMD APM Vol.
 * 2 §16.5 is the same sequence) for `smp_batch=` MADT-enabled CPUs at a time
 * (default all): INIT to each, 10 ms, START-UP to each, 200 us, START-UP to
 * each, then a wait until every AP of the batch reported, or
 * SMP_START_TIMEOUT_MS passed without a new one. Not a broadcast (ICR
 * shorthand "all excluding self", §11.6.1): that would also start CPUs the
 * MADT disables or smp= leaves out. Each AP finds its slot by its own APIC
 * ID and claims it atomically (arch/trampoline.h), so CPU indices, per-CPU
 * blocks and stacks never depend on the order APs arrive in. An AP that did
 * not report gets one more full attempt on its own, then its slot is
 * closed (it can never take it later) and it is sent INIT again (parked in
 * wait-for-SIPI) and reported. Delays are TSC-calibrated (arch/tsc.h).
 * Nothing waits forever.
 *
 * CPU indices: 0 is the boot CPU (BSP); APs get 1, 2, ... in MADT order
 * before they are started (a failed AP leaves its index unused). Each CPU's
 * GS base points at its per-CPU block. Stacks come from the frame allocator.
 *
 * Idle APs park (option `smp_idle=`, kernel/smp_work.c): HLT at CPL 0 with
 * interrupts on, woken by a fixed IPI (TRAP_VECTOR_WAKE) after smp_run()
 * fills the mailbox, or MONITOR/MWAIT on the mailbox, or (`poll`) PAUSE
 * polling at the measurement CPL. They take no lock while idle, so hz_exit()
 * on any CPU ends the run regardless; smp_run() waits for them with a bound.
 */
#ifndef HZ_KERNEL_SMP_H
#define HZ_KERNEL_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/cpu.h" /* HZ_MAX_CPUS */
#include "boot/bootinfo.h"

#define SMP_START_TIMEOUT_MS 1000 /* per attempt: the longest wait for the next AP to report */
#define SMP_INIT_DELAY_US 10000   /* INIT to START-UP, SDM Vol. 3A §9.4.4.1 */
#define SMP_SIPI_DELAY_US 200     /* between the two START-UPs */

enum smp_state {
    SMP_CPU_OFFLINE = 0, /* never started */
    SMP_CPU_STARTING,    /* INIT/START-UP sent, not reported yet */
    SMP_CPU_ONLINE,      /* idle or running work */
    SMP_CPU_FAILED,      /* did not come up; parked with INIT */
    SMP_CPU_STUCK,       /* did not finish work in time; never used again */
};

struct smp_cpu {
    unsigned index;
    uint32_t apic_id;
    int32_t domain;          /* SRAT proximity domain, -1 when unknown */
    uint32_t acpi_uid;       /* MADT ACPI Processor UID */
    volatile uint32_t state; /* enum smp_state */
    uint64_t start_ns;       /* first INIT to "online" (0 for the BSP) */
};

/*
 * Start every MADT-enabled CPU (at most `smp=N` CPUs in all; none with
 * `nosmp`), print the table APIC ID -> CPU index -> proximity domain, and
 * emit one `cpu` record per MADT entry and one `smp` record
 * (docs/results.md). Needs: ACPI parsed, TSC calibrated, options parsed,
 * mm_init() done (AP stacks come from the frame allocator, the trampoline
 * page is made executable with vm_set_exec()). Emits pass/fail `smp.start`.
 * Without a MADT or a usable APIC only the BSP runs.
 */
void smp_init(const struct bootinfo *bi);

/* CPUs with an index (0..smp_count()-1), online or not. 1 before smp_init. */
unsigned smp_count(void);

/* CPUs now in state SMP_CPU_ONLINE (the BSP included). */
unsigned smp_online(void);

/* CPU `i`, or NULL when i >= smp_count(). */
const struct smp_cpu *smp_cpu(unsigned i);

/* Index of the calling CPU (0 before smp_init: only the BSP runs then).
 * Reads the per-CPU block through GS: call at CPL 0, not from code run at
 * CPL 3 by arch/user.h (pass the index there instead). */
unsigned smp_cpu_index(void);

/* ---- running work (kernel/smp_work.c) ---- */

/* A set of CPU indices. */
struct smp_set {
    uint64_t bits[HZ_MAX_CPUS / 64];
};

void smp_set_clear(struct smp_set *s);
/* Add/test CPU i; indices >= HZ_MAX_CPUS are ignored / absent. */
void smp_set_add(struct smp_set *s, unsigned i);
bool smp_set_has(const struct smp_set *s, unsigned i);
unsigned smp_set_count(const struct smp_set *s);

typedef void (*smp_fn)(unsigned cpu, void *arg);

/*
 * Run fn(cpu, arg) on every CPU of `set` and wait until all have returned.
 * fn runs at CPL 0 with interrupts off (measured memory work inside it goes
 * through arch/user.h user_run). Call on the BSP only. When the BSP (index 0) is in the set it runs
 * fn itself after handing the work to the others. Waits at most `timeout_us` microseconds (TSC)
 * after the BSP's own call: a CPU that has not finished by then is printed, marked SMP_CPU_STUCK
 * and never given work again. The BSP waits at the measurement CPL (arch/user.h user_run on its
 * measurement stack, so not from inside a user_run of its own), back in ring 0 only to re-send a
 * wake not taken within SMP_WAKE_RESEND_US and at the timeout: where the hypervisor emulates
 * ring 0, a wait spinning there runs its emulator beside the measured APs
 * (tests/tools/test_disasm.py checks smp_run holds no PAUSE loop).
 * Returns 0 when every CPU finished; -1 when one got stuck (the caller
 * reports a failure: its fn may still be running); -2 without running
 * anything when called off the BSP, the set is empty or holds a CPU that is
 * not online.
 */
int smp_run(const struct smp_set *set, smp_fn fn, void *arg, uint64_t timeout_us);

/*
 * A sense-reversing barrier for `parties` CPUs: a locked decrement of the
 * arrivals still missing, and a shared sense flag the last arrival flips.
 * Each CPU keeps its own sense in the barrier, by the CPU index it passes
 * (0..HZ_MAX_CPUS-1, distinct per party; passed rather than read from GS so
 * the barrier also works in code run at CPL 3, arch/user.h). Memory only:
 * usable at any CPL. smp_barrier_wait() returns true when all parties
 * arrived; false when `timeout_cyc` TSC cycles passed first or the barrier
 * is broken: a timeout breaks it for everyone, so no CPU waits on a barrier
 * that can never complete. Reuse after a break needs smp_barrier_init().
 */
struct smp_barrier {
    uint32_t parties;
    volatile uint32_t left;   /* arrivals still missing in this round */
    volatile uint32_t sense;  /* flips when a round completes */
    volatile uint32_t broken; /* set by a waiter that timed out */
    volatile uint64_t go;     /* smp_barrier_start: the round's common start TSC */
    uint8_t local[HZ_MAX_CPUS];
};

void smp_barrier_init(struct smp_barrier *b, unsigned parties);
bool smp_barrier_wait(struct smp_barrier *b, unsigned cpu, uint64_t timeout_cyc);

/* ---- KVM paravirtual state of every CPU (kernel/smp_pv.c) ---- */

/*
 * ownership.steal: on every online CPU, steal_verify_cpu() (the host writes
 * steal time into the CPU's own record, and only into its 47 bytes KVM
 * owns). One pass/fail record; skip without KVM steal time. A CPU that is
 * not reached (busy, stuck) is a failure: its state is unknown. BSP only.
 */
void smp_pv_check(void);

/*
 * Before the machine is handed on (hz_exit): every online CPU writes 0 to
 * each PV MSR it enabled (kvm_pv_off_cpu()), within SMP_PV_TIMEOUT_US in
 * all; then one `steal` record per CPU that ran (docs/results.md). Off the
 * BSP only the calling CPU can do it; the others are named as unreached.
 */
void smp_pv_teardown(void);

/*
 * smp_barrier_wait(), then a common start: the last CPU to arrive sets the
 * round's deadline, its TSC + lead_cyc (TSC cycles), before it releases the
 * others, and every party spins on RDTSC (no PAUSE: the lead is short) until
 * the TSC reaches it. So all parties
 * leave at one TSC value however late each saw the release, as long as that
 * is within lead_cyc (the TSCs of all CPUs are one clock: invariant TSC,
 * SDM Vol. 3B §18.17.1). *late is true when this CPU first looked after the
 * deadline had passed (it was held up longer than lead_cyc; its start is
 * then late). lead_cyc 0: no deadline, as smp_barrier_wait(). Returns false
 * as smp_barrier_wait() does (*late false then). Memory and RDTSC only:
 * usable at CPL 3.
 */
bool smp_barrier_start(struct smp_barrier *b, unsigned cpu, uint64_t timeout_cyc, uint64_t lead_cyc,
                       bool *late);

/* Called by arch/trampoline.asm on each AP's own stack; never returns. */
_Noreturn void smp_ap_main(uint64_t cpu);

/* For kernel/smp_work.c: the AP idle loop (never returns). */
_Noreturn void smp_idle(unsigned cpu);

#endif /* HZ_KERNEL_SMP_H */
