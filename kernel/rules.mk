# kernel/ - start-up (main.c) and the services every program uses:
# options, the registries' check, the end of a run (exit.c), power-off, the scenario registry, the header
# record, memory ownership, progress lines, SMP start-up and work dispatch.
KERNEL_C += kernel/main.c kernel/options.c kernel/registry.c kernel/exit.c kernel/power.c \
	kernel/verdict.c \
	kernel/header.c kernel/ownership.c kernel/scenario.c kernel/calibrate.c kernel/smp.c kernel/smp_work.c \
	kernel/smp_report.c kernel/smp_pv.c kernel/smp_park.c kernel/smp_plan.c kernel/smp_start.c kernel/progress.c kernel/cpu_record.c kernel/lava.c

HOST_TESTS += smp_plan smp_claim registry_check
HOST_SRCS_registry_check := kernel/registry.c lib/registry.c lib/print.c lib/record.c lib/fmt.c
HOST_SRCS_smp_plan := kernel/smp_plan.c
HOST_SRCS_smp_claim := arch/trampoline_claim.asm
HOST_LDLIBS_smp_claim := -lpthread
