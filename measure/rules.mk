# measure/ - what the scenarios measure with, below scenarios/
# (which never include each other): memory work at the measurement CPL
# (memop), the scenarios' strategy-name lists (strategy_list), cache
# eviction, the split of a target over CPUs, and the `clear` record the
# kernel and tools/linux-bench print (portable, unit-tested),
# the multi-CPU clear job (smp_job) and its interleaved rounds (smp_rounds),
# the free-frame pool of the fault
# scenarios with how a fault clears its frame (fault_pool, fault_clear), and
# the time the machine took away from timed cells (time_lost: SMIs, gaps),
# and the pre-zeroing runner's workload generators, portable event loop
# (host-tested), SMP team and `prezero` record (workload, prezero_*), and
# the run=clear cells several verdict items read (verdict_clear).
KERNEL_C += measure/memop.c measure/clear_record.c measure/evict.c measure/split.c \
	measure/smp_job.c measure/smp_rounds.c measure/fault_clear.c measure/fault_pool.c measure/fault_node.c \
	measure/time_lost.c measure/workload.c measure/prezero_core.c measure/prezero_report.c \
	measure/prezero_smp.c measure/prezero_run.c measure/prezero_opts.c measure/round_options.c \
	measure/strategy_list.c

# The run=clear cells several scenarios' verdict items read (portable: the
# host verdict tests link it too).
KERNEL_C += measure/verdict_clear.c
VERDICT_C += measure/verdict_clear.c

HOST_TESTS += smp_split clear_record memop fault_clear time_lost workload prezero prezero_run prezero_idle \
	strategy_list
HOST_SRCS_strategy_list := measure/strategy_list.c lib/fmt.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_SRCS_workload := measure/workload.c
HOST_LDLIBS_workload := -lm
HOST_SRCS_prezero := measure/prezero_core.c measure/workload.c mm/pool.c lib/stats.c lib/fmt.c lib/plan.c
HOST_SRCS_prezero_run := $(HOST_SRCS_prezero)
HOST_SRCS_prezero_idle := $(HOST_SRCS_prezero)
HOST_SRCS_time_lost := measure/time_lost.c lib/record.c lib/fmt.c
HOST_SRCS_fault_clear := measure/fault_clear.c measure/memop.c lib/cmdline.c lib/fmt.c lib/compare.c lib/stats.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_SRCS_smp_split := measure/split.c
HOST_SRCS_memop := measure/memop.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_SRCS_clear_record := measure/clear_record.c measure/time_lost.c lib/record.c lib/stats.c lib/fmt.c lib/compare.c
