; arch/trap.asm - entry stubs for the exception vectors 0-31 and for the two
; interrupt vectors hugezero takes (TRAP_VECTOR_WAKE, TRAP_VECTOR_SPURIOUS in
; arch/trap.h: the values below must match).
;
; Each stub pushes a 0 error code when the CPU pushes none (SDM Vol. 3A
; Table 6-1: #DF, #TS, #NP, #SS, #GP, #PF, #AC, #CP, #VC, #SX push one), then
; the vector, then all general registers and the TSC read right after them
; (with tsc_start()'s fences: MFENCE; LFENCE; RDTSC; LFENCE),
; building struct trap_frame (arch/trap.h). trap_common calls trap_dispatch(frame) with RSP 16-byte
; aligned and returns with IRETQ if the handler returns.
; Clobbers: nothing visible to the interrupted code.

bits 64
section .text

extern trap_dispatch
global trap_stubs

%macro STUB 1
align 16
stub_%1:
%if (%1 == 8) || (%1 >= 10 && %1 <= 14) || (%1 == 17) || (%1 == 21) || (%1 == 29) || (%1 == 30)
%else
    push 0
%endif
    push %1
    jmp trap_common
%endmacro

%assign v 0
%rep 32
STUB %[v]
%assign v v + 1
%endrep
STUB 240                        ; TRAP_VECTOR_WAKE
STUB 255                        ; TRAP_VECTOR_SPURIOUS

trap_common:
    push r15
    push r14
    push r13
    push r12
    push r11
    push r10
    push r9
    push r8
    push rbp
    push rdi
    push rsi
    push rdx
    push rcx
    push rbx
    push rax
    mfence                      ; entry time for fault service timing, fenced as
    lfence                      ; arch/tsc.h tsc_start(): the windows timed inside a
    rdtsc                       ; handler (mm/demand.c's clear) then nest in this one
    lfence                      ; on one clock (SDM Vol. 2B "RDTSC")
    shl rdx, 32
    or rax, rdx
    push rax
    cld
    mov rdi, rsp
    mov rbx, rsp                ; callee-saved: restore RSP after aligning
    and rsp, -16
    call trap_dispatch
    mov rsp, rbx
    add rsp, 8                  ; entry TSC
    pop rax
    pop rbx
    pop rcx
    pop rdx
    pop rsi
    pop rdi
    pop rbp
    pop r8
    pop r9
    pop r10
    pop r11
    pop r12
    pop r13
    pop r14
    pop r15
    add rsp, 16                 ; vector, error code
    iretq

section .rodata
align 8
trap_stubs:                     ; uint64_t trap_stubs[32]
%assign v 0
%rep 32
    dq stub_%[v]
%assign v v + 1
%endrep
global trap_stub_wake, trap_stub_spurious
trap_stub_wake:
    dq stub_240
trap_stub_spurious:
    dq stub_255
