/*
 * tests/unit/test_pvh.c - boot/pvh.c (Xen public/arch-x86/hvm/start_info.h)
 * and the shared helpers of boot/bootinfo.c. The "physical memory" is a
 * static buffer; its addresses are passed as the paddr fields, and `limit`
 * is moved to cut structures short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootinfo.h"

/* The layouts as the Xen header gives them (version 1). */
struct start_info {
    uint32_t magic, version, flags, nr_modules;
    uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr, memmap_paddr;
    uint32_t memmap_entries, reserved;
};
struct modlist_entry {
    uint64_t paddr, size, cmdline_paddr, reserved;
};
struct memmap_entry {
    uint64_t addr, size;
    uint32_t type, reserved;
};
_Static_assert(sizeof(struct start_info) == 56, "start_info.h");
_Static_assert(sizeof(struct modlist_entry) == 32, "start_info.h");
_Static_assert(sizeof(struct memmap_entry) == 24, "start_info.h");

static _Alignas(8) uint8_t mem[64 * 1024];
static struct start_info *si = (struct start_info *)mem;
static char *const cmdline = (char *)mem + 0x1000;
static uint8_t *const rsdp = mem + 0x100; /* address only: never read */
static struct modlist_entry *const mods = (struct modlist_entry *)(mem + 0x800);
static struct memmap_entry *const mmap = (struct memmap_entry *)(mem + 0x2000);
static struct bootinfo bi;

#define PADDR(p) ((uint64_t)(uintptr_t)(p))
#define NOLIMIT UINT64_MAX

/* QEMU -m 2G's PVH memory map (the E820 table it also gives SeaBIOS). */
static const struct memmap_entry qemu_2g[] = {
    {0, 0x9fc00, 1, 0},           {0x9fc00, 0x400, 2, 0},      {0xf0000, 0x10000, 2, 0},
    {0x100000, 0x7fee0000, 1, 0}, {0x7ffe0000, 0x20000, 2, 0}, {0xfeffc000, 0x4000, 2, 0},
    {0xfffc0000, 0x40000, 2, 0},
};

/* A start info as QEMU builds it: cmdline, RSDP, memory map, no modules. */
static void setup(void)
{
    memset(mem, 0xee, sizeof(mem));
    memset(si, 0, sizeof(*si));
    si->magic = 0x336ec578;
    si->version = 1;
    si->cmdline_paddr = PADDR(cmdline);
    strcpy(cmdline, "console=ttyS0 threads=2");
    si->rsdp_paddr = PADDR(rsdp);
    si->memmap_paddr = PADDR(mmap);
    si->memmap_entries = 7;
    memcpy(mmap, qemu_2g, sizeof(qemu_2g));
}

static bool has_diag(const char *fragment)
{
    for (size_t i = 0; i < bi.ndiag; i++)
        if (strstr(bi.diag[i], fragment))
            return true;
    return false;
}

static void check_range(size_t i, uint64_t base, uint64_t end, uint32_t type)
{
    assert_true(i < bi.map.n);
    assert_int_equal(bi.map.r[i].base, base);
    assert_int_equal(bi.map.r[i].end, end);
    assert_int_equal(bi.map.r[i].type, type);
}

static void test_qemu_good(void **state)
{
    setup();
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(bi.ndiag, 0);
    assert_int_equal(bi.path, BOOT_PVH);
    assert_string_equal(boot_path_name(bi.path), "pvh");
    assert_string_equal(bi.loader, "pvh");
    assert_string_equal(bi.map_source, "pvh-memmap");
    assert_string_equal(bi.cmdline, "console=ttyS0 threads=2");
    assert_int_equal(bi.rsdp_paddr, PADDR(rsdp));
    assert_int_equal(bi.rsdp_len, 0); /* a copy comes only from Multiboot2 */
    assert_int_equal(bi.nmodules, 0);
    assert_int_equal(bi.efi_systab, 0);
    assert_int_equal(bi.info_start, PADDR(si));
    assert_int_equal(bi.info_end, PADDR(si) + 56);
    assert_int_equal(bi.map.n, 7);
    check_range(0, 0, 0x9f000, MEM_USABLE);
    check_range(1, 0x9fc00, 0xa0000, MEM_RESERVED);
    check_range(2, 0xf0000, 0x100000, MEM_RESERVED);
    check_range(3, 0x100000, 0x7ffe0000, MEM_USABLE);
    check_range(4, 0x7ffe0000, 0x80000000, MEM_RESERVED);
    check_range(5, 0xfeffc000, 0xff000000, MEM_RESERVED);
    check_range(6, 0xfffc0000, 0x100000000, MEM_RESERVED);
    assert_int_equal(memmap_usable_bytes(&bi.map), 0x9f000 + 0x7fee0000);
    assert_int_equal(memmap_count_1g(&bi.map), 0); /* [1G,2G) ends 128 KiB short */
}

