# boot/ - the Multiboot2 header, the PVH note and the 32-to-64-bit entry
# (NASM), the Multiboot2 and PVH parsers, the boot-information record.
KERNEL_ASM += boot/header.asm boot/entry.asm
KERNEL_C += boot/bootinfo.c boot/multiboot2.c boot/pvh.c

HOST_TESTS += multiboot2 mb2_malformed pvh
HOST_SRCS_multiboot2 := boot/multiboot2.c boot/bootinfo.c mm/memmap.c lib/fmt.c
HOST_SRCS_mb2_malformed := $(HOST_SRCS_multiboot2)
HOST_SRCS_pvh := boot/pvh.c boot/bootinfo.c mm/memmap.c lib/fmt.c
