/*
 * tests/unit/test_mtrr.c - mm/mtrr.c: MTRR range types for QEMU/SeaBIOS-like
 * setups (WB default, UC PCI hole, fixed ranges below 1 MiB), large pages
 * that span two types ("mixed"), disabled MTRRs, overlap precedence (UC
 * wins, WT + WB -> WT, others undefined), malformed registers, the PAT and
 * the PAT x MTRR table (SDM Vol. 3A Table 11-7), and the layout text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mm/mtrr.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)
#define V MTRR_PHYSMASK_V

static struct mtrr_state S;

/* The setup SeaBIOS gives a QEMU guest: MTRRCAP 0x508 (VCNT 8, FIX, WC),
 * DEF_TYPE E | FE | WB, fixed WB to 0xa0000, UC VGA window, WP ROM area,
 * variable range 0 UC over [hole_base, 4 GiB); MAXPHYADDR 40. */
static struct mtrr_msrs qemu(uint64_t hole_base)
{
    struct mtrr_msrs m = {.has_mtrr = true, .has_pat = true, .maxphyaddr = 40};
    m.cap = 0x508;
    m.def_type = 0xc06;
    m.fixed[0] = m.fixed[1] = 0x0606060606060606ULL;
    m.fixed[2] = 0;
    for (int i = 3; i < MTRR_FIXED_MSRS; i++)
        m.fixed[i] = 0x0505050505050505ULL;
    m.physbase[0] = hole_base | MC_UC;
    m.physmask[0] = (~(4 * GiB - hole_base - 1) & ((1ULL << 40) - 1) & ~0xfffULL) | V;
    m.pat = PAT_POWER_ON;
    return m;
}

static struct mtrr_range q(uint64_t base, uint64_t end)
{
    struct mtrr_range r;
    assert_int_equal(mtrr_range_type(&S, base, end, &r), MTRR_OK);
    return r;
}

static void test_qemu_fixed_and_default(void **state)
{
    struct mtrr_msrs m = qemu(0xc0000000);
    assert_int_equal(m.physmask[0], 0xffc0000800);
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0, 0x1000).type, MC_WB);
    assert_int_equal(q(0xa0000, 0xc0000).type, MC_UC);
    assert_int_equal(q(0xc0000, 0x100000).type, MC_WP);
    assert_int_equal(q(0xff000, 0x100000).type, MC_WP);
    assert_int_equal(q(0x100000, GiB).type, MC_WB);
    struct mtrr_range r = q(0x9f000, 0xa1000);
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.first_type, MC_WB);
    assert_int_equal(r.split, 0xa0000);
    assert_int_equal(r.split_type, MC_UC);
    /* A 2 MiB page over the first MiB spans WB, UC and WP: §11.11.9. */
    r = q(0, 2 * MiB);
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.split, 0xa0000);
    r = q(0xc0000, 2 * MiB);
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.first_type, MC_WP);
    assert_int_equal(r.split, 0x100000);
    assert_int_equal(r.split_type, MC_WB);
    assert_int_equal(r.overlap[0], -1);
    assert_int_equal(q(2 * MiB, 4 * MiB).type, MC_WB);
}

static void test_qemu_pci_hole(void **state)
{
    struct mtrr_msrs m = qemu(0xc0000000);
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(2 * GiB, 3 * GiB).type, MC_WB);
    assert_int_equal(q(3 * GiB, 4 * GiB).type, MC_UC);
    assert_int_equal(q(4 * GiB, 5 * GiB).type, MC_WB);
    assert_int_equal(q(1ULL << 39, 1ULL << 40).type, MC_WB); /* up to 2^MAXPHYADDR */
    struct mtrr_range r = q(0xa0000000, 0xe0000000);         /* 1 GiB crossing in */
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.split, 0xc0000000);
    assert_int_equal(r.split_type, MC_UC);
    r = q(0xffe00000, 0x100200000); /* 2 MiB leaving the hole */
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.first_type, MC_UC);
    assert_int_equal(r.split, 4 * GiB);
    assert_int_equal(r.split_type, MC_WB);
    /* SeaBIOS with 3.5 GiB of low RAM: the hole starts at 0xe0000000, so
     * the aligned 1 GiB page [3 GiB, 4 GiB) is mixed. */
    m = qemu(0xe0000000);
    assert_int_equal(m.physmask[0], 0xffe0000800);
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    r = q(3 * GiB, 4 * GiB);
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.first_type, MC_WB);
    assert_int_equal(r.split, 0xe0000000);
    assert_int_equal(mtrr_pat0_type(&S, 3 * GiB, 4 * GiB), MC_MIXED);
    assert_int_equal(mtrr_pat0_type(&S, 0xe0000000, 4 * GiB), MC_UC);
    assert_int_equal(mtrr_pat0_type(&S, 0, 0x1000), MC_WB);
    assert_int_equal(mtrr_pat0_type(&S, 0xc0000, 0xc1000), MC_WP);
    /* Range errors. */
    assert_int_equal(mtrr_range_type(&S, GiB, GiB, &r), MTRR_EINVAL);
    assert_int_equal(mtrr_range_type(&S, 2 * GiB, GiB, &r), MTRR_EINVAL);
    assert_int_equal(mtrr_range_type(&S, 0, (1ULL << 40) + 4096, &r), MTRR_EINVAL);
    assert_int_equal(mtrr_range_type(&S, 0, 4096, NULL), MTRR_EINVAL);
    assert_int_equal(mtrr_pat0_type(&S, 5, 5), MTRR_EINVAL);
}

