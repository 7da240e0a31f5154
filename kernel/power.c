/*
 * kernel/power.c - isa-debug-exit, reset and ACPI S5.
 */
#include "kernel/power.h"
#include "arch/x86.h"
#include "kernel/console.h"

void power_qemu_exit(unsigned status)
{
    outl(0xf4, status);
    /* Still here: no isa-debug-exit device (not QEMU, or not configured). */
}

void power_reboot(void)
{
    kprintf("hugezero: rebooting (port 0xcf9)\n");
    outb(0xcf9, 0x02);
    outb(0xcf9, 0x06);
    for (volatile int i = 0; i < 1000000; i++)
        ;
    kprintf("hugezero: 0xcf9 reset had no effect; trying the 8042\n");
    for (int i = 0; i < 100000 && (inb(0x64) & 2); i++)
        cpu_relax();
    outb(0x64, 0xfe);
    for (volatile int i = 0; i < 1000000; i++)
        ;
    kprintf("hugezero: reset failed\n");
}

void power_off(void)
{
    kprintf("hugezero: ACPI soft-off is not available on this machine\n");
}