static void test_bad_header(void **state)
{
    setup();
    si->magic = 0xdeadbeef;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), -1);
    assert_int_equal(bi.path, BOOT_UNKNOWN);
    assert_string_equal(bi.cmdline, "");
    assert_int_equal(bi.ndiag, 1);
    assert_string_equal(bi.diag[0], "pvh: bad magic 0xdeadbeef, expected 0x336ec578");

    setup();
    assert_int_equal(pvh_parse(&bi, NULL, NOLIMIT), -1);
    assert_string_equal(bi.diag[0],
                        "pvh: start info at 0x0 is NULL or past limit 0xffffffffffffffff");
    assert_int_equal(pvh_parse(&bi, si, PADDR(si) + 39), -1); /* version 0 part cut */
    assert_int_equal(pvh_parse(&bi, si, PADDR(si)), -1);
    assert_int_equal(bi.map.n, 0);
}

static void test_version0(void **state)
{
    setup();
    si->version = 0; /* memmap_paddr/entries are not part of version 0 */
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(bi.path, BOOT_PVH);
    assert_string_equal(bi.cmdline, "console=ttyS0 threads=2");
    assert_int_equal(bi.rsdp_paddr, PADDR(rsdp));
    assert_int_equal(bi.map.n, 0);
    assert_int_equal(bi.info_end, PADDR(si) + 40);
    assert_int_equal(bi.ndiag, 2);
    assert_string_equal(bi.diag[0], "pvh: start info version 0 has no memory map");
    assert_string_equal(bi.diag[1], "pvh: empty memory map");

    /* version 1 cut by the limit after the version 0 part */
    setup();
    assert_int_equal(pvh_parse(&bi, si, PADDR(si) + 48), 0);
    assert_int_equal(bi.map.n, 0);
    assert_string_equal(bi.cmdline, ""); /* the cmdline lies past the limit too */
    assert_string_equal(bi.diag[0],
                        "pvh: start info version 1 runs past limit, memory map ignored");
    assert_true(has_diag(": past limit, ignored"));
    assert_string_equal(bi.diag[2], "pvh: empty memory map");
    assert_int_equal(bi.ndiag, 3);
}

static void test_bad_pointers(void **state)
{
    setup();
    si->cmdline_paddr = 0; /* no cmdline: not an error */
    si->memmap_paddr = 0;
    si->nr_modules = 2;
    si->modlist_paddr = 0;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_string_equal(bi.cmdline, "");
    assert_int_equal(bi.nmodules, 0);
    assert_int_equal(bi.map.n, 0);
    assert_string_equal(bi.diag[0], "pvh modlist at 0x0: NULL or past limit, ignored");
    assert_string_equal(bi.diag[1], "pvh memmap at 0x0: NULL or past limit, ignored");
    assert_string_equal(bi.diag[2], "pvh: empty memory map");
    assert_int_equal(bi.ndiag, 3);

    /* the memory map table crosses the limit: none of it is read */
    setup();
    uint64_t limit = PADDR(mmap) + 6 * sizeof(struct memmap_entry) + 23;
    assert_int_equal(pvh_parse(&bi, si, limit), 0);
    assert_string_equal(bi.cmdline, "console=ttyS0 threads=2");
    assert_int_equal(bi.map.n, 0);
    assert_true(has_diag("NULL or past limit, ignored"));
    assert_int_equal(bi.ndiag, 2);
    /* ... and with one more byte all of it is */
    assert_int_equal(pvh_parse(&bi, si, limit + 1), 0);
    assert_int_equal(bi.map.n, 7);
    assert_int_equal(bi.ndiag, 0);
}

