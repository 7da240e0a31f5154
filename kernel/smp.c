/*
 * kernel/smp.c - AP start-up from the ACPI MADT (ACPI 6.5 §5.2.12) with
 * INIT-SIPI-SIPI (Intel SDM Vol. 3A §9.4.4.1), per-CPU blocks, and the
 * start-up report's data (kernel/smp_report.c prints it; kernel/smp.h).
 */
#include "kernel/smp.h"
#include "arch/acpi.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/fpu.h"
#include "arch/gdt.h"
#include "arch/trampoline.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "kernel/console.h"
#include "kernel/smp_priv.h"
#include "lib/cmdline.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "mm/paging.h"

#define AP_STACK_SIZE 0x8000ull /* 32 KiB, 64 per 2 MiB frame */
#define IPI_TIMEOUT_US 20000    /* an ICR still pending after 20 ms is stuck */

struct percpu smp_percpu[HZ_MAX_CPUS];
unsigned smp_ncpu = 1;
volatile int smp_gs_ready;

static uint64_t opt_max_cpus; /* 0: every enabled CPU */
static bool opt_nosmp;
HZ_OPTION(opt_smp, .name = "smp", .kind = OPT_U64, .dest = &opt_max_cpus, .min = 1,
          .max = HZ_MAX_CPUS, .accepted = "1..256",
          .help = "start at most N CPUs, the boot CPU included (default: every MADT-enabled CPU)");
static int opt_apic;
static const char *const apic_choices[] = {"auto", "x2apic", 0};
HZ_OPTION(opt_apic_def, .name = "apic", .kind = OPT_ENUM, .dest = &opt_apic,
          .choices = apic_choices, .accepted = "auto|x2apic",
          .help = "x2apic: x2APIC mode even when every APIC ID fits xAPIC (default auto)");
HZ_OPTION(opt_nosmp_def, .name = "nosmp", .kind = OPT_FLAG, .dest = &opt_nosmp, .accepted = "nosmp",
          .help = "run on the boot CPU only: start no AP (as smp=1)");

static struct smp_start_log start_log; /* what became of each MADT entry */

static struct tramp_params *params;
static uint64_t stack_frame, stack_used = PAGE_SIZE_2M; /* current 2 MiB stack frame */

unsigned smp_count(void) { return smp_ncpu; }

unsigned smp_online(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < smp_ncpu; i++)
        n += smp_percpu[i].info.state == SMP_CPU_ONLINE;
    return n;
}

const struct smp_cpu *smp_cpu(unsigned i) { return i < smp_ncpu ? &smp_percpu[i].info : 0; }

unsigned smp_cpu_index(void)
{
    unsigned i;
    if (!smp_gs_ready)
        return 0;
    __asm__ volatile("movl %%gs:%c1, %0"
                     : "=r"(i)
                     : "i"(offsetof(struct percpu, info) + offsetof(struct smp_cpu, index)));
    return i;
}

static void percpu_setup(unsigned cpu)
{
    wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)&smp_percpu[cpu]);
    if (cpu_has(X86_FEATURE_RDTSCP))
        wrmsr(MSR_TSC_AUX, cpu); /* RDTSCP tells which CPU read the TSC */
}

_Noreturn void smp_ap_main(uint64_t cpu)
{
    params->stage = TRAMP_STAGE_C;
    gdt_init_cpu((unsigned)cpu); /* own GDT, TSS and IST stacks */
    idt_load();                  /* crash reports from here on */
    percpu_setup((unsigned)cpu);
    fpu_init(); /* vector state for the clear strategies */
    apic_ap_init();
    struct percpu *pc = &smp_percpu[cpu];
    pc->info.apic_id = apic_id(); /* what the CPU says; the BSP compares */
    __atomic_store_n(&pc->info.state, SMP_CPU_ONLINE, __ATOMIC_RELEASE);
    smp_idle((unsigned)cpu);
}

/* A 4 KiB page below 1 MiB (the START-UP vector addresses 0x01000-0xff000)
 * inside usable RAM and clear of everything the boot loader handed over;
 * the highest such page. 0 when none. */
static uint64_t pick_trampoline(const struct bootinfo *bi)
{
    for (uint64_t p = 0xff000; p >= 0x1000; p -= 0x1000) {
        bool ok = false;
        for (size_t i = 0; i < bi->map.n; i++) {
            const struct mem_range *m = &bi->map.r[i];
            if (m->type == MEM_USABLE && m->base <= p && p + 0x1000 <= m->end)
                ok = true;
        }
        if (bi->info_end > p && bi->info_start < p + 0x1000)
            ok = false;
        for (size_t i = 0; i < bi->nmodules; i++)
            if (bi->modules[i].end > p && bi->modules[i].start < p + 0x1000)
                ok = false;
        if (bi->rsdp_paddr && bi->rsdp_paddr + 36 > p && bi->rsdp_paddr < p + 0x1000)
            ok = false;
        if (ok)
            return p;
    }
    return 0;
}

