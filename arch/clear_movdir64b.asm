; arch/clear_movdir64b.asm - MOVDIR64B, 64-byte direct stores of a zero line, then SFENCE
; MOVDIR64B r64, m512 (SDM Vol. 2B "MOVDIR64B", CPUID.7.0:ECX.MOVDIR64B[28])
; reads 64 bytes from the source and writes them to the 64-byte-aligned
; destination (#GP otherwise) as one 64-byte write with the WC protocol,
; evicting the line from the caches: a non-temporal full-line store. The
; source is `zero_line` below, which stays in L1. Weakly ordered: SFENCE.
;
; void clear_movdir64b(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 64 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rdi, rsi, flags

bits 64
default rel

section .text
global clear_movdir64b:function (clear_movdir64b.end - clear_movdir64b)
align 64
clear_movdir64b:
    test    rsi, rsi
    jz      .done
    lea     rax, [zero_line]
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    movdir64b rdi, [rax]
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    sfence
.done:
    ret
.end:

section .rodata progbits alloc noexec nowrite align=64
align 64
zero_line:                              ; MOVDIR64B source
    times 64 db 0

section .note.GNU-stack noalloc noexec nowrite progbits
