/*
 * kernel/registry.h - the linker-section registries checked before their
 * first use: options (hz_options, lib/cmdline.h HZ_OPTION), scenarios
 * (hz_scenarios, kernel/scenario.h HZ_SCENARIO), verdict items
 * (hz_verdict_items, lib/verdict.h HZ_VERDICT_ITEM) and cell kinds
 * (hz_cell_kinds, lib/verdict.h HZ_CELL_KIND).
 */
#ifndef HZ_KERNEL_REGISTRY_H
#define HZ_KERNEL_REGISTRY_H

/*
 * Look for twins (lib/registry.h) in every registry: two options with the
 * same .name, two scenarios with the same .name or .order, two verdict
 * items with the same .key or .order, two cell kinds with the same .run.
 * For each of these fields that has
 * one, print its first twin (reg_first_twin): "hugezero: broken build:
 * ..." naming the registry, the field, the value and both rows (their
 * index in link order and address: build/hugezero.sym names the
 * address's row) and a `registry` record (docs/results.md); then return
 * -1: the caller ends the run with HZ_CRASH (a fault of the image, not of
 * the command line). 0 when there is none. Call it before
 * options_parse(), the registries' first look-up.
 *
 * The scenario and verdict item registries' sizes are checked at link
 * time: linker.ld ASSERTs hz_scenarios against HZ_MAX_SCENARIOS rows
 * (kernel/scenario.h) and hz_verdict_items against VD_MAX_ITEMS
 * (lib/verdict.h).
 */
int registries_check(void);

#endif /* HZ_KERNEL_REGISTRY_H */
