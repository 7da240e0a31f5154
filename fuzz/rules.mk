# fuzz/rules.mk - libFuzzer harnesses for the portable parsers (docs/hacking.md
# "Fuzzing"). Each harness fuzz/fuzz_<name>.c links the sources it tests,
# built for the host (-DHZ_HOSTED) by clang with ASan and UBSan; its seed and
# regression inputs live in fuzz/corpus/<name>/.
#
#   make fuzz                 every harness for FUZZ_TIME seconds (default 60)
#   make fuzz FUZZ_TIME=600 FUZZ_ONLY=acpi
#   make fuzz-build           build only (tests/run-all's fuzz group runs them)

FUZZCC ?= clang
FUZZ_TIME ?= 60
FUZZ_ONLY ?=
# Any sanitizer report aborts the run: a finding is never only a warning.
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# Physical memory of the harnesses that follow physical addresses lives in a
# host window there (fuzz/fuzz_arena.h, arch/acpi_priv.h acpi_ptr()).
FUZZ_PHYS := -DHZ_PHYS_OFFSET=0x2ff00000ull
FUZZCFLAGS := -std=gnu11 -O1 -g -fno-omit-frame-pointer -I. -DHZ_HOSTED $(FUZZ_PHYS) $(FUZZ_SAN) \
	$(WARN) -MMD -MP

FUZZ_TARGETS := cmdline multiboot2 pvh memmap acpi slit mtrr spcr
FUZZ_SRCS_cmdline := lib/cmdline.c lib/fmt.c
FUZZ_SRCS_multiboot2 := boot/multiboot2.c boot/bootinfo.c mm/memmap.c mm/frames.c mm/frames_layout.c \
	lib/fmt.c
FUZZ_SRCS_pvh := boot/pvh.c boot/bootinfo.c mm/memmap.c mm/frames.c mm/frames_layout.c \
	lib/fmt.c
FUZZ_SRCS_memmap := mm/memmap.c mm/frames.c mm/frames_layout.c lib/fmt.c
FUZZ_SRCS_acpi := $(HOST_SRCS_acpi) boot/bootinfo.c mm/memmap.c
FUZZ_SRCS_slit := $(HOST_SRCS_acpi) arch/numa.c boot/bootinfo.c mm/memmap.c
FUZZ_SRCS_mtrr := mm/mtrr.c lib/fmt.c
FUZZ_SRCS_spcr := $(HOST_SRCS_acpi) arch/console_pick.c arch/serial.c mm/memmap.c

$(B)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZCFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

define fuzz_rule
$(B)/fuzz/fuzz_$(1): $(B)/fuzz/fuzz/fuzz_$(1).o $(patsubst %.c,$(B)/fuzz/%.o,$(FUZZ_SRCS_$(1)))
	$$(FUZZCC) $(FUZZ_SAN) -fsanitize=fuzzer -o $$@ $$^
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rule,$(t))))

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)
fuzz:
	@tools/deps.sh --fuzz
	@$(MAKE) --no-print-directory fuzz-build
	$(PYTHON) fuzz/run --time $(FUZZ_TIME) $(FUZZ_ONLY)
