/*
 * tests/unit/test_numa.c - the SLIT parser (ACPI 6.5 §5.2.17: length,
 * locality count, diagonal and reserved entries), acpi_parse() picking the
 * SLIT up, and numa_build(): nodes from the SRAT (§5.2.16), memory-only and
 * CPU-only nodes, the SLIT's distances mapped by proximity domain, and the
 * one node of a machine without an SRAT or with one that cannot be trusted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "arch/acpi.h"
#include "arch/numa.h"
#include "tests/unit/acpi_build.h"

#define GiB (1ull << 30)

static struct acpi_diag d;
static struct acpi_slit slit;
static struct acpi_info ai;
static struct numa_topo t;

static int setup(void **state)
{
    memset(&d, 0, sizeof d);
    memset(&ai, 0, sizeof ai);
    return arena_setup(state);
}

/* A SLIT of n localities at the end of guarded memory: Entry[i][j] is
 * 10 + 10 * |i - j| unless m gives the n * n entries; checksummed. */
static uint8_t *slit_table(uint64_t n, const uint8_t *m, uint32_t len)
{
    uint8_t *s = gtable("SLIT", 1, len);
    if (len >= 44)
        wr64(s + 36, n);
    for (uint64_t i = 0; i < n && 44 + i * n < len; i++)
        for (uint64_t j = 0; j < n && 44 + i * n + j < len; j++)
            s[44 + i * n + j] = m ? m[i * n + j] : (uint8_t)(10 + 10 * (i > j ? i - j : j - i));
    table_sum(s);
    return s;
}

static void test_slit_good(void **state)
{
    static const uint8_t m[9] = {10, 21, 255, 31, 10, 17, 255, 17, 10};
    uint8_t *s = slit_table(3, m, 44 + 9);
    assert_int_equal(acpi_slit_parse(s, 53, &slit, &d), 0);
    assert_true(slit.present);
    assert_false(slit.rejected);
    assert_int_equal(slit.n, 3);
    assert_int_equal(slit.dist[0][1], 21); /* asymmetric: row is the source */
    assert_int_equal(slit.dist[1][0], 31);
    assert_int_equal(slit.dist[0][2], 255); /* no path */
    assert_int_equal(slit.dist[2][2], 10);
    assert_int_equal(d.n, 0);

    s = slit_table(ACPI_SLIT_MAX, NULL, 44 + ACPI_SLIT_MAX * ACPI_SLIT_MAX);
    assert_int_equal(acpi_slit_parse(s, 44 + ACPI_SLIT_MAX * ACPI_SLIT_MAX, &slit, &d), 0);
    assert_int_equal(slit.n, ACPI_SLIT_MAX);
    assert_int_equal(slit.dist[ACPI_SLIT_MAX - 1][0], 10 + 10 * (ACPI_SLIT_MAX - 1));
}

/* Each bad table: -1, rejected, nothing kept, and this diagnostic. */
static void bad(const uint8_t *s, size_t avail, const char *msg)
{
    memset(&d, 0, sizeof d);
    assert_int_equal(acpi_slit_parse(s, avail, &slit, &d), -1);
    assert_false(slit.present);
    assert_true(slit.rejected);
    assert_int_equal(slit.n, 0);
    assert_int_equal(slit.dist[0][0], 0);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.msg[0], msg);
}

static void test_slit_bad(void **state)
{
    bad(slit_table(0, NULL, 40), 40, "SLIT: Length 40 < 44");
    bad(slit_table(0, NULL, 44), 44, "SLIT: 0 localities, outside 1..16");
    bad(slit_table(17, NULL, 44 + 17 * 17), 44 + 17 * 17, "SLIT: 17 localities, outside 1..16");
    bad(slit_table(1ull << 40, NULL, 48), 48, "SLIT: 1099511627776 localities, outside 1..16");
    bad(slit_table(2, NULL, 47), 47, "SLIT: Length 47, but 2 localities need 44 + 4 = 48");
    bad(slit_table(2, NULL, 49), 49, "SLIT: Length 49, but 2 localities need 44 + 4 = 48");
    bad(slit_table(3, (const uint8_t[]){10, 20, 20, 20, 11, 20, 20, 20, 10}, 53), 53,
        "SLIT: Entry[1][1] = 11, not 10 (local)");
    bad(slit_table(2, (const uint8_t[]){10, 9, 20, 10}, 48), 48,
        "SLIT: Entry[0][1] = 9, a reserved value (0-9)");
    bad(slit_table(2, (const uint8_t[]){10, 20, 0, 10}, 48), 48,
        "SLIT: Entry[1][0] = 0, a reserved value (0-9)");
    uint8_t *s = slit_table(2, NULL, 48);
    s[9] ^= 1;
    memset(&d, 0, sizeof d);
    assert_int_equal(acpi_slit_parse(s, 48, &slit, &d), -1);
    assert_true(slit.rejected);
    assert_true(diag_has(&d, "bad checksum"));
    s = slit_table(2, NULL, 48); /* Length past what may be read */
    memset(&d, 0, sizeof d);
    assert_int_equal(acpi_slit_parse(s, 47, &slit, &d), -1);
    assert_true(diag_has(&d, "Length 48 outside 36..47"));
}

