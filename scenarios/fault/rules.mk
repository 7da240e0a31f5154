# scenarios/fault/ - `run=fault`: the demand-fault self-test on the fault pool
# of measure/fault_pool.c.
KERNEL_C += scenarios/fault/run.c
