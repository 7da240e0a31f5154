/*
 * arch/acpi_info.c - everything ACPI together: acpi_parse() finds the RSDP,
 * walks the root table and parses MADT, SRAT, SLIT, FADT (+ DSDT \_S5), HPET and SPCR
 * (ACPI 6.5 §5.2); acpi_init() is the kernel's entry point; acpi_summary()
 * formats one line for the caller to print.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#include <stdarg.h>

/* The first listed table with this signature and a good checksum, or NULL
 * (bad ones were reported by the walk). */
static const struct acpi_table *usable(const struct acpi_info *ai, const char *sig)
{
    const struct acpi_table *t;
    for (size_t i = 0; (t = acpi_find_table(&ai->tables, sig, i)) != NULL; i++)
        if (t->checksum_ok)
            return t;
    return NULL;
}

/* List the FADT's DSDT and scan it for \_S5. */
static void parse_dsdt(struct acpi_info *ai, uint64_t limit)
{
    struct acpi_diag *d = &ai->diag;
    if (ai->fadt.dsdt == 0) {
        acpi_diag(d, "FACP: no DSDT address");
        return;
    }
    size_t before = ai->tables.n;
    if (acpi_table_list(&ai->tables, ai->fadt.dsdt, limit, "DSDT", d) != 0 ||
        ai->tables.n == before)
        return;
    const struct acpi_table *t = &ai->tables.t[before];
    if (t->checksum_ok)
        acpi_dsdt_find_s5(acpi_ptr(t->addr), t->length, &ai->s5, d);
}

int acpi_parse(struct acpi_info *ai, const struct bootinfo *bi, const struct acpi_range *scan,
               size_t nscan, uint64_t limit)
{
    memset(ai, 0, sizeof *ai);
    struct acpi_diag *d = &ai->diag;
    if (acpi_rsdp_locate(bi, scan, nscan, limit, &ai->rsdp, d) != 0)
        return -1;
    if (acpi_tables_walk(&ai->rsdp, limit, &ai->tables, d) != 0)
        return -1;
    ai->ok = true;

    const struct acpi_table *t;
    if ((t = usable(ai, "APIC")) != NULL)
        acpi_madt_parse(acpi_ptr(t->addr), t->length, &ai->madt, d);
    if ((t = usable(ai, "SRAT")) != NULL)
        acpi_srat_parse(acpi_ptr(t->addr), t->length, &ai->srat, d);
    if ((t = usable(ai, "SLIT")) != NULL)
        acpi_slit_parse(acpi_ptr(t->addr), t->length, &ai->slit, d);
    else if (acpi_find_table(&ai->tables, "SLIT", 0) != NULL)
        ai->slit.rejected = true; /* listed, bad checksum: reported by the walk */
    if ((t = usable(ai, "SPCR")) != NULL)
        acpi_spcr_parse(acpi_ptr(t->addr), t->length, &ai->spcr, d);
    else if ((t = acpi_find_table(&ai->tables, "SPCR", 0)) != NULL) {
        ai->spcr.rejected = true; /* listed, bad checksum: reported by the walk */
        hz_snprintf(ai->spcr.why, sizeof ai->spcr.why, "SPCR at 0x%llx: bad checksum",
                    (unsigned long long)t->addr);
    }
    if ((t = usable(ai, "HPET")) != NULL)
        acpi_hpet_parse(acpi_ptr(t->addr), t->length, &ai->hpet, d);
    if ((t = usable(ai, "FACP")) != NULL &&
        acpi_fadt_parse(acpi_ptr(t->addr), t->length, &ai->fadt, d) == 0)
        parse_dsdt(ai, limit);
    return 0;
}

#ifndef HZ_HOSTED
static struct acpi_info acpi_state;

/* BDA word at physical 0x40E: the EBDA's real-mode segment (§5.2.5.1). The
 * empty asm hides the constant address from the compiler's bounds checks. */
