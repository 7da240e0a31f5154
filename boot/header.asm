; boot/header.asm - the Multiboot2 header (Multiboot2 spec §3.1) and the PVH
; ELF note (Xen public/elfnote.h, XEN_ELFNOTE_PHYS32_ENTRY = 18).
;
; Multiboot2: we ask for no framebuffer and give an entry-address tag (§3.1.6)
; so GRUB enters boot/entry.asm:mb2_start32 in 32-bit protected mode, under
; BIOS and under UEFI alike (no EFI boot-services tag: GRUB exits boot services
; and passes the EFI memory map, tag 17).

%include "boot/boot.inc"
extern mb2_start32, pvh_start32

MB2_HEADER_MAGIC equ 0xe85250d6
MB2_ARCH_I386    equ 0

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
    dd MB2_HEADER_MAGIC
    dd MB2_ARCH_I386
    dd mb2_header_end - mb2_header
    dd -(MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

    ; information request (§3.1.4): we need the memory map and command line,
    ; and read the ACPI and EFI tags when present. Optional flag set: no tag is
    ; required for boot, so a loader lacking one still boots us.
    align 8
.info_req:
    dw 1, 1                 ; type 1, flags: optional
    dd .info_req_end - .info_req
    dd 1, 2, 6, 14, 15, 17
.info_req_end:

    ; entry address (§3.1.6)
    align 8
    dw 3, 0
    dd 12
    dd mb2_start32

    ; end tag
    align 8
    dw 0, 0
    dd 8
mb2_header_end:

; PVH: Xen ELF note, 8-byte descriptor like Linux's (QEMU reads the low 32 bits).
section .note.Xen note alloc noexec nowrite align=4
    dd 4                    ; namesz: "Xen\0"
    dd 8                    ; descsz
    dd 18                   ; XEN_ELFNOTE_PHYS32_ENTRY
    db "Xen", 0
    dq pvh_start32
