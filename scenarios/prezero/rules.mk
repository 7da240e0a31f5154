# scenarios/prezero/ - `run=prezero` and `run=policies`: the pre-zeroing
# policies under a workload, on the runner measure/ shares.
KERNEL_C += scenarios/prezero/plan.c scenarios/prezero/run.c

# Its profile settings and price (portable), for the plan test.
PLAN_C += scenarios/prezero/plan.c
