# hugezero - one top-level Makefile; each folder lists its own sources in a
# rules.mk fragment (boot/ arch/ lib/ mm/ kernel/ measure/ scenarios/
# tests/ tools/), included below.
#
#   make            build/hugezero.elf and build/hugezero.iso (checked)
#   make pxe        build/pxe/: GRUB netboot tree for BIOS and UEFI
#   make run        boot in QEMU (KVM if usable, else TCG); BOOT=direct|iso|uefi|pxe;
#                   HUGEPAGES=auto|yes|no: guest RAM on hugetlbfs (tools/hz run --hugepages)
#                   RECORDS=1: the @hz record lines on the console too (hz run --records)
#   make answers    the thread's three answers (64 x 1 GiB faults, a 2 TB VM start,
#                   a background zeroer) in at most 10 min of QEMU time: one block,
#                   saved as answers.txt (tools/hz answers); ACCEL=kvm|tcg, ARGS=
#   make test       every test: host unit tests, tool tests, QEMU boot tests
#   make bench      the long measurements under KVM (not tests)
#   make load-check the headline clear cells and the 2-CPU scaling under KVM
#                   with 2 busy threads beside the guest: every cell must be
#                   flagged noisy or steal (docs/validation.md "A loaded host")
#   make format     clang-format -i every C file; make format-check (part of
#                   make test) fails on any file .clang-format would change
#   make qemu-gdb   direct boot, QEMU waits for gdb on :1234
#
# Toolchain: the host gcc by default; CROSS=x86_64-elf- or CC=clang also work;
# OPT=-O1 (or -O0, -O3, -Os) another optimisation level for the kernel. The
# header record names the compiler, its version and the kernel flags.

# `make` alone builds `all`, whatever rule an included rules.mk defines first.
.DEFAULT_GOAL := all

CROSS ?=
ifeq ($(origin CC),default)
CC := $(CROSS)gcc
endif
LD := $(CROSS)ld
OBJDUMP := $(CROSS)objdump
NM := $(CROSS)nm
NASM ?= nasm
HOSTCC ?= cc
PYTHON ?= python3

B := build
VERSION := 0.1.0
GIT_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)

WARN := -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter
# Kernel C: freestanding, no red zone (interrupts), identity-mapped below 2 GiB,
# general registers only (only arch/clear_* strategy files touch vector state).
OPT ?= -O2
KCFLAGS := -std=gnu11 $(OPT) -g -ffreestanding -fno-stack-protector -fno-pic -fno-pie \
	-fno-omit-frame-pointer -fno-tree-loop-distribute-patterns \
	-mno-red-zone -mcmodel=small -mgeneral-regs-only -nostdinc \
	-isystem $(shell $(CC) -print-file-name=include) -I. $(WARN) -MMD -MP
ifneq ($(findstring clang,$(CC)),)
KCFLAGS += --target=x86_64-elf -Wno-unused-command-line-argument
KCFLAGS := $(filter-out -fno-tree-loop-distribute-patterns,$(KCFLAGS))
endif
NASMFLAGS := -f elf64 -g -F dwarf -I. -MD -MP
LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -T linker.ld

# Host builds of the portable sources (unit tests, tools/linux-bench).
HCFLAGS := -std=gnu11 -O2 -g -I. -DHZ_HOSTED $(WARN) -MMD -MP

KERNEL_C :=
KERNEL_ASM :=
HOST_TESTS :=
include boot/rules.mk arch/rules.mk lib/rules.mk mm/rules.mk kernel/rules.mk measure/rules.mk \
	scenarios/rules.mk tools/rules.mk fuzz/rules.mk
# Last: the generic host-test rules need every HOST_TESTS entry above.
include tests/rules.mk

KOBJS := $(KERNEL_ASM:%.asm=$(B)/k/%.asm.o) $(KERNEL_C:%.c=$(B)/k/%.o)

.PHONY: all iso pxe run answers test test-unit test-boot bench load-check qemu-gdb deps clean format format-check lint
all: $(B)/hugezero.elf $(B)/hugezero.iso

# Version and commit as a generated header, rewritten only when they change,
# so a new commit rebuilds exactly the files that print it.
$(B)/version.h: FORCE
	@mkdir -p $(B)
	@printf '#define HZ_VERSION "%s"\n#define HZ_COMMIT "%s"\n' '$(VERSION)' '$(GIT_COMMIT)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(B)/k/kernel/header.o: $(B)/version.h

