"""Which accelerator and QEMU -cpu model boot hugezero on this host.

Every QEMU boot (`hz run`, the boot tests, `make bench`) takes its
accelerator and CPU model from choose(); nothing else picks a -cpu.

KVM. QEMU's `-cpu host` copies the host CPU, and QEMU then sets MSRs for it
that a hypervisor underneath may refuse: on an AMD EPYC under nested KVM,
QEMU 7.2 aborts with "failed to set MSR 0x10a" (IA32_ARCH_CAPABILITIES,
SDM Vol. 4 §2.1, an Intel MSR that KVM emulates). So before the first KVM
boot, the kernel is booted once with `run=none` under each candidate, in
this order, and the first that reaches the kernel's `summary` record wins:

  1. host,+invtsc,host-cache-info=on
  2. host,+invtsc,-arch-capabilities,host-cache-info=on
  3. the newest named model of the host's vendor and family that this QEMU
     lists in `-cpu help` (NAMED below), with +invtsc
  4. max,host-cache-info=on

(+invtsc: QEMU hides the invariant-TSC bit, CPUID 0x80000007 EDX bit 8, by
default because it blocks migration; hugezero needs it to trust its clock.
host-cache-info=on: without it QEMU invents the deterministic cache leaves,
CPUID 4 and 0x8000001D, for host and max too; on a 32 MiB-L3 EPYC the guest
then sees L1d 64 KiB and L3 16 MiB, and the cold cells' LLC read pass and
the interference victims are sized from those. QEMU 7.2 has the property
only on host and max: a named model refuses it ("Property
'EPYC-Milan-x86_64-cpu.host-cache-info' not found"), and named models carry
their own table of the real part's caches.) The header record's `cache`
member says what the guest saw. The answer is cached in
build/qemu-probe.json per (QEMU version, host CPU model string, host kernel
release, hugezero version, the host-model candidates); any change re-probes.

KVM unusable (no /dev/kvm, no permission, busy, or QEMU cannot initialise
it): one line names the cause. `--accel auto` then runs TCG with `-cpu max`;
`--accel kvm` fails with that line (KvmUnusable).
"""

import copy
import errno
import fcntl
import json
import os
import platform
import re
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

from . import BUILD, qemu, qemurun, records

CACHE = os.path.join(BUILD, "qemu-probe.json")
PROBE_TIMEOUT = 90  # seconds per candidate; run=none takes ~10 s under nested KVM
PROBE_MEM = "256M"
CACHE_INFO = "host-cache-info=on"  # pass the host's CPUID 4 / 0x8000001D through
HOST = ("host,+invtsc," + CACHE_INFO, "host,+invtsc,-arch-capabilities," + CACHE_INFO)
MAX_KVM = "max," + CACHE_INFO  # under KVM max is host with every feature KVM has

# Named QEMU models per (CPUID vendor, family), newest first; the first one
# this QEMU lists is tried (QEMU 7.2 knows EPYC-Milan but not EPYC-Genoa).
NAMED = {
    ("AuthenticAMD", 0x1a): ("EPYC-Turin", "EPYC-Genoa", "EPYC-Milan"),
    ("AuthenticAMD", 0x19): ("EPYC-Genoa", "EPYC-Milan"),
    ("AuthenticAMD", 0x17): ("EPYC-Rome", "EPYC"),
    ("AuthenticAMD", 0x15): ("Opteron_G5", "Opteron_G4"),
    ("HygonGenuine", 0x18): ("Dhyana",),
    ("GenuineIntel", 0x6): ("GraniteRapids", "SapphireRapids", "Cooperlake", "Icelake-Server",
                            "Cascadelake-Server", "Skylake-Server", "Broadwell", "Haswell",
                            "IvyBridge", "SandyBridge", "Westmere", "Nehalem"),
}

# QEMU's own words when the KVM accelerator itself cannot start.
_KVM_INIT = re.compile(r"could not access kvm kernel module|failed to initiali[sz]e kvm", re.I)


class KvmUnusable(qemu.ConfigError):
    """KVM cannot start at all; the message is one line naming the cause."""


