/*
 * kernel/progress.h - `progress` records during long phases (docs/results.md):
 * phase name, percent done and an ETA, at most once per second of TSC time,
 * so a host (`hz run`) can show a live status line. Call from the BSP only,
 * between measured regions (printing takes serial-port time).
 */
#ifndef HZ_KERNEL_PROGRESS_H
#define HZ_KERNEL_PROGRESS_H

/* Start a phase of `total` steps (total 0 is treated as 1). */
void progress_begin(const char *phase, unsigned total);

/* `done` of the phase's steps are finished. Prints a record when at least
 * one second passed since the last one, and always for the last step. The
 * ETA is linear in the steps done so far; before the first step it is 0. */
void progress_step(unsigned done);

#endif /* HZ_KERNEL_PROGRESS_H */
