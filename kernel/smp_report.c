/*
 * kernel/smp_report.c - what SMP start-up prints (kernel/smp_priv.h): the
 * table APIC ID -> CPU index -> NUMA domain, one `cpu` record per MADT entry
 * (ACPI 6.5 §5.2.12), the `smp` record and the smp.start result
 * (docs/results.md).
 */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/trampoline.h"
#include "arch/trap.h"
#include "kernel/smp_priv.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"

static const char *const fate_names[] = {"not-started", "online",     "online",    "failed",
                                         "disabled",    "limit",      "duplicate", "unaddressable",
                                         "no-memory",   "not-started"};
_Static_assert(sizeof(fate_names) / sizeof(fate_names[0]) == SMP_FATE_PLANNED + 1,
               "one name per enum smp_fate");
static const char *const stage_names[] = {"none (no START-UP taken)", "real mode", "protected mode",
                                          "long mode", "C entry"};

const char *smp_stage_name(uint8_t stage)
{
    return stage <= TRAMP_STAGE_C ? stage_names[stage] : "?";
}

/* One `cpu` record per MADT entry (or for the BSP alone without a MADT). */
static void madt_cpu_record(const struct smp_start_log *log, const struct acpi_cpu *e, size_t k)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "cpu");
    if (!e) { /* no MADT: the initial APIC ID from CPUID.1:EBX[31:24] */
        rec_u64(&r, "apic_id", cpu_leaf_reg(1, 0, CPUID_EBX) >> 24);
        rec_u64(&r, "cpu", 0);
        rec_str(&r, "state", "online");
        rec_bool(&r, "bsp", true);
        record_emit(&r);
        return;
    }
    rec_u64(&r, "apic_id", e->apic_id);
    rec_u64(&r, "uid", e->uid);
    rec_bool(&r, "x2apic_entry", e->x2apic);
    rec_bool(&r, "enabled", e->enabled);
    rec_bool(&r, "online_capable", e->online_capable);
    rec_str(&r, "state", fate_names[log->fate[k]]);
    rec_bool(&r, "bsp", log->fate[k] == SMP_FATE_BSP);
    if (log->cpu[k] >= 0) {
        const struct smp_cpu *c = &smp_percpu[log->cpu[k]].info;
        rec_u64(&r, "cpu", (uint64_t)log->cpu[k]);
        if (c->domain >= 0)
            rec_u64(&r, "domain", (uint64_t)c->domain);
        if (log->fate[k] == SMP_FATE_ONLINE)
            rec_u64(&r, "start_us", c->start_ns / 1000);
        if (log->fate[k] == SMP_FATE_ONLINE || log->fate[k] == SMP_FATE_BSP) {
            const struct percpu *pc = &smp_percpu[log->cpu[k]];
            rec_u64(&r, "apic_seen", pc->seen_apic_id);
            if (pc->cpuid_apic_ok)
                rec_u64(&r, "cpuid_x2apic_id", pc->cpuid_apic_id);
        }
    }
    if (log->fate[k] == SMP_FATE_FAILED)
        rec_str(&r, "stage", smp_stage_name(log->stage[k]));
    if (log->fate[k] == SMP_FATE_FAILED && log->fault[k]) {
        rec_u64(&r, "vector", TRAMP_FAULT_VECTOR(log->fault[k]));
        rec_str(&r, "vector_name", trap_name(TRAMP_FAULT_VECTOR(log->fault[k])));
    }
    record_emit(&r);
}

/* "; limited by ..." for the count line: what kept CPUs from starting. */
static void limit_note(const struct smp_start_log *log, unsigned nlimit, unsigned nomem,
                       unsigned noaddr, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    if (nlimit && log->limit_by == SMP_LIMIT_OPTION)
        n += hz_snprintf(out + n, cap - n, "; limited by smp=%u", log->limit);
    else if (nlimit && log->limit_by == SMP_LIMIT_NOSMP)
        n += hz_snprintf(out + n, cap - n, "; limited by nosmp");
    else if (nlimit)
        n += hz_snprintf(out + n, cap - n, "; limited by HZ_MAX_CPUS=%u, the build's maximum",
                         (unsigned)HZ_MAX_CPUS);
    if (nomem && n < cap)
        n += hz_snprintf(out + n, cap - n, "; %u without memory for stacks", nomem);
    if (noaddr && n < cap)
        hz_snprintf(out + n, cap - n, "; %u with APIC IDs above %u, unaddressable in xAPIC mode",
                    noaddr, APIC_XAPIC_MAX_ID);
}

