/*
 * kernel/ownership.c - start/end checksums of memory the kernel must not
 * write (FNV-1a 64 over 8-byte words; any change flips the sum with
 * overwhelming probability).
 */
#include "kernel/ownership.h"
#include "arch/acpi.h"
#include "kernel/smp.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/results.h"

extern char __kernel_start[], __data_start[];

#define MAX_REGIONS 80
#define EARLY_MAPPED 0x100000000ull /* identity-mapped at snapshot time */

struct region {
    const char *cls; /* "kernel", "bootinfo", "acpi", "module" */
    uint64_t base, len, sum;
};

static struct region regions[MAX_REGIONS];
static unsigned nregions;

static uint64_t fnv64(uint64_t base, uint64_t len)
{
    const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)base;
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void add(const char *cls, uint64_t base, uint64_t len)
{
    if (len && nregions < MAX_REGIONS)
        regions[nregions++] = (struct region){cls, base, len, fnv64(base, len)};
}

void ownership_snapshot(const struct bootinfo *bi)
{
    const struct acpi_tables *t = &acpi_get()->tables;
    nregions = 0;
    add("kernel", (uintptr_t)__kernel_start, (uintptr_t)__data_start - (uintptr_t)__kernel_start);
    add("bootinfo", bi->info_start, bi->info_end - bi->info_start);
    for (size_t i = 0; i < t->n; i++)
        add("acpi", t->t[i].addr, t->t[i].length);
    size_t nmod = 0;
    for (size_t i = 0; i < bi->nmodules; i++) {
        const struct boot_module *m = &bi->modules[i];
        if (m->end > EARLY_MAPPED) { /* not mapped yet: say so rather than fault */
            kprintf("ownership: module %zu above 4 GiB, not checksummed\n", i);
            continue;
        }
        add("module", m->start, m->end - m->start);
        nmod++;
    }
    kprintf("ownership: %u regions checksummed (kernel text+rodata, boot information, %zu ACPI "
            "tables, %zu boot modules)\n",
            nregions, t->n, nmod);
}

void ownership_check(void)
{
    static const char *const cls[] = {"kernel", "bootinfo", "acpi", "module"};
    for (unsigned c = 0; c < sizeof(cls) / sizeof(cls[0]); c++) {
        unsigned n = 0, bad = 0;
        uint64_t first = 0;
        for (unsigned i = 0; i < nregions; i++) {
            if (regions[i].cls != cls[c])
                continue;
            n++;
            if (fnv64(regions[i].base, regions[i].len) != regions[i].sum && !bad++)
                first = regions[i].base;
        }
        char name[32];
        hz_snprintf(name, sizeof(name), "ownership.%s", cls[c]);
        if (!n && c == 3) /* "module": most runs have none, nothing to report */
            continue;
        if (!n)
            result_skip(name, "nothing to check");
        else if (bad)
            result_fail(name, "%u of %u regions changed during the run (first at 0x%llx)", bad, n,
                        (unsigned long long)first);
        else
            result_pass(name);
    }
    smp_pv_check(); /* ownership.steal: the host writes only the kernel's own steal records */
}
