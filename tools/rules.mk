# Host-side programs.
#
# tools/linux-bench: the clear strategies measured under Linux on a hugetlb
# region. Links the very objects the host unit tests use (build/host/...),
# so the routines measured are the kernel's own sources built for user space.
LINUX_BENCH_SRCS := tools/linux-bench/linux_bench.c tools/linux-bench/output.c \
	tools/linux-bench/region.c tools/linux-bench/measure.c \
	tools/linux-bench/threads.c $(CLEAR_C) arch/cpu.c measure/memop.c \
	measure/clear_record.c measure/time_lost.c lib/stats.c lib/compare.c lib/record.c lib/fmt.c kernel/cpu_record.c
LINUX_BENCH_OBJS := $(patsubst %.c,$(B)/host/%.o,$(filter %.c,$(LINUX_BENCH_SRCS))) \
	$(patsubst %.asm,$(B)/host/%.asm.o,$(CLEAR_ASM))
# linux_bench.c includes the generated build/version.h (top-level Makefile).
$(B)/host/tools/linux-bench/linux_bench.o: $(B)/version.h

.PHONY: linux-bench
linux-bench: $(B)/tools/linux-bench
$(B)/tools/linux-bench: $(LINUX_BENCH_OBJS)
	@mkdir -p $(dir $@)
	$(HOSTCC) -o $@ $^
