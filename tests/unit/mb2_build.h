/*
 * tests/unit/mb2_build.h - builds Multiboot2 information blocks (spec §3.6)
 * tag by tag in an 8-byte aligned buffer, as GRUB lays them out for BIOS and
 * UEFI, and checks what boot/multiboot2.c made of them. Shared by
 * tests/unit/test_multiboot2.c and tests/unit/test_mb2_malformed.c.
 */
#ifndef HZ_TESTS_MB2_BUILD_H
#define HZ_TESTS_MB2_BUILD_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootinfo.h"

static _Alignas(8) uint8_t buf[64 * 1024];
static size_t off;
static struct bootinfo bi;

static inline void mbi_begin(void)
{
    memset(buf, 0xee, sizeof(buf)); /* garbage past the block must not be read */
    off = 8;
}

static inline void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Append a tag whose `size` field says `size` (normally 8 + len). */
static inline void tag_sized(uint32_t type, uint32_t size, const void *payload, uint32_t len)
{
    put32(buf + off, type);
    put32(buf + off + 4, size);
    if (len)
        memcpy(buf + off + 8, payload, len);
    memset(buf + off + 8 + len, 0, 7);
    off += (8 + len + 7) & ~7u;
}

static inline void tag(uint32_t type, const void *payload, uint32_t len)
{
    tag_sized(type, 8 + len, payload, len);
}

static inline void tag_str(uint32_t type, const char *s) { tag(type, s, (uint32_t)strlen(s) + 1); }

static inline void mbi_end(void)
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
static inline void map_tag(uint32_t type, uint32_t stride, const struct ent *e, size_t n)
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
static inline void expect_diags(size_t n, ...)
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

static inline void check_range(size_t i, uint64_t base, uint64_t end, uint32_t type)
{
    assert_true(i < bi.map.n);
    assert_int_equal(bi.map.r[i].base, base);
    assert_int_equal(bi.map.r[i].end, end);
    assert_int_equal(bi.map.r[i].type, type);
}

/* The whole map: w[i].len is the expected end here. */
static inline void check_ranges(const struct ent *w, size_t n)
{
    assert_int_equal(bi.map.n, n);
    for (size_t i = 0; i < n; i++)
        check_range(i, w[i].base, w[i].len, w[i].type);
}

static inline int parse(void) { return mb2_parse(&bi, buf, UINT64_MAX); }

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

/* A tag 3 for [start, end) with string s (slen bytes, NUL included; at most
 * 8 bytes under 512). */
static inline void module(uint32_t start, uint32_t end, const char *s, size_t slen)
{
    uint8_t p[512];
    put32(p, start);
    put32(p + 4, end);
    memcpy(p + 8, s, slen);
    tag(3, p, (uint32_t)(8 + slen));
}

#endif /* HZ_TESTS_MB2_BUILD_H */
