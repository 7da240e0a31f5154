/*
 * kernel/smp_start.c - INIT-SIPI-SIPI for a batch of APs (Intel SDM Vol. 3A
 * §9.4.4.1, §11.6.1; AMD APM Vol. 2 §16.5), the bounded waits for them to
 * report, and the retry and give-up of one that did not (kernel/smp_priv.h).
 * The slots the APs claim are filled by kernel/smp.c (arch/trampoline.h).
 */
#include "arch/acpi.h"
#include "arch/apic.h"
#include "arch/trampoline.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "kernel/smp_priv.h"
#include "lib/print.h"

uint64_t smp_online_cyc[HZ_MAX_CPUS];

struct online_wait {
    const struct smp_start_log *log;
    const size_t *k; /* MADT entries */
    unsigned n;
    uint64_t quiet_cyc; /* give up after this long without a new CPU online */
};

/* Poll until every CPU of w is online or has reported an early fault
 * (its slot's mailbox), or none came for w->quiet_cyc; note when each was
 * first seen online. Memory only: runs at the measurement CPL, so the
 * waiting BSP is not emulated where ring 0 is (arch/user.h). */
static void wait_online(void *arg)
{
    const struct online_wait *w = arg;
    const int16_t *cpu = w->log->cpu;
    uint64_t last = rdtsc();
    for (;;) {
        unsigned left = 0;
        for (unsigned i = 0; i < w->n; i++) {
            unsigned c = (unsigned)cpu[w->k[i]];
            if (!smp_online_cyc[c] &&
                __atomic_load_n(&smp_percpu[c].info.state, __ATOMIC_ACQUIRE) == SMP_CPU_ONLINE)
                smp_online_cyc[c] = last = rdtsc();
            left += !smp_online_cyc[c] && !__atomic_load_n(&smp_slots[c].fault, __ATOMIC_ACQUIRE);
        }
        if (!left || rdtsc() - last >= w->quiet_cyc)
            return;
        cpu_relax();
    }
}

static void await(const struct smp_start_log *log, const size_t *k, unsigned n)
{
    struct online_wait w = {log, k, n, mul_div_u64(SMP_START_TIMEOUT_MS, tsc_info()->hz, 1000)};
    user_run(0, wait_online, &w);
}

static void delay_fn(void *arg) { tsc_delay_us(*(const uint64_t *)arg); }

/* A TSC delay at the measurement CPL (see wait_online). */
static void delay_us(uint64_t us) { user_run(0, delay_fn, &us); }

/* INIT, 10 ms, START-UP, 200 us, START-UP to the APs of MADT entries k[0..n)
 * (SDM Vol. 3A §9.4.4.1), each step sent to all of them before the delay:
 * every AP still sees the SDM's delays between its own IPIs. The second
 * START-UP goes to all, as Linux's wakeup_secondary_cpu_via_init() does: an
 * AP that already left wait-for-SIPI ignores it. *esr: the ESR after the
 * last IPI (xAPIC). */
static void send_init_sipi_sipi(uint64_t tramp_page, const size_t *k, unsigned n, uint32_t *esr)
{
    uint8_t vector = (uint8_t)(tramp_page >> 12);
    const struct acpi_cpu *cpu = acpi_get()->madt.cpu;
    for (unsigned i = 0; i < n; i++)
        apic_send_init(cpu[k[i]].apic_id, SMP_IPI_TIMEOUT_US, esr);
    delay_us(SMP_INIT_DELAY_US);
    for (unsigned i = 0; i < n; i++)
        apic_send_sipi(cpu[k[i]].apic_id, vector, SMP_IPI_TIMEOUT_US, esr);
    delay_us(SMP_SIPI_DELAY_US);
    for (unsigned i = 0; i < n; i++)
        apic_send_sipi(cpu[k[i]].apic_id, vector, SMP_IPI_TIMEOUT_US, esr);
}

/* The AP of MADT entry k reported `fault` (TRAMP_FAULT) in its mailbox
 * and halted with interrupts off: close its slot if it had not taken it,
 * mark it FAILED (it never reaches smp_ap_main()'s STARTING -> ONLINE), say
 * so, and park it with INIT. Its stage is the one it reported, or C when
 * smp_ap_main() had begun (the 64-bit handler reports long mode). */