void smp_report(const struct smp_start_log *log, const struct acpi_madt *m, const char *apic_note,
                unsigned tried)
{
    unsigned enabled = 0, failed = 0, faulted = 0, online = smp_online(), nlimit = 0, nomem = 0,
             noaddr = 0;
    bool bsp_listed = false;
    char why[160];
    for (size_t k = 0; m->present && k < m->ncpu; k++) {
        enabled += log->fate[k] != SMP_FATE_DISABLED && log->fate[k] != SMP_FATE_DUPLICATE;
        failed += log->fate[k] == SMP_FATE_FAILED;
        faulted += log->fate[k] == SMP_FATE_FAILED && log->fault[k];
        nlimit += log->fate[k] == SMP_FATE_LIMIT;
        nomem += log->fate[k] == SMP_FATE_NOMEM;
        noaddr += log->fate[k] == SMP_FATE_NOADDR;
        bsp_listed |= log->fate[k] == SMP_FATE_BSP;
    }
    if (!bsp_listed) {
        enabled++;
        if (m->present)
            kprintf("smp: the boot CPU (APIC ID %u) is not in the MADT\n",
                    smp_percpu[0].info.apic_id);
    }
    limit_note(log, nlimit, nomem, noaddr, why, sizeof(why));
    kprintf("smp: %u of %u enabled CPUs online (MADT lists %zu; APIC %s%s%s)\n", online, enabled,
            m->present ? m->ncpu : (size_t)0, apic_mode_name(apic_mode()), why,
            failed ? "; SOME FAILED" : "");
    if (tried)
        kprintf("smp: %u APs started in %llu us, %u at a time%s\n", tried - failed,
                (unsigned long long)(log->start_ns / 1000), log->batch,
                log->strays ? "; some CPUs found no open slot and halted" : "");
    bool listed = false; /* the last stray's ID is in the MADT: its slot was closed */
    for (size_t k = 0; log->strays && m->present && k < m->ncpu; k++)
        listed |= m->cpu[k].apic_id == log->stray_id;
    if (log->strays)
        kprintf("smp: the last CPU that found no open slot has APIC ID %u: %s\n", log->stray_id,
                listed ? "its slot was closed (given up, or a duplicate)"
                       : "no MADT entry lists that ID (its APIC or CPUID says another ID "
                         "than the firmware's table)");
    if (log->stray_fault)
        kprintf("smp: a CPU with no slot faulted (stage %s, vector %u %s) and halted\n",
                smp_stage_name((uint8_t)TRAMP_FAULT_STAGE(log->stray_fault)),
                (unsigned)TRAMP_FAULT_VECTOR(log->stray_fault),
                trap_name(TRAMP_FAULT_VECTOR(log->stray_fault)));
    kprintf("smp:   APIC ID   CPU  domain  state\n");
    for (size_t k = 0; m->present && k < m->ncpu; k++) {
        const struct acpi_cpu *e = &m->cpu[k];
        int d = log->cpu[k] >= 0 ? smp_percpu[log->cpu[k]].info.domain : -1;
        char cpu[8] = "-", dom[12] = "-";
        if (log->cpu[k] >= 0)
            hz_snprintf(cpu, sizeof(cpu), "%d", log->cpu[k]);
        if (d >= 0)
            hz_snprintf(dom, sizeof(dom), "%d", d);
        kprintf("smp:   %7u  %4s  %6s  %s%s\n", e->apic_id, cpu, dom, fate_names[log->fate[k]],
                log->fate[k] == SMP_FATE_BSP ? " (boot CPU)" : "");
    }
    for (size_t k = 0; m->present && k < m->ncpu; k++)
        madt_cpu_record(log, &m->cpu[k], k);
    if (!m->present)
        madt_cpu_record(log, 0, 0);

    char buf[HZ_RECORD_MAX], tr[24];
    struct rec r;
    hz_snprintf(tr, sizeof(tr), "0x%llx", (unsigned long long)log->tramp_page);
    rec_begin(&r, buf, sizeof(buf), "smp");
    rec_u64(&r, "madt_cpus", m->present ? m->ncpu : 0);
    rec_u64(&r, "enabled", enabled);
    rec_u64(&r, "online", online);
    rec_u64(&r, "started", tried - failed);
    rec_u64(&r, "failed", failed);
    rec_u64(&r, "limit", log->limit);
    rec_u64(&r, "limited", nlimit);
    rec_u64(&r, "no_memory", nomem);
    rec_u64(&r, "batch", log->batch);
    rec_u64(&r, "strays", log->strays);
    rec_u64(&r, "faulted", faulted);
    if (log->strays) {
        rec_u64(&r, "stray_apic_id", log->stray_id);
        rec_bool(&r, "stray_in_madt", listed);
    }
    if (log->stray_fault) {
        rec_str(&r, "stray_stage", smp_stage_name((uint8_t)TRAMP_FAULT_STAGE(log->stray_fault)));
        rec_u64(&r, "stray_vector", TRAMP_FAULT_VECTOR(log->stray_fault));
    }
    rec_u64(&r, "start_us", log->start_ns / 1000);
    rec_str(&r, "apic", apic_mode_name(apic_mode()));
    rec_str(&r, "trampoline", log->tramp_page ? tr : 0);
    record_emit(&r);
    if (!m->present || apic_mode() == APIC_OFF)
        result_skip("smp.start", "%s: the boot CPU only", apic_note);
    else if (failed)
        result_fail("smp.start", "%u of %u APs did not come up", failed, tried);
    else
        result_pass("smp.start");
}
