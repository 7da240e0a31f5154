; boot/entry.asm - 32-bit entry from Multiboot2 and PVH, switch to long mode,
; call kmain(proto, info, magic).
;
; Machine state on entry (Multiboot2 spec §3.2, Xen PVH boot ABI): 32-bit
; protected mode, paging off, flat segments, interrupts off.
;   mb2_start32:  EAX = 0x36d76289, EBX = physical address of the boot info
;   pvh_start32:  EBX = physical address of struct hvm_start_info
; No stack is given. We build an early identity map of the first 4 GiB with
; 2 MiB pages (SDM Vol. 3A §4.5; needs no pdpe1gb), enable PAE, EFER.LME
; (and EFER.NXE when CPUID 0x80000001 EDX[20] says so), then paging
; (SDM Vol. 3A §10.8.5 "Initializing IA-32e Mode"). mm/ replaces these tables.

%include "boot/boot.inc"

MB2_BOOT_MAGIC equ 0x36d76289
COM1           equ 0x3f8

section .boot.text progbits alloc exec nowrite align=16
bits 32

global mb2_start32
mb2_start32:
    cli
    cld
    mov edx, BOOT_PROTO_MB2
    jmp common32

global pvh_start32
pvh_start32:
    cli
    cld
    mov edx, BOOT_PROTO_PVH
    ; fall through

; In: EDX = protocol, EBX = info pointer, EAX = Multiboot2 magic (MB2 only).
; Keeps EBP (magic) and ESI (protocol) across the 32-bit part; EBX (info) is
; saved in boot_info_ptr.
common32:
    mov ebp, eax                ; magic (checked in C, which can report it)
    mov esi, edx                ; protocol

    ; Clear .bss (page tables and stack live there). rep stosd clobbers
    ; EAX/ECX/EDI only.
    mov edi, __bss_start
    mov ecx, __bss_end
    sub ecx, edi
    shr ecx, 2
    xor eax, eax
    rep stosd
    mov esp, boot_stack_top
    mov [boot_info_ptr], ebx    ; CPUID below clobbers EBX

    ; Long mode needs CPUID 0x80000001 EDX[29] (LM).
    mov eax, 0x80000000
    cpuid
    cmp eax, 0x80000001
    jb no_long_mode
    mov eax, 0x80000001
    cpuid
    bt edx, 29
    jnc no_long_mode
    mov edi, edx                ; keep EDX[20] (NX) for EFER.NXE

    ; PML4[0] -> PDPT; PDPT[0..3] -> PD0..PD3; PDn[i] = 2 MiB page.
    mov eax, boot_pdpt
    or eax, 0x3                 ; P | RW
    mov [boot_pml4], eax
    mov ecx, 0
.pdpt:
    mov eax, ecx
    shl eax, 12
    add eax, boot_pd
    or eax, 0x3
    mov [boot_pdpt + ecx * 8], eax
    inc ecx
    cmp ecx, 4
    jb .pdpt
    mov ecx, 0
.pd:
    mov eax, ecx
    shl eax, 21                 ; 2 MiB * index (low 32 bits)
    or eax, 0x83                ; P | RW | PS
    mov [boot_pd + ecx * 8], eax
    inc ecx
    cmp ecx, 2048
    jb .pd

    mov eax, cr4
    or eax, 1 << 5              ; CR4.PAE
    mov cr4, eax
    mov eax, boot_pml4
    mov cr3, eax
    mov ecx, 0xc0000080         ; IA32_EFER
    rdmsr
    or eax, 1 << 8              ; LME
    bt edi, 20
    jnc .no_nx
    or eax, 1 << 11             ; NXE
.no_nx:
    wrmsr
    mov eax, cr0
    or eax, (1 << 31) | (1 << 16) | 1   ; PG | WP | PE
    mov cr0, eax

    lgdt [boot_gdt_ptr]
    jmp 0x08:long_mode

; Without long mode we cannot run; say so on COM1 and stop.
no_long_mode:
    mov esi, msg_no_lm
.putc:
    lodsb
    test al, al
    jz .halt
    mov dx, COM1
    out dx, al
    jmp .putc
.halt:
    hlt
    jmp .halt

bits 64
long_mode:
    mov ax, 0x10
    mov ds, ax
    mov es, ax
    mov ss, ax
    xor eax, eax
    mov fs, ax
    mov gs, ax
    mov rsp, boot_stack_top
    mov edx, ebp                ; arg 3: Multiboot2 magic (EAX at entry)
    xor ebp, ebp                ; terminate frame-pointer chains
    mov edi, esi                ; arg 1: protocol
    mov esi, [boot_info_ptr]    ; arg 2: info pointer (physical, < 4 GiB)
    call kmain
.dead:
    cli
    hlt
    jmp .dead

section .rodata
msg_no_lm: db "hugezero: this CPU has no long mode (CPUID 0x80000001 EDX[29]); cannot run", 13, 10, 0

align 8
boot_gdt:
    dq 0
    dq 0x00af9a000000ffff       ; 0x08: 64-bit code, DPL 0
    dq 0x00cf92000000ffff       ; 0x10: data
boot_gdt_end:
boot_gdt_ptr:
    dw boot_gdt_end - boot_gdt - 1
    dd boot_gdt

section .bss nobits alloc noexec write align=4096
boot_pml4: resb 4096
boot_pdpt: resb 4096
boot_pd:   resb 4 * 4096
global boot_stack_bottom, boot_stack_top
boot_stack_bottom:
    resb BOOT_STACK_SIZE
boot_stack_top:
boot_info_ptr: resd 1

extern kmain, __bss_start, __bss_end
