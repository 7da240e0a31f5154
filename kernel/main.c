/*
 * kernel/main.c - start-up, one step per line. boot/entry.asm calls kmain()
 * in long mode on the boot stack, with the first 4 GiB identity-mapped.
 */
#include "arch/acpi.h"
#include "arch/console.h"
#include "arch/cpu.h"
#include "arch/fpu.h"
#include "arch/gdt.h"
#include "arch/numa.h"
#include "arch/pmu.h"
#include "arch/steal.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "boot/bootinfo.h"
#include "kernel/exit.h"
#include "kernel/header.h"
#include "kernel/options.h"
#include "kernel/ownership.h"
#include "kernel/registry.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "mm/mm.h"
#include "mm/numa_report.h"
#include "mm/paging.h"

#define MB2_BOOTLOADER_MAGIC 0x36d76289u  /* Multiboot2 spec §3.2 */
#define EARLY_MAPPED_LIMIT 0x100000000ull /* boot/entry.asm maps 4 GiB */

void kmain(uint32_t proto, uint32_t info, uint32_t magic);

static struct bootinfo bi;

/* Parse the loader's information; nothing is printed yet (no console). */
static int parse_boot_info(uint32_t proto, uint32_t info, uint32_t magic)
{
    const void *p = (const void *)(uintptr_t)info;
    bootinfo_init(&bi);
    if (proto == BOOT_PROTO_PVH)
        return pvh_parse(&bi, p, EARLY_MAPPED_LIMIT);
    if (magic != MB2_BOOTLOADER_MAGIC) {
        boot_diag(&bi, "entered through the Multiboot2 entry with EAX 0x%x, not 0x%x", magic,
                  MB2_BOOTLOADER_MAGIC);
        return -1;
    }
    return mb2_parse(&bi, p, EARLY_MAPPED_LIMIT);
}

static void print_memmap(void)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    kprintf("memory map (%s):\n", bi.map_source ? bi.map_source : "none");
    for (size_t i = 0; i < bi.map.n; i++) {
        const struct mem_range *m = &bi.map.r[i];
        kprintf("  [0x%016llx-0x%016llx) %-8s %llu KiB\n", (unsigned long long)m->base,
                (unsigned long long)m->end, mem_type_name(m->type),
                (unsigned long long)((m->end - m->base) >> 10));
        rec_begin(&r, buf, sizeof(buf), "memmap");
        rec_hex(&r, "base", m->base);
        rec_hex(&r, "end", m->end);
        rec_u64(&r, "bytes", m->end - m->base);
        rec_str(&r, "type", mem_type_name(m->type));
        record_emit(&r);
    }
}

/* One `module` record per boot module (Multiboot2 tag 3, PVH modlist). The
 * human line shows the string only through the record's JSON escaping. */
static void print_modules(void)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    for (size_t i = 0; i < bi.nmodules; i++) {
        const struct boot_module *m = &bi.modules[i];
        kprintf("boot: module %zu: [0x%llx-0x%llx) %llu bytes\n", i, (unsigned long long)m->start,
                (unsigned long long)m->end, (unsigned long long)(m->end - m->start));
        rec_begin(&r, buf, sizeof(buf), "module");
        rec_u64(&r, "index", i);
        rec_hex(&r, "start", m->start);
        rec_hex(&r, "end", m->end);
        rec_u64(&r, "bytes", m->end - m->start);
        rec_str(&r, "cmdline", m->cmdline);
        record_emit(&r);
    }
}

static struct tsc_refs clocks;

/* SSE2 is architectural in x86-64, but an emulator can hide it; without it
 * MFENCE/LFENCE (the timing fences) raise #UD. SDM Vol. 2A "MFENCE". */
static void require_cpu(void)
{
    if (cpu_has(X86_FEATURE_SSE2))
        return;
    kprintf("hugezero: this CPU lacks sse2 (CPUID 1 EDX[26]), needed for the MFENCE/LFENCE "
            "timing fences; nothing can be measured\n");
    result_skip("cpu.sse2", "missing CPU feature sse2");
    hz_exit(HZ_CONFIG);
}

/* ACPI tables (parsed before the header, which shows the NUMA topology):
 * CPUs for SMP, clocks for TSC calibration, reset and S5. */
static void init_acpi(void)
{
    char line[256];
    const struct acpi_info *ai = acpi_get();
    if (!ai->ok)
        kprintf("acpi: no usable ACPI tables\n");
    for (size_t i = 0; i < ai->diag.n; i++)
        kprintf("acpi: %s\n", ai->diag.msg[i]);
    if (!ai->ok)
        return;
    acpi_summary(ai, line, sizeof(line));
    kprintf("acpi: %s\n", line);
    if (ai->fadt.present && ai->fadt.pm_timer.space == ACPI_SPACE_IO &&
        ai->fadt.pm_timer.addr < 0x10000) {
        clocks.pm_timer_port = (uint16_t)ai->fadt.pm_timer.addr;
        clocks.pm_timer_32bit = ai->fadt.pm_timer_32bit;
    }
    if (ai->hpet.present && ai->hpet.base.space == ACPI_SPACE_MEM &&
        ai->hpet.base.addr < (1ull << 32))
        clocks.hpet_base = ai->hpet.base.addr;
}

