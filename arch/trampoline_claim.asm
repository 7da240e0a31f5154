; arch/trampoline_claim.asm - TRAMP_CLAIM (arch/trampoline_claim.inc) as a C
; function, for the host test only (the kernel runs the macro inline in
; arch/trampoline.asm, where there is no stack to call with).
;
; struct tramp_slot *tramp_claim(struct tramp_slot *table, uint32_t n,
;                                uint32_t apic_id)  - System V AMD64 ABI
; In: RDI = table, ESI = n, EDX = apic_id. Out: RAX = slot taken or 0.
; Clobbers: RCX, RSI, R8, flags (all caller-saved).

%include "trampoline.inc"
%include "arch/trampoline_claim.inc"

bits 64
section .text
global tramp_claim
tramp_claim:
    mov ecx, esi
    mov rsi, rdi
    TRAMP_CLAIM
    mov rax, rsi
    ret

section .note.GNU-stack noalloc noexec nowrite progbits