static uint16_t bda_ebda_segment(void)
{
    uintptr_t a = 0x40E;
    __asm__("" : "+r"(a));
    return *(const volatile uint16_t *)a;
}

int acpi_init(const struct bootinfo *bi)
{
    struct acpi_range scan[2];
    size_t nscan = 0;
    if (bi->path != BOOT_MB2_EFI)
        nscan = acpi_bios_ranges(bda_ebda_segment(), scan);
    return acpi_parse(&acpi_state, bi, scan, nscan, (uint64_t)1 << 32);
}

const struct acpi_info *acpi_get(void) { return &acpi_state; }
#endif

/* Append to buf at *pos (the would-be length so far, possibly >= cap). */
static void put(char *buf, size_t cap, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t cap, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t at = *pos < cap ? *pos : cap;
    int n = hz_vsnprintf(buf + at, cap - at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos += (size_t)n;
}

static const char *space_name(const struct acpi_gas *g)
{
    return g->space == ACPI_SPACE_IO ? "io" : g->space == ACPI_SPACE_MEM ? "mem" : "space?";
}

size_t acpi_summary(const struct acpi_info *ai, char *buf, size_t cap)
{
    size_t pos = 0;
    if (cap)
        buf[0] = 0;
    if (!ai->ok) {
        put(buf, cap, &pos, "ACPI not found");
        return pos;
    }
    const struct acpi_tables *ts = &ai->tables;
    put(buf, cap, &pos, "ACPI rev %u (%s) %s 0x%llx, %zu tables", ai->rsdp.revision,
        ai->rsdp.source, ts->xsdt ? "XSDT" : "RSDT", (unsigned long long)ts->root, ts->n);
    const struct acpi_madt *m = &ai->madt;
    if (m->present)
        put(buf, cap, &pos, "; MADT %zu/%zu CPUs, %zu IOAPIC, LAPIC 0x%llx", m->ncpu_enabled,
            m->ncpu, m->nioapic, (unsigned long long)m->lapic_addr);
    if (ai->srat.present)
        put(buf, cap, &pos, "; SRAT %zu CPU + %zu memory affinities", ai->srat.ncpu, ai->srat.nmem);
    if (ai->slit.present)
        put(buf, cap, &pos, "; SLIT %u localities", ai->slit.n);
    else if (ai->slit.rejected)
        put(buf, cap, &pos, "; SLIT rejected");
    const struct acpi_fadt *f = &ai->fadt;
    if (f->present) {
        put(buf, cap, &pos, "; FADT rev %u%s", f->revision, f->hw_reduced ? " hw-reduced" : "");
        if (f->pm_timer.addr)
            put(buf, cap, &pos, ", PM timer %s 0x%llx %s", space_name(&f->pm_timer),
                (unsigned long long)f->pm_timer.addr, f->pm_timer_32bit ? "32-bit" : "24-bit");
        if (f->reset_supported)
            put(buf, cap, &pos, ", reset %s 0x%llx=0x%x", space_name(&f->reset_reg),
                (unsigned long long)f->reset_reg.addr, f->reset_value);
        if (ai->s5.found)
            put(buf, cap, &pos, ", S5 %u/%u", ai->s5.slp_typa, ai->s5.slp_typb);
        else
            put(buf, cap, &pos, ", S5 not found");
    }
    if (ai->spcr.present)
        put(buf, cap, &pos, "; SPCR %s 0x%llx", space_name(&ai->spcr.base),
            (unsigned long long)ai->spcr.base.addr);
    else if (ai->spcr.rejected)
        put(buf, cap, &pos, "; SPCR rejected");
    if (ai->hpet.present)
        put(buf, cap, &pos, "; HPET 0x%llx", (unsigned long long)ai->hpet.base.addr);
    if (ai->diag.n)
        put(buf, cap, &pos, "; %zu problem(s)", ai->diag.n + ai->diag.dropped);
    return pos;
}
