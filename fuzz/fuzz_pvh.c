/*
 * fuzz/fuzz_pvh.c - libFuzzer harness for the PVH start_info parser
 * (boot/pvh.c, Xen public/arch-x86/hvm/start_info.h). The input is
 * physical memory with the hvm_start_info at its start (fuzz/fuzz_arena.h);
 * the pointers the parser follows (modlist_paddr, cmdline_paddr,
 * memmap_paddr) are made host-readable with fuzz_arena_addr(); rsdp_paddr is
 * left as given (the parser only records it).
 *
 * Checks: pvh_parse returns 0 or -1; the boot information is well-formed
 * (fuzz/fuzz_check.h); the frame allocator accepts the exclusions built
 * from it (a rsdp_paddr near 2^64 once made mm_init fail) and hands out only
 * owned memory.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "boot/bootinfo.h"
#include "fuzz/fuzz_arena.h"
#include "fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bootinfo bi;
static struct frames frames;

static void fix_addr(uint64_t base, size_t size, size_t off)
{
    uint64_t p;
    if (off + 8 > size)
        return;
    memcpy(&p, (void *)(uintptr_t)(base + off), 8);
    p = fuzz_arena_addr(base, p);
    memcpy((void *)(uintptr_t)(base + off), &p, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t base = fuzz_arena_load(data, &size);
    fix_addr(base, size, 16); /* modlist_paddr */
    fix_addr(base, size, 24); /* cmdline_paddr */
    fix_addr(base, size, 40); /* memmap_paddr (version >= 1) */
    int rc = pvh_parse(&bi, (const void *)(uintptr_t)base, FUZZ_ARENA_END);
    FUZZ_CHECK(rc == 0 || rc == -1);
    fuzz_check_bootinfo(&bi);
    FUZZ_CHECK(bi.path == (rc == 0 ? BOOT_PVH : BOOT_UNKNOWN));

    struct frame_excl x[FRAMES_MAX_EXCL];
    size_t nx = 0;
    x[nx++] = (struct frame_excl){0, 0x100000, "first MiB"};
    FUZZ_CHECK(bootinfo_exclusions(&bi, x, &nx, FRAMES_MAX_EXCL) == 0);
    uint32_t pattern = size >= 12 ? data[8] | (uint32_t)data[11] << 8 : 0;
    fuzz_check_frames(&frames, &bi.map, x, nx, pattern);
    return 0;
}
