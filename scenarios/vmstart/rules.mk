# scenarios/vmstart/ - `run=vmstart`: the VM start's cost (its runner is still
# in prezero/ for now).

# Its verdict item (linked into the host verdict tests too).
KERNEL_C += scenarios/vmstart/verdict.c
VERDICT_C += scenarios/vmstart/verdict.c