/* acpi_parse() lists and parses the SLIT; a listed SLIT with a bad
 * checksum is not parsed and marked rejected. */
static void test_parse_picks_slit(void **state)
{
    struct bootinfo bi;
    memset(&bi, 0, sizeof bi);
    uint8_t *s = table_new("SLIT", 1, 48);
    wr64(s + 36, 2);
    memcpy(s + 44, (const uint8_t[]){10, 20, 20, 10}, 4);
    table_sum(s);
    uint8_t *x = root_new("XSDT", (uint64_t[]){addr(s)}, 1);
    rsdp_fill(bi.rsdp, 2, 0, addr(x));
    bi.rsdp_len = 36;
    assert_int_equal(acpi_parse(&ai, &bi, NULL, 0, 0x80000000u), 0);
    assert_true(ai.slit.present);
    assert_int_equal(ai.slit.dist[1][0], 20);
    char buf[200];
    acpi_summary(&ai, buf, sizeof buf);
    assert_non_null(strstr(buf, "; SLIT 2 localities"));
    s[44] = 11; /* checksum now wrong */
    assert_int_equal(acpi_parse(&ai, &bi, NULL, 0, 0x80000000u), 0);
    assert_false(ai.slit.present);
    assert_true(ai.slit.rejected);
    acpi_summary(&ai, buf, sizeof buf);
    assert_non_null(strstr(buf, "; SLIT rejected"));
}

static void cpu(uint32_t apic, uint32_t dom, bool en)
{
    ai.srat.cpu[ai.srat.ncpu++] = (struct acpi_cpu_affinity){apic, dom, false, en};
}

static void mem(uint64_t base, uint64_t len, uint32_t dom, uint32_t flags)
{
    ai.srat.mem[ai.srat.nmem++] =
        (struct acpi_mem_affinity){base, len, dom, flags & 1, (flags & 2) != 0, (flags & 4) != 0};
}

/* Domains 0 and 2 with two CPUs each, domain 5 memory only (non-volatile,
 * hot-pluggable), domain 7 CPUs only; a disabled CPU and a disabled range
 * in domain 6, which is therefore no node. */
static void four_nodes(void)
{
    ai.ok = ai.srat.present = true;
    cpu(0, 0, true);
    cpu(1, 0, true);
    cpu(2, 2, true);
    cpu(3, 2, true);
    cpu(4, 7, true);
    cpu(5, 6, false);
    mem(4 * GiB, 2 * GiB, 2, 1);
    mem(0, 0xa0000, 0, 1);
    mem(0x100000, 2 * GiB - 0x100000, 0, 1);
    mem(6 * GiB, GiB, 5, 7);
    mem(8 * GiB, GiB, 6, 0);
}