static void selftest(int kind)
{
    kprintf("selftest: raising %s on purpose\n", selftest_names[kind]);
    switch (kind) {
    case SELFTEST_UD:
        __asm__ volatile("ud2");
        break;
    case SELFTEST_PF: /* canonical, never mapped */
        *(volatile uint64_t *)0x00007f0000000000ull = 1;
        break;
    case SELFTEST_GP: /* non-canonical */
        *(volatile uint64_t *)0x8000000000000000ull = 1;
        break;
    case SELFTEST_DE: {
        uint64_t zero = 0, hi = 0, lo = 1;
        __asm__ volatile("divq %2" : "+a"(lo), "+d"(hi) : "r"(zero));
        break;
    }
    case SELFTEST_BP:
        __asm__ volatile("int3");
        break;
    }
    result_fail("selftest", "%s did not raise an exception", selftest_names[kind]);
}

/* The end of a crash (arch/trap.h): the summary with status crash. */
static void crash_exit(void) { hz_exit(HZ_CRASH); }

/* steal_selftest=pool's frame (arch/steal.h): a free 2 MiB frame, left free. */
static int spare_frame(uint64_t *pa)
{
    if (frames_alloc(mm_frames(), PAGE_SIZE_2M, FRAMES_NO_LIMIT, pa) != FRAMES_OK)
        return -1;
    frames_free(mm_frames(), *pa, PAGE_SIZE_2M); /* free again: the pool may take it */
    return 0;
}

void kmain(uint32_t proto, uint32_t info, uint32_t magic)
{
    uint64_t kmain_tsc = rdtsc();        /* the kernel's start: the plan record's kstart_ms */
    hz_exit_set_hook(verdict_at_exit);   /* every end, the earliest too, decides the verdict */
    console_set_mapper(vm_map_uncached); /* an MMIO console's registers, uncached (mm/vm.h) */
    steal_set_frame_source(spare_frame); /* steal_selftest=pool's free frame, from mm/ */
    int boot_ok = parse_boot_info(proto, info, magic); /* before any output */
    console_early(bi.cmdline, &bi.map);                /* console=, checked against the map */
    console_init();                                    /* COM1 or console=, until ACPI */
    cpu_init();                                        /* CPUID table: before anything asks */
    gdt_init_cpu(0, 0);                                /* TSS with IST stacks, before the IDT */
    trap_set_crash_hook(crash_exit);                   /* a crash ends the run: status crash */
    idt_init();                                        /* crash reports from here on */
    unsigned fpu = fpu_init(); /* x87/SSE/AVX/AVX-512 state for strategies */

    acpi_init(&bi); /* silent: init_acpi() prints; reads the BIOS area at 0x40E */
    console_auto(acpi_get(), &bi.map); /* console=auto: SPCR, PCI UART or COM1 */
    numa_init(&bi.map);                /* the topology, for the header */
    kprintf("\nhugezero: starting\n");
    for (size_t i = 0; i < bi.ndiag; i++)
        kprintf("boot: %s\n", bi.diag[i]);
    header_emit(&bi, cpu_has(X86_FEATURE_PDPE1GB) ? "1G" : "2M"); /* first record */
    print_memmap();
    print_modules();
    char fpubuf[64];
    fpu_describe(fpu, fpubuf, sizeof(fpubuf));
    kprintf("fpu: enabled %s\n", fpubuf);
    require_cpu();           /* before any fenced TSC read */
    init_acpi();             /* the ACPI lines; acpi_init() ran before the header */
    tsc_calibrate(&clocks);  /* after ACPI: PM timer and HPET as references */
    pmu_report();            /* the pmu record, every boot: counters there and counting? */
    ownership_snapshot(&bi); /* before anything could write what we don't own */

    if (registries_check() < 0) /* twin rows: before options_parse(), their first look-up */
        hz_exit(HZ_CRASH);
    if (console_refused()) /* options_parse() reports it as a config error */
        kprintf("hugezero: console= not applied: %s\n", console_refused());
    if (bi.cmdline_too_long) { /* the loader's line was dropped: nothing of it applies */
        options_config_error("cmdline", "", "the command line is longer than 1023 bytes",
                             "at most 1023 bytes");
        hz_exit(HZ_CONFIG);
    }
    if (options_parse(bi.cmdline) < 0) /* bad option: stop with "config" */
        hz_exit(HZ_CONFIG);
    if (opt_help) {
        options_print_help();
        scenarios_print_help();
        hz_exit(HZ_PASS);
    }
    struct frame_excl bx[MM_BOOT_EXCL];
    size_t nbx = 0, lost = bootinfo_exclusions(&bi, bx, &nbx, MM_BOOT_EXCL);
    if (mm_init(&bi.map, bx, nbx, lost) < 0) /* frames + page tables: before any benchmark */
        hz_exit(HZ_FAIL);
    numa_report(); /* the numa record: a frame from every node, after mm_init */
    user_init();   /* measurement CPL: after mm_init (stacks) and fpu_init */
    smp_init(&bi); /* APs from the MADT: after mm_init (AP stacks, trampoline page), TSC, options */
    if (boot_ok < 0 || bi.ndiag) { /* e.g. a command line that could not be read */
        result_fail("boot.info",
                    "%zu problem(s) in the boot information (see boot: lines); "
                    "nothing is run on a configuration that was not read whole",
                    bi.ndiag + bi.ndiag_dropped);
        hz_exit(result_status());
    }
    result_pass("boot.info");
    if (opt_selftest != SELFTEST_NONE)
        selftest(opt_selftest);
    scenarios_run(kmain_tsc); /* run=: after mm_init, fpu_init, TSC, ACPI and SMP */

    verdict_run_complete(); /* hz_exit's verdict is the whole run's, not an early end's */

    ownership_check();        /* last: nothing we don't own changed */
    hz_exit(result_status()); /* the verdict after the PV teardown, then the summary */
}
