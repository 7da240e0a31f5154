/*
 * kernel/power.c - isa-debug-exit, reset and ACPI S5.
 */
#include "kernel/power.h"
#include "arch/acpi.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "lib/print.h"

void power_qemu_exit(unsigned status)
{
    outl(0xf4, status);
    /* Still here: no isa-debug-exit device (not QEMU, or not configured). */
}

/* Write a Generic Address Structure register (ACPI 6.5 §5.2.3.2): system
 * I/O or memory space only. Returns 0, or -1 for another space. */
static int gas_write(const struct acpi_gas *g, uint32_t v)
{
    unsigned width = g->bit_width ? g->bit_width : 8;
    if (g->space == ACPI_SPACE_IO) {
        if (width == 8)
            outb((uint16_t)g->addr, (uint8_t)v);
        else if (width == 16)
            outw((uint16_t)g->addr, (uint16_t)v);
        else
            outl((uint16_t)g->addr, v);
        return 0;
    }
    if (g->space == ACPI_SPACE_MEM && g->addr < (1ull << 32)) {
        if (width == 8)
            *(volatile uint8_t *)(uintptr_t)g->addr = (uint8_t)v;
        else if (width == 16)
            *(volatile uint16_t *)(uintptr_t)g->addr = (uint16_t)v;
        else
            *(volatile uint32_t *)(uintptr_t)g->addr = v;
        return 0;
    }
    return -1;
}

void power_reboot(void)
{
    const struct acpi_fadt *f = &acpi_get()->fadt;
    if (f->present && f->reset_supported && gas_write(&f->reset_reg, f->reset_value) == 0) {
        kprintf("hugezero: reset through the ACPI reset register\n");
        tsc_delay_us(500000);
    }
    kprintf("hugezero: rebooting through port 0xcf9\n");
    outb(0xcf9, 0x02);
    outb(0xcf9, 0x06);
    tsc_delay_us(500000);
    kprintf("hugezero: 0xcf9 reset had no effect; trying the 8042\n");
    for (int i = 0; i < 100000 && (inb(0x64) & 2); i++)
        tsc_delay_us(10);
    outb(0x64, 0xfe);
    tsc_delay_us(500000);
    kprintf("hugezero: reset failed\n");
}

void power_off(void)
{
    const struct acpi_info *ai = acpi_get();
    const struct acpi_fadt *f = &ai->fadt;
    if (!ai->s5.found || !f->present) {
        kprintf("hugezero: poweroff needs the ACPI FADT and a \\_S5 object; none found\n");
        return;
    }
    kprintf("hugezero: powering off (ACPI S5)\n");
    if (f->hw_reduced) { /* SLEEP_CONTROL_REG: SLP_TYP bits 4:2, SLP_EN bit 5 (§4.8.3.7) */
        gas_write(&f->sleep_control, (uint32_t)((ai->s5.slp_typa & 7) << 2) | (1u << 5));
    } else {
        gas_write(&f->pm1a_cnt, (uint32_t)((ai->s5.slp_typa & 7) << 10) | (1u << 13));
        if (f->pm1b_cnt.addr)
            gas_write(&f->pm1b_cnt, (uint32_t)((ai->s5.slp_typb & 7) << 10) | (1u << 13));
    }
    tsc_delay_us(1000000);
    kprintf("hugezero: ACPI poweroff had no effect\n");
}
