; arch/clear_clzero.asm - CLZERO, zero one cache line per instruction (AMD), then SFENCE
; CLZERO (AMD APM Vol. 3 "CLZERO", CPUID Fn8000_0008_EBX[0]) writes zero to
; every byte of the cache line that holds the address in rAX, with a
; non-temporal, write-combining protocol; it is weakly ordered, hence SFENCE.
; The routine assumes 64-byte lines: clear_supported() refuses it unless
; CPUID.1:EBX[15:8] * 8 (the CLFLUSH line size) is 64. dst must be line
; aligned or the bytes before dst in its line would be cleared too.
;
; void clear_clzero(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 64 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rdi, rsi, flags

bits 64
default rel

section .text
global clear_clzero:function (clear_clzero.end - clear_clzero)
align 64
clear_clzero:
    test    rsi, rsi
    jz      .done
    mov     rax, rdi
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    clzero                              ; the line holding [rax]
    add     rax, 64
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    sfence
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
