# scenarios/numa/ - `run=numa`: the clearing matrix (CPU node x memory node),
# its plan (host-tested) and its table.
KERNEL_C += scenarios/numa/plan.c scenarios/numa/run.c scenarios/numa/table.c

HOST_TESTS += numa_plan
HOST_SRCS_numa_plan := scenarios/numa/plan.c lib/plan.c

# Its verdict item (linked into the host verdict tests too).
KERNEL_C += scenarios/numa/verdict.c
VERDICT_C += scenarios/numa/verdict.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/numa/kind.c
VERDICT_C += scenarios/numa/kind.c