/* The exclusions handed to the frame allocator: every one has end >= base,
 * even for a rsdp_paddr near 2^64 (found by fuzz/fuzz_pvh.c: base + 36
 * wrapped and mm_init failed with "invalid argument"). */
static void test_exclusions(void **state)
{
    setup();
    si->rsdp_paddr = 0xfffffffffffffff0ull;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(bi.rsdp_paddr, 0xfffffffffffffff0ull); /* acpi_rsdp_locate rejects it */
    struct frame_excl x[4];
    size_t n = 0;
    assert_int_equal(bootinfo_exclusions(&bi, x, &n, 4), 0);
    assert_int_equal(n, 2);
    assert_int_equal(x[0].base, PADDR(si));
    assert_int_equal(x[0].end, PADDR(si) + 56);
    assert_string_equal(x[0].reason, "boot information");
    assert_int_equal(x[1].base, 0xfffffffffffffff0ull);
    assert_int_equal(x[1].end, UINT64_MAX);
    assert_string_equal(x[1].reason, "ACPI RSDP");

    si->rsdp_paddr = 0xe0000;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    n = 0;
    assert_int_equal(bootinfo_exclusions(&bi, x, &n, 4), 0);
    assert_int_equal(x[1].base, 0xe0000);
    assert_int_equal(x[1].end, 0xe0024);
    /* no room: the count of what did not fit */
    n = 3;
    assert_int_equal(bootinfo_exclusions(&bi, x, &n, 4), 1);
    assert_int_equal(n, 4);
}

static void test_cmdline(void **state)
{
    setup();
    memset(cmdline, 'a', BOOT_CMDLINE_MAX); /* 1024 characters: one too many */
    cmdline[BOOT_CMDLINE_MAX] = 0;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_string_equal(bi.cmdline, "");
    assert_true(bi.cmdline_too_long);
    assert_int_equal(bi.ndiag, 1);
    assert_string_equal(bi.diag[0], "pvh cmdline: 1024 bytes, longer than 1023, ignored");

    cmdline[BOOT_CMDLINE_MAX - 1] = 0; /* 1023 characters: the longest that fits */
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
    assert_false(bi.cmdline_too_long);
    assert_int_equal(bi.ndiag, 0);

    /* the limit cuts the search short: nothing past it is read */
    assert_int_equal(pvh_parse(&bi, si, PADDR(cmdline) + 10), 0);
    assert_string_equal(bi.cmdline, "");
    assert_string_equal(bi.diag[0], "pvh cmdline: no NUL in 10 bytes, ignored");
    assert_false(bi.cmdline_too_long); /* unterminated is malformed, not too long */
}

static void test_limits_on_counts(void **state)
{
    setup();
    si->memmap_entries = 300;
    for (uint32_t i = 0; i < 300; i++)
        mmap[i] = (struct memmap_entry){i * 0x10000, 0x8000, 1 + i % 2, 0};
    si->nr_modules = 20;
    si->modlist_paddr = PADDR(mods);
    for (uint32_t i = 0; i < 20; i++)
        mods[i] = (struct modlist_entry){0x1000000 + i * 0x100000, 0x1234, 0, 0};
    static char modname[] = "initrd.img root=/dev/ram0";
    mods[1].cmdline_paddr = PADDR(modname);
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_string_equal(bi.modules[0].cmdline, "");
    assert_string_equal(bi.modules[1].cmdline, "initrd.img root=/dev/ram0");
    assert_int_equal(bi.map.n, MEMMAP_MAX);
    check_range(255, 255 * 0x10000, 255 * 0x10000 + 0x8000, MEM_RESERVED);
    assert_int_equal(bi.nmodules, BOOT_MODULES_MAX);
    assert_int_equal(bi.modules[15].start, 0x1f00000);
    assert_int_equal(bi.modules[15].end, 0x1f01234);
    assert_string_equal(bi.diag[0], "pvh: 20 modules, only the first 16 read");
    assert_string_equal(bi.diag[1], "pvh: 300 memmap entries, only the first 256 read");
    assert_int_equal(bi.ndiag, 2);
}

