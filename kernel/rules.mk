KERNEL_C += kernel/main.c kernel/string.c kernel/fmt.c kernel/record.c kernel/console.c \
	kernel/cmdline.c kernel/options.c kernel/results.c kernel/power.c kernel/header.c kernel/ownership.c \
	kernel/scenario.c

HOST_TESTS += fmt record cmdline
HOST_SRCS_fmt := kernel/fmt.c
HOST_SRCS_record := kernel/record.c kernel/fmt.c
HOST_SRCS_cmdline := kernel/cmdline.c kernel/fmt.c
KERNEL_C += kernel/workload.c
HOST_TESTS += workload
HOST_SRCS_workload := kernel/workload.c
HOST_LDLIBS_workload := -lm
KERNEL_C += kernel/faults.c
KERNEL_C += kernel/bench_clear.c kernel/clear_verify.c
# SMP: AP start-up, per-CPU blocks, work dispatch and barrier; the split
# arithmetic of the multi-threaded benchmark (portable, unit-tested).
KERNEL_C += kernel/smp.c kernel/smp_work.c kernel/split.c kernel/bench_smp.c kernel/bench_smp_job.c \
	kernel/bench_smp_fill.c
HOST_TESTS += smp_split
HOST_SRCS_smp_split := kernel/split.c
KERNEL_C += kernel/prezero_core.c kernel/prezero.c kernel/prezero_report.c
HOST_TESTS += prezero
HOST_SRCS_prezero := kernel/prezero_core.c kernel/workload.c mm/pool.c kernel/stats.c kernel/fmt.c
HOST_TESTS += prezero_run
HOST_SRCS_prezero_run := $(HOST_SRCS_prezero)
KERNEL_C += kernel/progress.c
KERNEL_C += kernel/cpu_record.c
KERNEL_C += kernel/prezero_smp.c
HOST_TESTS += prezero_idle
HOST_SRCS_prezero_idle := $(HOST_SRCS_prezero)
