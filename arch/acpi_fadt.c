/*
 * arch/acpi_fadt.c - the Fixed ACPI Description Table, signature "FACP"
 * (ACPI 6.5 §5.2.9, Table 5.9), the \_S5 sleep package in the DSDT (§7.4.2.5,
 * AML encoding §20.2) and the HPET table (IA-PC HPET Specification 1.0a
 * §3.2.4). Used for on_exit=poweroff (S5 through PM1x_CNT, §4.8.3.2.1, or
 * SLEEP_CONTROL_REG, §4.8.3.7), on_exit=reboot (RESET_REG, §4.8.3.6) and
 * timer calibration (PM timer, §4.8.3.3; HPET).
 *
 * FADT offsets used (bytes): DSDT u32 @40, PM1a_CNT_BLK u32 @64,
 * PM1b_CNT_BLK u32 @68, PM_TMR_BLK u32 @76, PM1_CNT_LEN u8 @89,
 * PM_TMR_LEN u8 @91, Flags u32 @112 (ACPI 1.0 ends at 116), RESET_REG GAS
 * @116, RESET_VALUE u8 @128, X_DSDT u64 @140, X_PM1a_CNT_BLK GAS @172,
 * X_PM1b_CNT_BLK GAS @184, X_PM_TMR_BLK GAS @208, SLEEP_CONTROL_REG GAS @244.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/kstring.h"

#define FADT_V1_LEN 116
#define GAS_LEN 12

/* AML opcodes (§20.2.3, §20.2.5.2, §20.2.5.4). */
#define AML_ZERO 0x00
#define AML_ONE 0x01
#define AML_NAME 0x08
#define AML_BYTE_PREFIX 0x0A
#define AML_PACKAGE 0x12
#define AML_ROOT_CHAR '\\'

/* True when the table (len bytes) holds the field [off, off + size). */
static bool has(uint32_t len, size_t off, size_t size) { return off + size <= len; }

/*
 * A PM register block: the X_ GAS at x_off when the table holds it and its
 * address is non-zero (§5.2.9: it then supersedes the 32-bit field), else the
 * 32-bit I/O port at legacy_off, 8 * the byte at len_off bits wide (access
 * size 0, undefined). All zero when neither is set.
 */
static struct acpi_gas pm_block(const uint8_t *t, uint32_t len, size_t legacy_off, size_t len_off,
                                size_t x_off)
{
    if (has(len, x_off, GAS_LEN)) {
        struct acpi_gas g = acpi_rd_gas(t, x_off);
        if (g.addr)
            return g;
    }
    struct acpi_gas g = {0};
    uint32_t port = acpi_rd32(t, legacy_off);
    if (port) {
        g.space = ACPI_SPACE_IO;
        g.bit_width = (uint8_t)(acpi_rd8(t, len_off) * 8);
        g.addr = port;
    }
    return g;
}

int acpi_fadt_parse(const void *p, size_t avail, struct acpi_fadt *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    uint32_t len = acpi_table_check(p, avail, "FACP", d);
    if (len == 0)
        return -1;
    if (len < FADT_V1_LEN) {
        acpi_diag(d, "FACP: Length %u < 116 (ACPI 1.0 size)", len);
        return -1;
    }
    out->present = true;
    out->revision = acpi_rd8(t, 8);
    out->length = len;
    out->flags = acpi_rd32(t, 112);
    out->hw_reduced = out->flags & ACPI_FADT_HW_REDUCED;

    out->dsdt = acpi_rd32(t, 40);
    if (has(len, 140, 8) && acpi_rd64(t, 140))
        out->dsdt = acpi_rd64(t, 140);

    if (has(len, 128, 1)) {
        out->reset_reg = acpi_rd_gas(t, 116);
        out->reset_value = acpi_rd8(t, 128);
        out->reset_supported = (out->flags & ACPI_FADT_RESET_REG_SUP) && out->reset_reg.addr;
    }
    if (has(len, 244, GAS_LEN))
        out->sleep_control = acpi_rd_gas(t, 244);

    /* HW-reduced ACPI: offsets 46-108 and 148-232 and flag bit 8 are ignored. */
    if (!out->hw_reduced) {
        out->pm_timer = pm_block(t, len, 76, 91, 208);
        out->pm_timer_32bit = out->flags & ACPI_FADT_TMR_VAL_EXT;
        out->pm1a_cnt = pm_block(t, len, 64, 89, 172);
        out->pm1b_cnt = pm_block(t, len, 68, 89, 184);
    }
    return 0;
}

/*
 * The package after "_S5_" at t[i] (end = the DSDT's Length): PackageOp,
 * PkgLength, NumElements, then up to two ByteConst/Zero/One elements, all
 * inside both the package's own length and the table. Returns 0 and fills
 * out, or -1 (a diagnostic only for an element encoding it cannot read).
 */
static int s5_package(const uint8_t *t, size_t i, size_t end, struct acpi_s5 *out,
                      struct acpi_diag *d)
{
    if (i >= end || t[i] != AML_PACKAGE)
        return -1;
    size_t start = ++i; /* PkgLength counts from its own first byte (§20.2.4) */
    if (i >= end)
        return -1;
    uint8_t lead = t[i++];
    size_t follow = lead >> 6, pkglen = follow ? lead & 0x0f : lead & 0x3f;
    if (follow > end - i)
        return -1;
    for (size_t k = 0; k < follow; k++)
        pkglen |= (size_t)t[i++] << (4 + 8 * k);
    if (pkglen > end - start)
        return -1;
    end = start + pkglen;
    if (i >= end)
        return -1;
    uint8_t count = t[i++];
    uint8_t v[2] = {0, 0};
    if (count == 0)
        return -1;
    for (size_t k = 0; k < 2 && k < count; k++) {
        if (i >= end)
            return -1;
        uint8_t op = t[i++];
        if (op == AML_ZERO || op == AML_ONE) {
            v[k] = op;
        } else if (op == AML_BYTE_PREFIX) {
            if (i >= end)
                return -1;
            v[k] = t[i++];
        } else {
            acpi_diag(d, "DSDT: \\_S5 element %zu: opcode 0x%02x not read", k, op);
            return -1;
        }
    }
    out->found = true;
    out->slp_typa = v[0];
    out->slp_typb = v[1];
    return 0;
}

int acpi_dsdt_find_s5(const void *p, size_t avail, struct acpi_s5 *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    uint32_t len = acpi_table_check(p, avail, "DSDT", d);
    if (len == 0)
        return -1;
    for (size_t i = ACPI_HDR_LEN + 1; i + 4 <= len; i++) {
        if (memcmp(t + i, "_S5_", 4) != 0)
            continue;
        bool named = t[i - 1] == AML_NAME ||
                     (t[i - 1] == AML_ROOT_CHAR && i >= ACPI_HDR_LEN + 2 && t[i - 2] == AML_NAME);
        if (named && s5_package(t, i + 4, len, out, d) == 0)
            return 0;
    }
    acpi_diag(d, "DSDT: \\_S5 package not found");
    return -1;
}

int acpi_hpet_parse(const void *p, size_t avail, struct acpi_hpet *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    uint32_t len = acpi_table_check(p, avail, "HPET", d);
    if (len == 0)
        return -1;
    if (len < 56) {
        acpi_diag(d, "HPET: Length %u < 56", len);
        return -1;
    }
    out->present = true;
    out->block_id = acpi_rd32(t, 36);
    out->base = acpi_rd_gas(t, 40);
    out->number = acpi_rd8(t, 52);
    out->min_tick = acpi_rd16(t, 53);
    return 0;
}
