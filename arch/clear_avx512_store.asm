; arch/clear_avx512_store.asm - VMOVDQA64 zmm, temporal 64-byte stores (AVX-512F)
; VMOVDQA64 m512, zmm (SDM Vol. 2B "MOVDQA"): #GP unless dst is 64-byte
; aligned, so one store fills one cache line. Needs CPUID.7.0:EBX.AVX512F[16],
; CR4.OSXSAVE and XCR0[7:5] and XCR0[2:1] all set (SDM Vol. 1 §15.2). Only
; zmm0 is used (VZEROUPPER then clears its upper bits; zmm16-31 untouched).
;
; void clear_avx512_store(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 64 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: zmm0, bits 511:128 of zmm1-15 (VZEROUPPER), rdi, rsi, flags

bits 64
default rel

section .text
global clear_avx512_store:function (clear_avx512_store.end - clear_avx512_store)
align 64
clear_avx512_store:
    test    rsi, rsi
    jz      .done
    vpxor   xmm0, xmm0, xmm0            ; VEX.128 zeroes zmm0 bits 511:128 too
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    vmovdqa64 [rdi], zmm0
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    vzeroupper
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
