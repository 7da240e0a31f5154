/*
 * tests/unit/test_multiboot2.c - boot/multiboot2.c and boot/bootinfo.c:
 * Multiboot2 information blocks (spec §3.6) built tag by tag in an 8-byte
 * aligned buffer, as GRUB lays them out for BIOS and UEFI, then broken in
 * every way the parser must survive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootinfo.h"

static _Alignas(8) uint8_t buf[64 * 1024];
static size_t off;
static struct bootinfo bi;

static void mbi_begin(void)
{
    memset(buf, 0xee, sizeof(buf)); /* garbage past the block must not be read */
    off = 8;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Append a tag whose `size` field says `size` (normally 8 + len). */
static void tag_sized(uint32_t type, uint32_t size, const void *payload, uint32_t len)
{
    put32(buf + off, type);
    put32(buf + off + 4, size);
    if (len)
        memcpy(buf + off + 8, payload, len);
    memset(buf + off + 8 + len, 0, 7);
    off += (8 + len + 7) & ~7u;
}

static void tag(uint32_t type, const void *payload, uint32_t len)
{
    tag_sized(type, 8 + len, payload, len);
}

static void tag_str(uint32_t type, const char *s) { tag(type, s, (uint32_t)strlen(s) + 1); }

static void mbi_end(void)
{
    tag(0, NULL, 0);
    put32(buf, (uint32_t)off);
    put32(buf + 4, 0);
}

struct ent {
    uint64_t base, len; /* tag 17: len in 4 KiB pages */
    uint32_t type;
};

/* Tag 6 (E820 entries) or 17 (EFI_MEMORY_DESCRIPTORs) with the given stride. */
static void map_tag(uint32_t type, uint32_t stride, const struct ent *e, size_t n)
{
    static uint8_t p[8192];
    memset(p, 0x5a, sizeof(p)); /* padding inside entries is garbage */
    put32(p, stride);
    put32(p + 4, type == 17 ? 1 : 0);
    for (size_t i = 0; i < n; i++) {
        uint8_t *q = p + 8 + i * stride;
        if (type == 6) {
            put64(q, e[i].base);
            put64(q + 8, e[i].len);
            put32(q + 16, e[i].type); /* reserved: left as garbage */
        } else {
            put32(q, e[i].type);
            put64(q + 8, e[i].base);
            put64(q + 16, 0);
            put64(q + 24, e[i].len);
            put64(q + 32, 0xf); /* EFI_MEMORY_UC | WC | WT | WB */
        }
    }
    tag(type, p, (uint32_t)(8 + n * stride));
}

/* Exactly n diagnostics, each equal to the next argument, or starting with
 * it when the argument ends in '*'. */
static void expect_diags(size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    assert_int_equal(bi.ndiag, n);
    for (size_t i = 0; i < n; i++) {
        const char *want = va_arg(ap, const char *);
        size_t len = strlen(want);
        if (len && want[len - 1] == '*')
            assert_memory_equal(bi.diag[i], want, len - 1);
        else
            assert_string_equal(bi.diag[i], want);
    }
    va_end(ap);
}

static void check_range(size_t i, uint64_t base, uint64_t end, uint32_t type)
{
    assert_true(i < bi.map.n);
    assert_int_equal(bi.map.r[i].base, base);
    assert_int_equal(bi.map.r[i].end, end);
    assert_int_equal(bi.map.r[i].type, type);
}

/* The whole map: w[i].len is the expected end here. */
static void check_ranges(const struct ent *w, size_t n)
{
    assert_int_equal(bi.map.n, n);
    for (size_t i = 0; i < n; i++)
        check_range(i, w[i].base, w[i].len, w[i].type);
}

static int parse(void) { return mb2_parse(&bi, buf, UINT64_MAX); }

/* QEMU -m 8G E820 as GRUB passes it on in tag 6. */
static const struct ent qemu_e820[] = {
    {0, 0x9fc00, 1},           {0x9fc00, 0x400, 2},           {0xf0000, 0x10000, 2},
    {0x100000, 0xbfee0000, 1}, {0xbffe0000, 0x20000, 2},      {0xfeffc000, 0x4000, 2},
    {0xfffc0000, 0x40000, 2},  {0x100000000, 0x140000000, 1},
};

static const uint8_t rsdp_v1[20] = "RSD PTR \x42"
                                   "BOCHS \0\x10\x20\x30\x40";
static const uint8_t rsdp_v2[36] = "RSD PTR \x17"
                                   "BOCHS \2\x10\x20\x30\x40\x24\0\0\0"
                                   "\0\x10\x20\x30\0\0\0\0\x99\0\0\0";