static void test_build_nodes(void **state)
{
    four_nodes();
    assert_int_equal(numa_build(&ai, &t, &d), 0);
    assert_int_equal(d.n, 0);
    assert_true(t.from_srat);
    assert_false(t.slit);
    assert_null(t.why);
    assert_int_equal(t.n, 4);
    static const uint32_t dom[4] = {0, 2, 5, 7};
    static const unsigned ncpus[4] = {2, 2, 0, 1};
    static const uint64_t bytes[4] = {2 * GiB - 0x100000 + 0xa0000, 2 * GiB, GiB, 0};
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(t.node[i].domain, dom[i]);
        assert_int_equal(t.node[i].ncpus, ncpus[i]);
        assert_int_equal(t.node[i].mem_bytes, bytes[i]);
        assert_int_equal(t.node[i].memory_only, i == 2);
        assert_int_equal(t.node[i].cpu_only, i == 3);
        for (unsigned j = 0; j < 4; j++)
            assert_int_equal(t.dist[i][j], i == j ? 10 : 20);
    }
    assert_int_equal(t.node[0].nrange, 2);
    assert_int_equal(t.node[0].range[0].base, 0); /* sorted by base */
    assert_int_equal(t.node[0].range[1].base, 0x100000);
    assert_true(t.node[2].range[0].hotpluggable);
    assert_true(t.node[2].range[0].nonvolatile);
    assert_false(t.node[1].range[0].nonvolatile);
    assert_int_equal(numa_node_of_domain(&t, 5), 2);
    assert_int_equal(numa_node_of_domain(&t, 6), -1); /* disabled entries only */
    assert_int_equal(numa_node_of_domain(&t, UINT32_MAX), -1);
    assert_int_equal(numa_node_of_pa(&t, 0x9ffff), 0);
    assert_int_equal(numa_node_of_pa(&t, 0xa0000), -1); /* the hole */
    assert_int_equal(numa_node_of_pa(&t, 6 * GiB - 1), 1);
    assert_int_equal(numa_node_of_pa(&t, 6 * GiB), 2);
    assert_int_equal(numa_node_of_pa(&t, 8 * GiB), -1); /* disabled */
}

/* numa_mark_present: a hot-pluggable range counts what the memory map
 * lists of it; other ranges count whole (the 640K-1M hole and a map gap in
 * node 0 change nothing). */
static void test_mark_present(void **state)
{
    static struct memmap map;
    four_nodes();
    assert_int_equal(numa_build(&ai, &t, &d), 0);
    map.n = 0;
    map.r[map.n++] = (struct mem_range){0, 0x9fc00, MEM_USABLE};
    map.r[map.n++] = (struct mem_range){0x100000, GiB, MEM_USABLE}; /* half of node 0 */
    map.r[map.n++] = (struct mem_range){4 * GiB, 6 * GiB, MEM_USABLE};
    map.r[map.n++] = (struct mem_range){6 * GiB, 6 * GiB + GiB / 2, MEM_RESERVED};
    numa_mark_present(&t, &map);
    assert_int_equal(t.node[0].mem_bytes, 2 * GiB - 0x100000 + 0xa0000);
    assert_int_equal(t.node[0].absent_bytes, 0);
    assert_int_equal(t.node[2].range[0].present, GiB / 2); /* domain 5: hot-pluggable */
    assert_int_equal(t.node[2].mem_bytes, GiB / 2);
    assert_int_equal(t.node[2].absent_bytes, GiB / 2);
    assert_true(t.node[2].memory_only);
    map.n = 3; /* the slot empty: nothing of domain 5 present */
    numa_mark_present(&t, &map);
    assert_int_equal(t.node[2].mem_bytes, 0);
    assert_int_equal(t.node[2].absent_bytes, GiB);
    assert_false(t.node[2].memory_only);
    assert_false(t.node[2].cpu_only); /* no CPUs either */
    assert_true(t.node[3].cpu_only);
}

static void test_build_slit(void **state)
{
    four_nodes();
    ai.slit.present = true;
    ai.slit.n = 8;
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j++)
            ai.slit.dist[i][j] = (uint8_t)(i == j ? 10 : 10 * i + j + 10);
    assert_int_equal(numa_build(&ai, &t, &d), 0);
    assert_true(t.slit);
    assert_int_equal(t.dist[0][1], 12); /* domain 0 to domain 2 */
    assert_int_equal(t.dist[1][0], 30); /* domain 2 to domain 0 */
    assert_int_equal(t.dist[2][3], 10 * 5 + 7 + 10);
    assert_int_equal(t.dist[3][3], 10);

    ai.slit.n = 7; /* domain 7 is beyond it */
    assert_int_equal(numa_build(&ai, &t, &d), 1);
    assert_int_equal(t.n, 1);
    assert_false(t.from_srat);
    assert_string_equal(t.why, "SLIT does not cover the SRAT");
    assert_string_equal(d.msg[0], "numa: SLIT has 7 localities, SRAT domain 7 is beyond them");
    assert_int_equal(d.n, 1);

    memset(&d, 0, sizeof d);
    ai.slit = (struct acpi_slit){.rejected = true};
    assert_int_equal(numa_build(&ai, &t, &d), 1);
    assert_string_equal(t.why, "SLIT rejected");
    assert_int_equal(d.n, 0); /* the SLIT parser said why */
}

