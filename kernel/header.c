/*
 * kernel/header.c - the run's header record and banner.
 */
#include "kernel/header.h"
#include "arch/console.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "arch/numa.h"
#include "build/buildflags.h"
#include "build/version.h"
#include "kernel/cpu_record.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "mm/numa_report.h"

void header_emit(const struct bootinfo *bi, const char *page_size)
{
    const struct cpu_ident *id = cpu_ident();
    uint64_t usable = memmap_usable_bytes(&bi->map);
    uint64_t frames = memmap_count_1g(&bi->map);
    struct cpu_microcode mc;
    cpu_microcode_read(&mc); /* after idt_init: a #GP is caught */

    kprintf("hugezero %s (%s), booted by %s via %s\n", HZ_VERSION, HZ_COMMIT,
            bi->loader[0] ? bi->loader : "(no loader name)", boot_path_name(bi->path));
    kprintf("build: %s, %s\n", HZ_CC_VERSION, HZ_CFLAGS);
    kprintf("cpu: %s, family 0x%x model 0x%x stepping %u%s%s\n",
            id->brand[0] ? id->brand : id->vendor, id->family, id->model, id->stepping,
            id->hypervisor[0] ? ", hypervisor " : "", id->hypervisor);
    if (mc.known)
        kprintf("microcode: 0x%x (%s)\n", mc.rev, mc.source);
    else
        kprintf("microcode: %s\n", mc.source);
    uint64_t l1d = cpu_cache_bytes(1), l2 = cpu_cache_bytes(2), l3 = cpu_cache_bytes(3);
    char sz[3][24];
    kprintf("cache: L1d %s, L2 %s, L3 %s (%s)\n", l1d ? fmt_size(sz[0], sizeof(sz[0]), l1d) : "-",
            l2 ? fmt_size(sz[1], sizeof(sz[1]), l2) : "-",
            l3 ? fmt_size(sz[2], sizeof(sz[2]), l3) : "-", cpu_cache_source());
    kprintf("memory: %llu MiB usable in %zu ranges, %llu 1 GiB-aligned frames\n",
            (unsigned long long)(usable >> 20), bi->map.n, (unsigned long long)frames);
    if (cpu_is_tcg())
        kprintf("note: running under QEMU TCG: timings are emulator figures, not hardware\n");

    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "header");
    rec_str(&r, "version", HZ_VERSION);
    rec_str(&r, "commit", HZ_COMMIT);
    rec_str(&r, "cc", HZ_CC);
    rec_str(&r, "cc_version", HZ_CC_VERSION);
    rec_str(&r, "cflags", HZ_CFLAGS);
    rec_str(&r, "boot", boot_path_name(bi->path));
    rec_str(&r, "loader", bi->loader);
    rec_str(&r, "cmdline", bi->cmdline);
    rec_cpu_members(&r);
    rec_microcode(&r, &mc);
    rec_obj_begin(&r, "cache"); /* sizes 0: the leaf lists no such level */
    rec_u64(&r, "l1d_bytes", l1d);
    rec_u64(&r, "l2_bytes", l2);
    rec_u64(&r, "l3_bytes", l3);
    rec_str(&r, "source", cpu_cache_source());
    rec_obj_end(&r);
    rec_obj_begin(&r, "mem");
    rec_u64(&r, "usable_bytes", usable);
    rec_u64(&r, "frames_1g", frames);
    rec_u64(&r, "ranges", bi->map.n);
    rec_str(&r, "source", bi->map_source);
    rec_obj_end(&r);
    numa_rec_member(&r);
    rec_str(&r, "page_size", page_size);
    char backing[24] = ""; /* the option is checked later, by options_parse() */
    if (cmdline_find(bi->cmdline, "backing", backing, sizeof(backing)) != 1)
        backing[0] = 0;
    rec_str(&r, "backing", verdict_backing(backing));
    console_rec_uart(&r);
    record_emit(&r);
}
