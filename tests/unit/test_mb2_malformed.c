/*
 * tests/unit/test_mb2_malformed.c - boot/multiboot2.c on broken Multiboot2
 * information blocks (spec §3.6): tag sizes past total_size or the readable
 * limit, a missing end tag, bad memory-map entry sizes, unterminated or long
 * strings, entries overflowing 2^64, and blocks that cannot be read at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootinfo.h"
#include "tests/unit/mb2_build.h"

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
    assert_false(bi.cmdline_too_long); /* unterminated: malformed, not too long */

    /* a command line over 1023 bytes is dropped and flagged (a config error) */
    static char longline[BOOT_CMDLINE_MAX + 1];
    memset(longline, 'x', BOOT_CMDLINE_MAX);
    mbi_begin();
    tag_str(1, longline);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_string_equal(bi.cmdline, "");
    assert_true(bi.cmdline_too_long);
    expect_diags(2, "mb2 tag 1 (cmdline): 1024 bytes, longer than 1023, ignored",
                 "mb2: no usable memory map tag (6 or 17)");
    longline[BOOT_CMDLINE_MAX - 1] = 0;
    mbi_begin();
    tag_str(1, longline);
    mbi_end();
    assert_int_equal(parse(), 0);
    assert_int_equal(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
    assert_false(bi.cmdline_too_long);

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
        cmocka_unit_test(test_bad_tag_size),    cmocka_unit_test(test_tag_past_limit),
        cmocka_unit_test(test_missing_end_tag), cmocka_unit_test(test_map_entry_sizes),
        cmocka_unit_test(test_strings),         cmocka_unit_test(test_overflowing_entries),
        cmocka_unit_test(test_unusable_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
