/*
 * fuzz/fuzz_mtrr.c - libFuzzer harness for MTRR and PAT decoding
 * (mm/mtrr.c; SDM Vol. 3A §11.11, §11.12, Table 11-7).
 *
 * Input (little-endian): u8 flags (bit 0 has_mtrr, bit 1 has_pat), u8
 * MAXPHYADDR, u64 MTRRCAP, u64 DEF_TYPE, u64 fixed[11], u64 PAT, then
 * (PHYSBASE, PHYSMASK) pairs up to the input's end or 32 pairs; the last
 * 16 bytes double as up to 8 range queries {u32 base page, u32 pages}.
 *
 * Checks: mtrr_decode returns MTRR_OK or an MTRR_E* code with a message;
 * every query answers with a known type; a "mixed" answer is consistent
 * (the part before `split` has first_type alone, the byte at `split` has
 * split_type); a single-type answer holds for the range's first and last
 * page too; the effective-type table only yields known types.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_check.h"
#include "mm/mtrr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool known(int t)
{
    return t == MC_UC || t == MC_WC || t == MC_WT || t == MC_WP || t == MC_WB || t == MC_MIXED ||
           t == MC_UNDEFINED || t == MC_NONE;
}

static int one_type(const struct mtrr_state *s, uint64_t b, uint64_t e)
{
    struct mtrr_range r;
    FUZZ_CHECK(mtrr_range_type(s, b, e, &r) == MTRR_OK);
    return r.type;
}

static void query(const struct mtrr_state *s, uint64_t b, uint64_t e)
{
    struct mtrr_range r;
    int rc = mtrr_range_type(s, b, e, &r);
    uint64_t top = 1ull << s->maxphyaddr;
    if (e <= b || e > top) {
        FUZZ_CHECK(rc == MTRR_EINVAL);
        return;
    }
    FUZZ_CHECK(rc == MTRR_OK && known(r.type) && known(r.first_type));
    if (r.type == MC_MIXED) {
        FUZZ_CHECK(r.split > b && r.split < e && r.split_type != r.first_type);
        FUZZ_CHECK(one_type(s, b, r.split) == r.first_type);
        FUZZ_CHECK(one_type(s, r.split, r.split + 1) == r.split_type);
    } else {
        FUZZ_CHECK(r.type == r.first_type);
        FUZZ_CHECK(one_type(s, b, b + 1) == r.type && one_type(s, e - 1, e) == r.type);
    }
    int eff = mtrr_pat0_type(s, b, e);
    FUZZ_CHECK(known(eff) || eff == MC_RESERVED);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mtrr_msrs raw;
    memset(&raw, 0, sizeof(raw));
    if (size < 2 + 8 * 14)
        return 0;
    raw.has_mtrr = data[0] & 1;
    raw.has_pat = (data[0] >> 1) & 1;
    raw.maxphyaddr = data[1];
    const uint8_t *p = data + 2;
    memcpy(&raw.cap, p, 8);
    memcpy(&raw.def_type, p + 8, 8);
    memcpy(raw.fixed, p + 16, 8 * MTRR_FIXED_MSRS);
    memcpy(&raw.pat, p + 16 + 8 * MTRR_FIXED_MSRS, 8);
    size_t off = 2 + 8 * 14;
    for (unsigned i = 0; i < MTRR_VAR_MAX && off + 16 <= size; i++, off += 16) {
        memcpy(&raw.physbase[i], data + off, 8);
        memcpy(&raw.physmask[i], data + off + 8, 8);
    }

    struct mtrr_state s;
    char err[160];
    int rc = mtrr_decode(&s, &raw, err, sizeof(err));
    FUZZ_CHECK(rc <= MTRR_OK && rc >= MTRR_ESTATE);
    FUZZ_CHECK(memchr(err, 0, sizeof(err)) && (rc == MTRR_OK || err[0]));
    char line[160];
    size_t lines = 0;
    for (size_t it = 0; mtrr_layout_line(&s, &it, line, sizeof(line)); lines++)
        FUZZ_CHECK(memchr(line, 0, sizeof(line)) && lines < 1000);
    static const int mtypes[] = {0, 1, 2, 3, 4, 5, 6, 7, MC_MIXED, MC_UNDEFINED, MC_NONE, -1};
    for (unsigned m = 0; m < sizeof(mtypes) / sizeof(mtypes[0]); m++)
        for (unsigned q = 0; q < 9; q++) {
            int eff = mem_cache_effective(mtypes[m], pat_entry_type(raw.pat, q));
            FUZZ_CHECK(known(eff) || eff == MC_RESERVED);
        }
    if (rc != MTRR_OK) {
        struct mtrr_range r;
        FUZZ_CHECK(mtrr_range_type(&s, 0, 4096, &r) == MTRR_ESTATE);
        return 0;
    }
    /* Queries from the input's last 16 bytes, in pages (and bytes for 1 MiB). */
    const uint8_t *qd = data + size - 16;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t pb, pn;
        memcpy(&pb, qd + 4 * i, 4);
        memcpy(&pn, qd + ((4 * i + 4) & 15), 4);
        uint64_t b = (uint64_t)pb << 12, e = b + ((uint64_t)(pn & 0xfffff) << 12);
        query(&s, b, e);
        query(&s, pb & 0xfffff, (pb & 0xfffff) + (pn & 0xfffff)); /* byte-granular below 1 MiB */
    }
    query(&s, 0, 1ull << s.maxphyaddr);
    return 0;
}
