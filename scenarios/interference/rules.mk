# scenarios/interference/ - `run=interference`: what a background zeroer costs
# its neighbours (victims, pacing, residency, references, ranking, the host
# check).
KERNEL_C += scenarios/interference/run.c scenarios/interference/plan.c scenarios/interference/work.c \
	scenarios/interference/report.c scenarios/interference/pace.c \
	scenarios/interference/residency.c scenarios/interference/refs.c \
	scenarios/interference/rank.c scenarios/interference/host.c

HOST_TESTS += interference
HOST_SRCS_interference := scenarios/interference/work.c scenarios/interference/pace.c \
	measure/memop.c measure/split.c lib/interleave.c lib/stats.c $(CLEAR_C) $(CLEAR_ASM) arch/cpu.c
HOST_LDLIBS_interference := -lpthread
HOST_TESTS += interference_pace
HOST_SRCS_interference_pace := scenarios/interference/pace.c scenarios/interference/residency.c

# Its verdict item (linked into the host verdict tests too).
KERNEL_C += scenarios/interference/verdict.c
VERDICT_C += scenarios/interference/verdict.c

# Its cells' kind (linked into the host verdict tests too).
KERNEL_C += scenarios/interference/kind.c
VERDICT_C += scenarios/interference/kind.c
