/*
 * arch/clear_mov_loop.c - the naive baseline: a C loop of 8-byte stores, one
 * per iteration, with byte stores for an unaligned head and a short tail.
 * Contract: any dst alignment, any size (arch/clear.h).
 *
 * The compiler must not turn this into a memset call or vector stores: the
 * kernel build has -mgeneral-regs-only -fno-tree-loop-distribute-patterns, the
 * host build HCFLAGS_clear_mov_loop (-fno-tree-vectorize
 * -fno-tree-loop-distribute-patterns), and the empty asm below hides the
 * pointer from loop-idiom recognition (clang has no flag for it) at no cost.
 */
#include "arch/clear.h"

typedef uint64_t __attribute__((may_alias)) word_t;

void clear_mov_loop(void *dst, size_t bytes)
{
    unsigned char *b = dst;

    while (bytes && ((uintptr_t)b & 7)) {
        *b++ = 0;
        bytes--;
    }
    word_t *w = (word_t *)b;
    for (; bytes >= 8; bytes -= 8) {
        *w++ = 0;
        __asm__("" : "+r"(w)); /* opaque pointer: keeps the loop a loop */
    }
    b = (unsigned char *)w;
    while (bytes--) {
        *b++ = 0;
        __asm__("" : "+r"(b));
    }
}