@dataclass
class Choice:
    """accel "kvm" or "tcg"; cpu the -cpu argument; reason why this is not
    the first choice (None when it is); refused [(model, QEMU's error)];
    how the choice was made ("probed", "--cpu", "--accel auto", ...)."""
    accel: str
    cpu: str
    how: str
    reason: Optional[str] = None
    refused: Sequence[Tuple[str, str]] = ()

    def __post_init__(self) -> None:
        self.refused = list(self.refused)

    def line(self) -> str:
        """The one line printed before a boot, e.g. "KVM, -cpu
        host,+invtsc,-arch-capabilities,host-cache-info=on (probed):
        host,+invtsc,host-cache-info=on refused (error: failed to set MSR
        0x10a to 0x69)"."""
        text = "%s, -cpu %s (%s)" % (self.accel.upper(), self.cpu, self.how)
        return text + (": " + self.reason if self.reason else "")


def kvm_problem(dev="/dev/kvm", cpuinfo="/proc/cpuinfo"):
    """None when dev opens read-write, else one line naming the cause."""
    try:
        fd = os.open(dev, os.O_RDWR | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ENOENT:
            flags = host_cpu(cpuinfo).get("flags", ())
            if "svm" in flags or "vmx" in flags:
                why = ("the kvm_amd or kvm_intel module is not loaded "
                       "(modprobe kvm_amd or kvm_intel)")
            else:
                why = ("the CPU shows no svm or vmx flag: hardware virtualisation is off in the "
                       "firmware or not given to this VM")
            return "%s does not exist: %s" % (dev, why)
        if e.errno in (errno.EACCES, errno.EPERM):
            return ("%s: permission denied (add this user to group kvm: "
                    "sudo adduser $USER kvm, then log in again)" % dev)
        if e.errno == errno.EBUSY:
            return "%s is busy: another hypervisor holds the virtualisation extensions" % dev
        return "%s: %s" % (dev, e.strerror)
    os.close(fd)
    return None


def host_cpu(cpuinfo="/proc/cpuinfo"):
    """The first CPU of /proc/cpuinfo: vendor, family, model, stepping
    (ints), name (model name) and flags (set); {} if unreadable."""
    out = {}
    try:
        with open(cpuinfo) as f:
            for line in f:
                if not line.strip():
                    break
                key, _, val = line.partition(":")
                key, val = key.strip(), val.strip()
                if key == "vendor_id":
                    out["vendor"] = val
                elif key in ("cpu family", "model", "stepping") and val.isdigit():
                    out[key.replace("cpu ", "")] = int(val)
                elif key == "model name":
                    out["name"] = val
                elif key == "flags":
                    out["flags"] = set(val.split())
    except OSError:
        pass
    return out


def host_cpu_string(cpu):
    """"AuthenticAMD family 0x19 model 0x11 stepping 1 (AMD EPYC)"."""
    return "%s family %#x model %#x stepping %s (%s)" % (
        cpu.get("vendor", "?"), cpu.get("family", 0), cpu.get("model", 0),
        cpu.get("stepping", "?"), cpu.get("name", "?"))


def qemu_models():
    """The x86 CPU model names `qemu-system-x86_64 -cpu help` lists."""
    try:
        p = subprocess.run([qemu.QEMU, "-cpu", "help"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.split()[1] for line in p.stdout.decode(errors="replace").splitlines()
            if line.startswith("x86 ") and len(line.split()) > 1]


def named_model(cpu, known):
    """The newest NAMED model for cpu's vendor and family in `known`, or None."""
    for name in NAMED.get((cpu.get("vendor"), cpu.get("family")), ()):
        if name in known:
            return name
    return None


def candidates(cpu, known):
    """The -cpu arguments to try under KVM, in order (module comment)."""
    named = named_model(cpu, known)
    return list(HOST) + ([named + ",+invtsc"] if named else []) + [MAX_KVM]


# MSRs that QEMU writes for a -cpu model at start-up and that a hypervisor
# below may refuse ("error: failed to set MSR 0x38d to 0x0"): (first, last,
# name, what to add to -cpu so that QEMU leaves them alone). Names: SDM Vol. 4
# Table 2-2 and AMD APM Vol. 2 §13.2.
MSR_HINTS = (
    (0x10a, 0x10a, "IA32_ARCH_CAPABILITIES", "-arch-capabilities"),
    # IA32_VMX_BASIC (0x480) .. IA32_VMX_PROCBASED_CTLS3 (0x492): QEMU sets them for a vmx model.
    (0x480, 0x492, "IA32_VMX_*, a VMX capability MSR of nested virtualization", "-vmx"),
    (0xc1, 0xc8, "IA32_PMCx, a PMU counter", "pmu=off"),
    (0x186, 0x18d, "IA32_PERFEVTSELx, a PMU event select", "pmu=off"),
    (0x309, 0x30b, "IA32_FIXED_CTRx, a PMU counter", "pmu=off"),
    (0x38d, 0x38d, "IA32_FIXED_CTR_CTRL, a PMU control", "pmu=off"),
    (0x38e, 0x390, "IA32_PERF_GLOBAL_STATUS/CTRL/OVF_CTRL, a PMU control", "pmu=off"),
    (0xc0010000, 0xc0010007, "AMD PERF_CTL/PERF_CTR, a PMU counter", "pmu=off"),
    (0xc0010200, 0xc001020b, "AMD PERF_CTLn/PERF_CTRn, a PMU counter", "pmu=off"),
)
_MSR_FAIL = re.compile(r"failed to (?:set|get) MSR (0x[0-9a-fA-F]+)")


def msr_hint(stderr):
    """One line naming the MSR QEMU failed to set at start-up and what to
    add to -cpu, e.g. "QEMU could not set MSR 0x38d (IA32_FIXED_CTR_CTRL, a
    PMU control): the hypervisor below refuses it; add pmu=off to -cpu";
    None when stderr names no MSR."""
    m = _MSR_FAIL.search(stderr or "")
    if not m:
        return None
    msr = int(m.group(1), 16)
    for first, last, name, fix in MSR_HINTS:
        if first <= msr <= last:
            return ("QEMU could not set MSR %#x (%s): the hypervisor below refuses it; add %s "
                    "to -cpu" % (msr, name, fix))
    return "QEMU could not set MSR %#x: the hypervisor below refuses it" % msr


def qemu_error(stderr, rc, timed_out, timeout=PROBE_TIMEOUT):
    """QEMU's first line that is not a warning, without the program name;
    else what happened instead of the summary record."""
    for line in stderr.splitlines():
        line = re.sub(r"^\S*qemu-system-x86_64: ", "", line.strip())
        if line and not line.startswith("warning:"):
            return line
    if timed_out:
        return "no summary record within %g s" % timeout
    if rc is None:
        return "the guest stopped (KVM internal error)"
    if rc < 0:
        return "QEMU killed by signal %d" % -rc
    return "QEMU exit status %d without the kernel's summary record" % rc


def try_model(kernel, cpu, timeout=PROBE_TIMEOUT):
    """Boot kernel with run=none under KVM and -cpu cpu; None when the
    summary record arrives, else QEMU's reason (qemu_error)."""
    cfg = qemu.BootConfig(accel="kvm", mem=PROBE_MEM, args="run=none", prealloc=False,
                          kernel=kernel)
    with tempfile.TemporaryDirectory(prefix="hz-probe-") as work:
        argv = qemu.command(cfg, qemu.prepare(cfg, work), "kvm", cpu)
        serial, err = os.path.join(work, "serial.log"), os.path.join(work, "stderr")
        rc, timed_out, _ = qemurun.run_qemu(argv, timeout, serial, err)
        with open(serial, "rb") as f:
            recs = records.extract(f.read())[0]
        with open(err, "rb") as f:
            stderr = f.read().decode(errors="replace")
    if any(r.get("t") == "summary" for r in recs):
        return None
    return qemu_error(stderr, rc, timed_out, timeout)


def probe_kvm(kernel, cands, timeout=PROBE_TIMEOUT):
    """(first candidate that boots, [(refused candidate, reason)]).
    KvmUnusable when QEMU says KVM itself cannot start; ConfigError when
    no candidate boots."""
    refused = []
    for cpu in cands:
        why = try_model(kernel, cpu, timeout)
        if why is None:
            return cpu, refused
        if _KVM_INIT.search(why):
            raise KvmUnusable("QEMU cannot start KVM: " + why)
        refused.append((cpu, why))
    raise qemu.ConfigError("no CPU model boots hugezero under KVM: " + refused_text(refused))


def refused_text(refused):
    return "; ".join("%s refused (%s)" % r for r in refused)


def hugezero_version():
    """HZ_VERSION from build/version.h (written by make), or "unknown"."""
    try:
        with open(os.path.join(BUILD, "version.h")) as f:
            m = re.search(r'HZ_VERSION "([^"]*)"', f.read())
        return m.group(1) if m else "unknown"
    except OSError:
        return "unknown"


def cache_key(cpuinfo="/proc/cpuinfo"):
    return {"qemu": qemu.version(), "host_cpu": host_cpu_string(host_cpu(cpuinfo)),
            "host_kernel": platform.release(), "hugezero": hugezero_version(),
            "host_models": list(HOST) + [MAX_KVM]}


_lock = threading.Lock()
# key text -> ConfigError of a failed probe (kept for this process only)
_failed: Dict[str, qemu.ConfigError] = {}


def probed_model(kernel, cache=CACHE, cpuinfo="/proc/cpuinfo", say=None):
    """(cpu, refused, from_cache) for KVM on this host, probing once per
    cache key; say(text) is told before a probe boot starts."""
    key = cache_key(cpuinfo)
    ktext = json.dumps(key, sort_keys=True)
    with _lock:
        if ktext in _failed:
            raise _failed[ktext]
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache + ".lock", "w") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)  # another hz on this tree probes at the same time
            try:
                with open(cache) as f:
                    old = json.load(f)
                if old.get("key") == key:
                    return old["cpu"], [tuple(r) for r in old["refused"]], True
            except (OSError, ValueError, KeyError, TypeError):
                pass
            if say:
                say("probing QEMU CPU models under KVM (once per host, cached in %s)"
                    % os.path.relpath(cache))
            try:
                cpu, refused = probe_kvm(kernel, candidates(host_cpu(cpuinfo), qemu_models()))
            except qemu.ConfigError as e:
                _failed[ktext] = e
                raise
            with open(cache + ".tmp", "w") as f:
                json.dump({"key": key, "cpu": cpu, "refused": refused}, f, indent=2)
                f.write("\n")
            os.replace(cache + ".tmp", cache)
            return cpu, refused, False


