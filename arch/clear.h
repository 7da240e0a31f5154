/*
 * arch/clear.h - the x86-64 memory-clearing strategies, side by side in one
 * table (arch/clear.c), with the checks and helpers the kernel,
 * tools/linux-bench and the unit tests share (the `clear` record they
 * print is measure/clear_record.h). docs/strategies.md explains
 * what each one measures.
 *
 * Every routine has the signature void clear_<name>(void *dst, size_t bytes)
 * and the System V AMD64 ABI (dst in RDI, bytes in RSI). It writes zero to
 * [dst, dst + bytes) and nothing else, returns nothing, and handles bytes == 0
 * by writing nothing. Each states a contract (dst alignment, bytes multiple);
 * calling it directly with input outside the contract is undefined (it may
 * fault or write past the end), which is why clear_checked() exists.
 * Non-temporal routines end with SFENCE, so their stores are globally
 * visible, in order with later stores, when they return (SDM Vol. 1 §10.4.6.2).
 * Vector routines use only xmm0/ymm0/zmm0 (caller-saved) and end with
 * VZEROUPPER after ymm/zmm use (Intel Optimization Manual: mixing AVX and SSE code).
 */
#ifndef HZ_ARCH_CLEAR_H
#define HZ_ARCH_CLEAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/cpu.h"

#define CLEAR_MAX_NEED 2 /* CPUID bits a row can require */
#define CLEAR_MAX_FAST 3 /* CPUID bits a row can list as making it faster */

/* One table row. Adding a strategy is one routine file and one row of
 * CLEAR_STRATEGIES below. */
struct clear_strategy {
    const char *name; /* "rep_stosb" ... (records, options) */
    void (*fn)(void *dst, size_t bytes);
    const char *insn;                        /* the store instruction(s), for docs/tables */
    struct cpu_feature need[CLEAR_MAX_NEED]; /* CPUID bits required ... */
    uint8_t n_need;                          /* ... how many of need[] are used */
    struct cpu_feature fast[CLEAR_MAX_FAST]; /* not required, reported: e.g. erms */
    uint8_t n_fast;
    bool simd;         /* uses XMM/YMM/ZMM: OS must enable SSE */
    uint64_t xcr0;     /* XCR0_* bits (arch/x86.h) the OS must have set (0: none) */
    bool line64;       /* clears whole cache lines: needs 64-byte lines */
    uint32_t align;    /* dst alignment, bytes (power of two) */
    uint32_t multiple; /* bytes must be a multiple of this */
    bool nontemporal;  /* stores bypass the caches (NT/WC or CLZERO) */
};

#define CLEAR_NEED1(f) .need = {f}, .n_need = 1

/*
 * The table, in a fixed order (cheapest instructions first): one
 * ROW(name, insn, fields...) per strategy, where the routine is
 * clear_<name> in arch/clear_<name>.asm (or .c; arch/rules.mk takes every
 * such file), insn is the `insn` member and the fields are the other
 * members of struct clear_strategy (XCR0_* come from arch/x86.h, which
 * arch/clear.c includes). The prototypes below and clear_strategies[] in
 * arch/clear.c are both made from it.
 */