/* Top of a fresh 32 KiB stack from a 2 MiB frame; 0 when memory ran out. */
static uint64_t ap_stack(void)
{
    if (stack_used + AP_STACK_SIZE > PAGE_SIZE_2M) {
        int rc = frames_alloc(mm_frames(), PAGE_SIZE_2M, FRAMES_NO_LIMIT, &stack_frame);
        if (rc != FRAMES_OK) {
            kprintf("smp: no memory for AP stacks: %s\n", frames_strerror(rc));
            return 0;
        }
        stack_used = 0;
    }
    stack_used += AP_STACK_SIZE;
    return stack_frame + stack_used;
}

/* One INIT-SIPI-SIPI round; true when the AP reported online in time. */
static bool start_attempt(struct percpu *pc, uint32_t id, uint32_t *esr)
{
    uint8_t vector = (uint8_t)(start_log.tramp_page >> 12);
    params->stage = TRAMP_STAGE_NONE;
    mfence(); /* parameter block visible before the IPI */
    apic_send_init(id, IPI_TIMEOUT_US, esr);
    tsc_delay_us(SMP_INIT_DELAY_US);
    apic_send_sipi(id, vector, IPI_TIMEOUT_US, esr);
    tsc_delay_us(SMP_SIPI_DELAY_US);
    if (params->stage == TRAMP_STAGE_NONE) /* not running yet: the second START-UP */
        apic_send_sipi(id, vector, IPI_TIMEOUT_US, esr);
    uint64_t end = rdtsc() + mul_div_u64(SMP_START_TIMEOUT_MS, tsc_info()->hz, 1000);
    while (rdtsc() < end)
        if (__atomic_load_n(&pc->info.state, __ATOMIC_ACQUIRE) == SMP_CPU_ONLINE)
            return true;
        else
            cpu_relax();
    return false;
}

/* Start the AP of MADT entry e as CPU `cpu`. Returns true when it is online;
 * else *stage is the last trampoline stage it reached. */
static bool start_ap(unsigned cpu, const struct acpi_cpu *e, int32_t domain, uint8_t *stage)
{
    struct percpu *pc = &smp_percpu[cpu];
    uint64_t top = ap_stack();
    if (!top) {
        *stage = TRAMP_STAGE_NONE;
        return false;
    }
    memset(pc, 0, sizeof(*pc));
    pc->self = pc;
    pc->info = (struct smp_cpu){.index = cpu,
                                .apic_id = e->apic_id,
                                .domain = domain,
                                .acpi_uid = e->uid,
                                .state = SMP_CPU_STARTING};
    params->cr3 = (uint32_t)read_cr3();
    params->cr4 = (uint32_t)(read_cr4() & (CR4_PAE | CR4_PGE));
    params->efer = (uint32_t)(rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE));
    params->stack = top;
    params->cpu = cpu;
    params->lm_off = (uint32_t)(uintptr_t)smp_ap_entry64;
    params->lm_sel = TRAMP_CS64;

    uint64_t t0 = rdtsc();
    for (int attempt = 1; attempt <= 2; attempt++) {
        uint32_t esr = 0;
        if (start_attempt(pc, e->apic_id, &esr)) {
            pc->info.start_ns = tsc_to_ns(rdtsc() - t0);
            if (pc->info.apic_id != e->apic_id)
                kprintf("smp: CPU %u reports APIC ID %u, the MADT says %u\n", cpu, pc->info.apic_id,
                        e->apic_id);
            return true;
        }
        *stage = (uint8_t)params->stage;
        kprintf("smp: APIC ID %u did not come up (attempt %d of 2; last stage: %s; ESR 0x%x)\n",
                e->apic_id, attempt, smp_stage_name(*stage), esr);
    }
    apic_send_init(e->apic_id, IPI_TIMEOUT_US, 0); /* park it in wait-for-SIPI */
    pc->info.state = SMP_CPU_OFFLINE;
    stack_used -= AP_STACK_SIZE; /* the next AP takes the stack */
    return false;
}

/* Trampoline page, executable, with the code copied in. False (after
 * saying why) when there is none. */
static bool trampoline_setup(const struct bootinfo *bi)
{
    start_log.tramp_page = pick_trampoline(bi);
    if (!start_log.tramp_page) {
        kprintf("smp: no free usable 4 KiB page below 1 MiB for the AP trampoline\n");
        return false;
    }
    if (vm_set_exec(start_log.tramp_page, TRAMP_PAGE_SIZE) < 0) {
        kprintf("smp: cannot make the trampoline page 0x%llx executable\n",
                (unsigned long long)start_log.tramp_page);
        return false;
    }
    if (read_cr3() >= (1ull << 32)) {
        kprintf("smp: the kernel PML4 is above 4 GiB; 32-bit trampoline code cannot load it\n");
        return false;
    }
    memcpy((void *)(uintptr_t)start_log.tramp_page, smp_trampoline,
           (size_t)(smp_trampoline_end - smp_trampoline));
    params = (struct tramp_params *)(uintptr_t)(start_log.tramp_page + TRAMP_PARAMS);
    return true;
}

