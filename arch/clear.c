/*
 * arch/clear.c - the clear-strategy table, the CPU/OS support check, the
 * contract check, and the dirty/verify/guard helpers (arch/clear.h).
 * Portable C: built for the kernel and for host user space (HZ_HOSTED).
 *
 * Feature facts: SSE2/AVX/AVX-512F/MOVDIR64B from SDM Vol. 2A "CPUID"
 * (leaf 1 EDX[26], ECX[28]; leaf 7 EBX[16], ECX[28]); CLZERO from AMD APM
 * Vol. 3 "CLZERO" (CPUID Fn8000_0008 EBX[0]); ERMS/FSRM/FSRS from SDM Vol. 1
 * §3.7 / Intel Optimization Manual "Enhanced REP MOVSB and STOSB".
 */
#include "arch/clear.h"
#include "arch/fpu.h"
#include "arch/x86.h"
#include "lib/kstring.h"

/* Word access to memory also written bytewise (and by asm): no aliasing games. */
typedef uint64_t __attribute__((may_alias)) word_t;

#define CLEAR_ROW(n, i, ...) {.name = #n, .fn = clear_##n, .insn = i, __VA_ARGS__},
const struct clear_strategy clear_strategies[] = {CLEAR_STRATEGIES(CLEAR_ROW)};
#undef CLEAR_ROW
const size_t clear_strategy_count = sizeof(clear_strategies) / sizeof(clear_strategies[0]);

const struct clear_strategy *clear_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < clear_strategy_count; i++)
        if (strcmp(clear_strategies[i].name, name) == 0)
            return &clear_strategies[i];
    return NULL;
}

const struct clear_strategy *clear_pick_nt(void)
{
    static const char *const widest_first[] = {"avx512_nt", "avx_nt", "sse2_nt", "movnti"};
    const char *missing;
    for (size_t i = 0; i < sizeof(widest_first) / sizeof(widest_first[0]); i++) {
        const struct clear_strategy *s = clear_find(widest_first[i]);
        if (s && clear_supported(s, &missing))
            return s;
    }
    return NULL;
}

bool clear_quick_set(const struct clear_strategy *s)
{
    return s && (strcmp(s->name, "rep_stosb") == 0 || strcmp(s->name, "rep_stosq") == 0 ||
                 strcmp(s->name, "clzero") == 0 || s == clear_pick_nt());
}

void clear_env_read(struct clear_env *env)
{
    env->has = cpu_has;
    env->clflush_line = ((cpu_leaf_reg(1, 0, CPUID_EBX) >> 8) & 0xff) * 8;
#ifdef HZ_HOSTED
    uint32_t r[4];
    cpuid(1, 0, r); /* live OSXSAVE (CPUID.1:ECX[27] mirrors CR4.OSXSAVE) */
    env->osxsave = (r[2] >> 27) & 1;
    env->xcr0 = env->osxsave ? xgetbv(0) : 0;
    env->sse_on = true; /* every x86-64 OS enables SSE for user space */
#else
    /* Our own control registers; XCR0 as arch/fpu.c wrote it (no XGETBV in
     * the kernel, see there). */
    uint64_t cr4 = read_cr4();
    env->osxsave = (cr4 & CR4_OSXSAVE) != 0;
    env->xcr0 = env->osxsave ? fpu_xcr0() : 0;
    env->sse_on = (cr4 & CR4_OSFXSR) && !(read_cr0() & (CR0_EM | CR0_TS));
#endif
}

bool clear_supported_env(const struct clear_strategy *s, const struct clear_env *env,
                         const char **missing)
{
    const char *why = NULL;

    for (unsigned i = 0; i < s->n_need && !why; i++)
        if (!env->has(s->need[i]))
            why = s->need[i].name;
    if (!why && s->simd && !env->sse_on)
        why = "sse-disabled";
    if (!why && s->xcr0) {
        if (!env->osxsave)
            why = "osxsave";
        else if ((env->xcr0 & (s->xcr0 & XCR0_YMM_STATE)) != (s->xcr0 & XCR0_YMM_STATE))
            why = "xcr0-ymm";
        else if ((env->xcr0 & s->xcr0) != s->xcr0)
            why = "xcr0-zmm";
    }
    if (!why && s->line64 && env->clflush_line != 64)
        why = "line-not-64";
    if (missing)
        *missing = why;
    return why == NULL;
}

bool clear_supported(const struct clear_strategy *s, const char **missing)
{
    struct clear_env env;
    clear_env_read(&env);
    return clear_supported_env(s, &env, missing);
}

bool clear_contract_ok(const struct clear_strategy *s, const void *dst, size_t bytes)
{
    uintptr_t a = (uintptr_t)dst;

    if (!s)
        return false;
    if (bytes == 0)
        return true;
    return dst && (a & (s->align - 1)) == 0 && bytes % s->multiple == 0 &&
           bytes - 1 <= UINTPTR_MAX - a;
}

