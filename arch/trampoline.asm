; arch/trampoline.asm - AP start-up: real mode -> protected mode -> long mode
; (SDM Vol. 3A §9.4.4.2 AP start-up, §10.9.1 switching to protected mode,
; §10.8.5 initializing IA-32e mode). The page layout and the parameter block
; are defined once in arch/trampoline.h; trampoline.inc is generated from it.
;
; smp_trampoline..smp_trampoline_end is copied by kernel/smp.c to a 4 KiB
; page below 1 MiB and never runs where it is linked: everything in it is
; addressed relative to the page (DS = CS in real mode, EBX = page base
; after). smp_ap_entry64 runs in place, in the kernel's text.
;
; State on arrival (START-UP IPI, §9.4.4.2): real mode, CS = page >> 4,
; IP = 0, interrupts off (the IF flag is clear after INIT), no stack.

%include "trampoline.inc"
%include "arch/trampoline_claim.inc"

section .rodata
align 16
bits 16
global smp_trampoline, smp_trampoline_end
smp_trampoline:
    cli
    cld
    mov ax, cs
    mov ds, ax
    mov dword [TRAMP_PARAMS + TRAMP_P_STAGE], TRAMP_STAGE_REAL
    ; EBX = linear address of the page; the far pointer and the GDTR base
    ; depend on it, so the AP writes them itself.
    xor ebx, ebx
    mov bx, ax
    shl ebx, 4
    lea eax, [ebx + (gdt - smp_trampoline)]
    mov [TRAMP_PARAMS + TRAMP_P_GDT_BASE], eax
    mov word [TRAMP_PARAMS + TRAMP_P_GDT_LIMIT], gdt_end - gdt - 1
    lea eax, [ebx + (pm32 - smp_trampoline)]
    mov [TRAMP_PARAMS + TRAMP_P_PM_OFF], eax
    mov word [TRAMP_PARAMS + TRAMP_P_PM_SEL], TRAMP_CS32
    o32 lgdt [TRAMP_PARAMS + TRAMP_P_GDT_LIMIT]
    mov eax, cr0
    and eax, ~((1 << 30) | (1 << 29)) ; CD, NW: INIT leaves them set (CR0 = 60000010H,
                                      ; SDM Vol. 3A Table 10-1): caches on
    or eax, 1                   ; CR0.PE
    mov cr0, eax
    jmp dword far [TRAMP_PARAMS + TRAMP_P_PM_OFF]

; In: EBX = page base. Clobbers EAX, ECX, EDX.
bits 32
pm32:
    mov ax, TRAMP_DS
    mov ds, ax
    mov es, ax
    mov ss, ax
    mov dword [ebx + TRAMP_PARAMS + TRAMP_P_STAGE], TRAMP_STAGE_PROT
    mov eax, [ebx + TRAMP_PARAMS + TRAMP_P_CR4]
    mov cr4, eax                ; PAE (and PGE as on the boot CPU)
    mov eax, [ebx + TRAMP_PARAMS + TRAMP_P_CR3]
    mov cr3, eax                ; the kernel's PML4 (below 4 GiB)
    mov ecx, 0xc0000080         ; IA32_EFER
    rdmsr
    or eax, [ebx + TRAMP_PARAMS + TRAMP_P_EFER]  ; LME, NXE: the PTEs use NX
    wrmsr
    mov eax, cr0
    or eax, (1 << 31) | (1 << 16) | 1            ; PG | WP | PE
    mov cr0, eax
    jmp far [ebx + TRAMP_PARAMS + TRAMP_P_LM_OFF] ; TRAMP_CS64:smp_ap_entry64

align 8
gdt:
    dq 0
    dq 0x00af9a000000ffff       ; TRAMP_CS64: 64-bit code, DPL 0
    dq 0x00cf92000000ffff       ; TRAMP_DS: flat data
    dq 0x00cf9a000000ffff       ; TRAMP_CS32: flat 32-bit code
gdt_end:

    ; The parameter block sits at TRAMP_PARAMS (NASM stops here with
    ; "TIMES value is negative" should the code above ever grow into it).
    times TRAMP_PARAMS - ($ - smp_trampoline) db 0
    times TRAMP_PARAMS_SIZE db 0
smp_trampoline_end:

%if TRAMP_CS64 != 0x08 || TRAMP_DS != 0x10 || TRAMP_CS32 != 0x18
%error "the GDT above must match the TRAMP_* selectors"
%endif

; In: EBX = page base (upper half undefined after the mode switch). Finds
; this AP's APIC ID and claims its slot (arch/trampoline.h), then leaves for
; smp_ap_main(slot cpu) on the slot's stack; never returns. An AP without an
; OPEN slot halts here with interrupts off, on no stack.
section .text
bits 64
global smp_ap_entry64
extern smp_ap_main
smp_ap_entry64:
    mov eax, TRAMP_DS
    mov ds, ax
    mov es, ax
    mov ss, ax
    xor eax, eax
    mov fs, ax
    mov gs, ax                  ; GS base is set in C (per-CPU block)
    mov ebx, ebx                ; zero-extend the page base
    mov dword [rbx + TRAMP_PARAMS + TRAMP_P_STAGE], TRAMP_STAGE_LONG
    mov ecx, 0x1b               ; IA32_APIC_BASE (SDM Vol. 3A §11.4.4)
    rdmsr
    test eax, 1 << 10           ; EXTD: already in x2APIC mode
    jnz .x2apic_id
    cmp dword [rbx + TRAMP_PARAMS + TRAMP_P_X2APIC], 0
    je .xapic_id
    or eax, 1 << 11             ; EN first: disabled -> x2APIC is invalid (§11.12.5)
    wrmsr
    or eax, 1 << 10             ; EXTD: xAPIC -> x2APIC
    wrmsr
.x2apic_id:
    mov ecx, 0x802              ; x2APIC ID register, all 32 bits (§11.12.5.1)
    rdmsr
    mov edx, eax
    jmp .claim
.xapic_id:
    shl rdx, 32
    or rax, rdx
    mov rdx, 0x000ffffffffff000 ; APIC base bits (§11.4.4, Figure 11-5)
    and rax, rdx
    mov edx, [rax + 0x20]       ; xAPIC ID register: ID in bits 31:24 (Table 11-1)
    shr edx, 24
.claim:
    mov rsi, [rbx + TRAMP_PARAMS + TRAMP_P_SLOTS]
    mov ecx, [rbx + TRAMP_PARAMS + TRAMP_P_NSLOTS]
    TRAMP_CLAIM
    test rsi, rsi
    jz .stray
    mov rsp, [rsi + TRAMP_S_STACK]
    mov rdi, [rsi + TRAMP_S_CPU]
    xor ebp, ebp                ; end of frame-pointer chains
    call smp_ap_main
    jmp .dead
.stray:
    lock inc dword [rbx + TRAMP_PARAMS + TRAMP_P_STRAYS]
.dead:
    cli
    hlt
    jmp .dead
