# prezero/ - `run=prezero`, `run=policies` and `run=vmstart`: the kernel
# runner of one workload under one policy (pz_run_one, its options), the
# scenarios, and the VM-start model (its arithmetic host-tested). The
# workload generators, the event loop, the SMP team and the `prezero`
# record are measure/'s.
KERNEL_C += prezero/prezero.c prezero/vmstart_model.c prezero/vmstart.c prezero/vmstart_report.c \
	prezero/vmstart_qemu.c

HOST_TESTS += vmstart
HOST_SRCS_vmstart := prezero/vmstart_model.c lib/stats.c
