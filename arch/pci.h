/*
 * arch/pci.h - reading PCI configuration space through Configuration
 * Mechanism #1 (PCI Local Bus Specification 3.0 §3.2.2.3.2): the
 * CONFIG_ADDRESS dword at I/O port 0xcf8, the data at 0xcfc. Read only;
 * used once, single-threaded, at start-up (the console's PCI UART scan).
 */
#ifndef HZ_ARCH_PCI_H
#define HZ_ARCH_PCI_H

#include <stdint.h>

/* The dword at `off` (masked to 4-aligned, below 256) of bus:dev.fn (bus
 * 0-255, dev 0-31, fn 0-7; masked to those widths). A function that is not
 * there, or a machine without the mechanism, reads 0xffffffff. Writes only
 * CONFIG_ADDRESS (0xcf8); the arch/console_pick.h pci_cfg_read_fn. */
uint32_t pci_cfg_read(unsigned bus, unsigned dev, unsigned fn, unsigned off);

#endif /* HZ_ARCH_PCI_H */
