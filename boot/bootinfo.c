/*
 * boot/bootinfo.c - the boot-information structure shared by the Multiboot2
 * (boot/multiboot2.c) and PVH (boot/pvh.c) parsers: reset, diagnostics and
 * the checked reads both parsers use on loader-supplied memory.
 */
#include "boot/bootinfo.h"

#include <stdarg.h>

#include "lib/fmt.h"
#include "lib/kstring.h"

void bootinfo_init(struct bootinfo *bi)
{
    memset(bi, 0, sizeof(*bi));
    bi->path = BOOT_UNKNOWN;
    bi->map_source = "none";
    memmap_init(&bi->map);
}

void boot_diag(struct bootinfo *bi, const char *fmt, ...)
{
    if (bi->ndiag >= BOOT_DIAG_MAX) {
        bi->ndiag_dropped++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    hz_vsnprintf(bi->diag[bi->ndiag++], BOOT_DIAG_LEN, fmt, ap);
    va_end(ap);
}

static size_t add_excl(struct frame_excl *x, size_t *n, size_t cap, uint64_t base, uint64_t len,
                       const char *reason)
{
    if (*n >= cap)
        return 1;
    uint64_t end = len > UINT64_MAX - base ? UINT64_MAX : base + len;
    x[(*n)++] = (struct frame_excl){base, end, reason};
    return 0;
}

size_t bootinfo_exclusions(const struct bootinfo *bi, struct frame_excl *x, size_t *n, size_t cap)
{
    size_t dropped = 0;
    if (bi->info_end > bi->info_start)
        dropped +=
            add_excl(x, n, cap, bi->info_start, bi->info_end - bi->info_start, "boot information");
    for (size_t i = 0; i < bi->nmodules; i++)
        dropped += add_excl(x, n, cap, bi->modules[i].start,
                            bi->modules[i].end - bi->modules[i].start, "boot module");
    if (bi->rsdp_paddr)
        dropped += add_excl(x, n, cap, bi->rsdp_paddr, 36, "ACPI RSDP");
    return dropped;
}

const char *boot_path_name(enum boot_path p)
{
    switch (p) {
    case BOOT_MB2_BIOS:
        return "multiboot2-bios";
    case BOOT_MB2_EFI:
        return "multiboot2-efi";
    case BOOT_PVH:
        return "pvh";
    default:
        return "unknown";
    }
}

bool boot_readable(uint64_t addr, uint64_t len, uint64_t limit)
{
    return addr != 0 && addr < limit && len <= limit - addr;
}

int boot_copy_str(struct bootinfo *bi, const char *what, char *dst, size_t cap, const char *src,
                  size_t avail)
{
    size_t n = 0;
    dst[0] = '\0';
    while (n < avail && src[n] != '\0')
        n++;
    if (n == avail) {
        boot_diag(bi, "%s: no NUL in %zu bytes, ignored", what, avail);
        return -1;
    }
    if (n >= cap) {
        boot_diag(bi, "%s: %zu bytes, longer than %zu, ignored", what, n, cap - 1);
        return -2;
    }
    memcpy(dst, src, n + 1);
    return 0;
}
