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
;
; Faults (arch/trampoline.h "Early faults"): from protected mode on, an AP
; has the fault IDTs tramp_fault_setup() built: fault32 below (in the page)
; and fault64 (in the kernel text) record TRAMP_FAULT(stage, vector) in the
; AP's slot and halt it, until smp_ap_main() loads the kernel's IDT. Real
; mode runs six instructions on the firmware's IVT and has none.

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
    lea esp, [ebx + TRAMP_STACK_TOP] ; for the CPU's pushes if a fault comes
    lidt [ebx + TRAMP_PARAMS + TRAMP_P_IDT32_LIMIT]
    mov dword [ebx + TRAMP_PARAMS + TRAMP_P_STAGE], TRAMP_STAGE_PROT
    cmp dword [ebx + TRAMP_PARAMS + TRAMP_P_SELFTEST_STAGE], TRAMP_STAGE_PROT
    je selftest_pm
.selftest_done:
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
    mov cr0, eax                ; IA-32e mode (compatibility): 16-byte gates from here
    lidt [ebx + TRAMP_PARAMS + TRAMP_P_IDT64_LIMIT] ; 32-bit base; the upper half is 0
    jmp far [ebx + TRAMP_PARAMS + TRAMP_P_LM_OFF] ; TRAMP_CS64:smp_ap_entry64

; smp_selftest=pm_fault (kernel/smp.c): the AP whose CPUID APIC ID is
; TRAMP_P_SELFTEST raises #UD in protected mode, which fault32 must report.
; Every other AP goes on. In: EBX = page base. Clobbers EAX, ECX, EDX, EDI.
selftest_pm:
    mov edi, ebx
    TRAMP_CPUID_APIC_ID
    mov ebx, edi
    cmp edx, [ebx + TRAMP_PARAMS + TRAMP_P_SELFTEST]
    jne pm32.selftest_done
    ud2

