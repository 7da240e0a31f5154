/*
 * fuzz/fuzz_multiboot2.c - libFuzzer harness for the Multiboot2 information
 * parser (boot/multiboot2.c, Multiboot2 spec 2.0 §3.6). The input is the
 * information block, copied to an 8-byte aligned heap buffer of exactly its
 * size, and `limit` is the buffer's end: ASan reports any read past it.
 *
 * Checks: mb2_parse returns 0 or -1; the boot information is well-formed
 * (fuzz/fuzz_check.h: terminated strings, counts in range, normalised map);
 * and the frame allocator accepts the exclusions built from it and hands
 * out only owned memory.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bootinfo.h"
#include "fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bootinfo bi;
static struct frames frames;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t *mbi = malloc(size); /* malloc aligns to 16; ASan knows the exact size */
    FUZZ_CHECK(mbi && ((uintptr_t)mbi & 7) == 0);
    memcpy(mbi, data, size);
    uint64_t limit = (uint64_t)(uintptr_t)mbi + size;
    int rc = mb2_parse(&bi, mbi, limit);
    FUZZ_CHECK(rc == 0 || rc == -1);
    fuzz_check_bootinfo(&bi);
    if (rc == -1)
        FUZZ_CHECK(bi.path == BOOT_UNKNOWN && bi.map.n == 0);
    else
        FUZZ_CHECK(bi.path == BOOT_MB2_BIOS || bi.path == BOOT_MB2_EFI);

    struct frame_excl x[FRAMES_MAX_EXCL];
    size_t nx = 0;
    x[nx++] = (struct frame_excl){0, 0x100000, "first MiB"};
    FUZZ_CHECK(bootinfo_exclusions(&bi, x, &nx, FRAMES_MAX_EXCL) == 0);
    fuzz_check_frames(&frames, &bi.map, x, nx,
                      size > 8 ? data[8] | (uint32_t)data[size - 1] << 8 : 0);
    free(mbi);
    return 0;
}
