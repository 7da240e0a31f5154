# scenarios/faultclear/ - `run=faultclear`: the fault_clear= models (how Linux
# clears a faulted huge page) raced against each other, and their report.
KERNEL_C += scenarios/faultclear/run.c scenarios/faultclear/plan.c scenarios/faultclear/report.c