static void module(uint32_t start, uint32_t end, const char *s, size_t slen)
{
    uint8_t p[64];
    put32(p, start);
    put32(p + 4, end);
    memcpy(p + 8, s, slen);
    tag(3, p, (uint32_t)(8 + slen));
}

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
        {0, 0xa0000, MEM_USABLE},               {0xa0000, 0x100000, MEM_RESERVED},
        {0x100000, 0x900000, MEM_USABLE},       {0x900000, 0x910000, MEM_ACPI},
        {0x910000, 0x920000, MEM_NVS},          {0x920000, 0x940000, MEM_RESERVED},
        {0x940000, 0x40000000, MEM_USABLE},     {0xffc00000, 0x100000000, MEM_RESERVED},
        {0x100000000, 0x100100000, MEM_BAD},    {0x100100000, 0x180000000, MEM_USABLE},
        {0x200000000, 0x240000000, MEM_PMEM},   {0x240000000, 0x240010000, MEM_RESERVED},
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
    expect_diags(5, "mb2 tag 3 (module): mod_end 0x4fffff < mod_start 0x500000, ignored",
                 "mb2 tag 3 (module): string without NUL, ignored",
                 "mb2 tag 3 (module): size 16 < 17, ignored", "mb2: 2 module(s) beyond 16 ignored",
                 "mb2: no usable memory map tag (6 or 17)");
}

/* A tag whose size runs past total_size stops the walk: later tags unread. */
static void test_bad_tag_size(void **state)
{
    mbi_begin();
    tag_str(1, "kept");
    map_tag(6, 24, qemu_e820, 8);
    size_t bad = off;
    tag_str(2, "never read");
    mbi_end();
    put32(buf + bad + 4, (uint32_t)(off - bad + 1)); /* 1 byte past the block */
    assert_int_equal(parse(), 0);
    assert_string_equal(bi.cmdline, "kept");
    assert_string_equal(bi.loader, "");
    assert_int_equal(bi.map.n, 8); /* tags before the bad one are used */
    expect_diags(1, "mb2 tag 2 at +0xe8: size 33 runs past total_size, walk stopped");

    /* a zero-size tag stops it too */
    mbi_begin();
    tag_str(1, "first");
    tag_sized(2, 0, "x", 1);
    tag_str(14, "never read");
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_string_equal(bi.cmdline, "first");
    expect_diags(2, "mb2 tag 2 at +0x18: size 0 < 8, walk stopped",
                 "mb2: no usable memory map tag (6 or 17)");
}

static void test_tag_past_limit(void **state)
{
    mbi_begin();
    tag_str(1, "before limit");
    size_t cut = off + 20; /* inside the memory-map tag */
    map_tag(6, 24, qemu_e820, 8);
    mbi_end();
    uint8_t *copy = malloc(cut); /* exactly `cut` bytes: sanitizers catch over-reads */
    memcpy(copy, buf, cut);
    assert_int_equal(mb2_parse(&bi, copy, (uintptr_t)copy + cut), 0);
    assert_int_equal(bi.info_end, (uintptr_t)copy + cut);
    free(copy);
    assert_string_equal(bi.cmdline, "before limit");
    assert_int_equal(bi.map.n, 0);
    expect_diags(3, "mb2: info block runs past limit 0x*",
                 "mb2 tag 6 at +0x20: size 208 runs past limit, walk stopped",
                 "mb2: no usable memory map tag (6 or 17)");
}

static void test_missing_end_tag(void **state)
{
    mbi_begin();
    tag_str(1, "no end");
    map_tag(6, 24, qemu_e820, 2);
    put32(buf, (uint32_t)off); /* total_size stops before any end tag */
    assert_int_equal(parse(), 0);
    assert_string_equal(bi.cmdline, "no end");
    assert_int_equal(bi.map.n, 2);
    expect_diags(1, "mb2: no end tag before total_size (+0x58)");
    /* an end tag with a wrong size still ends the list */
    mbi_begin();
    tag_sized(0, 16, "\0\0\0\0\0\0\0", 8);
    put32(buf, (uint32_t)off);
    assert_int_equal(parse(), 0);
    expect_diags(2, "mb2 end tag: size 16, expected 8", "mb2: no usable memory map tag (6 or 17)");
}

static void test_map_entry_sizes(void **state)
{
    /* entry_size below the §3.6.8 minimum */
    mbi_begin();
    map_tag(6, 16, qemu_e820, 2);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.map.n, 0);
    assert_string_equal(bi.map_source, "none");
    expect_diags(2, "mb2 tag 6 (memory map): entry size 16 < 24, ignored",
                 "mb2: no usable memory map tag (6 or 17)");
    /* entries that do not divide the tag */
    mbi_begin();
    uint8_t odd[48] = {24}; /* entry_size 24, entry_version 0, 40 bytes of entries */
    tag(6, odd, sizeof(odd));
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(bi.map.n, 0);
    expect_diags(2, "mb2 tag 6 (memory map): 40 bytes of entries not a multiple of 24, ignored",
                 "mb2: no usable memory map tag (6 or 17)");
    /* a tag too short for its own header */
    mbi_begin();
    tag(6, "\x18\0\0", 3);
    mbi_end();
    assert_int_equal(parse(), 0);
    expect_diags(2, "mb2 tag 6 (memory map): size 11 < 16, ignored",
                 "mb2: no usable memory map tag (6 or 17)");
    /* odd but valid strides: 28-byte entries put the u64 fields off 8-byte alignment */
    mbi_begin();
    map_tag(6, 28, qemu_e820, 8);
    mbi_end();
    assert_int_equal(parse(), 0);
    expect_diags(0);
    assert_int_equal(bi.map.n, 8);
    check_range(7, 0x100000000, 0x240000000, MEM_USABLE);
}

