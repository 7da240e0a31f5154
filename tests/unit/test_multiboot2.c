/*
 * tests/unit/test_multiboot2.c - boot/multiboot2.c and boot/bootinfo.c:
 * well-formed Multiboot2 information blocks (spec §3.6) as GRUB passes them
 * for BIOS and UEFI, the EFI memory-map fallbacks, ACPI RSDP tags and
 * modules. Malformed blocks are in tests/unit/test_mb2_malformed.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootinfo.h"
#include "tests/unit/mb2_build.h"

static void test_bios_good(void **state)
{
    mbi_begin();
    tag_str(1, "hugezero threads=2 sizes=2M,1G");
    tag_str(2, "GRUB 2.06-13+deb12u1");
    module(0x200000, 0x3ff000, "initrd", 7);
    tag(4, "\x80\x02\0\0\0\xfc\x2f\0", 8); /* basic meminfo: ignored */
    map_tag(6, 24, qemu_e820, 8);
    tag(14, rsdp_v1, 20);
    mbi_end();

    assert_int_equal(parse(), 0);
    expect_diags(0);
    assert_string_equal(boot_path_name(bi.path), "multiboot2-bios");
    assert_string_equal(bi.cmdline, "hugezero threads=2 sizes=2M,1G");
    assert_string_equal(bi.loader, "GRUB 2.06-13+deb12u1");
    assert_string_equal(bi.map_source, "multiboot2-mmap");
    assert_int_equal(bi.map.n, 8);
    check_range(0, 0, 0x9f000, MEM_USABLE);
    check_range(1, 0x9fc00, 0xa0000, MEM_RESERVED);
    check_range(3, 0x100000, 0xbffe0000, MEM_USABLE);
    check_range(7, 0x100000000, 0x240000000, MEM_USABLE);
    assert_int_equal(memmap_count_1g(&bi.map), 6);
    assert_int_equal(bi.nmodules, 1);
    assert_int_equal(bi.modules[0].start, 0x200000);
    assert_int_equal(bi.modules[0].end, 0x3ff000);
    assert_string_equal(bi.modules[0].cmdline, "initrd");
    assert_int_equal(bi.rsdp_len, 20);
    assert_memory_equal(bi.rsdp, rsdp_v1, 20);
    assert_int_equal(bi.rsdp_paddr, 0);
    assert_int_equal(bi.efi_systab, 0);
    assert_int_equal(bi.info_start, (uintptr_t)buf);
    assert_int_equal(bi.info_end, (uintptr_t)buf + off);
}

/* GRUB on OVMF: tag 12, tag 6 (derived) and tag 17 (the firmware's map). */
static void test_efi_good(void **state)
{
    /* UEFI types: 0 Reserved, 2 LoaderData, 3/4 BootServicesCode/Data, 6
     * RuntimeServicesData, 7 Conventional, 8 Unusable, 9 ACPIReclaim, 10
     * ACPIMemoryNVS, 11 MemoryMappedIO, 14 Persistent, 15 Unaccepted */
    static const struct ent efi[] = {
        {0x0, 0xa0, 3},          {0xa0000, 0x60, 0},        {0x100000, 0x700, 7},
        {0x800000, 0x100, 2},    {0x900000, 0x10, 9},       {0x910000, 0x10, 10},
        {0x920000, 0x20, 6},     {0x940000, 0x3f6c0, 7},    {0xffc00000, 0x400, 11},
        {0x100000000, 0x100, 8}, {0x100100000, 0x7ff00, 4}, {0x200000000, 0x40000, 14},
        {0x240000000, 0x10, 15},
    };
    static const struct ent e820[] = {{0, 0x40000000, 1}};
    uint64_t systab = 0x7f9e8018;
    mbi_begin();
    tag_str(1, "");
    tag(12, &systab, 8);
    map_tag(6, 24, e820, 1);
    map_tag(17, 48, efi, 13); /* OVMF's descriptor size is 48, not 40 */
    tag(15, rsdp_v2, 36);
    mbi_end();

    assert_int_equal(parse(), 0);
    expect_diags(0);
    assert_string_equal(boot_path_name(bi.path), "multiboot2-efi");
    assert_string_equal(bi.map_source, "multiboot2-efi-mmap");
    assert_string_equal(bi.cmdline, "");
    assert_int_equal(bi.efi_systab, 0x7f9e8018);
    assert_int_equal(bi.rsdp_len, 36);
    assert_memory_equal(bi.rsdp, rsdp_v2, 36);
    /* conventional memory and loader data merge into [1M, 9M) */
    static const struct ent want[] = {
        {0, 0xa0000, MEM_USABLE},
        {0xa0000, 0x100000, MEM_RESERVED},
        {0x100000, 0x900000, MEM_USABLE},
        {0x900000, 0x910000, MEM_ACPI},
        {0x910000, 0x920000, MEM_NVS},
        {0x920000, 0x940000, MEM_RESERVED},
        {0x940000, 0x40000000, MEM_USABLE},
        {0xffc00000, 0x100000000, MEM_RESERVED},
        {0x100000000, 0x100100000, MEM_BAD},
        {0x100100000, 0x180000000, MEM_USABLE},
        {0x200000000, 0x240000000, MEM_PMEM},
        {0x240000000, 0x240010000, MEM_RESERVED},
    };
    check_ranges(want, 12);
    assert_int_equal(memmap_count_1g(&bi.map), 1);
}

