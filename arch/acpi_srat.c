/*
 * arch/acpi_srat.c - the System Resource Affinity Table, signature "SRAT"
 * (ACPI 6.5 §5.2.16): which proximity domain (NUMA node) each CPU and each
 * memory range belongs to.
 *
 * Layout: header (36), Reserved u32 (must be 1) at 36, Reserved u64 at 40,
 * then entries {Type u8, Length u8, ...} from offset 48:
 *   type 0 Processor Local APIC/SAPIC Affinity (§5.2.16.1), 16 bytes:
 *          domain bits 7:0 @2, APIC ID u8 @3, flags u32 @4, SAPIC EID @8,
 *          domain bits 31:8 @9..11
 *   type 1 Memory Affinity (§5.2.16.2), 40 bytes: domain u32 @2, base u64 @8,
 *          length u64 @16, flags u32 @28 (Enabled, Hot Pluggable, NonVolatile)
 *   type 2 Processor Local x2APIC Affinity (§5.2.16.3), 24 bytes: domain
 *          u32 @4, x2APIC ID u32 @8, flags u32 @12 (bit 0 Enabled)
 * SRAT revision 1 (ACPI 2.0) defined only 8 domain bits: the upper bits of
 * types 0 and 1 are ignored there, as Linux does.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/kstring.h"

#define SRAT_ENTRIES 48 /* offset of the first entry */

#define SRAT_CPU 0
#define SRAT_MEM 1
#define SRAT_X2APIC 2

#define SRAT_ENABLED (1u << 0)
#define SRAT_MEM_HOTPLUG (1u << 1)
#define SRAT_MEM_NONVOLATILE (1u << 2)

static const uint8_t srat_min_len[] = {[SRAT_CPU] = 16, [SRAT_MEM] = 40, [SRAT_X2APIC] = 24};

static void add_cpu(struct acpi_srat *s, uint32_t apic_id, uint32_t domain, uint32_t flags,
                    bool x2apic)
{
    if (s->ncpu >= ACPI_CPUS_MAX) {
        s->cpu_dropped++;
        return;
    }
    s->cpu[s->ncpu++] = (struct acpi_cpu_affinity){apic_id, domain, x2apic, flags & SRAT_ENABLED};
}

static void add_mem(struct acpi_srat *s, const uint8_t *e, uint32_t domain)
{
    if (s->nmem >= ACPI_MEM_AFFINITY_MAX) {
        s->mem_dropped++;
        return;
    }
    uint32_t flags = acpi_rd32(e, 28);
    s->mem[s->nmem++] = (struct acpi_mem_affinity){
        .base = acpi_rd64(e, 8),
        .length = acpi_rd64(e, 16),
        .domain = domain,
        .enabled = flags & SRAT_ENABLED,
        .hotpluggable = flags & SRAT_MEM_HOTPLUG,
        .nonvolatile = flags & SRAT_MEM_NONVOLATILE,
    };
}

int acpi_srat_parse(const void *p, size_t avail, struct acpi_srat *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    uint32_t len = acpi_table_check(p, avail, "SRAT", d);
    if (len == 0)
        return -1;
    if (len < SRAT_ENTRIES) {
        acpi_diag(d, "SRAT: Length %u < 48", len);
        return -1;
    }
    out->present = true;
    bool wide = acpi_rd8(t, 8) >= 2; /* 32-bit domains since SRAT revision 2 */

    size_t off = SRAT_ENTRIES;
    const uint8_t *e;
    while ((e = acpi_next_entry(t, len, &off, "SRAT", d)) != NULL) {
        uint8_t type = e[0], elen = e[1];
        uint8_t need = type < sizeof srat_min_len ? srat_min_len[type] : 0;
        if (need == 0) {
            out->skipped++;
            continue;
        }
        if (elen < need) {
            acpi_diag(d, "SRAT: type %u entry at offset %zu: Length %u < %u", type, (size_t)(e - t),
                      elen, need);
            out->skipped++;
            continue;
        }
        uint32_t dom;
        switch (type) {
        case SRAT_CPU:
            dom = acpi_rd8(e, 2);
            if (wide)
                dom |= (uint32_t)acpi_rd8(e, 9) << 8 | (uint32_t)acpi_rd8(e, 10) << 16 |
                       (uint32_t)acpi_rd8(e, 11) << 24;
            add_cpu(out, acpi_rd8(e, 3), dom, acpi_rd32(e, 4), false);
            break;
        case SRAT_MEM:
            dom = acpi_rd32(e, 2);
            add_mem(out, e, wide ? dom : dom & 0xff);
            break;
        case SRAT_X2APIC:
            add_cpu(out, acpi_rd32(e, 8), acpi_rd32(e, 4), acpi_rd32(e, 12), true);
            break;
        }
    }
    return 0;
}

int64_t acpi_srat_cpu_domain(const struct acpi_srat *s, uint32_t apic_id)
{
    for (size_t i = 0; i < s->ncpu; i++)
        if (s->cpu[i].enabled && s->cpu[i].apic_id == apic_id)
            return s->cpu[i].domain;
    return -1;
}

int64_t acpi_srat_mem_domain(const struct acpi_srat *s, uint64_t pa)
{
    for (size_t i = 0; i < s->nmem; i++) {
        const struct acpi_mem_affinity *m = &s->mem[i];
        if (m->enabled && pa >= m->base && pa - m->base < m->length)
            return m->domain;
    }
    return -1;
}
