/*
 * arch/pmu.c - the performance-counter probe, its instructions-retired
 * check and the two counters of arch/pmu.h (Intel SDM Vol. 3B
 * "Architectural Performance Monitoring"; AMD APM Vol. 2 §13.2).
 */
#include "arch/pmu.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"

#define MSR_PERFEVTSEL0 0x186u
#define MSR_PMC0 0xc1u
#define MSR_PERF_GLOBAL_CTRL 0x38fu
#define MSR_AMD_PERF_CTL0 0xc0010200u /* PerfCtrExtCore: CTLi = base + 2i, CTRi = base + 2i + 1 */
#define MSR_AMD_K7_PERFEVTSEL0 0xc0010000u /* legacy: PerfEvtSel0-3 */
#define MSR_AMD_K7_PERFCTR0 0xc0010004u    /* legacy: PerfCtr0-3 */
#define EVTSEL_USR (1ull << 16)
#define EVTSEL_OS (1ull << 17)
#define EVTSEL_EN (1ull << 22)
#define EVENT_INSTRUCTIONS 0xc0u /* Intel Instructions Retired; AMD Retired Instructions */

/* UnHalted Core Cycles, LLC Misses: event | umask << 8. */
static const uint64_t intel_events[PMU_EVENTS] = {0x3c, 0x2e | 0x41 << 8};

static struct pmu_info info;
static bool probed;
static uint64_t width_mask;
static uint32_t ctl0, ctr0; /* counter 0's event select and count MSRs */

static bool msr_works(uint32_t msr)
{
    uint64_t v;
    return msr_write_safe(msr, 0) == 0 && msr_read_safe(msr, &v) == 0 && v == 0;
}

static void probe_intel(void)
{
    uint32_t eax = cpu_leaf_reg(0xa, 0, CPUID_EAX), ebx = cpu_leaf_reg(0xa, 0, CPUID_EBX);
    unsigned counters = (eax >> 8) & 0xff, width = (eax >> 16) & 0xff, len = eax >> 24;
    info.version = eax & 0xff;
    ctl0 = MSR_PERFEVTSEL0;
    ctr0 = MSR_PMC0;
    if (info.version == 0) {
        info.reason = "no architectural PMU: CPUID 0xA EAX[7:0] (version) is 0";
        return;
    }
    if (counters == 0 || width == 0 || width > 64) {
        info.reason = "CPUID 0xA: no general-purpose counter";
        return;
    }
    info.counters = counters;
    info.width = width;
    width_mask = width == 64 ? ~0ull : (1ull << width) - 1;
    if (len < 2 || (ebx & 2)) {
        info.reason = "CPUID 0xA EBX: Instructions Retired not available";
        return;
    }
    if (!msr_works(MSR_PERFEVTSEL0)) {
        info.reason = "IA32_PERFEVTSEL0 (MSR 0x186) raised #GP or #UD or did not read back";
        return;
    }
    if (counters < PMU_EVENTS)
        info.why = "CPUID 0xA: fewer than 2 general-purpose counters";
    else if (len < 5 || (ebx & 1) || (ebx & 0x10))
        info.why = "CPUID 0xA EBX: UnHalted Core Cycles or LLC Misses not available";
    else
        info.usable = true;
}

static void probe_amd(void)
{
    bool ext = cpu_leaf_reg(0x80000001u, 0, CPUID_ECX) & (1u << 23);
    info.kind = ext ? "amd-perfctr-core" : "amd-legacy";
    info.counters = ext ? 6 : 4;
    info.width = 48;
    width_mask = (1ull << 48) - 1;
    ctl0 = ext ? MSR_AMD_PERF_CTL0 : MSR_AMD_K7_PERFEVTSEL0;
    ctr0 = ext ? MSR_AMD_PERF_CTL0 + 1 : MSR_AMD_K7_PERFCTR0;
    info.why = "AMD defines no architectural LLC-miss event (L3 PMU per family PPR): cycles and "
               "LLC misses not counted";
    if (!msr_works(ctl0)) {
        info.counters = info.width = 0;
        info.reason = ext ? "PERF_CTL0 (MSR C001_0200) raised #GP or #UD or did not read back"
                          : "no PerfCtrExtCore (CPUID 0x80000001 ECX[23]) and the legacy "
                            "PerfEvtSel0 (MSR C001_0000) raised #GP or #UD or did not read back";
    }
}

/* Counter 0 off, and on Intel version >= 2 every counter gated off. */
static void counter0_off(void)
{
    if (info.version >= 2)
        msr_write_safe(MSR_PERF_GLOBAL_CTRL, 0);
    msr_write_safe(ctl0, 0);
}