#define CLEAR_STRATEGIES(ROW)                                                                      \
    ROW(mov_loop, "MOV r64 (C loop)", .align = 1, .multiple = 1)                                   \
    ROW(movq_unroll, "8 x MOV r64 per line", .align = 8, .multiple = 64)                           \
    ROW(rep_stosq, "REP STOSQ", .align = 8, .multiple = 8)                                         \
    ROW(rep_stosb, "REP STOSB", .align = 1, .multiple = 1,                                         \
        .fast = {X86_FEATURE_ERMS, X86_FEATURE_FSRM, X86_FEATURE_FSRS}, .n_fast = 3)               \
    ROW(sse2_store, "MOVDQA xmm", CLEAR_NEED1(X86_FEATURE_SSE2), .simd = true, .align = 16,        \
        .multiple = 64)                                                                            \
    ROW(avx_store, "VMOVDQA ymm", CLEAR_NEED1(X86_FEATURE_AVX), .simd = true,                      \
        .xcr0 = XCR0_YMM_STATE, .align = 32, .multiple = 64)                                       \
    ROW(avx512_store, "VMOVDQA64 zmm", CLEAR_NEED1(X86_FEATURE_AVX512F), .simd = true,             \
        .xcr0 = XCR0_ZMM_STATE, .align = 64, .multiple = 64)                                       \
    ROW(movnti, "MOVNTI r64 + SFENCE", CLEAR_NEED1(X86_FEATURE_SSE2), .align = 8, .multiple = 64,  \
        .nontemporal = true)                                                                       \
    ROW(sse2_nt, "MOVNTDQ xmm + SFENCE", CLEAR_NEED1(X86_FEATURE_SSE2), .simd = true, .align = 16, \
        .multiple = 64, .nontemporal = true)                                                       \
    ROW(avx_nt, "VMOVNTDQ ymm + SFENCE", CLEAR_NEED1(X86_FEATURE_AVX), .simd = true,               \
        .xcr0 = XCR0_YMM_STATE, .align = 32, .multiple = 64, .nontemporal = true)                  \
    ROW(avx512_nt, "VMOVNTDQ zmm + SFENCE", CLEAR_NEED1(X86_FEATURE_AVX512F), .simd = true,        \
        .xcr0 = XCR0_ZMM_STATE, .align = 64, .multiple = 64, .nontemporal = true)                  \
    ROW(clzero, "CLZERO + SFENCE", CLEAR_NEED1(X86_FEATURE_CLZERO), .line64 = true, .align = 64,   \
        .multiple = 64, .nontemporal = true)                                                       \
    ROW(movdir64b, "MOVDIR64B + SFENCE", CLEAR_NEED1(X86_FEATURE_MOVDIR64B), .align = 64,          \
        .multiple = 64, .nontemporal = true)                                                       \
    ROW(movdiri, "MOVDIRI r64 + SFENCE", CLEAR_NEED1(X86_FEATURE_MOVDIRI), .align = 8,             \
        .multiple = 64, .nontemporal = true)

/* The routines: void clear_<name>(void *dst, size_t bytes) for every row
 * (contract: the row's align and multiple, in bytes). */
#define CLEAR_PROTOTYPE(name, ...) void clear_##name(void *dst, size_t bytes);
CLEAR_STRATEGIES(CLEAR_PROTOTYPE)
#undef CLEAR_PROTOTYPE

/* The table, in a fixed order (cheapest instructions first). */
extern const struct clear_strategy clear_strategies[];
extern const size_t clear_strategy_count;

/* The row named `name`, or NULL (also for name NULL). */
const struct clear_strategy *clear_find(const char *name);

/*
 * The non-temporal strategy the reduced sweep of `run=default` measures
 * (lib/plan.h): the first supported of avx512_nt, avx_nt, sse2_nt and
 * movnti, widest stores first (64-, 32-, 16-, 8-byte NT stores: fewer
 * instructions per line into the same write-combining buffers, SDM Vol. 1
 * §10.4.6.2 and APM Vol. 1 §3.9.1). NULL when none is supported.
 */
const struct clear_strategy *clear_pick_nt(void);

/* True for the reduced set of `run=default`: rep_stosb (Linux's
 * clear_page_erms), rep_stosq (clear_page_rep), clear_pick_nt() and
 * clzero. Says nothing about support: check clear_supported() too. */
bool clear_quick_set(const struct clear_strategy *s);

/*
 * What the OS (or our kernel, arch/fpu.c) has enabled, read on the calling
 * CPU. Split out from clear_supported() so the decision can be tested with
 * made-up machines.
 */
struct clear_env {
    bool (*has)(struct cpu_feature f); /* CPUID bit test: cpu_has() */
    bool sse_on;                       /* SSE usable: CR4.OSFXSR=1, CR0.EM=0, CR0.TS=0 (SDM Vol. 3A
                                          §13.1); user space on Linux: always */
    bool osxsave;          /* CR4.OSXSAVE (hosted: CPUID.1:ECX.OSXSAVE[27], read live) */
    uint64_t xcr0;         /* XCR0 when osxsave, else 0 (hosted: XGETBV(0); kernel:
                              fpu_xcr0(), the value arch/fpu.c wrote) */
    uint32_t clflush_line; /* CPUID.1:EBX[15:8] * 8, bytes (cache line size) */
};

/* Fill *env for the calling CPU (uses cpu_has(): cpu_init() must have run;
 * in the kernel, after fpu_init() on this CPU). */
void clear_env_read(struct clear_env *env);

