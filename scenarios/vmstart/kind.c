/*
 * scenarios/vmstart/kind.c - the cells run=vmstart hands the verdict
 * (lib/verdict.h struct vd_kind): samples = wall ns to fault `bytes` in with
 * `threads` CPUs. Ids past "vmstart/": "none/2T/4G" (policy/threads/bytes).
 * Written by lib/verdict_text.h vd_name_threads(). Portable C: the host
 * verdict tests link it (VERDICT_C).
 */
#include "lib/verdict_text.h"
#include "scenarios/vmstart/vmstart.h"

HZ_CELL_KIND(vmstart_kind, .run = "vmstart", .id = vd_name_threads);