static void test_disabled_and_absent(void **state)
{
    struct mtrr_msrs m = qemu(0xc0000000);
    m.def_type = 0x406; /* FE set, E clear: FE has no effect */
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0, 1ULL << 40).type, MC_UC);
    assert_int_equal(mtrr_pat0_type(&S, 4 * GiB, 5 * GiB), MC_UC);
    m.def_type = 0x806; /* E set, FE clear: variable ranges cover the first MiB */
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0, 2 * MiB).type, MC_WB);
    m.def_type = 0xc06;
    m.cap = 0x008; /* FE set but no fixed ranges on this CPU */
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0xa0000, 0xc0000).type, MC_WB);
    /* No MTRRs: "none"; the effective type is the PAT's, UC- read as UC. */
    m = (struct mtrr_msrs){.has_pat = true, .maxphyaddr = 36, .pat = PAT_POWER_ON};
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0, GiB).type, MC_NONE);
    assert_int_equal(mtrr_pat0_type(&S, 0, GiB), MC_WB);
    assert_int_equal(mtrr_range_type(&S, 0, (1ULL << 36) + 1, &(struct mtrr_range){0}),
                     MTRR_EINVAL);
    m.pat = 0x0007040600070407ULL; /* PA0 = UC- */
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(mtrr_pat0_type(&S, 0, GiB), MC_UC);
    m.has_pat = false; /* no PAT: PCD = PWT = 0 selects WB */
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(mtrr_pat0_type(&S, 0, GiB), MC_WB);
}

static void test_overlap_precedence(void **state)
{
    struct mtrr_msrs m = {.has_mtrr = true, .maxphyaddr = 36, .cap = 8, .def_type = 0x800};
    const uint64_t f = 0xfULL << 32; /* mask bits 35:32 */
    m.physbase[0] = 0 | MC_WB;       /* [0, 2 GiB) WB */
    m.physmask[0] = (f | 0x80000000) | V;
    m.physbase[1] = GiB | MC_WT; /* [1 GiB, 1.5 GiB) WT */
    m.physmask[1] = (f | 0xe0000000) | V;
    m.physbase[2] = 0x50000000 | MC_UC; /* [1.25 GiB, 1.5 GiB) UC over both */
    m.physmask[2] = (f | 0xf0000000) | V;
    m.physbase[3] = 0x60000000 | MC_WC; /* [1.5 GiB, 1.75 GiB) WC over WB: undefined */
    m.physmask[3] = (f | 0xf0000000) | V;
    m.physbase[4] = 0x70000000 | MC_WC; /* [1.75 GiB, 2 GiB) WC over WB... */
    m.physmask[4] = (f | 0xf0000000) | V;
    m.physbase[5] = 0x70000000 | MC_UC; /* ... and UC: UC wins */
    m.physmask[5] = (f | 0xf0000000) | V;
    m.physbase[6] = 0x80000000 | MC_WP; /* disabled pair: ignored */
    m.physmask[6] = f | 0x80000000;
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0, GiB).type, MC_WB);
    assert_int_equal(q(GiB, 0x50000000).type, MC_WT);
    assert_int_equal(q(0x50000000, 0x60000000).type, MC_UC);
    struct mtrr_range r = q(0x60000000, 0x70000000);
    assert_int_equal(r.type, MC_UNDEFINED);
    assert_int_equal(r.overlap[0], 0);
    assert_int_equal(r.overlap[1], 3);
    assert_int_equal(q(0x70000000, 2 * GiB).type, MC_UC);
    assert_int_equal(q(2 * GiB, 4 * GiB).type, MC_UC); /* default UC */
    r = q(0, 2 * GiB);
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.split, GiB);
    assert_int_equal(r.split_type, MC_WT);
    assert_int_equal(r.overlap[0], -1);
    r = q(0x5ffff000, 0x60001000);
    assert_int_equal(r.type, MC_MIXED);
    assert_int_equal(r.split_type, MC_UNDEFINED);
    assert_int_equal(r.overlap[0], 0);
    assert_int_equal(r.overlap[1], 3);
    assert_int_equal(mtrr_pat0_type(&S, 0x60000000, 0x60001000), MC_UNDEFINED);
    /* MAXPHYADDR 52 and an empty mask: range 0 matches all memory. */
    m = (struct mtrr_msrs){.has_mtrr = true, .maxphyaddr = 52, .cap = 1, .def_type = 0x800};
    m.physbase[0] = MC_WT;
    m.physmask[0] = V;
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    assert_int_equal(q(0, 1ULL << 52).type, MC_WT);
}

