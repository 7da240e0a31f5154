; arch/clear_movq_unroll.asm - eight 8-byte MOVs per 64-byte line
; The shape of Linux's clear_page_orig (arch/x86/lib/clear_page_64.S): plain
; temporal stores from a general register, unrolled to one cache line per
; iteration. Needs nothing beyond x86-64.
;
; void clear_movq_unroll(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 8 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rdi, rsi, flags

bits 64
default rel

section .text
global clear_movq_unroll:function (clear_movq_unroll.end - clear_movq_unroll)
align 64
clear_movq_unroll:
    test    rsi, rsi
    jz      .done
    xor     eax, eax
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    mov     [rdi + 0], rax
    mov     [rdi + 8], rax
    mov     [rdi + 16], rax
    mov     [rdi + 24], rax
    mov     [rdi + 32], rax
    mov     [rdi + 40], rax
    mov     [rdi + 48], rax
    mov     [rdi + 56], rax
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
