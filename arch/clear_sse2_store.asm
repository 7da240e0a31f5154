; arch/clear_sse2_store.asm - MOVDQA xmm, temporal 16-byte stores (SSE2)
; MOVDQA m128, xmm (SDM Vol. 2B "MOVDQA"): #GP unless dst is 16-byte aligned.
; Needs CPUID.1:EDX.SSE2[26] and the OS to enable SSE (CR4.OSFXSR, SDM Vol. 3A §2.5).
;
; void clear_sse2_store(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 16 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: xmm0, rdi, rsi, flags

bits 64
default rel

section .text
global clear_sse2_store:function (clear_sse2_store.end - clear_sse2_store)
align 64
clear_sse2_store:
    test    rsi, rsi
    jz      .done
    pxor    xmm0, xmm0
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    movdqa  [rdi + 0], xmm0
    movdqa  [rdi + 16], xmm0
    movdqa  [rdi + 32], xmm0
    movdqa  [rdi + 48], xmm0
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
