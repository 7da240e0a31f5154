# bench/ - the measurement programs: `run=fault` (the demand-fault self-test),
# `run=faultclear` (the fault_clear= models), `run=clear` with its correctness check, `run=smp` (thread scaling, peak,
# fill), `run=interference`, `run=numa` (the clearing matrix, its plan in
# bench/numa_plan.c). What they measure with is in measure/.
KERNEL_C += bench/fault_bench.c bench/fault_clear_bench.c bench/fault_clear_report.c bench/bench_clear.c bench/clear_cells.c bench/clear_race.c bench/clear_table.c bench/clear_correctness.c \
	bench/numa_plan.c bench/numa.c bench/numa_table.c bench/bench_smp.c bench/smp_scale.c bench/bench_smp_fill.c \
	bench/interference.c bench/interference_work.c bench/interference_report.c \
	bench/interference_pace.c bench/interference_residency.c bench/interference_refs.c bench/interference_rank.c \
	bench/interference_host.c

HOST_TESTS += numa_plan
HOST_SRCS_numa_plan := bench/numa_plan.c
HOST_TESTS += interference
HOST_SRCS_interference := bench/interference_work.c bench/interference_pace.c measure/memop.c measure/split.c lib/interleave.c lib/stats.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_LDLIBS_interference := -lpthread
HOST_TESTS += interference_pace
HOST_SRCS_interference_pace := bench/interference_pace.c bench/interference_residency.c
