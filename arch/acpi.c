/*
 * arch/acpi.c - finding the RSDP (ACPI 6.5 §5.2.5), walking the RSDT/XSDT
 * (§5.2.7, §5.2.8) into a list of tables, and the common table-header check
 * (§5.2.6). The per-table parsers live in acpi_madt.c, acpi_srat.c and
 * acpi_fadt.c; acpi_parse() and the kernel entry point in acpi_info.c.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#include <stdarg.h>

#define RSDP_V1_LEN 20 /* through RsdtAddress */
#define RSDP_V2_LEN 36 /* through the Reserved bytes */

void acpi_diag(struct acpi_diag *d, const char *fmt, ...)
{
    if (!d)
        return;
    if (d->n >= ACPI_DIAG_MAX) {
        d->dropped++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    hz_vsnprintf(d->msg[d->n++], ACPI_DIAG_LEN, fmt, ap);
    va_end(ap);
}

uint8_t acpi_checksum(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;
    for (size_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + b[i]);
    return sum;
}

/* Copy n bytes of an identifier, printable ASCII only ('?' otherwise). */
static void id_copy(char *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (p[i] >= 0x20 && p[i] < 0x7f) ? (char)p[i] : '?';
    out[n] = 0;
}

static unsigned long long addr_of(const void *p) { return (unsigned long long)(uintptr_t)p; }

uint32_t acpi_table_check(const void *p, size_t avail, const char *sig, struct acpi_diag *d)
{
    const uint8_t *t = p;
    if (avail < ACPI_HDR_LEN) {
        acpi_diag(d, "%.4s: %zu bytes, the header needs 36", sig, avail);
        return 0;
    }
    if (memcmp(t, sig, 4) != 0) {
        char found[5];
        id_copy(found, t, 4);
        acpi_diag(d, "%.4s at 0x%llx: signature is \"%s\"", sig, addr_of(t), found);
        return 0;
    }
    uint32_t len = acpi_rd32(t, 4);
    if (len < ACPI_HDR_LEN || len > avail) {
        acpi_diag(d, "%.4s at 0x%llx: Length %u outside 36..%zu", sig, addr_of(t), len, avail);
        return 0;
    }
    if (acpi_checksum(t, len) != 0) {
        acpi_diag(d, "%.4s at 0x%llx: bad checksum", sig, addr_of(t));
        return 0;
    }
    return len;
}

int acpi_rsdp_parse(const void *p, size_t avail, const char *where, struct acpi_rsdp *out,
                    struct acpi_diag *d)
{
    const uint8_t *r = p;
    memset(out, 0, sizeof *out);
    if (avail < RSDP_V1_LEN) {
        acpi_diag(d, "%s: %zu bytes, an RSDP needs 20", where, avail);
        return -1;
    }
    if (memcmp(r, "RSD PTR ", 8) != 0) {
        acpi_diag(d, "%s: no \"RSD PTR \" signature", where);
        return -1;
    }
    if (acpi_checksum(r, RSDP_V1_LEN) != 0) {
        acpi_diag(d, "%s: bad RSDP checksum (first 20 bytes)", where);
        return -1;
    }
    out->revision = acpi_rd8(r, 15);
    id_copy(out->oem_id, r + 9, 6);
    out->rsdt = acpi_rd32(r, 16);
    out->length = RSDP_V1_LEN;
    if (out->revision < 2)
        return 0;
    if (avail < RSDP_V2_LEN) {
        acpi_diag(d, "%s: revision %u but %zu bytes: used as ACPI 1.0 (RSDT only)", where,
                  out->revision, avail);
        return 0;
    }
    uint32_t len = acpi_rd32(r, 20);
    if (len < RSDP_V2_LEN || len > avail) {
        acpi_diag(d, "%s: RSDP Length %u outside 36..%zu", where, len, avail);
        return -1;
    }
    if (acpi_checksum(r, len) != 0) {
        acpi_diag(d, "%s: bad RSDP extended checksum", where);
        return -1;
    }
    out->length = len;
    out->xsdt = acpi_rd64(r, 24);
    return 0;
}

int acpi_rsdp_scan(const struct acpi_range *ranges, size_t n, struct acpi_rsdp *out,
                   struct acpi_diag *d)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t base = ranges[i].base;
        uint64_t end = ranges[i].len > UINT64_MAX - base ? UINT64_MAX : base + ranges[i].len;
        if (base > UINT64_MAX - 15)
            continue;
        /* end - a >= 20 keeps a + 16 from wrapping. */
        for (uint64_t a = (base + 15) & ~(uint64_t)15; a < end && end - a >= RSDP_V1_LEN; a += 16) {
            const uint8_t *c = acpi_ptr(a);
            if (memcmp(c, "RSD PTR ", 8) != 0)
                continue;
            char where[40];
            hz_snprintf(where, sizeof where, "RSDP at 0x%llx", (unsigned long long)a);
            if (acpi_rsdp_parse(c, end - a, where, out, d) == 0) {
                out->paddr = a;
                out->source = "bios-scan";
                return 0;
            }
        }
    }
    return -1;
}