static void test_strings(void **state)
{
    char longname[100];
    memset(longname, 'g', 99);
    longname[99] = 0;
    mbi_begin();
    tag(1, "no terminator", 13);
    tag_str(2, longname);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_string_equal(bi.cmdline, "");
    assert_string_equal(bi.loader, "");
    expect_diags(3, "mb2 tag 1 (cmdline): no NUL in 13 bytes, ignored",
                 "mb2 tag 2 (loader name): 99 bytes, longer than 63, ignored",
                 "mb2: no usable memory map tag (6 or 17)");

    /* some loaders put the image path first: kept verbatim; a duplicate is ignored */
    mbi_begin();
    tag_str(1, "/boot/hugezero.elf on_exit=reboot");
    tag_str(1, "second");
    tag(2, "", 0);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_string_equal(bi.cmdline, "/boot/hugezero.elf on_exit=reboot");
    expect_diags(3, "mb2 tag 1: duplicate, ignored",
                 "mb2 tag 2 (loader name): no NUL in 0 bytes, ignored",
                 "mb2: no usable memory map tag (6 or 17)");
}

static void test_overflowing_entries(void **state)
{
    static const struct ent e820[] = {
        {0x100000, 0x100000, 1},
        {0xffffffffffff0000ull, 0x20000, 2},  /* past 2^64 */
        {0xfffffffffff00000ull, 0x100000, 2}, /* exactly to 2^64: clipped */
    };
    mbi_begin();
    map_tag(6, 24, e820, 3);
    mbi_end();
    assert_int_equal(parse(), 0);
    expect_diags(1, "mb2 tag 6 entry 1: base 0xffffffffffff0000 + length 0x20000 overflows "
                    "2^64, ignored");
    assert_int_equal(bi.map.n, 2);
    check_range(1, 0xfffffffffff00000ull, MEMMAP_END_MAX, MEM_RESERVED);

    static const struct ent efi[] = {
        {0x100000, 0x10, 7},
        {0x1000, 0x10000000000000ull, 7},  /* 2^52 pages: 2^64 bytes */
        {0xfffffffffff00000ull, 0x200, 0}, /* base + 2 MiB past 2^64 */
    };
    mbi_begin();
    map_tag(17, 40, efi, 3);
    mbi_end();
    assert_int_equal(parse(), 0);
    expect_diags(2, "mb2 tag 17 entry 1: 0x10000000000000 pages overflow 2^64, ignored",
                 "mb2 tag 17 entry 2: base 0xfffffffffff00000 + length 0x200000 overflows 2^64, "
                 "ignored");
    assert_int_equal(bi.map.n, 1);
    check_range(0, 0x100000, 0x110000, MEM_USABLE);
}

static void test_unusable_blocks(void **state)
{
    mbi_begin();
    tag_str(1, "x");
    mbi_end();
    assert_int_equal(mb2_parse(&bi, NULL, UINT64_MAX), -1);
    expect_diags(1, "mb2: info block at 0x0 is NULL, misaligned or past limit "
                    "0xffffffffffffffff");
    memmove(buf + 4, buf, off); /* misaligned copy */
    assert_int_equal(mb2_parse(&bi, buf + 4, UINT64_MAX), -1);
    memmove(buf, buf + 4, off);
    assert_int_equal(mb2_parse(&bi, buf, (uintptr_t)buf + 7), -1); /* header unreadable */
    assert_int_equal(bi.path, BOOT_UNKNOWN);
    put32(buf, 8);
    assert_int_equal(parse(), -1);
    expect_diags(1, "mb2: total_size 8 outside 16..1048576");
    put32(buf, (1u << 20) + 8);
    assert_int_equal(parse(), -1);
    assert_int_equal(bi.path, BOOT_UNKNOWN);
    assert_int_equal(bi.map.n, 0);
    assert_string_equal(bi.cmdline, "");
    expect_diags(1, "mb2: total_size 1048584 outside 16..1048576");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bios_good),
        cmocka_unit_test(test_efi_good),
        cmocka_unit_test(test_efi_fallbacks),
        cmocka_unit_test(test_acpi),
        cmocka_unit_test(test_modules),
        cmocka_unit_test(test_bad_tag_size),
        cmocka_unit_test(test_tag_past_limit),
        cmocka_unit_test(test_missing_end_tag),
        cmocka_unit_test(test_map_entry_sizes),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_overflowing_entries),
        cmocka_unit_test(test_unusable_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
