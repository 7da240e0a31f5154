"""QEMU command lines for hugezero's boot paths.

  direct    -kernel build/hugezero.elf -append ARGS (PVH entry, no firmware)
  iso       SeaBIOS -> GRUB (BIOS) from a per-run ISO (tools/mkiso.sh)
  uefi      OVMF -> GRUB (x86_64-efi) from the same per-run ISO
  pxe       SeaBIOS -> iPXE (e1000 option ROM) -> TFTP boot/grub/i386-pc/core.0
  pxe-uefi  OVMF -> e1000 EFI driver -> TFTP boot/grub/x86_64-efi/core.efi

The firmware paths read the kernel arguments from grub.cfg, so each run gets
its own grub.cfg and image, built by the lead's scripts (tools/mkiso.sh
OUT.iso GRUBCFG, tools/mkpxe.sh OUTDIR GRUBCFG). QEMU's slirp network serves
the PXE tree over TFTP (DHCP option 67 = bootfile).

The console the host reads is the first UART (COM1, I/O 0x3f8) unless
BootConfig.console puts it on COM2 (COM1 then goes nowhere) or on a
pci-serial UART (no COM port at all), as lab servers do; the kernel ends the
run through isa-debug-exit at I/O port 0xf4 (docs/results.md).
"""

import copy
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import List, Optional

from . import ROOT, BUILD, hugepages

BOOTS = ("direct", "iso", "uefi", "pxe", "pxe-uefi")
# How the host reads COM1 (qemurun.SerialTap): QEMU's stdout, a file, a pipe
# (FIFOs NAME.in/NAME.out) or a Unix socket QEMU connects to.
SERIALS = ("stdio", "file", "pipe", "socket")
# Where that UART is (BootConfig.console): the QEMU arguments that attach
# chardev ser0 to it.
CONSOLES = {"com1": ["-serial", "chardev:ser0"],
            "com2": ["-serial", "null", "-serial", "chardev:ser0"],
            "pci": ["-device", "pci-serial,chardev=ser0"]}
QEMU = "qemu-system-x86_64"

# OVMF (code, vars template) pairs: Debian 12 (4 MiB and 2 MiB flash), Fedora, Arch.
OVMF_PAIRS = [
    ("/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_VARS_4M.fd"),
    ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_VARS.fd"),
    ("/usr/share/edk2/ovmf/OVMF_CODE.fd", "/usr/share/edk2/ovmf/OVMF_VARS.fd"),
    ("/usr/share/edk2/x64/OVMF_CODE.fd", "/usr/share/edk2/x64/OVMF_VARS.fd"),
]
# e1000: Debian's ipxe-qemu ships pxe-e1000.rom (BIOS) and efi-e1000.rom
# (BIOS + EFI driver), which QEMU loads as the NIC's option ROM.
NIC = "e1000"
PXE_BOOTFILE = {"pxe": "boot/grub/i386-pc/core.0",
                "pxe-uefi": "boot/grub/x86_64-efi/core.efi"}


class ConfigError(Exception):
    """A run that cannot be set up (missing firmware, no hugepages, ...)."""


@dataclass
class BootConfig:
    """What to boot and how. Sizes are QEMU -m strings ("2G", "512M").
    maxcpus 0: as many as smp (QEMU -smp N,maxcpus=M). modules: boot-module
    files, -initrd under direct boot (PVH takes one), GRUB module2 lines
    (string: the file name) on the firmware paths. serial_rate: bytes/s the
    host reads COM1 at (SerialTap); 0: as fast as it comes. console: the
    UART the host reads (CONSOLES). kernel None: build/hugezero.elf.
    ConfigError on a bad combination."""
    boot: str = "direct"
    accel: str = "auto"
    mem: str = "4G"
    smp: int = 1
    cpu: Optional[str] = None
    args: str = ""
    prealloc: bool = True
    hugepages: bool = False
    machine: str = "q35"
    kernel: str = ""
    extra: List[str] = field(default_factory=list)
    maxcpus: int = 0
    modules: List[str] = field(default_factory=list)
    serial: str = "stdio"
    serial_rate: int = 0
    console: str = "com1"

    def __post_init__(self) -> None:
        if self.boot not in BOOTS:
            raise ConfigError("unknown boot path %r (one of %s)" % (self.boot, ", ".join(BOOTS)))
        if self.accel not in ("auto", "kvm", "tcg"):
            raise ConfigError("unknown accelerator %r (auto, kvm or tcg)" % self.accel)
        self.smp = int(self.smp)
        self.maxcpus = int(self.maxcpus)
        if self.maxcpus and self.maxcpus < self.smp:
            raise ConfigError("maxcpus %d is below smp %d" % (self.maxcpus, self.smp))
        self.kernel = self.kernel or os.path.join(BUILD, "hugezero.elf")
        self.extra = list(self.extra or [])
        self.modules = list(self.modules)
        if self.serial not in SERIALS:
            raise ConfigError("unknown serial %r (one of %s)" % (self.serial, ", ".join(SERIALS)))
        if self.console not in CONSOLES:
            raise ConfigError("unknown console UART %r (one of %s)"
                              % (self.console, ", ".join(CONSOLES)))
        if self.serial_rate < 0 or (self.serial_rate and self.serial in ("stdio", "file")):
            raise ConfigError("a serial read rate needs serial pipe or socket")
        if self.boot == "direct" and len(self.modules) > 1:
            raise ConfigError("direct boot passes one module (-initrd), got %d"
                              % len(self.modules))