static void test_bad_registers(void **state)
{
    char err[96];
    struct mtrr_range r;
    struct mtrr_msrs m = qemu(0xc0000000);
    m.maxphyaddr = 0;
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_EPHYS);
    assert_string_equal(err, "MAXPHYADDR 0 outside 32..52");
    assert_int_equal(mtrr_range_type(&S, 0, 4096, &r), MTRR_ESTATE);
    m.maxphyaddr = 53;
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_EPHYS);
    m = qemu(0xc0000000);
    m.def_type = 0xc02;
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_ETYPE);
    assert_string_equal(err, "DEF_TYPE type 2 is reserved");
    m = qemu(0xc0000000);
    m.fixed[3] = 0x0505050507050505ULL; /* 7 (UC-) is PAT-only */
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_ETYPE);
    assert_string_equal(err, "fixed MSR 0x268 holds reserved type 7");
    m.def_type = 0x806; /* the same byte with FE clear is not used: fine */
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_OK);
    assert_string_equal(err, "");
    m = qemu(0xc0000000);
    m.physbase[2] = 0x3;
    m.physmask[2] = 0xfff0000000 | V;
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_ETYPE);
    assert_string_equal(err, "PHYSBASE2 holds reserved type 3");
    m.physmask[2] = 0xfff0000000; /* not valid: its type is ignored */
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    m.physbase[3] = MC_UC;
    m.physmask[3] = 0xff00f00800; /* interleaved (discontiguous) */
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_EMASK);
    assert_string_equal(err, "PHYSMASK3 0xff00f00800 is not contiguous");
    assert_int_equal(mtrr_pat0_type(&S, 0, 4096), MTRR_ESTATE);
    m = qemu(0xc0000000);
    m.cap = 0x521; /* VCNT 33 */
    assert_int_equal(mtrr_decode(&S, &m, err, sizeof err), MTRR_EVCNT);
    assert_string_equal(err, "VCNT 33 above the 32 decoded");
    m.cap = 0x520;
    assert_int_equal(mtrr_decode(&S, &m, err, 8), MTRR_OK);
    assert_int_equal(mtrr_decode(NULL, &m, err, 8), MTRR_EINVAL);
    assert_int_equal(mtrr_decode(&S, NULL, err, 8), MTRR_EINVAL);
    assert_int_equal(mtrr_range_type(NULL, 0, 4096, &r), MTRR_EINVAL);
}

