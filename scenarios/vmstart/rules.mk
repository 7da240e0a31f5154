# scenarios/vmstart/ - `run=vmstart`: what a VM start's zeroing costs, measured
# (the qemu rows) and modelled (lib/vmmodel.c, host-tested), and its verdict
# item.
KERNEL_C += scenarios/vmstart/run.c scenarios/vmstart/plan.c scenarios/vmstart/report.c scenarios/vmstart/qemu.c

# Its verdict item (linked into the host verdict tests too).
KERNEL_C += scenarios/vmstart/verdict.c
VERDICT_C += scenarios/vmstart/verdict.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/vmstart/kind.c
VERDICT_C += scenarios/vmstart/kind.c