def parse_size(s):
    """Bytes in a QEMU -m size: a number with optional K/M/G/T suffix
    (powers of 1024); no suffix means MiB as in QEMU. ValueError if bad."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMGTkmgt]?)[Bb]?\s*", str(s))
    if not m:
        raise ValueError("bad memory size %r" % s)
    shift = {"": 20, "k": 10, "m": 20, "g": 30, "t": 40}[m.group(2).lower()]
    return int(m.group(1)) << shift


def find_ovmf():
    for code, vars_ in OVMF_PAIRS:
        if os.path.exists(code) and os.path.exists(vars_):
            return code, vars_
    raise ConfigError("no OVMF firmware found (tried %s); install the ovmf package"
                      % ", ".join(c for c, _ in OVMF_PAIRS))


def guest_ram(cfg, accel):
    """(backing, QEMU arguments) for the guest RAM: backing is "hugetlbfs 2M"
    or "hugetlbfs 1G" with --hugepages (a file on a hugetlbfs whose pool has
    room, else ConfigError with the numbers), else "anonymous 4K" (with
    -mem-prealloc under KVM unless cfg.prealloc is off)."""
    if not cfg.hugepages:
        return hugepages.ANON, ["-mem-prealloc"] if accel == "kvm" and cfg.prealloc else []
    need = parse_size(cfg.mem)
    try:
        path, size = hugepages.find_backing(need)
    except hugepages.HugePageError as e:
        raise ConfigError("--hugepages: %s" % e)
    return hugepages.backing_name(size), [
        "-object", "memory-backend-file,id=m0,size=%d,mem-path=%s,prealloc=on,share=off"
        % (need, path), "-machine", "memory-backend=m0"]


# guest_ram()'s backing names as the kernel's backing= option (docs/options.md).
KERNEL_BACKING = {hugepages.ANON: "4k", "hugetlbfs 2M": "hugetlbfs-2M",
                  "hugetlbfs 1G": "hugetlbfs-1G"}


def with_backing(cfg, backing):
    """A copy of cfg whose kernel arguments end with backing=WORD for the
    guest_ram() backing name (the guest cannot see how the host backs its
    RAM), or cfg itself when the arguments already give backing=."""
    if any(w.startswith("backing=") for w in cfg.args.split()):
        return cfg
    new = copy.copy(cfg)
    new.args = (cfg.args + " backing=" + KERNEL_BACKING.get(backing, "unknown")).strip()
    return new


_GRUB_SAFE = re.compile(r"[A-Za-z0-9=,._:/+@%-]+")


def grub_quote(word):
    """A word quoted for GRUB script (single quotes, like sh)."""
    if _GRUB_SAFE.fullmatch(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def grub_cfg(args, modules=()):
    """grub.cfg text booting /boot/hugezero.elf with kernel arguments `args`
    and a `module2 /boot/modules/NAME NAME` line per module file (the
    scripts copy them there, tools/mkiso.sh MODULES=...)."""
    words = " ".join(grub_quote(w) for w in args.split())
    mods = "".join("    module2 /boot/modules/%s %s\n" % (grub_quote(os.path.basename(m)),
                                                          grub_quote(os.path.basename(m)))
                   for m in modules)
    return ("serial --unit=0 --speed=115200\n"
            "terminal_input serial\n"
            "terminal_output serial\n"
            "set timeout=0\n"
            "menuentry 'hugezero' {\n"
            "    multiboot2 /boot/hugezero.elf%s\n"
            "%s"
            "    boot\n"
            "}\n" % ((" " + words) if words else "", mods))


def _script(name, kernel, *argv, modules=()):
    """Run tools/<name> ARGV with ELF=kernel and MODULES=files (the scripts'
    overrides)."""
    path = os.path.join(ROOT, "tools", name)
    if not os.path.exists(path):
        raise ConfigError("%s is missing" % path)
    for m in modules:
        if not os.path.isfile(m):
            raise ConfigError("boot module %s not found" % m)
    env = dict(os.environ, ELF=os.path.abspath(kernel),
               MODULES=" ".join(os.path.abspath(m) for m in modules))
    p = subprocess.run([path] + list(argv), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=ROOT, env=env)
    if p.returncode != 0:
        raise ConfigError("%s failed (exit %d):\n%s" % (name, p.returncode,
                                                        p.stdout.decode(errors="replace")))


def prepare(cfg, workdir):
    """Build what the boot path needs in workdir; returns the QEMU arguments
    for the boot media and firmware (not the common ones)."""
    if not os.path.exists(cfg.kernel):
        raise ConfigError("%s not found: run make" % cfg.kernel)
    if cfg.boot == "direct":
        for m in cfg.modules:
            if not os.path.isfile(m):
                raise ConfigError("boot module %s not found" % m)
        return ["-kernel", cfg.kernel, "-append", cfg.args] + (
            ["-initrd", cfg.modules[0]] if cfg.modules else [])
    gcfg = os.path.join(workdir, "grub.cfg")
    with open(gcfg, "w") as f:
        f.write(grub_cfg(cfg.args, cfg.modules))
    out = []
    if cfg.boot in ("uefi", "pxe-uefi"):
        code, vars_ = find_ovmf()
        vcopy = os.path.join(workdir, os.path.basename(vars_))
        shutil.copyfile(vars_, vcopy)
        out += ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + code,
                "-drive", "if=pflash,format=raw,unit=1,file=" + vcopy]
    if cfg.boot in ("iso", "uefi"):
        iso = os.path.join(workdir, "hugezero.iso")
        _script("mkiso.sh", cfg.kernel, iso, gcfg, modules=cfg.modules)
        out += ["-cdrom", iso, "-boot", "d"]
    else:
        tree = os.path.join(workdir, "pxe")
        _script("mkpxe.sh", cfg.kernel, tree, gcfg, modules=cfg.modules)
        out += ["-netdev", "user,id=n0,tftp=%s,bootfile=%s" % (tree, PXE_BOOTFILE[cfg.boot]),
                "-device", "%s,netdev=n0,bootindex=0" % NIC, "-boot", "n"]
    return out


def split_cpu(extra):
    """(extra without its -cpu options, the value of the last one or None).
    QEMU takes the last -cpu (or --cpu) it is given, so a `--qemu-arg -cpu
    --qemu-arg X` placed after hz's own -cpu decides the model:
    probe.choose() takes it from here, command() leaves it out of the
    extras. A trailing -cpu without a value stays (QEMU refuses it)."""
    rest, cpu, i = [], None, 0
    while i < len(extra):
        if extra[i] in ("-cpu", "--cpu") and i + 1 < len(extra):
            cpu, i = extra[i + 1], i + 2
            continue
        rest.append(extra[i])
        i += 1
    return rest, cpu


def serial_chardev(kind, folder):
    """QEMU's -chardev value for COM1 read as `kind` (SERIALS), its files in
    folder: file serial.out, pipe serial.in/serial.out (FIFOs the host made),
    socket serial.sock (QEMU connects to the host's listener)."""
    return {"stdio": "stdio,id=ser0,signal=off",
            "file": "file,id=ser0,path=%s" % os.path.join(folder, "serial.out"),
            "pipe": "pipe,id=ser0,path=%s" % os.path.join(folder, "serial"),
            "socket": "socket,id=ser0,path=%s" % os.path.join(folder, "serial.sock")}[kind]


def command(cfg, media, accel, cpu, ram=None, folder=None):
    """The full QEMU argv: common devices + accel/CPU/memory + media. accel
    and cpu come from probe.choose(), the one place that picks them; ram is
    guest_ram(cfg, accel) when the caller already has it (a -cpu among
    cfg.extra included: split_cpu); folder holds the serial files of a
    cfg.serial other than stdio."""
    argv = [QEMU, "-nodefaults", "-machine", cfg.machine, "-accel", accel, "-cpu", cpu,
            "-m", str(cfg.mem),
            "-smp", str(cfg.smp) + (",maxcpus=%d" % cfg.maxcpus if cfg.maxcpus else ""),
            "-display", "none", "-vga", "none", "-no-reboot", "-monitor", "none",
            "-chardev", serial_chardev(getattr(cfg, "serial", "stdio"), folder or ".")] + \
        CONSOLES[getattr(cfg, "console", "com1")] + \
        ["-device", "isa-debug-exit,iobase=0xf4,iosize=4"]
    return argv + (ram or guest_ram(cfg, accel))[1] + media + split_cpu(cfg.extra)[0]


def version():
    """First line of `qemu-system-x86_64 --version`, or "" when absent."""
    try:
        p = subprocess.run([QEMU, "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout.decode(errors="replace").split("\n")[0].strip()
