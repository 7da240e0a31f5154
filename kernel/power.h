/*
 * kernel/power.h - leaving the machine: QEMU's isa-debug-exit, reset and
 * ACPI soft-off. Each returns only when its method is unavailable or did not
 * take effect, after printing why.
 */
#ifndef HZ_KERNEL_POWER_H
#define HZ_KERNEL_POWER_H

/* Write `status` to I/O port 0xf4 (QEMU -device isa-debug-exit,iobase=0xf4,
 * iosize=4): QEMU exits with (status << 1) | 1. Elsewhere nothing happens. */
void power_qemu_exit(unsigned status);

/* Reset: the ACPI FADT RESET_REG when the FADT offers it (ACPI 6.5 §4.8.4.6),
 * else port 0xCF9 (full reset, 0x06), else the 8042 pulse (0xFE to 0x64). */
void power_reboot(void);

/* ACPI S5 soft-off: SLP_TYPa from the DSDT \_S5 object with SLP_EN written
 * to PM1a_CNT (ACPI 6.5 §4.8.3.2.1, §7.4.2). */
void power_off(void);

/* HW-reduced platforms use SLEEP_CONTROL_REG instead (ACPI 6.5 §4.8.3.7). */

#endif /* HZ_KERNEL_POWER_H */
