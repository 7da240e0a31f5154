; arch/user.asm - run a kernel function at CPL 3 and come back (arch/user.h).
;
; user_enter(fn, arg, user_rsp, rsp0_slot)
;   In:  RDI fn, RSI arg, RDX user stack top (16-byte aligned), RCX &TSS.RSP0
;   Out: nothing; returns when fn(arg) returns at CPL 3.
;   Saves RBX, RBP, R12-R15 on the kernel stack, points TSS.RSP0 just below
;   them (16-byte aligned, as the CPU would align it, §6.14.2), and IRETQs to user_entry at CPL 3 (IF=0, IOPL=0). user_entry calls
;   fn(arg) and executes UD2 at user_return. The #UD is delivered through
;   the IDT on the TSS.RSP0 stack (SDM Vol. 3A §6.14.2); arch/user.c's #UD
;   handler recognises the address and calls user_unwind(RSP0), which pops
;   the saved registers and returns to user_enter's caller. An exception,
;   rather than SYSCALL or INT n, because every hypervisor must deliver
;   ring-3 exceptions to the guest kernel, while PVM-style ones handle
;   SYSCALL and INT 0x80 from ring 3 themselves. DS/ES are left null by the
;   return to CPL 3 (their DPL is 0), which 64-bit mode ignores.

bits 64
section .text

%define USER_CS 0x33             ; arch/gdt.h GDT_USER_CS
%define USER_DS 0x2b             ; arch/gdt.h GDT_USER_DS

global user_enter, user_return, user_unwind
user_enter:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    sub rsp, 8                  ; RSP0 16-byte aligned: the CPU aligns it anyway
    mov [rcx], rsp              ; TSS.RSP0
    mov r12, rdi                ; fn, callee-saved across the ring switch
    mov rdi, rsi                ; arg
    push USER_DS                ; SS
    push rdx                    ; RSP
    push 0x2                    ; RFLAGS: IF = 0, IOPL = 0
    push USER_CS                ; CS
    lea rax, [rel user_entry]
    push rax                    ; RIP
    iretq

align 16
user_entry:                     ; CPL 3
    call r12
user_return:
    ud2                         ; back to CPL 0 through #UD

; user_unwind(rsp0): RDI = the RSP0 value user_enter stored. Never returns
; to its caller: resumes user_enter's caller.
align 16
user_unwind:
    mov rsp, rdi
    add rsp, 8                  ; padding
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
