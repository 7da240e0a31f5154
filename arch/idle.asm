; arch/idle.asm - how a parked CPU waits at CPL 0 for a word to change
; (arch/idle.h; kernel/smp_work.c). Written in assembly so the order of
; the instructions is the one below and not the compiler's:
; tests/tools/test_disasm.py checks it in build/hugezero.elf.

section .text
bits 64

; uint64_t idle_hlt(volatile uint64_t *word, uint64_t seen)
; In: RDI = word, RSI = value seen. IF = 0 on entry and on return.
; Out: RAX = *word after the wait. Clobbers nothing else.
; STI's interrupt shadow holds interrupts off until after the next
; instruction (SDM Vol. 2B "STI"), so STI must be right before HLT: a wake
; IPI that arrives after the check is then taken only inside HLT, which it
; ends, instead of being handled before HLT and lost.
global idle_hlt
idle_hlt:
    mov rax, [rdi]
    cmp rax, rsi
    jne .out
    sti
    hlt
    cli
    mov rax, [rdi]
.out:
    ret

; uint64_t idle_mwait(volatile uint64_t *word, uint64_t seen)
; In: RDI = word (its cache line is monitored), RSI = value seen. IF = 0.
; Out: RAX = *word after the wait. Clobbers RCX, RDX.
; MONITOR: RAX = address, ECX = 0 (no extensions), EDX = 0 (no hints);
; then the word is read again: a store between the caller's check and
; MONITOR would not end MWAIT. MWAIT: EAX = 0 (hint: C1), ECX = 0 (no
; extensions: with IF = 0 an interrupt does not end it; a store to the
; line does). SDM Vol. 2B "MONITOR", "MWAIT"; AMD APM Vol. 3 "MONITOR",
; "MWAIT".
global idle_mwait
idle_mwait:
    mov rax, rdi
    xor ecx, ecx
    xor edx, edx
    monitor
    mov rax, [rdi]
    cmp rax, rsi
    jne .out
    xor eax, eax
    xor ecx, ecx
    mwait
    mov rax, [rdi]
.out:
    ret
