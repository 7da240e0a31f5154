# prezero/ - `run=prezero`, `run=policies` and `run=vmstart`: the workload
# generators, the portable event loop (host-tested), the kernel runner, its
# SMP modes, its report, and the VM-start scenario (the model's arithmetic is lib/vmmodel.c).
KERNEL_C += prezero/workload.c prezero/prezero_core.c prezero/prezero.c prezero/prezero_report.c \
	prezero/prezero_smp.c prezero/vmstart.c prezero/vmstart_report.c \
	prezero/vmstart_qemu.c

HOST_TESTS += workload prezero prezero_run prezero_idle
HOST_SRCS_workload := prezero/workload.c
HOST_LDLIBS_workload := -lm
HOST_SRCS_prezero := prezero/prezero_core.c prezero/workload.c mm/pool.c lib/stats.c lib/fmt.c
HOST_SRCS_prezero_run := $(HOST_SRCS_prezero)
HOST_SRCS_prezero_idle := $(HOST_SRCS_prezero)