static int32_t cpu_domain(uint32_t apic_id)
{
    const struct acpi_srat *s = &acpi_get()->srat;
    return s->present ? (int32_t)acpi_srat_cpu_domain(s, apic_id) : -1;
}

static bool seen_before(const struct acpi_madt *m, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (m->cpu[j].apic_id == m->cpu[k].apic_id && start_log.fate[j] != SMP_FATE_DISABLED)
            return true;
    return false;
}

/* Start every AP the MADT enables, within the limits. Returns APs tried. */
static unsigned start_all(const struct bootinfo *bi, const struct acpi_madt *m, uint32_t bsp_id,
                          unsigned limit)
{
    unsigned tried = 0;
    bool ready = false, setup_done = false;
    for (size_t k = 0; k < m->ncpu; k++) {
        const struct acpi_cpu *e = &m->cpu[k];
        if (!e->enabled)
            start_log.fate[k] = SMP_FATE_DISABLED;
        else if (e->apic_id == bsp_id && !seen_before(m, k))
            start_log.fate[k] = SMP_FATE_BSP, start_log.cpu[k] = 0;
        else if (seen_before(m, k))
            start_log.fate[k] = SMP_FATE_DUPLICATE;
        else if (smp_ncpu >= limit)
            start_log.fate[k] = SMP_FATE_LIMIT;
        else if (apic_mode() == APIC_XAPIC && e->apic_id > APIC_XAPIC_MAX_ID)
            start_log.fate[k] = SMP_FATE_NOADDR;
        else {
            if (!setup_done) {
                setup_done = true;
                ready = trampoline_setup(bi);
                if (ready)
                    kprintf("smp: AP trampoline at 0x%llx (START-UP vector 0x%02llx)\n",
                            (unsigned long long)start_log.tramp_page,
                            (unsigned long long)(start_log.tramp_page >> 12));
            }
            tried++;
            start_log.fate[k] = SMP_FATE_FAILED;
            if (ready && start_ap(smp_ncpu, e, cpu_domain(e->apic_id), &start_log.stage[k])) {
                start_log.fate[k] = SMP_FATE_ONLINE;
                start_log.cpu[k] = (int16_t)smp_ncpu++;
            }
        }
    }
    return tried;
}

void smp_init(const struct bootinfo *bi)
{
    const struct acpi_info *ai = acpi_get();
    const struct acpi_madt *m = &ai->madt;
    char note[120] = "";
    bool want_x2apic = false;

    struct percpu *bsp = &smp_percpu[0];
    bsp->self = bsp;
    bsp->info = (struct smp_cpu){.index = 0, .domain = -1, .state = SMP_CPU_ONLINE};
    percpu_setup(0);
    smp_gs_ready = 1;
    for (size_t k = 0; k < ACPI_CPUS_MAX; k++)
        start_log.cpu[k] = -1;
    if (!ai->ok || !m->present) {
        kprintf("smp: no MADT: running on the boot CPU only\n");
        smp_report(&start_log, m, "no MADT", 0, 1);
        return;
    }
    want_x2apic = opt_apic == 1;
    for (size_t k = 0; k < m->ncpu; k++)
        want_x2apic |= m->cpu[k].enabled && m->cpu[k].apic_id > APIC_XAPIC_MAX_ID;
    if (apic_init(m->lapic_addr, want_x2apic, note, sizeof(note)) == APIC_OFF) {
        kprintf("smp: local APIC unusable (%s): running on the boot CPU only\n", note);
        smp_report(&start_log, m, note, 0, 1);
        return;
    }
    bsp->info.apic_id = apic_id();
    bsp->info.domain = cpu_domain(bsp->info.apic_id);
    for (size_t k = 0; k < m->ncpu; k++)
        if (m->cpu[k].apic_id == bsp->info.apic_id)
            bsp->info.acpi_uid = m->cpu[k].uid;
    unsigned limit = opt_nosmp ? 1 : opt_max_cpus ? (unsigned)opt_max_cpus : HZ_MAX_CPUS;
    if (opt_nosmp && opt_max_cpus)
        kprintf("smp: both nosmp and smp=%llu given: nosmp wins\n",
                (unsigned long long)opt_max_cpus);
    smp_report(&start_log, m, note, start_all(bi, m, bsp->info.apic_id, limit), limit);
}
