/*
 * fuzz/fuzz_slit.c - libFuzzer harness for the SLIT parser (arch/acpi_slit.c,
 * ACPI 6.5 §5.2.17) and the NUMA topology built on it and the SRAT
 * (arch/numa.c numa_build, §5.2.16).
 *
 * Input: u8 flags, u16 SLIT length, the SLIT's bytes, then the SRAT's bytes
 * (the rest). Flags bit 0 fixes the SLIT's checksum and bit 1 sets its
 * Length to its size (so the fuzzer gets past the header to the locality
 * count, Length rule and entries); bits 2 and 3 do the same for the SRAT;
 * bit 4 gives the acpi_info a MADT with (flags >> 5) + 1 enabled CPUs.
 * Each table is copied to a heap buffer of exactly its size, so a read past
 * its end is an ASan report.
 *
 * Checks: the SLIT is present exactly when parsed, with 1..16 localities,
 * Length 44 + n*n, the diagonal 10, every entry >= 10 and equal to the
 * table's byte; a rejected one keeps nothing. The topology: 1..8 nodes;
 * from the SRAT exactly when numa_build returns 0 (never with a rejected
 * SLIT); nodes in strictly ascending domain order, each with a CPU or a
 * range; memory_only and cpu_only as their counts say; ranges sorted,
 * summing to mem_bytes, each an enabled SRAT range of the node's domain and
 * found again by numa_node_of_pa; numa_node_of_domain finds each node; the
 * CPUs are the SRAT's enabled ones; distances from the SLIT by domain, or
 * 10/20; one node (why set) otherwise, holding every address.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/acpi.h"
#include "arch/numa.h"
#include "fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct acpi_info ai;
static struct numa_topo t;

/* A heap copy of n bytes at p (n may be 0), with fixes by flags. */
static uint8_t *table_copy(const uint8_t *p, size_t n, bool sum, bool length)
{
    uint8_t *c = malloc(n ? n : 1);
    FUZZ_CHECK(c);
    memcpy(c, p, n);
    if (length && n >= 8) {
        uint32_t len = (uint32_t)n;
        memcpy(c + 4, &len, 4);
    }
    if (sum && n >= 10) {
        c[9] = 0;
        c[9] = (uint8_t)(0 - acpi_checksum(c, n));
    }
    return c;
}

static void check_diag(const struct acpi_diag *d)
{
    FUZZ_CHECK(d->n <= ACPI_DIAG_MAX);
    for (size_t i = 0; i < d->n; i++)
        FUZZ_CHECK(memchr(d->msg[i], 0, ACPI_DIAG_LEN));
}

static void check_slit(int rc, const struct acpi_slit *s, const uint8_t *p, size_t n)
{
    FUZZ_CHECK(rc == 0 || rc == -1);
    FUZZ_CHECK((rc == 0) == s->present && s->present != s->rejected);
    if (!s->present) {
        FUZZ_CHECK(s->n == 0);
        for (size_t i = 0; i < ACPI_SLIT_MAX * ACPI_SLIT_MAX; i++)
            FUZZ_CHECK(s->dist[i / ACPI_SLIT_MAX][i % ACPI_SLIT_MAX] == 0);
        return;
    }
    uint32_t len;
    memcpy(&len, p + 4, 4);
    FUZZ_CHECK(s->n >= 1 && s->n <= ACPI_SLIT_MAX && len == 44 + s->n * s->n && len <= n);
    for (uint32_t i = 0; i < s->n; i++)
        for (uint32_t j = 0; j < s->n; j++) {
            FUZZ_CHECK(s->dist[i][j] == p[44 + i * s->n + j]);
            FUZZ_CHECK(i == j ? s->dist[i][j] == 10 : s->dist[i][j] >= 10);
        }
}