/* The one node: every CPU the MADT enables, every address, every domain. */
static void assert_one_node(const char *why, unsigned ncpus)
{
    assert_int_equal(t.n, 1);
    assert_false(t.from_srat);
    assert_false(t.slit);
    assert_string_equal(t.why, why);
    assert_int_equal(t.node[0].ncpus, ncpus);
    assert_int_equal(t.node[0].nrange, 1);
    assert_int_equal(t.node[0].range[0].base, 0);
    assert_int_equal(t.node[0].range[0].length, UINT64_MAX);
    assert_int_equal(t.dist[0][0], 10);
    assert_int_equal(t.dist[0][1], 0);
    assert_int_equal(numa_node_of_pa(&t, 123 * GiB), 0);
    assert_int_equal(numa_node_of_domain(&t, UINT32_MAX), 0);
}

static void test_build_one_node(void **state)
{
    assert_int_equal(numa_build(NULL, &t, &d), 1);
    assert_one_node("no SRAT", 1);
    assert_int_equal(d.n, 0);
    assert_int_equal(numa_build(&ai, NULL, &d), -1);
    ai.ok = ai.madt.present = true;
    ai.madt.ncpu_enabled = 3;
    assert_int_equal(numa_build(&ai, &t, &d), 1);
    assert_one_node("no SRAT", 3);
    ai.tables.t[ai.tables.n++] = (struct acpi_table){.sig = "SRAT", .length = 44};
    assert_int_equal(numa_build(&ai, &t, &d), 1); /* listed, not parsed (Length 44 < 48) */
    assert_one_node("SRAT rejected", 3);
    ai.tables.n = 0;

    struct {
        const char *why, *msg;
    } cases[] = {
        {"SRAT without memory", "numa: the SRAT lists no enabled memory"},
        {"too many domains", "numa: more than 8 proximity domains"},
        {"too many ranges", "numa: domain 1 has more than 16 memory ranges"},
        {"SRAT ranges overlap",
         "numa: SRAT memory 0x40000000 (domain 0) and 0x7ff00000 (domain 1) overlap"},
        {"SRAT entries dropped", "numa: the SRAT has more entries than kept (0 CPU, 1 memory "
                                 "dropped)"},
        {"SRAT range past 2^64", "numa: SRAT memory 0xfffffffffffff000 + 0x2000 passes 2^64"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(&ai.srat, 0, sizeof ai.srat);
        memset(&d, 0, sizeof d);
        ai.srat.present = true;
        cpu(0, 0, true);
        if (c == 0)
            mem(0, GiB, 0, 0); /* disabled */
        for (uint32_t i = 0; c == 1 && i < 9; i++)
            mem(i * GiB, GiB, i, 1);
        for (uint32_t i = 0; c == 2 && i < 17; i++)
            mem(i * GiB, GiB, 1, 1);
        if (c == 3) {
            mem(GiB, GiB, 0, 1);
            mem(2 * GiB - 0x100000, GiB, 1, 1);
        }
        if (c == 4) {
            mem(0, GiB, 0, 1);
            ai.srat.mem_dropped = 1;
        }
        if (c == 5)
            mem(UINT64_MAX - 0xfff, 0x2000, 0, 1);
        assert_int_equal(numa_build(&ai, &t, &d), 1);
        assert_one_node(cases[c].why, 3);
        assert_int_equal(d.n, 1);
        assert_string_equal(d.msg[0], cases[c].msg);
    }
    /* Eight domains are the most kept; CPUs in a ninth also count. */
    memset(&ai.srat, 0, sizeof ai.srat);
    ai.srat.present = true;
    for (uint32_t i = 0; i < 8; i++)
        mem(i * GiB, GiB, i, 1);
    assert_int_equal(numa_build(&ai, &t, &d), 0);
    assert_int_equal(t.n, 8);
    assert_true(t.node[7].memory_only);
    cpu(0, 8, true);
    assert_int_equal(numa_build(&ai, &t, &d), 1);
    assert_string_equal(t.why, "too many domains");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_slit_good, setup),
        cmocka_unit_test_setup(test_slit_bad, setup),
        cmocka_unit_test_setup(test_parse_picks_slit, setup),
        cmocka_unit_test_setup(test_build_nodes, setup),
        cmocka_unit_test_setup(test_build_slit, setup),
        cmocka_unit_test_setup(test_mark_present, setup),
        cmocka_unit_test_setup(test_build_one_node, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