size_t acpi_bios_ranges(uint16_t ebda_segment, struct acpi_range out[2])
{
    size_t n = 0;
    uint64_t ebda = (uint64_t)ebda_segment << 4;
    if (ebda >= 0x400 && ebda + 1024 <= 0xA0000)
        out[n++] = (struct acpi_range){ebda, 1024};
    out[n++] = (struct acpi_range){0xE0000, 0x20000};
    return n;
}

int acpi_rsdp_locate(const struct bootinfo *bi, const struct acpi_range *scan, size_t nscan,
                     uint64_t limit, struct acpi_rsdp *out, struct acpi_diag *d)
{
    if (bi && bi->rsdp_len) {
        size_t n = bi->rsdp_len < sizeof bi->rsdp ? bi->rsdp_len : sizeof bi->rsdp;
        if (acpi_rsdp_parse(bi->rsdp, n, "multiboot2 RSDP copy", out, d) == 0) {
            out->source = "multiboot2-copy";
            return 0;
        }
    }
    if (bi && bi->rsdp_paddr) {
        uint64_t a = bi->rsdp_paddr;
        if (a >= limit || limit - a < RSDP_V1_LEN) {
            acpi_diag(d, "PVH rsdp_paddr 0x%llx: not below limit 0x%llx", (unsigned long long)a,
                      (unsigned long long)limit);
        } else {
            size_t avail = limit - a > SIZE_MAX ? SIZE_MAX : (size_t)(limit - a);
            if (acpi_rsdp_parse(acpi_ptr(a), avail, "PVH rsdp_paddr", out, d) == 0) {
                out->source = "pvh-rsdp-paddr";
                out->paddr = a;
                return 0;
            }
        }
    }
    if (acpi_rsdp_scan(scan, nscan, out, d) == 0)
        return 0;
    acpi_diag(d, "no valid RSDP (loader copy, PVH address, %zu scan range(s))", nscan);
    return -1;
}

/*
 * The table at addr when its 36-byte header and its Length lie below limit,
 * with *len set; otherwise NULL after a diagnostic naming `what`.
 */
static const uint8_t *table_at(uint64_t addr, uint64_t limit, const char *what, uint32_t *len,
                               struct acpi_diag *d)
{
    if (addr == 0) {
        acpi_diag(d, "%s: address 0", what);
        return NULL;
    }
    if (addr >= limit || limit - addr < ACPI_HDR_LEN) {
        acpi_diag(d, "%s at 0x%llx: header not below limit 0x%llx", what, (unsigned long long)addr,
                  (unsigned long long)limit);
        return NULL;
    }
    const uint8_t *t = acpi_ptr(addr);
    uint32_t l = acpi_rd32(t, 4);
    if (l < ACPI_HDR_LEN) {
        acpi_diag(d, "%s at 0x%llx: Length %u < 36", what, (unsigned long long)addr, l);
        return NULL;
    }
    if (l > limit - addr) {
        acpi_diag(d, "%s at 0x%llx: Length %u runs past limit 0x%llx", what,
                  (unsigned long long)addr, l, (unsigned long long)limit);
        return NULL;
    }
    *len = l;
    return t;
}

