/*
 * kernel/smp_plan.c - which MADT entries (ACPI 6.5 §5.2.12.2 Processor Local
 * APIC, §5.2.12.12 Processor Local x2APIC) SMP start-up starts, and with
 * which CPU index (kernel/smp_priv.h). Portable C, no hardware access: the
 * host test tests/unit/test_smp_plan.c runs it on MADTs of up to
 * ACPI_CPUS_MAX entries, and the kernel runs it at the measurement CPL.
 */
#include "kernel/smp_priv.h"

#include "arch/apic.h" /* APIC_XAPIC_MAX_ID */

#define ID_BITMAP_IDS 65536u /* APIC IDs below this are looked up in a bitmap */

static uint64_t id_seen[ID_BITMAP_IDS / 64];

/* True when an enabled entry before k has the APIC ID of entry k; marks it. */
static bool seen_before(const struct acpi_madt *m, size_t k)
{
    uint32_t id = m->cpu[k].apic_id;
    if (id < ID_BITMAP_IDS) {
        uint64_t bit = 1ull << (id % 64);
        bool seen = id_seen[id / 64] & bit;
        id_seen[id / 64] |= bit;
        return seen;
    }
    for (size_t j = 0; j < k; j++)
        if (m->cpu[j].enabled && m->cpu[j].apic_id == id)
            return true;
    return false;
}

unsigned smp_plan(struct smp_start_log *log, const struct acpi_madt *m, uint32_t bsp_id,
                  bool x2apic)
{
    unsigned limit = log->limit < 1 ? 1 : log->limit > HZ_MAX_CPUS ? HZ_MAX_CPUS : log->limit;
    unsigned planned = 1; /* CPU indices given, the BSP's 0 included */
    size_t n = m->ncpu < ACPI_CPUS_MAX ? m->ncpu : ACPI_CPUS_MAX;
    for (size_t w = 0; w < ID_BITMAP_IDS / 64; w++)
        id_seen[w] = 0;
    for (size_t k = 0; k < n; k++) {
        const struct acpi_cpu *e = &m->cpu[k];
        log->cpu[k] = -1;
        if (!e->enabled)
            log->fate[k] = SMP_FATE_DISABLED;
        else if (seen_before(m, k))
            log->fate[k] = SMP_FATE_DUPLICATE;
        else if (e->apic_id == bsp_id)
            log->fate[k] = SMP_FATE_BSP, log->cpu[k] = 0;
        else if (planned >= limit)
            log->fate[k] = SMP_FATE_LIMIT;
        else if (!x2apic && e->apic_id > APIC_XAPIC_MAX_ID)
            log->fate[k] = SMP_FATE_NOADDR;
        else
            log->fate[k] = SMP_FATE_PLANNED, log->cpu[k] = (int16_t)planned++;
    }
    return planned - 1;
}
