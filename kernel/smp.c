/*
 * kernel/smp.c - AP start-up from the ACPI MADT (ACPI 6.5 §5.2.12) with
 * INIT-SIPI-SIPI (Intel SDM Vol. 3A §9.4.4.1; AMD APM Vol. 2 §16.5), in
 * batches, each AP claiming its slot by APIC ID (arch/trampoline.h);
 * per-CPU blocks and stacks, and the start-up report's data
 * (kernel/smp_report.c prints it; kernel/smp.h).
 */
#include "kernel/smp.h"
#include "arch/acpi.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/fpu.h"
#include "arch/gdt.h"
#include "arch/steal.h"
#include "arch/trampoline.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "kernel/exit.h"
#include "kernel/options.h"
#include "kernel/smp_priv.h"
#include "lib/cmdline.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/results.h"
#include "mm/mm.h"
#include "mm/paging.h"

#define AP_KSTACK_BYTES 0x8000u /* 32 KiB kernel stack per AP */
/* Per AP, carved from 2 MiB frames: IST stacks, kernel stack, user stacks. */
#define AP_MEM_BYTES (GDT_IST_BYTES + AP_KSTACK_BYTES + USER_CPU_STACK_BYTES)

struct percpu smp_percpu[HZ_MAX_CPUS];
unsigned smp_ncpu = 1;
volatile int smp_gs_ready;

static uint64_t opt_max_cpus; /* 0: every enabled CPU */
static bool opt_nosmp;
#define STR_(x) #x
#define STR(x) STR_(x)
HZ_OPTION(opt_smp, .name = "smp", .kind = OPT_U64, .dest = &opt_max_cpus, .min = 1,
          .max = HZ_MAX_CPUS, .accepted = "1.." STR(HZ_MAX_CPUS),
          .help = "start at most N CPUs, the boot CPU included (default: every MADT-enabled CPU)");
static uint64_t opt_batch = HZ_MAX_CPUS;
HZ_OPTION(opt_batch_def, .name = "smp_batch", .kind = OPT_U64, .dest = &opt_batch, .min = 1,
          .max = HZ_MAX_CPUS, .accepted = "1.." STR(HZ_MAX_CPUS),
          .help = "APs sent INIT-SIPI-SIPI together (default: all; 1: one at a time)");
static int opt_smp_selftest;
static const char *const selftest_choices[] = {"none", "late", "x2apic_early", "pm_fault", 0};
HZ_OPTION(opt_selftest_def, .name = "smp_selftest", .kind = OPT_ENUM, .dest = &opt_smp_selftest,
          .choices = selftest_choices, .accepted = "none|late|x2apic_early|pm_fault",
          .help = "late: close the last AP's slot before its START-UP, as for an AP that timed "
                  "out: it must halt as a stray, never take a slot; x2apic_early: the last AP "
                  "reads MSR 0x802 before it sets EXTD (#GP in xAPIC mode): it must report the "
                  "fault and halt, the run goes on; pm_fault: the last AP raises #UD in protected "
                  "mode, likewise (smp.start fails in every case)");
static int opt_apic;
static const char *const apic_choices[] = {"auto", "x2apic", 0};
HZ_OPTION(opt_apic_def, .name = "apic", .kind = OPT_ENUM, .dest = &opt_apic,
          .choices = apic_choices, .accepted = "auto|x2apic",
          .help = "x2apic: x2APIC mode even when every APIC ID fits xAPIC (default auto)");
HZ_OPTION(opt_nosmp_def, .name = "nosmp", .kind = OPT_FLAG, .dest = &opt_nosmp,
          .accepted = "nosmp (not with smp=)", .conflicts = "smp",
          .help = "run on the boot CPU only: start no AP (as smp=1)");

static struct smp_start_log start_log; /* what became of each MADT entry */

static struct tramp_params *params;
struct tramp_slot smp_slots[HZ_MAX_CPUS];
static size_t plan_k[HZ_MAX_CPUS];                  /* MADT entries to start, in order */
static uint64_t mem_frame, mem_used = PAGE_SIZE_2M; /* current 2 MiB frame for AP stacks */

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
    steal_init_cpu(cpu);         /* KVM steal time, where the host offers it */
}

