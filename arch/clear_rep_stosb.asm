; arch/clear_rep_stosb.asm - REP STOSB, the string-store microcode
; STOS m8 with a REP prefix (SDM Vol. 2B "STOS", "REP"): stores AL to [RDI]
; RCX times. On CPUs with ERMS (CPUID.7.0:EBX[9]) the microcode uses full
; cache-line writes for long strings ("Enhanced REP MOVSB and STOSB", Intel
; Optimization Manual); FSRS (CPUID.7.1:EAX[11]) speeds up short ones. Linux
; uses it as clear_page_erms and for clear_pages(). The table reports ERMS,
; FSRM and FSRS; none is required.
;
; void clear_rep_stosb(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: any dst alignment, any bytes (0 writes nothing).
;   in:       rdi = dst, rsi = bytes; DF = 0 (the ABI guarantees it)
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rcx, rdi

bits 64
default rel

section .text
global clear_rep_stosb:function (clear_rep_stosb.end - clear_rep_stosb)
align 64
clear_rep_stosb:
    xor     eax, eax
    mov     rcx, rsi
    rep stosb
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
