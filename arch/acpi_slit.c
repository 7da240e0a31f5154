/*
 * arch/acpi_slit.c - the System Locality Information Table, signature
 * "SLIT" (ACPI 6.5 §5.2.17): the relative distance between every pair of
 * system localities (proximity domains of the SRAT, §5.2.16).
 *
 * Layout: header (36), Number of System Localities u64 at 36, then the
 * n x n matrix of one-byte entries from offset 44, Entry[i][j] at
 * 44 + i * n + j. The diagonal is normalised to 10; 0-9 are reserved;
 * 255 means locality j cannot be reached from i. A table that breaks any
 * of this is not used: the caller then cannot trust the distances.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/kstring.h"

#define SLIT_ENTRIES 44 /* offset of Entry[0][0] */
#define SLIT_LOCAL 10   /* Entry[i][i]; 255 (no path) passes as any other distance */

/* Mark the table rejected after a diagnostic; returns -1. */
static int reject(struct acpi_slit *out)
{
    memset(out, 0, sizeof *out);
    out->rejected = true;
    return -1;
}

int acpi_slit_parse(const void *p, size_t avail, struct acpi_slit *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    uint32_t len = acpi_table_check(p, avail, "SLIT", d);
    if (len == 0)
        return reject(out);
    if (len < SLIT_ENTRIES) {
        acpi_diag(d, "SLIT: Length %u < 44", len);
        return reject(out);
    }
    uint64_t n = acpi_rd64(t, 36);
    if (n == 0 || n > ACPI_SLIT_MAX) {
        acpi_diag(d, "SLIT: %llu localities, outside 1..%u", (unsigned long long)n, ACPI_SLIT_MAX);
        return reject(out);
    }
    if (len != SLIT_ENTRIES + n * n) {
        acpi_diag(d, "SLIT: Length %u, but %llu localities need 44 + %llu = %llu", len,
                  (unsigned long long)n, (unsigned long long)(n * n),
                  (unsigned long long)(SLIT_ENTRIES + n * n));
        return reject(out);
    }
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++) {
            uint8_t v = acpi_rd8(t, SLIT_ENTRIES + i * n + j);
            if (i == j ? v != SLIT_LOCAL : v < SLIT_LOCAL) {
                acpi_diag(d, "SLIT: Entry[%u][%u] = %u, %s", i, j, v,
                          i == j ? "not 10 (local)" : "a reserved value (0-9)");
                return reject(out);
            }
            out->dist[i][j] = v;
        }
    }
    out->n = (uint32_t)n;
    out->present = true;
    return 0;
}
