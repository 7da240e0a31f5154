; arch/clear_movnti.asm - MOVNTI r64, non-temporal 8-byte stores (SSE2), then SFENCE
; MOVNTI m64, r64 (SDM Vol. 2B "MOVNTI"): a general-register store with a
; non-temporal hint: the line goes to a write-combining buffer, not the caches
; (SDM Vol. 1 §10.4.6.2). No alignment fault; 8-byte alignment keeps every
; store inside one line. Needs CPUID.1:EDX.SSE2[26] only (no SIMD state).
; SFENCE makes the weakly-ordered stores globally visible before return.
;
; void clear_movnti(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 8 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rdi, rsi, flags

bits 64
default rel

section .text
global clear_movnti:function (clear_movnti.end - clear_movnti)
align 64
clear_movnti:
    test    rsi, rsi
    jz      .done
    xor     eax, eax
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    movnti  [rdi + 0], rax
    movnti  [rdi + 8], rax
    movnti  [rdi + 16], rax
    movnti  [rdi + 24], rax
    movnti  [rdi + 32], rax
    movnti  [rdi + 40], rax
    movnti  [rdi + 48], rax
    movnti  [rdi + 56], rax
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    sfence
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
