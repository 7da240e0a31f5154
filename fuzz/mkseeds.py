#!/usr/bin/env python3
"""fuzz/mkseeds.py - write the generated seed inputs of fuzz/corpus/.

  fuzz/mkseeds.py [--check]

Each harness (fuzz/fuzz_<name>.c, whose header gives its input format) gets
a few well-formed inputs modelled on what QEMU, SeaBIOS, OVMF and GRUB
produce, so that fuzzing starts from the interesting paths. They are written
as fuzz/corpus/<name>/seed-<what>; regression inputs (regress-*, findings
that were fixed) sit beside them and are never touched here. It also
writes the crafted ACPI tables of the boot tests (FIXTURES). --check fails
when a committed seed differs from what this script makes.
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "boot"))

import mkspcr  # noqa: E402

# QEMU -m 8G E820 (base, length, type), as SeaBIOS reports it.
E820 = [(0, 0x9fc00, 1), (0x9fc00, 0x400, 2), (0xf0000, 0x10000, 2),
        (0x100000, 0xbfee0000, 1), (0xbffe0000, 0x20000, 2), (0xfeffc000, 0x4000, 2),
        (0xfffc0000, 0x40000, 2), (0x100000000, 0x140000000, 1)]


def cmdline():
    return {
        "plain": b"run=none",
        "kinds": b"smp=4 bytes=2M mode=nt verify=on console=ttyS1,9600",
        "loader-path": b"/boot/hugezero.elf\tsmp=2  verify=off\n",
        "conflict": b"nosmp smp=4",
        "mmio": b"console=mmio32,0xfe001000,115200 bytes=0x1000",
        "long-word": b"bytes=" + b"0" * 300 + b"4K",
        "control-bytes": b"mode=\x01nt \x1b[2J",
    }


def mb2_tag(ttype, payload):
    body = struct.pack("<II", ttype, 8 + len(payload)) + payload
    return body + b"\0" * (-len(body) % 8)


def mb2(tags):
    body = b"".join(tags) + mb2_tag(0, b"")
    return struct.pack("<II", 8 + len(body), 0) + body


RSDP_V2 = b"RSD PTR \x17BOCHS \x02\x10\x20\x30\x40\x24\0\0\0\0\x10\x20\x30\0\0\0\0\x99\0\0\0"


def multiboot2():
    e820 = struct.pack("<II", 24, 0) + b"".join(struct.pack("<QQII", b, l, t, 0) for b, l, t in E820)
    efi = struct.pack("<II", 48, 1) + b"".join(
        struct.pack("<IIQQQQ", {1: 7, 2: 0}[t], 0, b, 0, l >> 12, 0xf) + b"\0" * 8
        for b, l, t in E820)
    module = struct.pack("<II", 0x800000, 0x801000) + b"initrd\0"
    return {
        "bios": mb2([mb2_tag(1, b"run=none smp=2\0"), mb2_tag(2, b"GRUB 2.06\0"),
                     mb2_tag(3, module), mb2_tag(6, e820), mb2_tag(15, RSDP_V2)]),
        "efi": mb2([mb2_tag(1, b"console=ttyS0\0"), mb2_tag(12, struct.pack("<Q", 0x7f9ee018)),
                    mb2_tag(17, efi), mb2_tag(14, RSDP_V2[:20])]),
    }


def pvh():
    # hvm_start_info v1 (56 bytes), then the command line, the module list
    # and the memory map; addresses are offsets from the structure (the
    # harness turns them into host addresses).
    cmd = b"run=none console=ttyS0\0"
    modcmd = b"initrd.img\0"
    off_cmd = 56
    off_modcmd = off_cmd + len(cmd)
    off_mod = off_modcmd + len(modcmd)
    mods = struct.pack("<QQQQ", 0x800000, 0x1000, off_modcmd, 0)
    mmap = b"".join(struct.pack("<QQII", b, l, t, 0) for b, l, t in E820)
    off_map = off_mod + len(mods)
    head = struct.pack("<IIIIQQQQII", 0x336ec578, 1, 0, 1, off_mod, off_cmd, 0xf5a50, off_map,
                       len(E820), 0)
    return {"v1": head + cmd + modcmd + mods + mmap,
            "v0": struct.pack("<IIIIQQQ", 0x336ec578, 0, 0, 0, 0, 40, 0) + b"nosmp\0"}


def memmap():
    excl = [(0, 0x100000), (0x200000, 0x3a2345)]
    head = struct.pack("<BI", len(excl), 0x5a5a) + b"".join(struct.pack("<QQ", *x) for x in excl)
    ents = lambda es: b"".join(struct.pack("<QQI", b, l, t) for b, l, t in es)
    overlap = E820 + [(0x40000000, 0x80000000, 2), (0x7ffff000, 0x3000, 5), (0x180000000, 0x1000, 4)]
    return {"qemu-8g": head + ents(E820), "overlaps": head + ents(overlap),
            "top": struct.pack("<BI", 0, 0xffff) + ents([(0xffffffff00000000, 0x100000000, 1),
                                                         (0, 0x40000000, 1)])}


def acpi_table(sig, body, rev=1):
    return sig + struct.pack("<IBB", 36 + len(body), rev, 0) + b"BOCHS BXPC    \1\0\0\0BXPC\1\0\0\0" + body


def acpi():
    # Chunk references 1..255 are resolved by the harness (fuzz_acpi.c).
    rsdp = lambda rsdt: b"RSD PTR \0BOCHS \x02" + struct.pack("<IIQB3x", rsdt, 36, 1, 0)
    xsdt = acpi_table(b"XSDT", struct.pack("<5Q", 2, 4, 5, 6, 0x100000000))
    rsdt = acpi_table(b"RSDT", struct.pack("<4I", 2, 4, 5, 6))
    facp = bytearray(acpi_table(b"FACP", b"\0" * (276 - 36), rev=6))
    struct.pack_into("<I", facp, 40, 3)  # DSDT -> chunk 3
    struct.pack_into("<II", facp, 64, 0x604, 0)  # PM1a_CNT_BLK
    struct.pack_into("<I", facp, 76, 0x608)  # PM_TMR_BLK
    facp[89], facp[91] = 2, 4  # PM1_CNT_LEN, PM_TMR_LEN
    struct.pack_into("<I", facp, 112, (1 << 8) | (1 << 10))  # TMR_VAL_EXT, RESET_REG_SUP
    facp[116:128] = struct.pack("<BBBBQ", 1, 8, 0, 1, 0xcf9)
    facp[128] = 6
    s5 = b"\x08\\_S5_\x12\x06\x04\x0a\x05\x0a\x05\x00\x00"
    dsdt = acpi_table(b"DSDT", b"\x10\x05\\_SB_" + s5, rev=2)
    madt = acpi_table(b"APIC", struct.pack("<II", 0xfee00000, 1) +
                      struct.pack("<BBBBI", 0, 8, 0, 0, 1) + struct.pack("<BBBBI", 0, 8, 1, 1, 1) +
                      struct.pack("<BBBBII", 1, 12, 0, 0, 0xfec00000, 0) +
                      struct.pack("<BBHIII", 9, 16, 0, 256, 1, 2) +
                      struct.pack("<BBHQ", 5, 12, 0, 0xfee00000), rev=5)
    srat = acpi_table(b"SRAT", struct.pack("<IQ", 1, 0) +
                      struct.pack("<BBBBIB3sI", 0, 16, 0, 0, 1, 0, b"\0\0\0", 0) +
                      struct.pack("<BBIHQQIIQ", 1, 40, 0, 0, 0, 0x80000000, 0, 1, 0) +
                      struct.pack("<BBHIIIII", 2, 24, 0, 1, 256, 1, 0, 0), rev=3)
    hpet = acpi_table(b"HPET", struct.pack("<IBBBBQBHB", 0x8086a201, 0, 64, 0, 0, 0xfed00000, 0,
                                           128, 0))
    chunks = [rsdp(7), xsdt, facp, dsdt, madt, srat, hpet, rsdt]
    pack = lambda flags, cs: bytes([flags]) + b"".join(struct.pack("<H", len(c)) + c for c in cs)
    return {"qemu-strict-copy": pack(0x0c, chunks), "qemu-pvh": pack(0x05, chunks),
            "qemu-scan": pack(0x0e, chunks), "rsdt-tag14": pack(0x0f, [rsdp(1), rsdt] + chunks[2:7])}


def slit_table(n, entries, length=None):
    """A SLIT (ACPI 6.5 §5.2.17) of n localities, Length 44 + len(entries)
    unless given, checksummed."""
    t = bytearray(b"SLIT" + struct.pack("<IBB", length or 44 + len(entries), 1, 0) +
                  b"BOCHS BXPC    \1\0\0\0BXPC\1\0\0\0" + struct.pack("<Q", n) + bytes(entries))
    t[9] = -sum(t) & 0xff
    return bytes(t)


def srat_table(cpus, mems):
    """An SRAT as QEMU builds it: x2APIC-less CPU entries (apic, domain),
    then memory entries (base, length, domain, flags)."""
    body = struct.pack("<IQ", 1, 0)
    for apic, dom in cpus:
        body += struct.pack("<BBBBIB3sI", 0, 16, dom & 0xff, apic, 1, 0,
                            struct.pack("<I", dom)[1:], 0)
    for base, length, dom, flags in mems:
        body += struct.pack("<BBIHQQIIQ", 1, 40, dom, 0, base, length, 0, flags, 0)
    t = bytearray(acpi_table(b"SRAT", body, rev=3))
    t[9] = -sum(t) & 0xff
    return bytes(t)


# The bad-length SLIT of the numa-slit-bad-length boot case (tests/boot/cases.cfg):
# 2 localities, 3 entries, Length 47 (not 44 + 4).
SLIT_BAD_LENGTH = slit_table(2, [10, 20, 20])
# The SLIT of numa-tcg-slit-short: one locality, well-formed, for an SRAT of two domains.
SLIT_ONE = slit_table(1, [10])
FIXTURES = {os.path.join("tests", "boot", "fixtures", "slit-bad-length.bin"): SLIT_BAD_LENGTH,
            os.path.join("tests", "boot", "fixtures", "slit-one-locality.bin"): SLIT_ONE}
FIXTURES.update({os.path.join("tests", "boot", "fixtures", name): data
                 for name, data in mkspcr.FIXTURES.items()})


def slit():
    # fuzz_slit.c: flags, u16 SLIT length, SLIT, SRAT. QEMU -m 4G, two nodes.
    G = 1 << 30
    two = srat_table([(0, 0), (1, 1)], [(0, 0xa0000, 0, 1), (0x100000, 2 * G - 0x100000, 0, 1),
                                        (4 * G, 2 * G, 1, 1), (0, 0, 0, 0)])
    four = srat_table([(i, i) for i in range(4)], [(i * G, G, i, 1) for i in range(4)])
    mem_only = srat_table([(0, 0), (1, 1)], [(0, G, 0, 1), (G, G, 1, 1), (4 * G, G, 2, 7)])
    asym = [10, 21, 22, 23, 31, 10, 24, 25, 32, 34, 10, 26, 33, 35, 255, 10]
    pack = lambda flags, s, r: bytes([flags]) + struct.pack("<H", len(s)) + s + r
    return {"qemu-2": pack(0, slit_table(2, [10, 20, 20, 10]), two),
            "qemu-4-asym": pack(0, slit_table(4, asym), four),
            "memory-only": pack(0, slit_table(3, [10, 20, 40, 20, 10, 40, 40, 40, 10]), mem_only),
            "no-slit": pack(0x10, b"", two),
            "bad-length": pack(0, SLIT_BAD_LENGTH, two),
            "fix-all": pack(0x0f, slit_table(2, [10, 20, 20, 10], length=1), four)}


def mtrr():
    # SeaBIOS under QEMU: MTRRCAP 0x508, DEF_TYPE E|FE|WB, WB below 640 KiB,
    # UC VGA, WP ROM, one UC variable range over the 32-bit PCI hole.
    fixed = [0x0606060606060606] * 2 + [0] + [0x0505050505050505] * 8
    var = [(0xc0000000 | 0, 0xffc0000800), (0x100000000 | 6, 0xff00000800)]
    body = struct.pack("<BB", 3, 40) + struct.pack("<QQ11QQ", 0x508, 0xc06, *fixed,
                                                   0x0007040600070406)
    body += b"".join(struct.pack("<QQ", b, m) for b, m in var)
    return {"seabios": body + struct.pack("<IIII", 0x9f, 2, 0xbffff, 0x40001),
            "disabled": struct.pack("<BB", 1, 36) + struct.pack("<QQ11QQ", 0x508, 0x6, *fixed, 0)
            + struct.pack("<IIII", 0, 256, 0xff, 1)}


def spcr():
    # fuzz_spcr.c: flags, then the SPCR; the boot cases' tables and a revision-4 one.
    seeds = {name[5:-4]: b"\0" + data for name, data in mkspcr.FIXTURES.items()}
    seeds["rev4-mmio32"] = b"\0" + mkspcr.spcr(mkspcr.SPACE_MEM, 0xfe030000, length=88, rev=4)
    seeds["fix-all"] = b"\x03" + mkspcr.spcr(mkspcr.SPACE_IO, 0x3f8, length=36)
    return seeds


SEEDS = {"cmdline": cmdline, "multiboot2": multiboot2, "pvh": pvh, "memmap": memmap,
         "acpi": acpi, "slit": slit, "mtrr": mtrr, "spcr": spcr}


def main():
    check = sys.argv[1:] == ["--check"]
    stale = []
    for name, make in SEEDS.items():
        d = os.path.join(CORPUS, name)
        os.makedirs(d, exist_ok=True)
        for what, data in make().items():
            path = os.path.join(d, "seed-" + what)
            old = open(path, "rb").read() if os.path.exists(path) else None
            if old == data:
                continue
            if check:
                stale.append(path)
            else:
                with open(path, "wb") as f:
                    f.write(data)
    for rel, data in FIXTURES.items():
        path = os.path.join(os.path.dirname(HERE), rel)
        old = open(path, "rb").read() if os.path.exists(path) else None
        if old != data and check:
            stale.append(path)
        elif old != data:
            with open(path, "wb") as f:
                f.write(data)
    if stale:
        print("fuzz/mkseeds.py: out of date: " + " ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
