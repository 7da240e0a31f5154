/*
 * kernel/exit.h - the way a run ends (docs/results.md "Exit status").
 */
#ifndef HZ_KERNEL_EXIT_H
#define HZ_KERNEL_EXIT_H

#include "lib/results.h"

/*
 * End the run: print the `summary` record and the final status line, then
 * leave as `on_exit=` says (auto: isa-debug-exit port 0xf4 under a
 * hypervisor, then halt; halt; reboot; poweroff). Never returns. Safe to call
 * from any CPU and from the crash path; a second call just halts.
 */
_Noreturn void hz_exit(enum hz_status s);

/*
 * What hz_exit() asks before the `summary`, after the PV teardown: the
 * run's verdict (kernel/verdict.c verdict_at_exit, which kernel/main.c
 * sets). It sets *state to the summary's `verdict` member ("made",
 * "partial", "none") and returns its `verdict_why` (NULL: none). A crash
 * inside it still ends the run (verdict "none"). Without a hook, or before
 * it is set, the summary says verdict "none", why "no verdict hook set".
 */
typedef const char *(*hz_exit_hook)(enum hz_status s, const char **state);
void hz_exit_set_hook(hz_exit_hook h);

#endif /* HZ_KERNEL_EXIT_H */