/* The range is an enabled SRAT memory entry of this domain. */
static bool srat_has(const struct acpi_srat *s, uint32_t dom, const struct numa_range *r)
{
    for (size_t i = 0; i < s->nmem; i++)
        if (s->mem[i].enabled && s->mem[i].domain == dom && s->mem[i].base == r->base &&
            s->mem[i].length == r->length && s->mem[i].hotpluggable == r->hotpluggable &&
            s->mem[i].nonvolatile == r->nonvolatile)
            return true;
    return false;
}

static void check_topo(int rc)
{
    FUZZ_CHECK(rc == 0 || rc == 1);
    FUZZ_CHECK(t.n >= 1 && t.n <= NUMA_MAX_NODES);
    FUZZ_CHECK((rc == 0) == t.from_srat && (t.why == NULL) == t.from_srat);
    if (!t.from_srat) {
        FUZZ_CHECK(t.n == 1 && !t.slit && t.node[0].nrange == 1 && t.dist[0][0] == 10);
        FUZZ_CHECK(t.node[0].range[0].base == 0 && t.node[0].range[0].length == UINT64_MAX);
        FUZZ_CHECK(numa_node_of_pa(&t, UINT64_MAX) == 0 && numa_node_of_domain(&t, 77) == 0);
        return;
    }
    FUZZ_CHECK(ai.srat.present && !ai.slit.rejected && t.slit == ai.slit.present);
    unsigned cpus = 0, want_cpus = 0;
    for (size_t i = 0; i < ai.srat.ncpu; i++)
        want_cpus += ai.srat.cpu[i].enabled;
    for (unsigned i = 0; i < t.n; i++) {
        const struct numa_node *x = &t.node[i];
        FUZZ_CHECK(i == 0 || t.node[i - 1].domain < x->domain);
        FUZZ_CHECK(x->ncpus || x->nrange);
        FUZZ_CHECK(x->memory_only == (x->ncpus == 0) && x->cpu_only == (x->nrange == 0));
        FUZZ_CHECK(numa_node_of_domain(&t, x->domain) == (int)i);
        FUZZ_CHECK(x->nrange <= NUMA_MAX_RANGES);
        cpus += x->ncpus;
        uint64_t sum = 0;
        for (size_t k = 0; k < x->nrange; k++) {
            const struct numa_range *r = &x->range[k];
            FUZZ_CHECK(k == 0 || x->range[k - 1].base <= r->base);
            FUZZ_CHECK(srat_has(&ai.srat, x->domain, r));
            FUZZ_CHECK(r->length > 0 && r->base + r->length > r->base);
            FUZZ_CHECK(numa_node_of_pa(&t, r->base) == (int)i);
            FUZZ_CHECK(numa_node_of_pa(&t, r->base + r->length - 1) == (int)i);
            sum += r->length;
        }
        FUZZ_CHECK(sum == x->mem_bytes);
        for (unsigned j = 0; j < t.n; j++) {
            uint8_t want = t.slit ? ai.slit.dist[x->domain][t.node[j].domain] : i == j ? 10 : 20;
            FUZZ_CHECK(t.dist[i][j] == want);
        }
    }
    FUZZ_CHECK(cpus == want_cpus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    unsigned flags = data[0];
    size_t nslit = (size_t)data[1] | (size_t)data[2] << 8;
    if (nslit > size - 3)
        nslit = size - 3;
    size_t nsrat = size - 3 - nslit;
    uint8_t *slit = table_copy(data + 3, nslit, flags & 1, flags & 2);
    uint8_t *srat = table_copy(data + 3 + nslit, nsrat, flags & 4, flags & 8);

    memset(&ai, 0, sizeof ai);
    struct acpi_diag d = {0};
    int rc = acpi_slit_parse(slit, nslit, &ai.slit, &d);
    check_slit(rc, &ai.slit, slit, nslit);
    acpi_srat_parse(srat, nsrat, &ai.srat, &d);
    ai.ok = true;
    ai.madt.present = flags & 16;
    ai.madt.ncpu_enabled = ai.madt.present ? (flags >> 5) + 1 : 0;
    rc = numa_build(&ai, &t, &d);
    check_topo(rc);
    check_diag(&d);
    free(slit);
    free(srat);
    return 0;
}