static void fault_stop(struct smp_start_log *log, size_t k, uint32_t fault)
{
    unsigned cpu = (unsigned)log->cpu[k];
    uint32_t id = acpi_get()->madt.cpu[k].apic_id, expect = TRAMP_SLOT_OPEN;
    uint8_t stage = (uint8_t)TRAMP_FAULT_STAGE(fault), vector = (uint8_t)TRAMP_FAULT_VECTOR(fault);
    __atomic_compare_exchange_n(&smp_slots[cpu].claim, &expect, TRAMP_SLOT_CLOSED, false,
                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    if (smp_percpu[cpu].stage == TRAMP_STAGE_C)
        stage = TRAMP_STAGE_C;
    smp_percpu[cpu].info.state = SMP_CPU_FAILED;
    log->stage[k] = stage;
    log->fault[k] = (uint16_t)TRAMP_FAULT(stage, vector);
    kprintf("smp: CPU %u (APIC ID %u) did not come up (stage %s, vector %u %s): it halted "
            "itself; sent INIT\n",
            cpu, id, smp_stage_name(stage), vector, trap_name(vector));
    apic_send_init(id, SMP_IPI_TIMEOUT_US, 0); /* park it in wait-for-SIPI */
}

/* The AP of MADT entry k did not come up with its batch: one more full
 * attempt on its own, then give up. Giving up closes its slot (LOCK
 * CMPXCHG OPEN -> CLOSED), so the AP can never take it later; an AP that
 * took it already runs on its own stack and gets one more time-out, then
 * its state goes STARTING -> FAILED (CMPXCHG: smp_ap_main() races for
 * STARTING -> ONLINE) and INIT parks it. Returns true when it is online. */
static bool retry_or_close(struct smp_start_log *log, struct tramp_params *params, size_t k)
{
    unsigned cpu = (unsigned)log->cpu[k];
    struct tramp_slot *slot = &smp_slots[cpu];
    struct percpu *pc = &smp_percpu[cpu];
    uint32_t id = acpi_get()->madt.cpu[k].apic_id, esr = 0;
    uint32_t expect = TRAMP_SLOT_OPEN;
    if (slot->fault) {
        fault_stop(log, k, slot->fault);
        return false;
    }
    kprintf("smp: APIC ID %u did not come up (attempt 1 of 2, in a batch of %u; slot %s)\n", id,
            log->batch, slot->claim == TRAMP_SLOT_TAKEN ? "taken" : "not taken");
    if (slot->claim == TRAMP_SLOT_OPEN) {
        params->stage = TRAMP_STAGE_NONE;
        mfence();
        send_init_sipi_sipi(log->tramp_page, &k, 1, &esr);
        await(log, &k, 1);
        if (smp_online_cyc[cpu])
            return true;
        if (slot->fault) {
            fault_stop(log, k, slot->fault);
            return false;
        }
    }
    uint8_t stage;
    if (__atomic_compare_exchange_n(&slot->claim, &expect, TRAMP_SLOT_CLOSED, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
        expect == TRAMP_SLOT_CLOSED) {  /* closed before (smp_selftest=late) */
        stage = (uint8_t)params->stage; /* alone: its own; else the batch's last writer */
    } else {                            /* TAKEN: let it finish */
        await(log, &k, 1);
        uint32_t starting = SMP_CPU_STARTING;
        if (!__atomic_compare_exchange_n(&pc->info.state, &starting, SMP_CPU_FAILED, false,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            smp_online_cyc[cpu] = smp_online_cyc[cpu] ? smp_online_cyc[cpu] : rdtsc();
            return true; /* it went online just now */
        }
        if (slot->fault) { /* it faulted in smp_ap_main() before the kernel's IDT */
            fault_stop(log, k, slot->fault);
            return false;
        }
        stage = pc->stage ? (uint8_t)pc->stage : TRAMP_STAGE_LONG;
    }
    pc->info.state = SMP_CPU_FAILED;
    log->stage[k] = stage;
    kprintf("smp: APIC ID %u did not come up (attempt 2 of 2; last stage: %s; ESR 0x%x): "
            "given up, sent INIT\n",
            id, smp_stage_name(stage), esr);
    apic_send_init(id, SMP_IPI_TIMEOUT_US, 0); /* park it in wait-for-SIPI */
    return false;
}

void smp_start_batch(struct smp_start_log *log, const size_t *k, unsigned n)
{
    struct tramp_params *params =
        (struct tramp_params *)(uintptr_t)(log->tramp_page + TRAMP_PARAMS);
    params->stage = TRAMP_STAGE_NONE;
    for (unsigned i = 0; i < n; i++)
        __atomic_store_n(&smp_slots[log->cpu[k[i]]].claim,
                         k[i] == log->late_k ? TRAMP_SLOT_CLOSED : TRAMP_SLOT_OPEN,
                         __ATOMIC_RELEASE);
    mfence(); /* slots and parameter block visible before the IPIs */
    uint64_t t0 = rdtsc();
    send_init_sipi_sipi(log->tramp_page, k, n, 0);
    await(log, k, n);
    for (unsigned i = 0; i < n; i++) {
        unsigned cpu = (unsigned)log->cpu[k[i]];
        bool up = smp_online_cyc[cpu] || retry_or_close(log, params, k[i]);
        log->fate[k[i]] = up ? SMP_FATE_ONLINE : SMP_FATE_FAILED;
        if (up)
            smp_percpu[cpu].info.start_ns = tsc_to_ns(smp_online_cyc[cpu] - t0);
    }
}
