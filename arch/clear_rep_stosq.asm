; arch/clear_rep_stosq.asm - REP STOSQ, the string-store microcode, 8 bytes
; per element
; STOS m64 with a REP prefix (SDM Vol. 2B "STOS", "REP"): stores RAX to [RDI]
; RCX times. The pre-ERMS fast string path (Linux clear_page_rep); needs
; nothing beyond x86-64.
;
; void clear_rep_stosq(void *dst, size_t bytes)    (System V AMD64 ABI)
;   contract: dst aligned to 8 bytes, bytes a multiple of 8 (arch/clear.h);
;             bytes == 0 writes nothing. Outside the contract the last
;             bytes % 8 bytes are left alone (bytes / 8 quadwords are stored).
;   in:       rdi = dst, rsi = bytes; DF = 0 (the ABI guarantees it)
;   out:      nothing (memory [dst, dst + bytes) is zero)
;   clobbers: rax, rcx, rdi, flags

bits 64
default rel

section .text
global clear_rep_stosq:function (clear_rep_stosq.end - clear_rep_stosq)
align 64
clear_rep_stosq:
    xor     eax, eax
    mov     rcx, rsi
    shr     rcx, 3
    rep stosq
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
