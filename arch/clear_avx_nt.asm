; arch/clear_avx_nt.asm - VMOVNTDQ ymm, non-temporal 32-byte stores (AVX), then SFENCE
; VMOVNTDQ m256, ymm (SDM Vol. 2B "MOVNTDQ"): #GP unless dst is 32-byte
; aligned. Needs AVX, CR4.OSXSAVE and XCR0[2:1] = 11b (SDM Vol. 1 §14.3).
;
; void clear_avx_nt(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 32 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: ymm0, bits 255:128 of ymm1-15 (VZEROUPPER), rdi, rsi, flags

bits 64
default rel

section .text
global clear_avx_nt:function (clear_avx_nt.end - clear_avx_nt)
align 64
clear_avx_nt:
    test    rsi, rsi
    jz      .done
    vpxor   xmm0, xmm0, xmm0            ; VEX.128 zeroes ymm0 bits 255:128 too
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    vmovntdq [rdi], ymm0
    vmovntdq [rdi + 32], ymm0
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    vzeroupper
    sfence
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