/* Instructions retired by counter 0 over the check loop (arch/pmu.h). */
static void check(void)
{
    uint64_t by_msr = 0, by_pmc = 0;
    uint32_t n = PMU_CHECK_LOOPS;
    counter0_off();
    bool ok = msr_write_safe(ctr0, 0) == 0 &&
              msr_write_safe(ctl0, EVENT_INSTRUCTIONS | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN) == 0 &&
              (info.version < 2 || msr_write_safe(MSR_PERF_GLOBAL_CTRL, 1) == 0);
    /* In asm so that its length is known: n x (DEC, JNZ). */
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
    counter0_off();
    info.checked = true;
    info.expected = 2ull * PMU_CHECK_LOOPS;
    if (!ok || msr_read_safe(ctr0, &by_msr) < 0) {
        info.reason = "programming or reading counter 0 raised #GP or #UD";
        return;
    }
    info.counted = by_msr & width_mask;
    info.rdpmc_agrees = pmc_read_safe(0, &by_pmc) == 0 && (by_pmc & width_mask) == info.counted;
    msr_write_safe(ctr0, 0);
    uint64_t slack = info.expected * PMU_CHECK_TOLERANCE_PCT / 100;
    if (info.counted == 0)
        info.reason = "counter 0 counted no instruction: the counters are there but do not count "
                      "(no vPMU behind them)";
    else if (info.counted + slack < info.expected || info.counted > info.expected + slack)
        info.reason = "implausible: counter 0's instruction count is not within 5% of the loop's";
    else if (!info.rdpmc_agrees)
        info.reason = "implausible: RDPMC 0 raised a fault or read another count than RDMSR";
    else {
        info.available = true;
        info.reason = "counter 0 counted the check loop's instructions within 5%, by RDMSR and "
                      "RDPMC";
    }
}

const struct pmu_info *pmu_probe(void)
{
    if (probed)
        return &info;
    probed = true;
    const char *vendor = cpu_ident()->vendor;
    info.kind = "none";
    info.why = 0;
    if (strcmp(vendor, "GenuineIntel") == 0) {
        info.kind = "intel-arch";
        probe_intel();
    } else if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
        probe_amd();
    } else {
        info.reason = "neither Intel nor AMD: no PMU known";
    }
    if (!info.reason)
        check();
    if (!info.available) { /* nothing counts: the cycles/LLC pair neither */
        info.usable = false;
        info.why = info.reason;
    }
    return &info;
}

void pmu_report(void)
{
    const struct pmu_info *p = pmu_probe();
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "pmu");
    rec_bool(&r, "available", p->available);
    rec_str(&r, "kind", p->kind);
    rec_u64(&r, "version", p->version);
    rec_u64(&r, "counters", p->counters);
    rec_u64(&r, "width", p->width);
    rec_bool(&r, "checked", p->checked);
    if (p->checked) {
        rec_u64(&r, "instructions", p->counted);
        rec_u64(&r, "expected", p->expected);
        rec_bool(&r, "rdpmc_agrees", p->rdpmc_agrees);
    }
    rec_str(&r, "reason", p->reason);
    rec_bool(&r, "cycles_llc", p->usable);
    rec_str(&r, "note",
            "counting runs only where the CPU or the hypervisor's vPMU gives counters: QEMU TCG "
            "has none, KVM with -cpu ...,pmu=off hides them");
    record_emit(&r);
    kprintf("pmu: %s, %s: %s\n", p->kind, p->available ? "counts" : "not available", p->reason);
}

void pmu_start(void)
{
    if (!pmu_probe()->usable)
        return;
    counter0_off();
    msr_write_safe(MSR_PERFEVTSEL0 + 1, 0);
    for (unsigned i = 0; i < PMU_EVENTS; i++) {
        msr_write_safe(MSR_PMC0 + i, 0);
        msr_write_safe(MSR_PERFEVTSEL0 + i, intel_events[i] | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
    }
    if (info.version >= 2)
        msr_write_safe(MSR_PERF_GLOBAL_CTRL, (1u << PMU_EVENTS) - 1);
}

void pmu_stop(uint64_t v[PMU_EVENTS])
{
    for (unsigned i = 0; i < PMU_EVENTS; i++)
        v[i] = 0;
    if (!pmu_probe()->usable)
        return;
    counter0_off();
    msr_write_safe(MSR_PERFEVTSEL0 + 1, 0);
    for (unsigned i = 0; i < PMU_EVENTS; i++) {
        msr_read_safe(MSR_PMC0 + i, &v[i]);
        v[i] &= width_mask;
    }
}
