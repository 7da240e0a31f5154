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

#endif /* HZ_KERNEL_EXIT_H */