def choose(cfg, say=None, cache=CACHE, dev="/dev/kvm", cpuinfo="/proc/cpuinfo"):
    """The Choice for BootConfig cfg. Raises KvmUnusable (`--accel kvm`
    without a usable KVM) or ConfigError (no model boots, missing kernel).
    A -cpu among cfg.extra (`--qemu-arg -cpu --qemu-arg X`) is the model
    QEMU will run, whatever --cpu or the probe says: it is the choice."""
    extra_cpu = qemu.split_cpu(cfg.extra)[1]
    if extra_cpu is None:
        return _choose(cfg, say, cache, dev, cpuinfo)
    given = copy.copy(cfg)
    given.cpu = extra_cpu
    c = _choose(given, say, cache, dev, cpuinfo)
    c.how = "--qemu-arg -cpu" if c.how == "--cpu" else c.how + ", -cpu from --qemu-arg"
    if cfg.cpu and cfg.cpu != extra_cpu:
        c.reason = "; ".join(filter(None, ["replaces --cpu %s" % cfg.cpu, c.reason]))
    return c


def _choose(cfg, say, cache, dev, cpuinfo):
    if cfg.accel == "tcg":
        return Choice("tcg", cfg.cpu or "max", "--accel tcg")
    problem = kvm_problem(dev, cpuinfo)
    if problem is None and cfg.cpu:
        return Choice("kvm", cfg.cpu, "--cpu")
    if problem is None:
        if not os.path.exists(cfg.kernel):
            raise qemu.ConfigError("%s not found: run make" % cfg.kernel)
        try:
            cpu, refused, cached = probed_model(cfg.kernel, cache, cpuinfo, say)
            how = "probed earlier, %s" % os.path.relpath(cache) if cached else "probed"
            return Choice("kvm", cpu, how, refused_text(refused) or None, refused)
        except KvmUnusable as e:
            problem = str(e)
    if cfg.accel == "kvm":
        raise KvmUnusable("--accel kvm: KVM unusable: " + problem)
    return Choice("tcg", cfg.cpu or "max", "--accel auto", "KVM unusable: " + problem)
