# prezero/ - `run=prezero` and `run=policies`: the workload generators, the
# portable event loop (host-tested), the kernel runner, its SMP modes and
# its report.
KERNEL_C += prezero/workload.c prezero/prezero_core.c prezero/prezero.c prezero/prezero_report.c \
	prezero/prezero_smp.c

HOST_TESTS += workload prezero prezero_run prezero_idle
HOST_SRCS_workload := prezero/workload.c
HOST_LDLIBS_workload := -lm
HOST_SRCS_prezero := prezero/prezero_core.c prezero/workload.c mm/pool.c lib/stats.c lib/fmt.c
HOST_SRCS_prezero_run := $(HOST_SRCS_prezero)
HOST_SRCS_prezero_idle := $(HOST_SRCS_prezero)
