# bench/ - the measurement programs: `run=fault` (and the frame pool set-up),
# `run=faultclear` (the fault_clear= models), `run=clear` with its correctness check, `run=smp` (thread scaling, peak,
# fill) and the split arithmetic behind it, `run=numa` (the clearing matrix, its plan in
# bench/numa_plan.c), and the `clear` record they and
# tools/linux-bench print (both portable, unit-tested).
KERNEL_C += bench/memop.c bench/fault_clear.c bench/fault_bench.c bench/fault_node.c bench/fault_clear_bench.c bench/clear_record.c bench/bench_clear.c bench/clear_cells.c bench/clear_race.c bench/clear_table.c bench/evict.c bench/clear_correctness.c \
	bench/split.c bench/numa_plan.c bench/numa.c bench/numa_table.c bench/bench_smp.c bench/bench_smp_job.c bench/bench_smp_fill.c bench/smp_rounds.c \
	bench/interference.c bench/interference_work.c bench/interference_report.c

HOST_TESTS += smp_split clear_record memop fault_clear
HOST_SRCS_smp_split := bench/split.c
HOST_SRCS_memop := bench/memop.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_SRCS_fault_clear := bench/fault_clear.c bench/memop.c lib/cmdline.c lib/fmt.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_SRCS_clear_record := bench/clear_record.c lib/record.c lib/stats.c lib/fmt.c
HOST_TESTS += numa_plan
HOST_SRCS_numa_plan := bench/numa_plan.c
HOST_TESTS += interference
HOST_SRCS_interference := bench/interference_work.c bench/memop.c bench/split.c lib/interleave.c lib/stats.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_LDLIBS_interference := -lpthread
