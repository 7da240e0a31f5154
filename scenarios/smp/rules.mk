# scenarios/smp/ - `run=smp`: thread scaling, the peak and the fill.
KERNEL_C += scenarios/smp/run.c scenarios/smp/scale.c scenarios/smp/fill.c
