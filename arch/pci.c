/*
 * arch/pci.c - PCI Configuration Mechanism #1 (PCI Local Bus Specification
 * 3.0 §3.2.2.3.2): CONFIG_ADDRESS at 0xcf8 is bit 31 Enable, bits 23:16
 * bus, 15:11 device, 10:8 function, 7:2 register; CONFIG_DATA at 0xcfc.
 */
#include "arch/pci.h"
#include "arch/x86.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc

uint32_t pci_cfg_read(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
    outl(PCI_CONFIG_ADDRESS,
         0x80000000u | (bus & 0xff) << 16 | (dev & 0x1f) << 11 | (fn & 7) << 8 | (off & 0xfc));
    return inl(PCI_CONFIG_DATA);
}
