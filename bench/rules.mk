# bench/ - the measurement programs: `run=fault` (and the frame pool set-up),
# `run=faultclear` (the fault_clear= models), `run=clear` with its correctness check, `run=smp` (thread scaling, peak,
# fill), `run=interference`. What they measure with is in measure/.
KERNEL_C += bench/fault_clear.c bench/fault_bench.c bench/fault_clear_bench.c bench/bench_clear.c bench/clear_cells.c bench/clear_race.c bench/clear_table.c bench/clear_correctness.c \
	bench/bench_smp.c bench/smp_scale.c bench/bench_smp_fill.c bench/smp_rounds.c \
	bench/interference.c bench/interference_work.c bench/interference_report.c

HOST_TESTS += fault_clear
HOST_SRCS_fault_clear := bench/fault_clear.c measure/memop.c lib/cmdline.c lib/fmt.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_TESTS += interference
HOST_SRCS_interference := bench/interference_work.c measure/memop.c measure/split.c lib/interleave.c lib/stats.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_LDLIBS_interference := -lpthread
