; arch/clear_avx_store.asm - VMOVDQA ymm, temporal 32-byte stores (AVX)
; VMOVDQA m256, ymm (SDM Vol. 2B "MOVDQA"): #GP unless dst is 32-byte aligned.
; Needs CPUID.1:ECX.AVX[28], CR4.OSXSAVE and XCR0[2:1] = 11b (SDM Vol. 1
; §14.3). VZEROUPPER before returning avoids AVX-SSE transition penalties in
; the caller (Intel Optimization Manual, mixing AVX and SSE code).
;
; void clear_avx_store(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 32 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: ymm0, bits 255:128 of ymm1-15 (VZEROUPPER), rdi, rsi, flags

bits 64
default rel

section .text
global clear_avx_store:function (clear_avx_store.end - clear_avx_store)
align 64
clear_avx_store:
    test    rsi, rsi
    jz      .done
    vpxor   xmm0, xmm0, xmm0            ; VEX.128 zeroes ymm0 bits 255:128 too
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    vmovdqa [rdi], ymm0
    vmovdqa [rdi + 32], ymm0
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    vzeroupper
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
