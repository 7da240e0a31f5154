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
