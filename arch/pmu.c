/*
 * arch/pmu.c - the architectural PMU probe and the two counters of
 * arch/pmu.h (Intel SDM Vol. 3B "Architectural Performance Monitoring";
 * AMD APM Vol. 2 §13.2).
 */
#include "arch/pmu.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "lib/kstring.h"

#define MSR_PERFEVTSEL0 0x186u
#define MSR_PMC0 0xc1u
#define MSR_PERF_GLOBAL_CTRL 0x38fu
#define MSR_AMD_PERF_CTL0 0xc0010200u
#define EVTSEL_USR (1ull << 16)
#define EVTSEL_OS (1ull << 17)
#define EVTSEL_EN (1ull << 22)

/* UnHalted Core Cycles, LLC Misses: event | umask << 8. */
static const uint64_t intel_events[PMU_EVENTS] = {0x3c, 0x2e | 0x41 << 8};

static struct pmu_info info;
static bool probed;
static uint64_t width_mask;

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
    if (info.version == 0) {
        info.why = "no architectural PMU: CPUID 0xA EAX[7:0] (version) is 0";
    } else if (counters < PMU_EVENTS || width == 0 || width > 64) {
        info.why = "CPUID 0xA: fewer than 2 general-purpose counters";
    } else if (len < 5 || (ebx & 1) || (ebx & 0x10)) {
        info.why = "CPUID 0xA EBX: UnHalted Core Cycles or LLC Misses not available";
    } else if (!msr_works(MSR_PERFEVTSEL0)) {
        info.why = "IA32_PERFEVTSEL0 (MSR 0x186) raised #GP or did not read back";
    } else {
        info.usable = true;
        width_mask = width == 64 ? ~0ull : (1ull << width) - 1;
    }
}

const struct pmu_info *pmu_probe(void)
{
    if (probed)
        return &info;
    probed = true;
    const char *vendor = cpu_ident()->vendor;
    info.kind = "none";
    if (strcmp(vendor, "GenuineIntel") == 0) {
        info.kind = "intel-arch";
        probe_intel();
    } else if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
        if (!(cpu_leaf_reg(0x80000001u, 0, CPUID_ECX) & (1u << 23)))
            info.why = "no core performance counters: CPUID 0x80000001 ECX[23] (PerfCtrExtCore) "
                       "is 0";
        else if (!msr_works(MSR_AMD_PERF_CTL0))
            info.why = "PERF_CTL0 (MSR C001_0200) raised #GP or did not read back";
        else
            info.why = "AMD core counters present, but AMD defines no architectural LLC-miss "
                       "event (L3 PMU per family PPR): not counted";
        info.kind = "amd-perfctr-core";
    } else {
        info.why = "neither Intel nor AMD: no PMU known";
    }
    return &info;
}

/* Disable both counters (IA32_PERF_GLOBAL_CTRL from version 2, then the
 * event selects); their counts stay readable. */
static void counters_off(void)
{
    if (info.version >= 2)
        msr_write_safe(MSR_PERF_GLOBAL_CTRL, 0);
    for (unsigned i = 0; i < PMU_EVENTS; i++)
        msr_write_safe(MSR_PERFEVTSEL0 + i, 0);
}

void pmu_start(void)
{
    if (!pmu_probe()->usable)
        return;
    counters_off();
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
    counters_off();
    for (unsigned i = 0; i < PMU_EVENTS; i++) {
        msr_read_safe(MSR_PMC0 + i, &v[i]);
        v[i] &= width_mask;
    }
}
