; arch/clear_movdiri.asm - MOVDIRI r64, 8-byte direct stores, then SFENCE
; MOVDIRI m64, r64 (SDM Vol. 2B "MOVDIRI", CPUID.7.0:ECX.MOVDIRI[27]): a
; general-register store done as a direct store with the WC protocol,
; whatever the memory type, evicting the line from the caches if it is
; there: no read-for-ownership. The 8-byte sibling of MOVDIR64B (Sapphire
; Rapids has both), and the direct-store counterpart of MOVNTI's
; non-temporal hint: eight of them fill a line in the write-combining
; buffer. Weakly ordered: SFENCE before return. 8-byte alignment keeps every
; store inside one line (and atomic, as the SDM requires for a quadword).
;
; void clear_movdiri(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 8 bytes, bytes a multiple of 64 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract: undefined (the
;             loop stops at most 63 bytes past dst + bytes, it never runs away).
;   in:       rdi = dst, rsi = bytes
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rdi, rsi, flags

bits 64
default rel

section .text
global clear_movdiri:function (clear_movdiri.end - clear_movdiri)
align 64
clear_movdiri:
    test    rsi, rsi
    jz      .done
    xor     eax, eax
align 16
.line:                                  ; one 64-byte line per iteration (16-aligned)
    movdiri [rdi + 0], rax
    movdiri [rdi + 8], rax
    movdiri [rdi + 16], rax
    movdiri [rdi + 24], rax
    movdiri [rdi + 32], rax
    movdiri [rdi + 40], rax
    movdiri [rdi + 48], rax
    movdiri [rdi + 56], rax
    add     rdi, 64
    sub     rsi, 64
    ja      .line                       ; CF=0 and ZF=0: bytes left
    sfence
.done:
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
