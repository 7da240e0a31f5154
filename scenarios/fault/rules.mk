# scenarios/fault/ - `run=fault`: the demand-fault self-test on the fault pool
# of measure/fault_pool.c.
KERNEL_C += scenarios/fault/plan.c scenarios/fault/run.c

# Its verdict item (linked into the host verdict tests too).
KERNEL_C += scenarios/fault/verdict.c
VERDICT_C += scenarios/fault/verdict.c

# Its profile settings and price (portable), for the plan test.
PLAN_C += scenarios/fault/plan.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/fault/kind.c
VERDICT_C += scenarios/fault/kind.c