; The 32-bit fault gates point here: stub v is 8 bytes at smp_tramp_fault32
; + 8 * v. In: EBX = page base, CL = vector (the stub's). Records
; TRAMP_FAULT(TRAMP_STAGE_PROT, vector) as arch/trampoline.h says; never
; returns. Clobbers everything.
%macro FAULT32_STUB 1
%%stub:
    mov cl, %1
    jmp strict near fault32
    times 8 - ($ - %%stub) nop
%endmacro
global smp_tramp_fault32
smp_tramp_fault32:
%assign v 0
%rep 32
    FAULT32_STUB v
%assign v v + 1
%endrep
fault32:
    movzx ebp, cl
    or ebp, TRAMP_STAGE_PROT << 8
    mov edi, ebx
    TRAMP_CPUID_APIC_ID
    mov esi, [edi + TRAMP_PARAMS + TRAMP_P_SLOTS] ; below 4 GiB; paging is off
    mov ecx, [edi + TRAMP_PARAMS + TRAMP_P_NSLOTS]
    TRAMP_FIND esi
    test esi, esi
    jz .stray
    mov [esi + TRAMP_S_FAULT], ebp
    jmp .halt
.stray:
    lock inc dword [edi + TRAMP_PARAMS + TRAMP_P_STRAYS]
    mov [edi + TRAMP_PARAMS + TRAMP_P_STRAY_FAULT], ebp
    mov [edi + TRAMP_PARAMS + TRAMP_P_STRAY_ID], edx
.halt:
    cli
    hlt
    jmp .halt

align 8
gdt:
    dq 0
    dq 0x00af9a000000ffff       ; TRAMP_CS64: 64-bit code, DPL 0
    dq 0x00cf92000000ffff       ; TRAMP_DS: flat data
    dq 0x00cf9a000000ffff       ; TRAMP_CS32: flat 32-bit code
gdt_end:

    ; The fault IDT (filled by the BSP), the scratch stack and the parameter
    ; block sit at TRAMP_IDT32, below TRAMP_STACK_TOP and at TRAMP_PARAMS
    ; (NASM stops here with "TIMES value is negative" should the code above
    ; ever grow into them).
    times TRAMP_IDT32 - ($ - smp_trampoline) db 0
    times TRAMP_PARAMS - TRAMP_IDT32 db 0
    times TRAMP_PARAMS_SIZE db 0
smp_trampoline_end:

%if TRAMP_CS64 != 0x08 || TRAMP_DS != 0x10 || TRAMP_CS32 != 0x18
%error "the GDT above must match the TRAMP_* selectors"
%endif

; In: EBX = page base, ESP = page + TRAMP_STACK_TOP (upper halves undefined
; after the mode switch). Finds this AP's APIC ID and claims its slot
; (arch/trampoline.h), then leaves for smp_ap_main(slot cpu) on the slot's
; stack; never returns. An AP without an OPEN slot halts here with
; interrupts off, on the scratch stack.
section .text
bits 64
global smp_ap_entry64
extern smp_ap_main
smp_ap_entry64:
    mov esp, esp                ; zero-extend: the fault gates push here
    mov eax, TRAMP_DS
    mov ds, ax
    mov es, ax
    mov ss, ax
    xor eax, eax
    mov fs, ax
    mov gs, ax                  ; GS base is set in C (per-CPU block)
    mov ebx, ebx                ; zero-extend the page base
    mov dword [rbx + TRAMP_PARAMS + TRAMP_P_STAGE], TRAMP_STAGE_LONG
    cmp dword [rbx + TRAMP_PARAMS + TRAMP_P_SELFTEST_STAGE], TRAMP_STAGE_LONG
    je selftest_x2apic_early
.selftest_done:
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
.stray:                         ; EDX: the APIC ID it read
    lock inc dword [rbx + TRAMP_PARAMS + TRAMP_P_STRAYS]
    mov [rbx + TRAMP_PARAMS + TRAMP_P_STRAY_ID], edx
.dead:
    cli
    hlt
    jmp .dead

; smp_selftest=x2apic_early (kernel/smp.c): the AP whose CPUID APIC ID is
; TRAMP_P_SELFTEST reads the x2APIC ID register before EXTD is set, as a
; trampoline with its MSR accesses out of order would: in xAPIC mode the
; RDMSR raises #GP (SDM Vol. 3A §11.12.1), which fault64 must report. Where
; it does not fault (QEMU 7.2's TCG reads an MSR it lacks as 0, with no #GP)
; UD2 raises #UD instead, so the handler is tested there too. Every other
; AP goes on. In: RBX = page base. Clobbers EAX, ECX, EDX, R9.
selftest_x2apic_early:
    mov r9, rbx
    TRAMP_CPUID_APIC_ID
    mov rbx, r9
    cmp edx, [rbx + TRAMP_PARAMS + TRAMP_P_SELFTEST]
    jne smp_ap_entry64.selftest_done
    mov ecx, 0x802
    rdmsr
    ud2

; The 64-bit fault gates point here: stub v is 16 bytes at smp_tramp_fault64
; + 16 * v. In: EBP = vector (the stub's). Records TRAMP_FAULT(
; TRAMP_STAGE_LONG, vector) as arch/trampoline.h says, finding the
; parameter block through tramp_fault_params (RBX is not the page base once
; C runs); never returns. Clobbers everything.
%macro FAULT64_STUB 1
align 16
    mov ebp, %1
    jmp strict near fault64
%endmacro
extern tramp_fault_params
align 16
global smp_tramp_fault64
smp_tramp_fault64:
%assign v 0
%rep 32
    FAULT64_STUB v
%assign v v + 1
%endrep
fault64:
    or ebp, TRAMP_STAGE_LONG << 8
    TRAMP_CPUID_APIC_ID
    mov rdi, [rel tramp_fault_params]
    mov rsi, [rdi + TRAMP_P_SLOTS]
    mov ecx, [rdi + TRAMP_P_NSLOTS]
    TRAMP_FIND rsi
    test rsi, rsi
    jz .stray
    mov [rsi + TRAMP_S_FAULT], ebp
    jmp .halt
.stray:
    lock inc dword [rdi + TRAMP_P_STRAYS]
    mov [rdi + TRAMP_P_STRAY_FAULT], ebp
    mov [rdi + TRAMP_P_STRAY_ID], edx
.halt:
    cli
    hlt
    jmp .halt
