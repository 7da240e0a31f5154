/*
 * arch/acpi_madt.c - the Multiple APIC Description Table, signature "APIC"
 * (ACPI 6.5 §5.2.12): local APIC address, processors and I/O APICs.
 *
 * Layout: header (36), Local Interrupt Controller Address (u32 at 36), Flags
 * (u32 at 40), then entries {Type u8, Length u8, ...} from offset 44:
 *   type 0 Processor Local APIC (§5.2.12.2), 8 bytes: UID u8 @2, APIC ID u8 @3,
 *          flags u32 @4
 *   type 1 I/O APIC (§5.2.12.3), 12 bytes: ID u8 @2, address u32 @4,
 *          GSI base u32 @8
 *   type 5 Local APIC Address Override (§5.2.12.8), 12 bytes: address u64 @4
 *   type 9 Processor Local x2APIC (§5.2.12.12), 16 bytes: x2APIC ID u32 @4,
 *          flags u32 @8, UID u32 @12
 * Local APIC Flags (Table 5.23): bit 0 Enabled, bit 1 Online Capable.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/kstring.h"

#define MADT_ENTRIES 44 /* offset of the first entry */

#define MADT_LAPIC 0
#define MADT_IOAPIC 1
#define MADT_LAPIC_OVERRIDE 5
#define MADT_X2APIC 9

#define LAPIC_ENABLED (1u << 0)
#define LAPIC_ONLINE_CAPABLE (1u << 1)

/* Shortest valid entry of each kept type; 0 for types not kept. */
static const uint8_t madt_min_len[] = {
    [MADT_LAPIC] = 8, [MADT_IOAPIC] = 12, [MADT_LAPIC_OVERRIDE] = 12, [MADT_X2APIC] = 16};

static void add_cpu(struct acpi_madt *m, uint32_t apic_id, uint32_t uid, uint32_t flags,
                    bool x2apic)
{
    if (m->ncpu >= ACPI_CPUS_MAX) {
        m->cpu_dropped++;
        return;
    }
    struct acpi_cpu *c = &m->cpu[m->ncpu++];
    c->apic_id = apic_id;
    c->uid = uid;
    c->x2apic = x2apic;
    c->enabled = flags & LAPIC_ENABLED;
    c->online_capable = flags & LAPIC_ONLINE_CAPABLE;
    if (c->enabled)
        m->ncpu_enabled++;
}

static void add_ioapic(struct acpi_madt *m, const uint8_t *e)
{
    if (m->nioapic >= ACPI_IOAPICS_MAX) {
        m->ioapic_dropped++;
        return;
    }
    struct acpi_ioapic *io = &m->ioapic[m->nioapic++];
    io->id = acpi_rd8(e, 2);
    io->addr = acpi_rd32(e, 4);
    io->gsi_base = acpi_rd32(e, 8);
}

int acpi_madt_parse(const void *p, size_t avail, struct acpi_madt *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    uint32_t len = acpi_table_check(p, avail, "APIC", d);
    if (len == 0)
        return -1;
    if (len < MADT_ENTRIES) {
        acpi_diag(d, "APIC: Length %u < 44", len);
        return -1;
    }
    out->present = true;
    out->lapic_addr32 = acpi_rd32(t, 36);
    out->lapic_addr = out->lapic_addr32;
    out->flags = acpi_rd32(t, 40);

    size_t off = MADT_ENTRIES;
    const uint8_t *e;
    while ((e = acpi_next_entry(t, len, &off, "APIC", d)) != NULL) {
        uint8_t type = e[0], elen = e[1];
        uint8_t need = type < sizeof madt_min_len ? madt_min_len[type] : 0;
        if (need == 0) {
            out->skipped++;
            continue;
        }
        if (elen < need) {
            acpi_diag(d, "APIC: type %u entry at offset %zu: Length %u < %u", type, (size_t)(e - t),
                      elen, need);
            out->skipped++;
            continue;
        }
        switch (type) {
        case MADT_LAPIC:
            add_cpu(out, acpi_rd8(e, 3), acpi_rd8(e, 2), acpi_rd32(e, 4), false);
            break;
        case MADT_IOAPIC:
            add_ioapic(out, e);
            break;
        case MADT_LAPIC_OVERRIDE:
            out->lapic_addr = acpi_rd64(e, 4);
            out->lapic_override = true;
            break;
        case MADT_X2APIC:
            add_cpu(out, acpi_rd32(e, 4), acpi_rd32(e, 12), acpi_rd32(e, 8), true);
            break;
        }
    }
    return 0;
}
