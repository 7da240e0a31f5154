# lib/ - portable helpers: freestanding string functions, a small snprintf,
# the output stream (kprintf, record_emit: print.c) and check results,
# the `@hz` record writer, statistics, the option parser, a spinlock. They
# include nothing else of the project, so the kernel, the host unit tests and
# tools/linux-bench build the same sources.
KERNEL_C += lib/string.c lib/fmt.c lib/record.c lib/cmdline.c lib/stats.c lib/interleave.c \
	lib/plan.c lib/verdict.c lib/compare.c lib/print.c lib/results.c \
	lib/vmmodel.c lib/verdict_text.c lib/verdict_names.c lib/verdict_templates.c \
	lib/published.c lib/registry.c

HOST_TESTS += fmt record print results cmdline stats interleave interleave_run plan verdict verdict_items verdict_source verdict_numa verdict_idle compare compare_sim compare_noise vmmodel verdict_vm \
	verdict_text verdict_rounds registry cmdline_size
HOST_SRCS_registry := lib/registry.c lib/fmt.c
HOST_SRCS_fmt := lib/fmt.c lib/stats.c
HOST_SRCS_record := lib/record.c lib/fmt.c
HOST_SRCS_print := lib/print.c lib/record.c lib/fmt.c
HOST_SRCS_results := lib/results.c lib/print.c lib/record.c lib/fmt.c
HOST_SRCS_cmdline := lib/cmdline.c lib/fmt.c
HOST_SRCS_cmdline_size := lib/cmdline.c lib/fmt.c
HOST_SRCS_stats := lib/stats.c
HOST_SRCS_interleave := lib/interleave.c lib/stats.c
HOST_SRCS_interleave_run := lib/interleave.c lib/stats.c
# The plan test prices the default run with the scenarios' own settings
# (PLAN_C, scenarios/*/rules.mk, included later: hence `=`).
HOST_SRCS_plan = lib/plan.c $(PLAN_C)
# The verdict tests link every scenario's item (VERDICT_C, scenarios/*/rules.mk,
# included later: hence `=`).
HOST_SRCS_verdict = lib/verdict.c lib/record.c lib/compare.c lib/stats.c lib/verdict_text.c \
	lib/verdict_names.c lib/verdict_templates.c lib/published.c lib/vmmodel.c lib/fmt.c \
	tests/unit/verdict_fixture.c $(VERDICT_C)
HOST_SRCS_verdict_items = $(HOST_SRCS_verdict)
HOST_SRCS_verdict_source = $(HOST_SRCS_verdict)
HOST_SRCS_verdict_numa = $(HOST_SRCS_verdict)
HOST_SRCS_verdict_idle = $(HOST_SRCS_verdict)
HOST_SRCS_verdict_vm = $(HOST_SRCS_verdict)
HOST_SRCS_verdict_text = $(HOST_SRCS_verdict)
HOST_SRCS_verdict_rounds = $(HOST_SRCS_verdict) lib/interleave.c
HOST_SRCS_vmmodel := lib/vmmodel.c lib/stats.c lib/fmt.c
HOST_SRCS_compare := lib/compare.c lib/stats.c lib/interleave.c
HOST_SRCS_compare_sim := lib/compare.c lib/stats.c lib/interleave.c
HOST_SRCS_compare_noise := lib/compare.c lib/stats.c lib/interleave.c
HOST_LDLIBS_compare_noise := -lm
