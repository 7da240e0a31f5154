# scenarios/prezero/ - `run=prezero`: one workload under the prezero= policy,
# on the pre-zeroing runner measure/ shares.
KERNEL_C += scenarios/prezero/run.c scenarios/prezero/plan.c
