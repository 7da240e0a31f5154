# arch/ - x86-64: CPUID table, serial and the console on it (the SPCR's UART, a
# PCI UART or COM1), GDT/TSS/IDT, TSC, ACPI tables, local APIC and the AP
# trampoline, CPL-3 entry, FPU/AVX state and the clear strategies (one file
# each, their table in arch/clear.c, arch/clear.h).
# Every arch/clear_<name>.asm (or .c) is the routine of one ROW of
# CLEAR_STRATEGIES (arch/clear.h): adding a strategy adds no line here.
CLEAR_ASM := $(sort $(wildcard arch/clear_*.asm))
CLEAR_C := arch/clear.c $(sort $(wildcard arch/clear_*.c))
ACPI_C := arch/acpi.c arch/acpi_madt.c arch/acpi_srat.c arch/acpi_slit.c arch/acpi_fadt.c arch/acpi_spcr.c arch/acpi_info.c

KERNEL_C += arch/cpu.c arch/serial.c arch/serial_io.c arch/console.c arch/console_pick.c arch/pci.c arch/trap.c arch/gdt.c $(CLEAR_C) arch/fpu.c \
	$(ACPI_C) arch/numa.c arch/tsc.c arch/apic.c arch/user.c arch/msr.c arch/kvm_pv.c arch/steal.c \
	arch/steal_area.c arch/pmu.c arch/trampoline.c
KERNEL_ASM += arch/trap.asm $(CLEAR_ASM) arch/trampoline.asm arch/user.asm arch/idle.asm
HCFLAGS_clear_mov_loop := -fno-tree-vectorize -fno-tree-loop-distribute-patterns

HOST_TESTS += clear acpi acpi_tables numa steal_area serial console_pick
HOST_SRCS_clear := $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_SRCS_acpi := $(ACPI_C) lib/fmt.c
HOST_SRCS_acpi_tables := $(HOST_SRCS_acpi)
HOST_SRCS_numa := $(HOST_SRCS_acpi) arch/numa.c
HOST_SRCS_steal_area := arch/steal_area.c lib/fmt.c
HOST_SRCS_serial := arch/serial.c
HOST_SRCS_console_pick := $(HOST_SRCS_acpi) arch/console_pick.c arch/serial.c mm/memmap.c

# The trampoline's layout is defined once, in arch/trampoline.h; its TRAMP_*
# #defines become NASM %defines in $(B)/gen/trampoline.inc.
$(B)/k/arch/trampoline.asm.o: $(B)/gen/trampoline.inc
$(B)/k/arch/trampoline.asm.o: NASMFLAGS += -I$(B)/gen/
$(B)/gen/trampoline.inc: arch/trampoline.h
	@mkdir -p $(dir $@)
	sed -n 's/^#define \(TRAMP_[A-Z0-9_]*\) \{1,\}\([^ ]*\).*$$/%define \1 \2/p' $< > $@
$(B)/host/arch/trampoline_claim.asm.o: $(B)/gen/trampoline.inc
$(B)/host/arch/trampoline_claim.asm.o: NASMFLAGS += -I$(B)/gen/