int clear_checked(const struct clear_strategy *s, void *dst, size_t bytes)
{
    if (!clear_contract_ok(s, dst, bytes))
        return -1;
    s->fn(dst, bytes);
    return 0;
}

/* The dirty pattern for the 8-byte word at address 8k: bit 0 of every byte set. */
static uint64_t dirty_word(uintptr_t k, uint64_t seed)
{
    return ((k + seed) * 0x9e3779b97f4a7c15ull) | 0x0101010101010101ull;
}

static uint8_t dirty_byte(uintptr_t addr, uint64_t seed)
{
    return (uint8_t)(dirty_word(addr / 8, seed) >> (8 * (addr % 8)));
}

void clear_dirty(void *p, size_t bytes, uint64_t seed)
{
    uint8_t *b = p;
    uintptr_t a = (uintptr_t)p;

    while (bytes && (a % 8)) {
        *b++ = dirty_byte(a++, seed);
        bytes--;
    }
    for (word_t *w = (word_t *)b; bytes >= 8; bytes -= 8, a += 8, b += 8)
        *w++ = dirty_word(a / 8, seed);
    while (bytes--)
        *b++ = dirty_byte(a++, seed);
}

void clear_dirty_fast(void *p, size_t bytes, uint64_t seed)
{
    uint8_t *b = p;
    size_t head = (size_t)(-(uintptr_t)p % 8);
    if (head > bytes)
        head = bytes;
    clear_dirty(b, head, seed);
    size_t words = (bytes - head) / 8;
    rep_stosq(b + head, dirty_word(0, seed), words);
    clear_dirty(b + head + words * 8, bytes - head - words * 8, seed);
}

bool clear_dirty_check(const void *p, size_t bytes, uint64_t seed, size_t *first)
{
    const uint8_t *b = p;
    uintptr_t a = (uintptr_t)p;
    size_t i = 0;
    for (; i < bytes && (a + i) % 8; i++)
        if (b[i] != dirty_byte(a + i, seed))
            return *first = i, false;
    for (; bytes - i >= 8; i += 8)
        if (*(const word_t *)(b + i) != dirty_word((a + i) / 8, seed))
            break; /* the byte loop below finds which byte */
    for (; i < bytes; i++)
        if (b[i] != dirty_byte(a + i, seed))
            return *first = i, false;
    return true;
}

bool clear_evict(const void *p, size_t bytes, uint32_t line)
{
    const char *c = p;
    bool opt = cpu_has(X86_FEATURE_CLFLUSHOPT);
    if (!opt && !cpu_has(X86_FEATURE_CLFLUSH))
        return false;
    if (!line)
        line = 64;
    for (size_t off = 0; off < bytes; off += line) {
        if (opt)
            clflushopt(c + off);
        else
            clflush(c + off);
    }
    mfence();
    return true;
}

bool clear_verify_zero(const void *p, size_t bytes, size_t *first)
{
    const uint8_t *b = p;
    size_t i = 0;

    while (i < bytes && ((uintptr_t)(b + i) % 8)) {
        if (b[i])
            goto found;
        i++;
    }
    while (bytes - i >= 64) {
        const word_t *w = (const word_t *)(b + i);
        if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
            break; /* the byte loop below finds it */
        i += 64;
    }
    for (; i < bytes; i++)
        if (b[i])
            goto found;
    return true;
found:
    if (first)
        *first = i;
    return false;
}

bool clear_verify_dirty(void *p, size_t bytes, uint64_t seed, size_t *first)
{
    uint8_t *b = p;
    uintptr_t a = (uintptr_t)p;
    size_t i = 0, bad = SIZE_MAX;
    for (; i < bytes && (a + i) % 64; i++) {
        if (b[i] && bad == SIZE_MAX)
            bad = i;
        b[i] = dirty_byte(a + i, seed);
    }
    for (; bytes - i >= 64; i += 64) { /* one line: read it, then write it while it is in L1 */
        word_t *w = (word_t *)(b + i);
        if ((w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) && bad == SIZE_MAX)
            for (size_t k = 0; k < 64; k++)
                if (b[i + k]) {
                    bad = i + k;
                    break;
                }
        for (unsigned k = 0; k < 8; k++)
            w[k] = dirty_word((a + i) / 8 + k, seed);
    }
    for (; i < bytes; i++) {
        if (b[i] && bad == SIZE_MAX)
            bad = i;
        b[i] = dirty_byte(a + i, seed);
    }
    if (bad != SIZE_MAX && first)
        *first = bad;
    return bad == SIZE_MAX;
}

void clear_guard_fill(void *p, size_t bytes, uint8_t value)
{
    uint8_t *b = p;
    for (size_t i = 0; i < bytes; i++)
        b[i] = value;
}

bool clear_guard_check(const void *p, size_t bytes, uint8_t value, size_t *first)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < bytes; i++) {
        if (b[i] != value) {
            if (first)
                *first = i;
            return false;
        }
    }
    return true;
}