/* List the table t (len bytes, already bounded); a bad checksum is reported. */
static void list_add(struct acpi_tables *ts, const uint8_t *t, uint64_t addr, uint32_t len,
                     struct acpi_diag *d)
{
    if (ts->n >= ACPI_TABLES_MAX) {
        ts->dropped++;
        return;
    }
    struct acpi_table *e = &ts->t[ts->n++];
    id_copy(e->sig, t, 4);
    e->revision = acpi_rd8(t, 8);
    e->length = len;
    e->addr = addr;
    e->checksum_ok = acpi_checksum(t, len) == 0;
    if (!e->checksum_ok)
        acpi_diag(d, "%s at 0x%llx: bad checksum", e->sig, (unsigned long long)addr);
}

int acpi_table_list(struct acpi_tables *ts, uint64_t addr, uint64_t limit, const char *sig,
                    struct acpi_diag *d)
{
    uint32_t len;
    const uint8_t *t = table_at(addr, limit, sig, &len, d);
    if (!t)
        return -1;
    if (memcmp(t, sig, 4) != 0) {
        char found[5];
        id_copy(found, t, 4);
        acpi_diag(d, "%s at 0x%llx: signature is \"%s\"", sig, (unsigned long long)addr, found);
        return -1;
    }
    list_add(ts, t, addr, len, d);
    return 0;
}

/* A root table (sig "XSDT" or "RSDT") that is wholly valid, or NULL. */
static const uint8_t *root_at(uint64_t addr, const char *sig, uint64_t limit, uint32_t *len,
                              struct acpi_diag *d)
{
    const uint8_t *t = table_at(addr, limit, sig, len, d);
    if (t && acpi_table_check(t, *len, sig, d) == 0)
        return NULL;
    return t;
}

int acpi_tables_walk(const struct acpi_rsdp *rsdp, uint64_t limit, struct acpi_tables *out,
                     struct acpi_diag *d)
{
    memset(out, 0, sizeof *out);
    uint32_t len = 0;
    const uint8_t *root = NULL;
    if (rsdp->xsdt) {
        root = root_at(rsdp->xsdt, "XSDT", limit, &len, d);
        if (!root)
            acpi_diag(d, "XSDT unusable: falling back to the RSDT");
    }
    size_t esize = 8;
    if (root) {
        out->xsdt = true;
        out->root = rsdp->xsdt;
    } else {
        esize = 4;
        root = root_at(rsdp->rsdt, "RSDT", limit, &len, d);
        if (!root) {
            acpi_diag(d, "no usable RSDT or XSDT");
            return -1;
        }
        out->root = rsdp->rsdt;
    }
    const char *name = out->xsdt ? "XSDT" : "RSDT";
    list_add(out, root, out->root, len, d);
    size_t body = len - ACPI_HDR_LEN;
    if (body % esize)
        acpi_diag(d, "%s: %zu trailing byte(s) ignored", name, body % esize);
    for (size_t i = 0; i < body / esize; i++) {
        size_t off = ACPI_HDR_LEN + i * esize;
        uint64_t a = esize == 8 ? acpi_rd64(root, off) : acpi_rd32(root, off);
        char what[24];
        hz_snprintf(what, sizeof what, "%s entry %zu", name, i);
        uint32_t tl;
        const uint8_t *t = table_at(a, limit, what, &tl, d);
        if (t)
            list_add(out, t, a, tl, d);
    }
    return 0;
}

const struct acpi_table *acpi_find_table(const struct acpi_tables *t, const char *sig, size_t index)
{
    for (size_t i = 0; i < t->n; i++)
        if (memcmp(t->t[i].sig, sig, 4) == 0 && index-- == 0)
            return &t->t[i];
    return NULL;
}

bool acpi_table_intact(const struct acpi_table *t)
{
    return acpi_checksum(acpi_ptr(t->addr), t->length) == 0;
}

const uint8_t *acpi_next_entry(const uint8_t *t, uint32_t len, size_t *off, const char *what,
                               struct acpi_diag *d)
{
    if (*off >= len)
        return NULL;
    if (len - *off < 2) {
        acpi_diag(d, "%s: %zu byte(s) left at offset %zu, an entry needs 2", what, len - *off,
                  *off);
        return NULL;
    }
    const uint8_t *e = t + *off;
    if (e[1] < 2 || e[1] > len - *off) {
        acpi_diag(d, "%s: entry type %u at offset %zu has Length %u (table ends at %u)", what, e[0],
                  *off, e[1], len);
        return NULL;
    }
    *off += e[1];
    return e;
}
