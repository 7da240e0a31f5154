# bench/ - the measurement programs: `run=fault` (and the frame pool set-up),
# `run=clear` with its correctness check, `run=smp` (thread scaling, peak,
# fill) and the split arithmetic behind it (portable, unit-tested).
KERNEL_C += bench/fault_bench.c bench/bench_clear.c bench/clear_correctness.c bench/split.c \
	bench/bench_smp.c bench/bench_smp_job.c bench/bench_smp_fill.c

HOST_TESTS += smp_split
HOST_SRCS_smp_split := bench/split.c