static void test_pat(void **state)
{
    static const int want[8] = {MC_WB, MC_WT, MC_UC_MINUS, MC_UC, MC_WB, MC_WT, MC_UC_MINUS, MC_UC};
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(pat_entry_type(PAT_POWER_ON, i), want[i]);
    assert_int_equal(pat_entry_type(PAT_POWER_ON, 8), MC_RESERVED);
    assert_int_equal(pat_entry_type(0x0007010600070106ULL, 1), MC_WC); /* Linux's PA1 */
    assert_int_equal(pat_entry_type(0x0000000000000200ULL, 1), MC_RESERVED);
    assert_int_equal(pat_entry_type(0x0000000000000300ULL, 1), MC_RESERVED);
    assert_int_equal(pat_entry_type(0x0000000000000e00ULL, 1), MC_RESERVED);
    assert_int_equal(pat_entry_type(0x0500000000000000ULL, 7), MC_WP);
    /* Table 11-7, rows MTRR UC WC WT WB WP, columns PAT UC UC- WC WT WB WP. */
    static const char *const table[5] = {
        "UC UC WC UC UC UC", "UC WC WC UC WC UC", "UC UC WC WT WT WP",
        "UC UC WC WT WB WP", "UC WC WC WT WP WP",
    };
    static const int mtrr[5] = {MC_UC, MC_WC, MC_WT, MC_WB, MC_WP};
    static const int pat[6] = {MC_UC, MC_UC_MINUS, MC_WC, MC_WT, MC_WB, MC_WP};
    for (int i = 0; i < 5; i++) {
        char row[32] = "";
        for (int j = 0; j < 6; j++) {
            strcat(row, mem_cache_name(mem_cache_effective(mtrr[i], pat[j])));
            strcat(row, j < 5 ? " " : "");
        }
        assert_string_equal(row, table[i]);
    }
    assert_int_equal(mem_cache_effective(MC_NONE, MC_WC), MC_WC);
    assert_int_equal(mem_cache_effective(MC_NONE, MC_UC_MINUS), MC_UC);
    assert_int_equal(mem_cache_effective(MC_MIXED, MC_WB), MC_MIXED);
    assert_int_equal(mem_cache_effective(MC_UNDEFINED, MC_UC), MC_UNDEFINED);
    assert_int_equal(mem_cache_effective(MC_UC_MINUS, MC_WB), MC_RESERVED); /* not an MTRR type */
    assert_int_equal(mem_cache_effective(2, MC_WB), MC_RESERVED);
    assert_int_equal(mem_cache_effective(MC_WB, 3), MC_RESERVED);
    assert_int_equal(mem_cache_effective(MC_WB, -1), MC_RESERVED);
    assert_int_equal(mem_cache_effective(99, MC_WB), MC_RESERVED);
    assert_string_equal(mem_cache_name(MC_UC_MINUS), "UC-");
    assert_string_equal(mem_cache_name(MC_UNDEFINED), "undefined");
    assert_string_equal(mem_cache_name(2), "reserved");
    assert_string_equal(mem_cache_name(-1), "reserved");
    assert_string_equal(mem_cache_name(1000), "reserved");
}

static void expect_lines(const char *const *want, size_t n)
{
    char buf[120];
    size_t it = 0, k = 0;
    while (mtrr_layout_line(&S, &it, buf, sizeof buf)) {
        assert_true(k < n);
        assert_string_equal(buf, want[k]);
        k++;
    }
    assert_int_equal(k, n);
}

static void test_layout(void **state)
{
    struct mtrr_msrs m = qemu(0xc0000000);
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    static const char *const qemu_lines[] = {
        "MTRR: enabled, default WB, fixed ranges on, VCNT 8, MAXPHYADDR 40",
        "  fixed 0x0-0xa0000 WB",
        "  fixed 0xa0000-0xc0000 UC",
        "  fixed 0xc0000-0x100000 WP",
        "  var0 0xc0000000-0x100000000 UC",
        "PAT: WB WT UC- UC WB WT UC- UC",
    };
    expect_lines(qemu_lines, 6);
    m.def_type = 0x6;
    m.has_pat = false;
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_OK);
    static const char *const off[] = {
        "MTRR: disabled (DEF_TYPE.E = 0): UC everywhere",
        "PAT: none (CPUID.01H:EDX.PAT = 0): PAT index 0 is WB",
    };
    expect_lines(off, 2);
    m.maxphyaddr = 99;
    assert_int_equal(mtrr_decode(&S, &m, NULL, 0), MTRR_EPHYS);
    static const char *const bad[] = {
        "MTRR: decode failed (error -2)",
        "PAT: none (CPUID.01H:EDX.PAT = 0): PAT index 0 is WB",
    };
    expect_lines(bad, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qemu_fixed_and_default),
        cmocka_unit_test(test_qemu_pci_hole),
        cmocka_unit_test(test_disabled_and_absent),
        cmocka_unit_test(test_overlap_precedence),
        cmocka_unit_test(test_bad_registers),
        cmocka_unit_test(test_pat),
        cmocka_unit_test(test_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
