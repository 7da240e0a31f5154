# kernel/ - start-up (main.c) and the services every program uses: console,
# options, results and exit, power-off, the scenario registry, the header
# record, memory ownership, progress lines, SMP start-up and work dispatch.
KERNEL_C += kernel/main.c kernel/console.c kernel/options.c kernel/results.c kernel/power.c \
	kernel/header.c kernel/ownership.c kernel/scenario.c kernel/smp.c kernel/smp_work.c \
	kernel/smp_report.c kernel/progress.c kernel/cpu_record.c kernel/lava.c