# The kernel compiler and flags, for the header record, generated the same
# way; every kernel object depends on it, so a flag change rebuilds them all.
# (Double quotes and backslashes are dropped from the C strings.)
CC_VERSION := $(shell $(CC) --version 2>/dev/null | head -n 1)
cstr = $(subst ",,$(subst \,,$(1)))
$(B)/buildflags.h: FORCE
	@mkdir -p $(B)
	@printf '#define HZ_CC "%s"\n#define HZ_CC_VERSION "%s"\n#define HZ_CFLAGS "%s"\n' \
		'$(call cstr,$(CC))' '$(call cstr,$(CC_VERSION))' \
		'$(call cstr,$(filter-out -MMD -MP,$(KCFLAGS)))' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
.PHONY: FORCE
FORCE:

$(B)/k/%.o: %.c $(B)/buildflags.h
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) $(KCFLAGS_$(notdir $*)) -c $< -o $@

$(B)/k/%.asm.o: %.asm
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MT $@ -MF $(@:.o=.d) $< -o $@

$(B)/hugezero.elf: $(KOBJS) linker.ld
	$(LD) $(LDFLAGS) -o $@ $(KOBJS)
	@grub-file --is-x86-multiboot2 $@ || { echo "error: $@ is not a valid Multiboot2 image (grub-file)"; rm -f $@; exit 1; }
	@$(NM) -n $@ > $(B)/hugezero.sym
	@$(OBJDUMP) -d -M intel $@ > $(B)/hugezero.asm

iso: $(B)/hugezero.iso
$(B)/hugezero.iso: $(B)/hugezero.elf boot/grub.cfg tools/mkiso.sh
	tools/mkiso.sh $@ boot/grub.cfg

pxe: $(B)/pxe/boot/grub/grub.cfg
$(B)/pxe/boot/grub/grub.cfg: $(B)/hugezero.elf boot/grub.cfg tools/mkpxe.sh
	tools/mkpxe.sh $(B)/pxe boot/grub.cfg

# Installs missing Debian packages (and says so), then builds and boots. The
# whole default suite under nested KVM took over 600 s on a busy 2-core host,
# so make run allows 1800 s (TIMEOUT=S) before it calls the run hung.
run:
	@tools/deps.sh
	@$(MAKE) --no-print-directory all pxe
	tools/hz run --boot $(or $(BOOT),direct) $(if $(ACCEL),--accel $(ACCEL)) \
		$(if $(filter no,$(HUGEPAGES)),,--hugepages $(or $(HUGEPAGES),auto)) \
		$(if $(MEM),-m $(MEM)) --smp $(or $(SMP),2) --timeout $(or $(TIMEOUT),1800) \
		$(if $(filter 1,$(RECORDS)),--records) -- $(ARGS)

# Installs missing packages like make run, builds the kernel, then the boots
# of tools/hzlib/cli_answers.py under one QEMU-time budget (600 s).
answers:
	@tools/deps.sh
	@$(MAKE) --no-print-directory -j$(shell nproc) all
	tools/hz answers $(if $(ACCEL),--accel $(ACCEL)) -- $(ARGS)

test:
	@tools/deps.sh --test
	@$(MAKE) --no-print-directory format-check lint all pxe host-tests linux-bench fuzz-build
	tests/run-all

test-unit: host-tests
	tests/run-all --only unit

test-boot: all pxe
	tests/run-all --only boot

bench:
	@tools/deps.sh
	@$(MAKE) --no-print-directory all linux-bench
	tools/bench.py

LOAD_CHECK_ARGS := run=clear,smp strategies=rep_stosb,rep_stosq,avx512_nt,clzero chunks=4K,1G \
	max_rounds=10 smp_strategies=rep_stosb,avx512_nt smp_bytes=512M smp_max_rounds=10 smp_fill=none

load-check: all
	tools/hz run --accel kvm --smp 2 --load-check -q -- $(LOAD_CHECK_ARGS)

qemu-gdb: $(B)/hugezero.elf
	qemu-system-x86_64 -accel tcg -m 2G -serial stdio -display none -s -S \
		-device isa-debug-exit,iobase=0xf4,iosize=4 -kernel $< -append "$(ARGS)"

deps:
	@tools/deps.sh

# The C style is .clang-format (clang-format 14, Debian 12's); every C file
# of the tree, kernel, host tests and tools alike (build/ aside).
CLANG_FORMAT ?= clang-format
FORMAT_C = $(shell find . -path ./$(B) -prune -o -path ./.git -prune -o -name '*.[ch]' -print | sort)
format:
	@$(CLANG_FORMAT) -i $(FORMAT_C)

format-check:
	@$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_C) || \
		{ echo "format-check: C files differ from .clang-format; run 'make format'" >&2; exit 1; }

# The host tools' Python: flake8 (line length 100) and mypy, configured in
# setup.cfg (Debian 12's flake8 and mypy: tools/deps.sh --test).
PY_LINT := tools/hz tools/bench.py tools/hzlib tests/tools
lint:
	@for c in flake8 mypy; do command -v $$c >/dev/null || \
		{ echo "lint: $$c missing: tools/deps.sh --test installs it" >&2; exit 1; }; done
	flake8 $(PY_LINT)
	mypy

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