static void test_efi_fallbacks(void **state)
{
    static const struct ent e820[] = {{0x100000, 0x7ff00000, 1}};
    uint64_t systab = 0x1000;
    /* tag 12 alone makes the path EFI; the map then comes from tag 6 */
    mbi_begin();
    tag(12, &systab, 8);
    map_tag(6, 24, e820, 1);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.path, BOOT_MB2_EFI);
    assert_string_equal(bi.map_source, "multiboot2-mmap");
    check_range(0, 0x100000, 0x80000000, MEM_USABLE);

    /* a malformed tag 17 is not used: back to tag 6, still EFI */
    mbi_begin();
    map_tag(17, 32, (const struct ent[]){{0, 0x10, 7}}, 1);
    map_tag(6, 24, e820, 1);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.path, BOOT_MB2_EFI);
    assert_string_equal(bi.map_source, "multiboot2-mmap");
    expect_diags(1, "mb2 tag 17 (memory map): entry size 32 < 40, ignored");

    /* tag 18: boot services still run, so their memory is not free */
    mbi_begin();
    tag(18, NULL, 0);
    map_tag(17, 40, (const struct ent[]){{0, 0x10, 4}, {0x10000, 0x10, 7}}, 2);
    mbi_end();
    assert_int_equal(parse(), 0);
    check_range(0, 0, 0x10000, MEM_RESERVED);
    check_range(1, 0x10000, 0x20000, MEM_USABLE);
}

static void test_acpi(void **state)
{
    /* new before old, old before new: the new one wins either way */
    for (int order = 0; order < 2; order++) {
        mbi_begin();
        tag(order ? 14 : 15, order ? (const void *)rsdp_v1 : rsdp_v2, order ? 20 : 36);
        tag(order ? 15 : 14, order ? (const void *)rsdp_v2 : rsdp_v1, order ? 36 : 20);
        mbi_end();
        assert_int_equal(parse(), 0);
        assert_int_equal(bi.rsdp_len, 36);
        assert_memory_equal(bi.rsdp, rsdp_v2, 36);
    }
    /* a new-RSDP tag holding only 20 bytes is ignored; the old one stays */
    mbi_begin();
    tag(14, rsdp_v1, 20);
    tag(15, rsdp_v2, 20);
    tag(12, "\1\2\3\4", 4); /* EFI64 tag too short */
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.rsdp_len, 20);
    assert_memory_equal(bi.rsdp, rsdp_v1, 20);
    assert_int_equal(bi.efi_systab, 0);
    expect_diags(3, "mb2 tag 15 (ACPI RSDP): 20 bytes < 36, ignored",
                 "mb2 tag 12 (EFI64 system table): size 12 < 16, ignored",
                 "mb2: no usable memory map tag (6 or 17)");
}

static void test_modules(void **state)
{
    mbi_begin();
    module(0x400000, 0x401000, "a", 2);
    module(0x500000, 0x4fffff, "backwards", 10);
    module(0x600000, 0x601000, "unterminated", 12);
    module(0x700000, 0x700000, "", 1); /* empty module: kept */
    tag(3, "\0\0\x80\0\0\0\x81\0", 8); /* no string at all */
    for (uint32_t i = 0; i < 16; i++)
        module(0x1000000 + i * 0x1000, 0x1001000 + i * 0x1000, "m", 2);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.nmodules, BOOT_MODULES_MAX);
    assert_int_equal(bi.modules[0].start, 0x400000);
    assert_int_equal(bi.modules[1].start, bi.modules[1].end); /* the empty one */
    assert_int_equal(bi.modules[15].end, 0x100e000);
    assert_string_equal(bi.modules[0].cmdline, "a");
    assert_string_equal(bi.modules[1].cmdline, "");
    assert_string_equal(bi.modules[15].cmdline, "m");
    expect_diags(5, "mb2 tag 3 (module): mod_end 0x4fffff < mod_start 0x500000, ignored",
                 "mb2 tag 3 (module): string without NUL, ignored",
                 "mb2 tag 3 (module): size 16 < 17, ignored", "mb2: 2 module(s) beyond 16 ignored",
                 "mb2: no usable memory map tag (6 or 17)");
}

static void test_module_string_too_long(void **state)
{
    char name[BOOT_MODULE_CMDLINE_MAX + 1];
    memset(name, 'x', sizeof(name) - 1);
    name[sizeof(name) - 1] = 0;
    mbi_begin();
    module(0x400000, 0x401000, name, sizeof(name));
    map_tag(6, 24, qemu_e820, 8);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.nmodules, 1); /* the module stays, its string is refused */
    assert_string_equal(bi.modules[0].cmdline, "");
    assert_int_equal(bi.ndiag, 1);
    assert_non_null(strstr(bi.diag[0], "mb2 module string"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bios_good),     cmocka_unit_test(test_efi_good),
        cmocka_unit_test(test_efi_fallbacks), cmocka_unit_test(test_acpi),
        cmocka_unit_test(test_modules),       cmocka_unit_test(test_module_string_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
