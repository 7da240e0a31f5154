/*
 * fuzz/fuzz_pvh.c - libFuzzer harness for the PVH start_info parser
 * (boot/pvh.c, Xen public/arch-x86/hvm/start_info.h). The input is
 * physical memory with the hvm_start_info at its start (fuzz/fuzz_arena.h);
 * the pointers the parser follows (modlist_paddr, cmdline_paddr,
 * memmap_paddr and each module's cmdline_paddr) are made host-readable with
 * fuzz_arena_addr(); rsdp_paddr is left as given (the parser only records
 * it).
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

/* Resolve the address at host address `at` when it lies in the input;
 * returns the resolved value (0 when it does not lie there). */
static uint64_t fix_addr(uint64_t base, uint64_t at)
{
    uint64_t p;
    if (at < base || at > FUZZ_ARENA_END - 8)
        return 0;
    memcpy(&p, (void *)(uintptr_t)at, 8);
    p = fuzz_arena_addr(base, p);
    memcpy((void *)(uintptr_t)at, &p, 8);
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t base = fuzz_arena_load(data, &size);
    uint64_t modlist = fix_addr(base, base + 16); /* modlist_paddr */
    fix_addr(base, base + 24);                    /* cmdline_paddr */
    fix_addr(base, base + 40);                    /* memmap_paddr (version >= 1) */
    uint32_t nr = 0;
    if (size >= 16)
        memcpy(&nr, data + 12, 4);
    for (uint32_t i = 0; modlist && i < nr && i < BOOT_MODULES_MAX; i++)
        fix_addr(base, modlist + 32ull * i + 16); /* hvm_modlist_entry.cmdline_paddr */
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
