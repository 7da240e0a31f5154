# scenarios/policies/ - `run=policies`: the workload under every pre-zeroing
# policy, side by side, on the runner measure/ shares.
KERNEL_C += scenarios/policies/run.c scenarios/policies/plan.c

# Its profile settings (portable), for the plan test.
PLAN_C += scenarios/policies/plan.c
