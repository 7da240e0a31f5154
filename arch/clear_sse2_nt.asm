; arch/clear_sse2_nt.asm - MOVNTDQ xmm, non-temporal 16-byte stores (SSE2), then SFENCE
; MOVNTDQ m128, xmm (SDM Vol. 2B "MOVNTDQ"): #GP unless dst is 16-byte
; aligned; four stores fill one write-combining buffer (a 64-byte line), the
; best case for WC (SDM Vol. 1 §10.4.6.2). Needs SSE2 and CR4.OSFXSR.
;
; void clear_sse2_nt(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 16 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: xmm0, rdi, rsi, flags

bits 64
default rel

section .text
global clear_sse2_nt:function (clear_sse2_nt.end - clear_sse2_nt)
align 64
clear_sse2_nt:
    test    rsi, rsi
    jz      .done
    pxor    xmm0, xmm0
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    movntdq [rdi + 0], xmm0
    movntdq [rdi + 16], xmm0
    movntdq [rdi + 32], xmm0
    movntdq [rdi + 48], xmm0
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    sfence
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
