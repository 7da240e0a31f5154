# scenarios/prezero/ - `run=prezero` and `run=policies`: the pre-zeroing
# policies under a workload, on the runner measure/ shares.
KERNEL_C += scenarios/prezero/run.c
