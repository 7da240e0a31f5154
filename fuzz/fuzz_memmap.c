/*
 * fuzz/fuzz_memmap.c - libFuzzer harness for memory-map normalisation
 * (mm/memmap.c) and the frame layout built on it (mm/frames.c,
 * mm/frames_layout.c).
 *
 * Input (little-endian): u8 exclusion count (low 3 bits), u32 allocation
 * pattern, that many exclusions {u64 base, u64 len}, then map entries
 * {u64 base, u64 len, u32 type} until the input ends.
 *
 * Checks: the normalised map is sorted, disjoint, merged and page-trimmed;
 * normalising is idempotent; no byte that an added entry marked non-usable
 * is usable afterwards; both ends of every usable range came from a usable
 * entry; and the frame allocator over it hands out only aligned, disjoint
 * frames wholly inside usable RAM and outside every exclusion
 * (fuzz_check_frames).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_check.h"
#include "mm/memmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ENTRIES_MAX (MEMMAP_MAX + 16) /* a few past the table: MEMMAP_FULL */

static struct memmap map, again;
static struct frames frames;
static struct mem_range added[ENTRIES_MAX];

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static bool in_usable_entry(size_t n, uint64_t a)
{
    for (size_t i = 0; i < n; i++)
        if (added[i].type == MEM_USABLE && added[i].base <= a && a < added[i].end)
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    size_t nx = data[0] & 7;
    uint32_t pattern;
    memcpy(&pattern, data + 1, 4);
    size_t off = 5;
    struct frame_excl x[8];
    for (size_t i = 0; i < nx; i++, off += 16) {
        if (off + 16 > size)
            return 0;
        uint64_t b = rd64(data + off), len = rd64(data + off + 8);
        x[i] = (struct frame_excl){b, len > UINT64_MAX - b ? UINT64_MAX : b + len, "fuzz"};
    }

    memmap_init(&map);
    size_t n = 0;
    for (; off + 20 <= size && n < ENTRIES_MAX; off += 20) {
        uint64_t b = rd64(data + off), len = rd64(data + off + 8);
        uint32_t type;
        memcpy(&type, data + off + 16, 4);
        int rc = memmap_add(&map, b, len, type);
        FUZZ_CHECK(rc == MEMMAP_OK || rc == MEMMAP_EMPTY || rc == MEMMAP_OVERFLOW ||
                   rc == MEMMAP_FULL);
        if (rc == MEMMAP_OK) {
            uint64_t e = len > MEMMAP_END_MAX - b ? MEMMAP_END_MAX : b + len;
            added[n++] = (struct mem_range){b, e, type};
        }
    }
    memmap_normalise(&map);
    fuzz_check_map(&map);
    again = map;
    memmap_normalise(&again);
    FUZZ_CHECK(memcmp(&again, &map, sizeof(map)) == 0);

    for (size_t i = 0; i < map.n; i++) {
        const struct mem_range *r = &map.r[i];
        if (r->type != MEM_USABLE)
            continue;
        for (size_t k = 0; k < n; k++)
            if (added[k].type != MEM_USABLE)
                FUZZ_CHECK(!fuzz_overlaps(r->base, r->end, added[k].base, added[k].end));
        FUZZ_CHECK(in_usable_entry(n, r->base) && in_usable_entry(n, r->end - 1));
    }
    (void)memmap_usable_bytes(&map);
    (void)memmap_count_1g(&map);
    fuzz_check_frames(&frames, &map, x, nx, pattern);
    return 0;
}
