# prezero/ - what run=prezero, run=policies and run=vmstart share: the
# workload generators, the portable event loop (host-tested), its SMP
# modes and its report (measure/ takes them: issue 33).
KERNEL_C += prezero/workload.c prezero/prezero_core.c prezero/prezero_report.c \
	prezero/prezero_smp.c

HOST_TESTS += workload prezero prezero_run prezero_idle
HOST_SRCS_workload := prezero/workload.c
HOST_LDLIBS_workload := -lm
HOST_SRCS_prezero := prezero/prezero_core.c prezero/workload.c mm/pool.c lib/stats.c lib/fmt.c
HOST_SRCS_prezero_run := $(HOST_SRCS_prezero)
HOST_SRCS_prezero_idle := $(HOST_SRCS_prezero)
