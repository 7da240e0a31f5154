/*
 * arch/cpu.c - the CPUID table (SDM Vol. 2A "CPUID"; hypervisor leaves per
 * the Linux/KVM convention, leaf 0x40000000 = max leaf + 12-byte signature).
 */
#include "arch/cpu.h"
#include "arch/x86.h"
#include "lib/kstring.h"

#define BASIC_LEAVES 0x20u
#define EXT_LEAVES 0x22u /* up to 0x80000021 */

static uint32_t basic[BASIC_LEAVES][4]; /* subleaf 0 */
static uint32_t leaf7_1[4];             /* leaf 7 subleaf 1 */
static uint32_t ext[EXT_LEAVES][4];     /* 0x80000000 + i */
static struct cpu_ident ident;

static void copy_regs(char *dst, const uint32_t *regs, int n) { memcpy(dst, regs, (size_t)n * 4); }

void cpu_init(void)
{
    uint32_t r[4];

    memset(basic, 0, sizeof(basic));
    memset(ext, 0, sizeof(ext));
    memset(leaf7_1, 0, sizeof(leaf7_1));
    memset(&ident, 0, sizeof(ident));

    cpuid(0, 0, r);
    ident.max_leaf = r[0];
    copy_regs(ident.vendor, (uint32_t[]){r[1], r[3], r[2]}, 3);
    for (uint32_t l = 0; l < BASIC_LEAVES && l <= ident.max_leaf; l++)
        cpuid(l, 0, basic[l]);
    if (ident.max_leaf >= 7 && basic[7][0] >= 1)
        cpuid(7, 1, leaf7_1);

    cpuid(0x80000000u, 0, r);
    ident.max_ext_leaf = r[0] >= 0x80000000u ? r[0] : 0;
    for (uint32_t i = 0; i < EXT_LEAVES && 0x80000000u + i <= ident.max_ext_leaf; i++)
        cpuid(0x80000000u + i, 0, ext[i]);

    uint32_t eax = basic[1][0];
    uint32_t fam = (eax >> 8) & 0xf, mod = (eax >> 4) & 0xf;
    ident.stepping = eax & 0xf;
    ident.family = fam == 0xf ? fam + ((eax >> 20) & 0xff) : fam;
    ident.model = (fam == 0x6 || fam == 0xf) ? mod + (((eax >> 16) & 0xf) << 4) : mod;

    if (ident.max_ext_leaf >= 0x80000004u) {
        char b[49];
        copy_regs(b, ext[2], 4);
        copy_regs(b + 16, ext[3], 4);
        copy_regs(b + 32, ext[4], 4);
        b[48] = 0;
        const char *p = b;
        while (*p == ' ')
            p++;
        memcpy(ident.brand, p, strlen(p) + 1);
    }

    if (cpu_has(X86_FEATURE_HYPERVISOR)) {
        cpuid(0x40000000u, 0, r);
        copy_regs(ident.hypervisor, &r[1], 3);
    }
}

uint32_t cpu_leaf_reg(uint32_t leaf, uint32_t subleaf, enum cpuid_reg reg)
{
    if (leaf < BASIC_LEAVES && leaf <= ident.max_leaf) {
        if (leaf == 7 && subleaf == 1)
            return leaf7_1[reg];
        return subleaf == 0 ? basic[leaf][reg] : 0;
    }
    if (leaf >= 0x80000000u && leaf - 0x80000000u < EXT_LEAVES && leaf <= ident.max_ext_leaf)
        return subleaf == 0 ? ext[leaf - 0x80000000u][reg] : 0;
    return 0;
}

bool cpu_has(struct cpu_feature f)
{
    return (cpu_leaf_reg(f.leaf, f.subleaf, (enum cpuid_reg)f.reg) >> f.bit) & 1;
}

const struct cpu_ident *cpu_ident(void) { return &ident; }

bool cpu_is_tcg(void) { return strcmp(ident.hypervisor, "TCGTCGTCGTCG") == 0; }

/* The deterministic cache parameters leaf cpu_cache_bytes() reads, 0 for none. */
static uint32_t cache_leaf(void)
{
    if (ident.max_leaf >= 4 && strcmp(ident.vendor, "GenuineIntel") == 0)
        return 4;
    if (ident.max_ext_leaf >= 0x8000001du)
        return 0x8000001du;
    return ident.max_leaf >= 4 ? 4 : 0;
}

uint64_t cpu_cache_bytes(unsigned want_level)
{
    uint32_t leaf = cache_leaf(), r[4];
    if (!leaf)
        return 0;
    uint64_t best = 0;
    unsigned best_level = 0;
    for (uint32_t sub = 0; sub < 16; sub++) {
        cpuid(leaf, sub, r);
        unsigned type = r[0] & 0x1f, level = (r[0] >> 5) & 7;
        if (type == 0)
            break;
        if (type == 2) /* instruction cache */
            continue;
        uint64_t ways = ((r[1] >> 22) & 0x3ff) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1;
        uint64_t line = (r[1] & 0xfff) + 1, sets = (uint64_t)r[2] + 1;
        if (want_level ? level == want_level : level >= best_level) {
            best_level = level;
            best = ways * parts * line * sets;
        }
    }
    return best;
}

uint64_t cpu_llc_bytes(void) { return cpu_cache_bytes(0); }

const char *cpu_cache_source(void)
{
    if (!cpu_cache_bytes(0))
        return "none"; /* no leaf, or one listing no data cache (TCG's leaf 4) */
    return cache_leaf() == 4 ? "cpuid-4" : "cpuid-8000001d";
}
