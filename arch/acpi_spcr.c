/*
 * arch/acpi_spcr.c - the Serial Port Console Redirection table, signature
 * "SPCR" (Microsoft "Serial Port Console Redirection Table" specification,
 * revisions 2-4; the signature is reserved by ACPI 6.5 §5.2.6): where the
 * firmware's own serial console is.
 *
 * Layout used (revision 2, 80 bytes; later revisions only append): header
 * (36), Interface Type u8 at 36 (the serial port subtypes of Microsoft's
 * "Debug Port Table 2", DBG2), Reserved (3), Base Address (Generic Address
 * Structure, ACPI 6.5 §5.2.3.2) at 40, Interrupt Type at 52, IRQ at 53,
 * Global System Interrupt at 54, Configured Baud Rate u8 at 58, then
 * parity, stop bits, flow control, terminal type, the PCI identity of the
 * port and, from revision 3, its clock. A table that breaks these rules,
 * or describes a UART the driver (arch/serial.h) cannot drive, is not used.
 */
#include "arch/acpi.h"
#include "arch/acpi_priv.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#include <stdarg.h>

#define SPCR_LEN_REV2 80 /* through the revision-2 Reserved field */
#define SPCR_TYPE 36
#define SPCR_BASE 40
#define SPCR_BAUD 58
#define SPCR_CLOCK 76         /* UART Clock Frequency, Hz (revision 3+; 0: not given) */
#define UART_CLOCK_HZ 1843200 /* the clock arch/serial.c's divisor assumes */

/* DBG2 serial port subtypes that are 16550-compatible (the ones Linux's
 * drivers/acpi/spcr.c hands to its 8250 driver). */
static bool type_16550(uint8_t t) { return t == 0x00 || t == 0x01 || t == 0x05 || t == 0x12; }

static const char *type_name(uint8_t t)
{
    switch (t) {
    case 0x00:
        return "16550";
    case 0x01:
        return "16550 subset";
    case 0x03:
        return "Arm PL011";
    case 0x05:
        return "NVIDIA 16550";
    case 0x0d:
    case 0x0e:
        return "Arm SBSA";
    case 0x0f:
        return "Arm DCC";
    case 0x12:
        return "16550 with GAS";
    case 0x14:
        return "Intel LPSS";
    default:
        return "unknown";
    }
}

/* Reject the table with a reason (also a diagnostic); returns -1. */
static int reject(struct acpi_spcr *out, struct acpi_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int reject(struct acpi_spcr *out, struct acpi_diag *d, const char *fmt, ...)
{
    char why[ACPI_SPCR_WHY_LEN];
    va_list ap;
    va_start(ap, fmt);
    hz_vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    memset(out, 0, sizeof *out);
    out->rejected = true;
    memcpy(out->why, why, sizeof why);
    acpi_diag(d, "%s", why);
    return -1;
}

/* Configured Baud Rate code -> bits per second; 0 keeps the divisor. */
static int baud_of(uint8_t code, uint32_t *baud)
{
    static const uint32_t rate[8] = {0, 0, 0, 9600, 19200, 0, 57600, 115200};
    if (code >= 8 || (code != 0 && rate[code] == 0))
        return -1;
    *baud = rate[code];
    return 0;
}

int acpi_spcr_parse(const void *p, size_t avail, struct acpi_spcr *out, struct acpi_diag *d)
{
    const uint8_t *t = p;
    memset(out, 0, sizeof *out);
    struct acpi_diag local = {0};
    uint32_t len = acpi_table_check(p, avail, "SPCR", &local);
    if (len == 0)
        return reject(out, d, "%s", local.n ? local.msg[0] : "SPCR: unreadable");
    if (len < SPCR_LEN_REV2)
        return reject(out, d, "SPCR: Length %u < 80", len);
    uint8_t type = acpi_rd8(t, SPCR_TYPE);
    if (!type_16550(type))
        return reject(out, d, "SPCR: interface type 0x%x (%s) is not 16550-compatible", type,
                      type_name(type));
    struct acpi_gas g = acpi_rd_gas(t, SPCR_BASE);
    if (g.addr == 0)
        return reject(out, d, "SPCR: Base Address 0 (no console)");
    if (g.bit_width == 0)
        return reject(out, d, "SPCR: Register Bit Width 0");
    if (g.space == ACPI_SPACE_IO) {
        if (g.bit_width != 8 || g.addr > 0xfff8)
            return reject(out, d, "SPCR: I/O port 0x%llx, width %u: not an 8-bit port below 0xfff8",
                          (unsigned long long)g.addr, g.bit_width);
    } else if (g.space == ACPI_SPACE_MEM) {
        if (g.bit_width != 32 || (g.addr & 3) || g.addr >= (1ull << 32))
            return reject(out, d,
                          "SPCR: memory 0x%llx, width %u: not 32-bit registers, aligned, below "
                          "4 GiB",
                          (unsigned long long)g.addr, g.bit_width);
    } else {
        return reject(out, d, "SPCR: address space %u is neither memory (0) nor I/O (1)", g.space);
    }
    uint32_t baud;
    if (baud_of(acpi_rd8(t, SPCR_BAUD), &baud) < 0)
        return reject(out, d, "SPCR: Configured Baud Rate code %u unknown", acpi_rd8(t, SPCR_BAUD));
    out->revision = acpi_rd8(t, 8);
    uint32_t clock = out->revision >= 3 ? acpi_rd32(t, SPCR_CLOCK) : 0;
    if (clock != 0 && clock != UART_CLOCK_HZ)
        baud = 0; /* a divisor for 1.8432 MHz would be wrong: keep the firmware's */
    out->interface_type = type;
    out->base = g;
    out->baud = baud;
    out->present = true;
    return 0;
}
