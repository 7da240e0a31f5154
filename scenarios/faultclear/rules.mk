# scenarios/faultclear/ - `run=faultclear`: the fault_clear= models (how Linux
# clears a faulted huge page) raced against each other, and their report.
KERNEL_C += scenarios/faultclear/run.c scenarios/faultclear/plan.c scenarios/faultclear/report.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/faultclear/kind.c
VERDICT_C += scenarios/faultclear/kind.c
