# scenarios/clear/ - `run=clear`: every clear strategy at every call size,
# cold and warm, interleaved and raced, its table, and the correctness check.
KERNEL_C += scenarios/clear/plan.c scenarios/clear/run.c scenarios/clear/cells.c scenarios/clear/race.c \
	scenarios/clear/table.c scenarios/clear/correctness.c

# Its verdict item (linked into the host verdict tests too).
KERNEL_C += scenarios/clear/verdict.c
VERDICT_C += scenarios/clear/verdict.c

# Its profile settings and price (portable), for the plan test.
PLAN_C += scenarios/clear/plan.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/clear/kind.c
VERDICT_C += scenarios/clear/kind.c