static void test_overflows(void **state)
{
    setup();
    si->memmap_entries = 3;
    mmap[0] = (struct memmap_entry){0x100000, 0x100000, 1, 0};
    mmap[1] = (struct memmap_entry){0xffffffff00000000ull, 0x100000000ull, 2, 0}; /* to 2^64 */
    mmap[2] = (struct memmap_entry){0xffffffff00000000ull, 0x100001000ull, 2, 0}; /* past */
    si->nr_modules = 2;
    si->modlist_paddr = PADDR(mods);
    mods[0] = (struct modlist_entry){0x800000, 0x1000, 0, 0};
    mods[1] = (struct modlist_entry){0xfffffffffffff000ull, 0x2000, 0, 0};
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(bi.map.n, 2);
    check_range(0, 0x100000, 0x200000, MEM_USABLE);
    check_range(1, 0xffffffff00000000ull, MEMMAP_END_MAX, MEM_RESERVED);
    assert_int_equal(bi.nmodules, 1);
    assert_int_equal(bi.modules[0].end, 0x801000);
    assert_string_equal(bi.diag[0], "pvh module 1: paddr 0xfffffffffffff000 + size 0x2000 "
                                    "overflows 2^64, ignored");
    assert_string_equal(bi.diag[1], "pvh memmap entry 2: addr 0xffffffff00000000 + size "
                                    "0x100001000 overflows 2^64, ignored");
    assert_int_equal(bi.ndiag, 2);
}

/* The RSDP address is recorded as given, never read: arch/acpi.c checks it. */
static void test_rsdp(void **state)
{
    setup();
    si->rsdp_paddr = 0xfffffffffffffff0ull;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(bi.rsdp_paddr, 0xfffffffffffffff0ull);
    assert_int_equal(bi.rsdp_len, 0);
    assert_int_equal(bi.ndiag, 0);
    si->rsdp_paddr = 0;
    assert_int_equal(pvh_parse(&bi, si, NOLIMIT), 0);
    assert_int_equal(bi.rsdp_paddr, 0);
}

static void test_bootinfo_helpers(void **state)
{
    assert_string_equal(boot_path_name(BOOT_UNKNOWN), "unknown");
    assert_string_equal(boot_path_name(BOOT_PVH), "pvh");
    assert_string_equal(boot_path_name((enum boot_path)42), "unknown");
    memset(&bi, 0x77, sizeof(bi));
    bootinfo_init(&bi);
    assert_int_equal(bi.path, BOOT_UNKNOWN);
    assert_string_equal(bi.map_source, "none");
    assert_int_equal(bi.map.n + bi.ndiag + bi.nmodules + bi.rsdp_len + bi.map.dropped, 0);

    char long_text[300];
    memset(long_text, 'z', 299);
    long_text[299] = 0;
    boot_diag(&bi, "%s", long_text);
    assert_int_equal(strlen(bi.diag[0]), BOOT_DIAG_LEN - 1);
    for (int i = 1; i < BOOT_DIAG_MAX + 3; i++)
        boot_diag(&bi, "diag %d", i);
    assert_int_equal(bi.ndiag, BOOT_DIAG_MAX);
    assert_int_equal(bi.ndiag_dropped, 3);
    assert_string_equal(bi.diag[BOOT_DIAG_MAX - 1], "diag 15");

    assert_false(boot_readable(0, 1, 100));
    assert_true(boot_readable(10, 90, 100));
    assert_false(boot_readable(10, 91, 100));
    assert_false(boot_readable(100, 0, 100));
    assert_false(boot_readable(10, UINT64_MAX, UINT64_MAX));
    assert_true(boot_readable(UINT64_MAX - 1, 1, UINT64_MAX));

    char dst[4];
    assert_int_equal(boot_copy_str(&bi, "t", dst, sizeof(dst), "abc\0zzz", 7), 0);
    assert_string_equal(dst, "abc");
    assert_int_equal(boot_copy_str(&bi, "t", dst, sizeof(dst), "abcd", 5), -2);
    assert_string_equal(dst, "");
    assert_int_equal(boot_copy_str(&bi, "t", dst, sizeof(dst), "abcd", 4), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qemu_good),
        cmocka_unit_test(test_bad_header),
        cmocka_unit_test(test_version0),
        cmocka_unit_test(test_bad_pointers),
        cmocka_unit_test(test_cmdline),
        cmocka_unit_test(test_exclusions),
        cmocka_unit_test(test_limits_on_counts),
        cmocka_unit_test(test_overflows),
        cmocka_unit_test(test_rsdp),
        cmocka_unit_test(test_bootinfo_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
