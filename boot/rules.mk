KERNEL_ASM += boot/header.asm boot/entry.asm
KERNEL_C += boot/bootinfo.c boot/multiboot2.c boot/pvh.c

HOST_TESTS += multiboot2 pvh
HOST_SRCS_multiboot2 := boot/multiboot2.c boot/bootinfo.c mm/memmap.c kernel/fmt.c
HOST_TESTS += mb2_malformed
HOST_SRCS_mb2_malformed := boot/multiboot2.c boot/bootinfo.c mm/memmap.c kernel/fmt.c
HOST_SRCS_pvh := boot/pvh.c boot/bootinfo.c mm/memmap.c kernel/fmt.c
