# prezero/ - `run=prezero`, `run=policies` and `run=vmstart`: the kernel
# runner of one workload under one policy (pz_run_one, its options), the
# scenarios, and the VM-start scenario (the model's arithmetic is
# lib/vmmodel.c, host-tested). The workload generators, the event loop, the
# SMP team and the `prezero` record are measure/'s.
KERNEL_C += prezero/prezero.c prezero/vmstart.c prezero/vmstart_report.c prezero/vmstart_qemu.c