/*
 * True when the strategy can run under env. Otherwise false, and *missing
 * (when missing != NULL) names the first thing lacking: a CPUID feature
 * ("avx512f", "clzero", ...), "sse-disabled" (CR4.OSFXSR/CR0), "osxsave"
 * (XSAVE not enabled by the OS), "xcr0-ymm" (XCR0[2:1] not both set, SDM
 * Vol. 1 §14.3), "xcr0-zmm" (XCR0[7:5] not all set, SDM Vol. 1 §15.2), or
 * "line-not-64" (CLZERO assumed to clear 64-byte lines).
 */
bool clear_supported_env(const struct clear_strategy *s, const struct clear_env *env,
                         const char **missing);

/* clear_supported_env() with clear_env_read() of the calling CPU. */
bool clear_supported(const struct clear_strategy *s, const char **missing);

/*
 * True when (dst, bytes) meets the strategy's contract: dst aligned to
 * s->align, bytes a multiple of s->multiple, dst non-NULL unless bytes is 0,
 * and [dst, dst + bytes) not wrapping past the top of the address space.
 */
bool clear_contract_ok(const struct clear_strategy *s, const void *dst, size_t bytes);

/*
 * Clear through the table: -1 (nothing written) when clear_contract_ok() is
 * false, else s->fn(dst, bytes) and 0. Does not check CPU support: call
 * clear_supported() first (an unsupported routine raises #UD).
 */
int clear_checked(const struct clear_strategy *s, void *dst, size_t bytes);

/*
 * Fill [p, p + bytes) with a pattern in which no byte is zero, derived from
 * seed and the position (so every repeat can write different data). Any
 * alignment and size.
 */
void clear_dirty(void *p, size_t bytes, uint64_t seed);

/*
 * The same promise (no byte zero, the data derived from seed) at the speed
 * of the CPU's fast string stores: one repeated 8-byte word written with
 * REP STOSQ (arch/x86.h; the ends as clear_dirty() writes them). For
 * untimed dirtying of large targets; where the lines must end up in the
 * cache (a warm cell), use clear_dirty(): large string stores may bypass
 * it. Not what clear_dirty_check() checks. Any alignment and size.
 */
void clear_dirty_fast(void *p, size_t bytes, uint64_t seed);

/* True when [p, p + bytes) still holds exactly what clear_dirty(p, bytes,
 * seed) wrote; else false and *first = offset of the first byte that
 * differs. Any alignment and size; bytes 0 is true. */
bool clear_dirty_check(const void *p, size_t bytes, uint64_t seed, size_t *first);

/*
 * Evict [p, p + bytes) from every cache level: CLFLUSHOPT (CPUID.7:EBX[23]),
 * or CLFLUSH (CPUID.1:EDX[19]) on a CPU without it, of every `line`-byte
 * line (clear_env.clflush_line; 0 is taken as 64), then MFENCE, which
 * orders CLFLUSHOPT (SDM Vol. 2A "CLFLUSHOPT"). Legal at any CPL, unlike
 * WBINVD, and real under a hypervisor, where WBINVD may be a no-op. Dirty
 * lines are written back: the content does not change. Returns false, with
 * nothing done, when the CPU has neither instruction.
 */
bool clear_evict(const void *p, size_t bytes, uint32_t line);

/* True when [p, p + bytes) is all zero; otherwise false, *first = offset of the
 * first non-zero byte. bytes 0 is true. Any alignment. */
bool clear_verify_zero(const void *p, size_t bytes, size_t *first);

/*
 * clear_verify_zero() and then clear_dirty(p, bytes, seed) in one pass:
 * each 64-byte line is read and checked, then written with the pattern
 * while it is still in L1, so the check of one clear and the dirtying for
 * the next cost about one pass, not two. Returns what clear_verify_zero()
 * would have (with *first, may be NULL, the lowest non-zero offset); the
 * range is dirty afterwards either way. Any alignment and size.
 */
bool clear_verify_dirty(void *p, size_t bytes, uint64_t seed, size_t *first);

/* Guard bytes around a target: fill with `value`, and check they still all
 * equal it (false and *first = offset of the first changed byte). */
void clear_guard_fill(void *p, size_t bytes, uint8_t value);
bool clear_guard_check(const void *p, size_t bytes, uint8_t value, size_t *first);

#endif /* HZ_ARCH_CLEAR_H */
