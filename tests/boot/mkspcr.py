#!/usr/bin/env python3
"""tests/boot/mkspcr.py - hand-built ACPI SPCR tables for QEMU's -acpitable.

  tests/boot/mkspcr.py OUT.bin io PORT [BAUD]
  tests/boot/mkspcr.py OUT.bin mmio ADDR [BAUD]

An SPCR (Microsoft "Serial Port Console Redirection Table", revision 2,
80 bytes) naming a 16550 (interface type 0) at an I/O port (Generic Address
Structure space 1, width 8) or a 16550 with its registers in the GAS
(interface type 0x12) at a memory address (space 0, width 32, dword
access). The boot-test fixtures tests/boot/fixtures/spcr-*.bin are written
by fuzz/mkseeds.py from FIXTURES here, and the fuzz seeds from spcr().
"""

import struct
import sys

# Configured Baud Rate codes (SPCR offset 58).
BAUD_CODE = {0: 0, 9600: 3, 19200: 4, 57600: 6, 115200: 7}
SPACE_MEM, SPACE_IO = 0, 1


def spcr(space, addr, width=None, itype=None, baud=115200, length=80, rev=2):
    """The table's bytes: `length` is the header Length (and the size, so
    QEMU takes it); width defaults to 8 for I/O, 32 for memory; itype to 0
    (16550) for I/O and 0x12 (16550 with GAS) for memory."""
    if width is None:
        width = 8 if space == SPACE_IO else 32
    if itype is None:
        itype = 0 if space == SPACE_IO else 0x12
    access = {8: 1, 16: 2, 32: 3, 64: 4}.get(width, 0)
    body = struct.pack("<B3x", itype)
    body += struct.pack("<BBBBQ", space, width, 0, access, addr)  # Base Address, offset 40
    body += struct.pack("<BBI", 0, 0, 0)  # Interrupt Type, IRQ, GSI: polled
    body += struct.pack("<BBBBBB", BAUD_CODE[baud], 0, 1, 0, 0, 0)  # baud, 8N1, no flow
    body += struct.pack("<HHBBBIB", 0xffff, 0xffff, 0, 0, 0, 0, 0)  # not a PCI device
    body += b"\0" * 4  # Reserved (revision 2)
    t = bytearray(b"SPCR" + struct.pack("<IBB", length, rev, 0) + b"HZTEST" + b"HZSPCR  " +
                  struct.pack("<I", 1) + b"HZ  " + struct.pack("<I", 1) + body)
    t = t[:length] if length <= len(t) else t + b"\0" * (length - len(t))
    t[9] = -sum(t) & 0xff
    return bytes(t)


# The boot cases' tables (tests/boot/cases.cfg [spcr-*]). The pci-serial's
# BAR0 is where SeaBIOS puts it on q35 with -nodefaults and only that
# device: I/O 0xc060 (the spcr-pci case fails, naming the port, if not).
FIXTURES = {
    "spcr-com2.bin": spcr(SPACE_IO, 0x2f8),
    "spcr-pci.bin": spcr(SPACE_IO, 0xc060),
    "spcr-mmio-absent.bin": spcr(SPACE_MEM, 0xfe000000),
    "spcr-bad-length.bin": spcr(SPACE_IO, 0x2f8, length=60),
    "spcr-pl011.bin": spcr(SPACE_MEM, 0x9000000, itype=3),
    "spcr-width0.bin": spcr(SPACE_IO, 0x2f8, width=0),
}


def main(argv):
    if len(argv) not in (3, 4) or argv[1] not in ("io", "mmio"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    space = SPACE_IO if argv[1] == "io" else SPACE_MEM
    baud = int(argv[3]) if len(argv) == 4 else 115200
    if baud not in BAUD_CODE:
        print("mkspcr: baud %d has no SPCR code (%s)" % (baud, ", ".join(map(str, BAUD_CODE))),
              file=sys.stderr)
        return 2
    with open(argv[0], "wb") as f:
        f.write(spcr(space, int(argv[2], 0), baud=baud))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