_Noreturn void smp_ap_main(uint64_t cpu)
{
    struct percpu *pc = &smp_percpu[cpu];
    pc->stage = TRAMP_STAGE_C;
    gdt_init_cpu((unsigned)cpu, pc->ist); /* own GDT, TSS and IST stacks */
    idt_load();                           /* crash reports from here on */
    percpu_setup((unsigned)cpu);
    fpu_init(); /* vector state for the clear strategies */
    apic_ap_init();
    pc->seen_apic_id = apic_id(); /* for check_slots() */
    pc->cpuid_apic_ok = apic_cpuid_x2apic_id(&pc->cpuid_apic_id);
    pc->seen_rsp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    uint32_t starting = SMP_CPU_STARTING;
    if (!__atomic_compare_exchange_n(&pc->info.state, &starting, SMP_CPU_ONLINE, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        for (;;) { /* the BSP gave up on this CPU (SMP_CPU_FAILED): stay out */
            cli();
            hlt();
        }
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

static int32_t cpu_domain(uint32_t apic_id)
{
    const struct acpi_srat *s = &acpi_get()->srat;
    return s->present ? (int32_t)acpi_srat_cpu_domain(s, apic_id) : -1;
}

/* AP_MEM_BYTES for one AP from a 2 MiB frame; 0 when memory ran out. */
static uint64_t ap_mem(void)
{
    if (mem_used + AP_MEM_BYTES > PAGE_SIZE_2M) {
        int rc = frames_alloc(mm_frames(), PAGE_SIZE_2M, FRAMES_NO_LIMIT, &mem_frame);
        if (rc != FRAMES_OK) {
            kprintf("smp: no memory for the stacks of CPU %u and later: %s\n", smp_ncpu,
                    frames_strerror(rc));
            return 0;
        }
        mem_used = 0;
    }
    mem_used += AP_MEM_BYTES;
    return mem_frame + mem_used - AP_MEM_BYTES;
}

/* Per-CPU block, stacks and closed slot for the AP of MADT entry e as CPU
 * `cpu`; false when there is no memory for it. */
static bool prepare_ap(unsigned cpu, const struct acpi_cpu *e)
{
    uint64_t base = ap_mem();
    if (!base)
        return false;
    struct percpu *pc = &smp_percpu[cpu];
    memset(pc, 0, sizeof(*pc));
    pc->self = pc;
    pc->ist = (void *)(uintptr_t)base;
    pc->info = (struct smp_cpu){.index = cpu,
                                .apic_id = e->apic_id,
                                .domain = cpu_domain(e->apic_id),
                                .acpi_uid = e->uid,
                                .state = SMP_CPU_STARTING};
    user_set_stacks(cpu, base + GDT_IST_BYTES + AP_KSTACK_BYTES);
    smp_slots[cpu] = (struct tramp_slot){.apic_id = e->apic_id,
                                         .claim = TRAMP_SLOT_UNUSED,
                                         .stack = base + GDT_IST_BYTES + AP_KSTACK_BYTES,
                                         .cpu = cpu};
    return true;
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
    tramp_fault_setup(start_log.tramp_page, params); /* AP faults halt the AP, not the VM */
    return true;
}

/* smp.slots: every online AP runs as the CPU its APIC ID planned, on its
 * own kernel stack (the bug this guards against: a late AP taking the next
 * CPU's index and stack). */
static void check_slots(void)
{
    unsigned bad = 0;
    for (unsigned c = 1; c < smp_ncpu; c++) {
        const struct percpu *pc = &smp_percpu[c];
        uint64_t lo = (uint64_t)(uintptr_t)pc->ist + GDT_IST_BYTES, hi = lo + AP_KSTACK_BYTES;
        if (pc->info.state != SMP_CPU_ONLINE ||
            (pc->seen_apic_id == pc->info.apic_id && pc->seen_rsp > lo && pc->seen_rsp <= hi))
            continue;
        if (bad++ < 8)
            kprintf(
                "smp: CPU %u (MADT APIC ID %u) runs as APIC ID %u with RSP 0x%llx, its stack is "
                "(0x%llx, 0x%llx]\n",
                c, pc->info.apic_id, pc->seen_apic_id, (unsigned long long)pc->seen_rsp,
                (unsigned long long)lo, (unsigned long long)hi);
    }
    if (bad)
        result_fail("smp.slots", "%u online CPUs do not run in their own slot", bad);
    else
        result_pass("smp.slots");
}

/* smp.apic_ids: each online CPU's own APIC (MSR 0x802, the x2APIC ID
 * register, in x2APIC mode; the xAPIC ID register else), its MADT entry and
 * CPUID.0BH:EDX (where leaf 0BH is valid) give one ID: the x2APIC ID CPUID
 * enumerates is the one the local APIC holds (SDM Vol. 3A §11.12.5.1,
 * §11.12.8). A mismatch is firmware or a hypervisor saying two things;
 * the CPU runs as its APIC said (it claimed its slot by that ID). */
static void check_apic_ids(void)
{
    unsigned bad = 0;
    for (unsigned c = 0; c < smp_ncpu; c++) {
        const struct percpu *pc = &smp_percpu[c];
        if (pc->info.state != SMP_CPU_ONLINE ||
            (pc->seen_apic_id == pc->info.apic_id &&
             (!pc->cpuid_apic_ok || pc->cpuid_apic_id == pc->info.apic_id)))
            continue;
        if (bad++ < 8)
            kprintf("smp: CPU %u: MADT APIC ID %u, its APIC says %u, CPUID.0BH:EDX %u\n", c,
                    pc->info.apic_id, pc->seen_apic_id, pc->cpuid_apic_id);
    }
    if (bad)
        result_fail("smp.apic_ids", "%u online CPUs whose MADT, APIC and CPUID IDs differ", bad);
    else
        result_pass("smp.apic_ids");
}

struct plan_args {
    const struct acpi_madt *m;
    uint32_t bsp_id;
    unsigned planned;
};

static void plan_fn(void *arg)
{
    struct plan_args *a = arg;
    a->planned = smp_plan(&start_log, a->m, a->bsp_id, apic_mode() == APIC_X2APIC);
}

/* Plan (smp_plan, at the measurement CPL: it is memory work), give each
 * planned AP its memory and slot, then start them in batches of
 * start_log.batch. Returns the APs tried. */
static unsigned start_all(const struct bootinfo *bi, const struct acpi_madt *m, uint32_t bsp_id)
{
    struct plan_args a = {m, bsp_id, 0};
    user_run(0, plan_fn, &a);
    if (!a.planned)
        return 0;
    bool ready = trampoline_setup(bi), mem = true;
    unsigned n = 0;
    for (size_t k = 0; k < m->ncpu; k++) {
        if (start_log.fate[k] != SMP_FATE_PLANNED)
            continue;
        mem = mem && ready && prepare_ap((unsigned)start_log.cpu[k], &m->cpu[k]);
        if (!ready) {
            start_log.fate[k] = SMP_FATE_FAILED;
        } else if (!mem) {
            start_log.fate[k] = SMP_FATE_NOMEM;
            start_log.cpu[k] = -1;
        } else {
            plan_k[n++] = k;
            smp_ncpu = (unsigned)start_log.cpu[k] + 1;
        }
    }
    if (!ready)
        return a.planned;
    start_log.batch = start_log.batch < n ? start_log.batch : n;
    start_log.late_k = opt_smp_selftest == 1 && n ? plan_k[n - 1] : SIZE_MAX;
    if (opt_smp_selftest >= 2 && n) { /* x2apic_early, pm_fault: the last AP faults */
        params->selftest = m->cpu[plan_k[n - 1]].apic_id;
        params->selftest_stage = opt_smp_selftest == 2 ? TRAMP_STAGE_LONG : TRAMP_STAGE_PROT;
    }
    kprintf("smp: AP trampoline at 0x%llx (START-UP vector 0x%02llx); starting %u APs, %u at a "
            "time\n",
            (unsigned long long)start_log.tramp_page,
            (unsigned long long)(start_log.tramp_page >> 12), n, start_log.batch);
    params->cr3 = (uint32_t)read_cr3();
    params->cr4 = (uint32_t)(read_cr4() & (CR4_PAE | CR4_PGE));
    params->efer = (uint32_t)(rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE));
    params->slots = (uint64_t)(uintptr_t)smp_slots;
    params->nslots = smp_ncpu;
    params->x2apic = apic_mode() == APIC_X2APIC;
    params->lm_off = (uint32_t)(uintptr_t)smp_ap_entry64;
    params->lm_sel = TRAMP_CS64;
    uint64_t t0 = rdtsc(), last = t0;
    for (unsigned b = 0; b < n; b += start_log.batch)
        smp_start_batch(&start_log, plan_k + b, n - b < start_log.batch ? n - b : start_log.batch);
    for (unsigned c = 1; c < smp_ncpu; c++)
        last = smp_online_cyc[c] > last ? smp_online_cyc[c] : last;
    start_log.start_ns = tsc_to_ns(last - t0);
    start_log.strays = __atomic_load_n(&params->strays, __ATOMIC_ACQUIRE);
    start_log.stray_fault = __atomic_load_n(&params->stray_fault, __ATOMIC_ACQUIRE);
    start_log.stray_id = __atomic_load_n(&params->stray_id, __ATOMIC_ACQUIRE);
    check_slots();
    check_apic_ids();
    return n;
}

/* apic=x2apic where the CPU has none: a configuration error (status 3). */
static void x2apic_missing(void)
{
    options_config_error("apic", "x2apic", "this CPU has no x2APIC (CPUID.01H:ECX[21] is clear)",
                         "auto|x2apic");
    hz_exit(HZ_CONFIG);
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
    start_log.limit = opt_nosmp ? 1 : opt_max_cpus ? (unsigned)opt_max_cpus : HZ_MAX_CPUS;
    start_log.limit_by = opt_nosmp      ? SMP_LIMIT_NOSMP
                         : opt_max_cpus ? SMP_LIMIT_OPTION
                                        : SMP_LIMIT_CAP;
    start_log.batch = (unsigned)opt_batch;
    if (opt_apic == 1 && !cpu_has(X86_FEATURE_X2APIC))
        x2apic_missing();
    if (!ai->ok || !m->present) {
        kprintf("smp: no MADT: running on the boot CPU only\n");
        smp_report(&start_log, m, "no MADT", 0);
        return;
    }
    want_x2apic = opt_apic == 1;
    for (size_t k = 0; k < m->ncpu; k++)
        want_x2apic |= m->cpu[k].enabled && m->cpu[k].apic_id > APIC_XAPIC_MAX_ID;
    if (want_x2apic && opt_apic != 1 && !cpu_has(X86_FEATURE_X2APIC))
        kprintf("smp: the MADT lists APIC IDs above %u but this CPU has no x2APIC "
                "(CPUID.01H:ECX[21]): those CPUs cannot be addressed\n",
                APIC_XAPIC_MAX_ID);
    if (apic_init(m->lapic_addr, want_x2apic, note, sizeof(note)) == APIC_OFF) {
        kprintf("smp: local APIC unusable (%s): running on the boot CPU only\n", note);
        smp_report(&start_log, m, note, 0);
        return;
    }
    bsp->info.apic_id = bsp->seen_apic_id = apic_id();
    bsp->cpuid_apic_ok = apic_cpuid_x2apic_id(&bsp->cpuid_apic_id);
    bsp->info.domain = cpu_domain(bsp->info.apic_id);
    for (size_t k = 0; k < m->ncpu; k++)
        if (m->cpu[k].apic_id == bsp->info.apic_id)
            bsp->info.acpi_uid = m->cpu[k].uid;
    smp_idle_init();
    smp_report(&start_log, m, note, start_all(bi, m, bsp->info.apic_id));
    smp_park_stress(); /* the `park` record: wakes sent, acknowledged, re-sent, latency */
}
