# scenarios/smp/ - `run=smp`: thread scaling, the peak and the fill.
KERNEL_C += scenarios/smp/plan.c scenarios/smp/run.c scenarios/smp/scale.c scenarios/smp/fill.c

# Its profile settings and price (portable), for the plan test.
PLAN_C += scenarios/smp/plan.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/smp/kind.c
VERDICT_C += scenarios/smp/kind.c
