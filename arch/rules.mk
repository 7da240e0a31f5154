KERNEL_C += arch/cpu.c arch/serial.c arch/idt.c arch/gdt.c
KERNEL_ASM += arch/trap.asm
# Clear strategies (one file each, arch/clear.h), their table, FPU enable, stats.
CLEAR_ASM := arch/clear_movq_unroll.asm arch/clear_rep_stosq.asm arch/clear_rep_stosb.asm \
	arch/clear_sse2_store.asm arch/clear_avx_store.asm arch/clear_avx512_store.asm \
	arch/clear_movnti.asm arch/clear_sse2_nt.asm arch/clear_avx_nt.asm \
	arch/clear_avx512_nt.asm arch/clear_clzero.asm arch/clear_movdir64b.asm
CLEAR_C := arch/clear.c arch/clear_mov_loop.c
KERNEL_C += $(CLEAR_C) arch/fpu.c kernel/stats.c
KERNEL_ASM += $(CLEAR_ASM)
HCFLAGS_clear_mov_loop := -fno-tree-vectorize -fno-tree-loop-distribute-patterns
HOST_TESTS += clear stats
HOST_SRCS_clear := $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c kernel/stats.c kernel/record.c kernel/fmt.c
HOST_SRCS_stats := kernel/stats.c
KERNEL_C += arch/acpi.c arch/acpi_madt.c arch/acpi_srat.c arch/acpi_fadt.c arch/acpi_info.c
HOST_TESTS += acpi
HOST_SRCS_acpi := arch/acpi.c arch/acpi_madt.c arch/acpi_srat.c arch/acpi_fadt.c arch/acpi_info.c kernel/fmt.c
KERNEL_C += arch/tsc.c
HOST_TESTS += acpi_tables
HOST_SRCS_acpi_tables := $(HOST_SRCS_acpi)
# SMP: local APIC and the AP start-up trampoline. The trampoline's layout is
# defined once, in arch/trampoline.h; its TRAMP_* #defines become NASM
# %defines in $(B)/gen/trampoline.inc.
KERNEL_C += arch/apic.c
KERNEL_ASM += arch/trampoline.asm
$(B)/k/arch/trampoline.asm.o: $(B)/gen/trampoline.inc
$(B)/k/arch/trampoline.asm.o: NASMFLAGS += -I$(B)/gen/
$(B)/gen/trampoline.inc: arch/trampoline.h
	@mkdir -p $(dir $@)
	sed -n 's/^#define \(TRAMP_[A-Z0-9_]*\) \{1,\}\([^ ]*\).*$$/%define \1 \2/p' $< > $@
KERNEL_C += arch/user.c
KERNEL_ASM += arch/user.asm
