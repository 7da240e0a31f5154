"""Boot hugezero once in QEMU: stream the console, enforce the timeout, map
QEMU's exit status back to the kernel status, save the results folder.

Exit statuses (docs/results.md): QEMU exits with (status << 1) | 1 through
isa-debug-exit, so an odd QEMU status s means kernel status s >> 1. The
runner adds 124 (timed out, QEMU killed) and 125 (QEMU ended without a
kernel status: killed, triple fault with -no-reboot, bad option, or a "KVM
internal error" after which QEMU pauses the guest and is killed at once).
"""

import datetime
import json
import os
import platform
import shlex
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from . import ROOT, loadcheck, probe, qemu, qemurun, records as rec, results

TIMEOUT = 124
NO_STATUS = 125
STATUS_NAMES = {0: "pass", 1: "fail", 2: "skipped", 3: "config", 4: "crash",
                TIMEOUT: "timeout", NO_STATUS: "no status"}


def map_exit(qemu_rc, timed_out):
    """Kernel status from QEMU's exit status (see the module comment)."""
    if timed_out:
        return TIMEOUT
    if qemu_rc is not None and qemu_rc > 0 and qemu_rc & 1:
        return qemu_rc >> 1
    return NO_STATUS


def checked_status(status, recs):
    """A kernel status counts only when the kernel's own `summary` record
    agrees; otherwise QEMU failed before or without the kernel (125)."""
    if status in (TIMEOUT, NO_STATUS):
        return status
    summaries = [r for r in recs if r.get("t") == "summary"]
    if not summaries or summaries[-1].get("status") != status:
        return NO_STATUS
    return status


@dataclass
class Outcome:
    """The result of one boot; `status` is the kernel status or 124/125,
    qemu_rc QEMU's exit status (None: killed, the guest stuck), elapsed
    seconds; records and diags as records.extract() gives them (diags with
    stream_problems, records.check_stream()); outdir the results folder;
    argv QEMU's command line; meta what meta.json holds; choice the
    accelerator and CPU model (probe.choose())."""
    status: int
    qemu_rc: Optional[int] = None
    timed_out: bool = False
    elapsed: float = 0.0
    records: List[Dict[str, Any]] = field(default_factory=list)
    diags: List[rec.Diagnostic] = field(default_factory=list)
    stream_problems: List[rec.Diagnostic] = field(default_factory=list)
    outdir: str = ""
    argv: List[str] = field(default_factory=list)
    accel: str = ""
    stderr: str = ""
    meta: Dict[str, Any] = field(default_factory=dict)
    choice: Optional[probe.Choice] = None

    @property
    def status_name(self) -> str:
        return STATUS_NAMES.get(self.status, "status %d" % self.status)


def no_status_note(out):
    """What to tell the user when a boot ended with no kernel status, or
    None when it did not. QEMU runs with -no-reboot (qemu.command), so a
    guest reset, a triple fault included, ends QEMU with status 0: with no
    `summary` record that is "the guest reset", said with the last console
    line (where the kernel got to); QEMU's stderr then holds only unrelated
    warnings, unless QEMU was stopped by a signal (it exits 0 on SIGTERM
    and says "terminating on signal N"): then that. Otherwise QEMU's own
    words, when it said anything."""
    if out.status != NO_STATUS or out.timed_out:
        return None
    killed = next((line.strip() for line in out.stderr.splitlines()
                   if "terminating on signal" in line), None)
    if killed:
        return "QEMU was stopped from outside before the kernel's summary: " + killed
    if out.qemu_rc == 0 and not any(r.get("t") == "summary" for r in out.records):
        last = ""
        try:
            with open(os.path.join(out.outdir, "serial.log"), "rb") as f:
                text = f.read().decode(errors="replace")
            lines = [rec.clean_line(line) for line in text.split("\n")]
            last = next((line for line in reversed(lines) if line.strip()), "")
        except OSError:
            pass
        return ("the guest reset (triple fault?) before its summary; last console line: %s"
                % (last.strip() or "(none)"))
    if out.stderr.strip():
        return "QEMU said:\n" + out.stderr.rstrip("\n")
    return None


def host_cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit():
    try:
        p = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty", "--abbrev=12"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=10)
        return p.stdout.decode().strip() or "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def new_results_dir(base, boot):
    """results/<UTC timestamp>-<boot>/, with -2, -3... if it exists."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = os.path.join(base, "%s-%s" % (stamp, boot))
    n = 1
    while True:
        try:
            os.makedirs(path)
            return path
        except FileExistsError:
            n += 1
            path = os.path.join(base, "%s-%s-%d" % (stamp, boot, n))


def boot(cfg, outdir, timeout, console=None, say=None, busy_threads=0, tell_backing=False,
         hugepages=None):
    """Boot cfg once; write serial.log, qemu.stderr, records.jsonl,
    summary.csv and meta.json into outdir (host_load: the host's load
    average and busy/steal shares during the boot, loadcheck.host_load).
    busy_threads > 0 runs that many busy loops beside QEMU
    (loadcheck.BusyLoad: the loaded-host check). The accelerator and -cpu model
    come from probe.choose(); say(text), when given, gets its line (and a
    note before a probe). Raises qemu.ConfigError (probe.KvmUnusable
    included) when the run cannot be set up. With tell_backing the kernel
    arguments get backing= (docs/options.md), how the guest RAM is backed,
    unless they give it. hugepages: hz run's --hugepages as given (yes,
    auto or None), kept in meta.json for the command that reproduces the run."""
    choice = probe.choose(cfg, say)
    os.makedirs(outdir, exist_ok=True)
    accel = choice.accel
    if say:
        say(choice.line())
    ram = qemu.guest_ram(cfg, accel)
    if tell_backing:  # before prepare(): grub.cfg carries the arguments
        cfg = qemu.with_backing(cfg, ram[0])
    with tempfile.TemporaryDirectory(prefix="hz-run-") as work:
        media = qemu.prepare(cfg, work)
        if os.path.exists(os.path.join(work, "grub.cfg")):
            with open(os.path.join(work, "grub.cfg")) as src, \
                    open(os.path.join(outdir, "grub.cfg"), "w") as dst:
                dst.write(src.read())
        kind = getattr(cfg, "serial", "stdio")
        argv = qemu.command(cfg, media, accel, choice.cpu, ram, work)
        tap = (qemurun.SerialTap(kind, work, getattr(cfg, "serial_rate", 0))
               if kind != "stdio" else None)
        started = datetime.datetime.now(datetime.timezone.utc)
        host0 = loadcheck.host_sample()
        memory, marks = {}, {}
        with loadcheck.BusyLoad(busy_threads):
            rc, timed_out, elapsed = qemurun.run_qemu(
                argv, timeout, os.path.join(outdir, "serial.log"),
                os.path.join(outdir, "qemu.stderr"), console, memory, tap, marks)
        host_load = loadcheck.host_load(host0, loadcheck.host_sample())
    log, raw = os.path.join(outdir, "serial.log"), []
    with open(log, "rb") as f:
        recs, diags = rec.extract(f.read(), log, raw)
    problems = rec.check_stream(recs, raw, diags, log)
    with open(os.path.join(outdir, "qemu.stderr"), "rb") as f:
        stderr = f.read().decode(errors="replace")
    results.write_records(outdir, recs)
    status = checked_status(map_exit(rc, timed_out), recs)
    header = next((r for r in recs if r["t"] == "header"), {})
    meta = {
        "qemu_argv": argv, "qemu_cmdline": " ".join(shlex.quote(a) for a in argv),
        "qemu_version": qemu.version(), "host_cpu": host_cpu(),
        "host_kernel": platform.release(), "cmdline": cfg.args, "boot": cfg.boot,
        "accel": accel, "cpu_model": choice.cpu, "cpu_fallback_reason": choice.reason,
        "mem": cfg.mem, "guest_ram": ram[0], "hugepages": hugepages,
        "qemu_rss_bytes": memory.get("Rss"),
        "qemu_thp_bytes": memory.get("AnonHugePages"), "smp": cfg.smp, "timeout_s": timeout,
        "started_utc": started.strftime("%Y-%m-%dT%H:%M:%SZ"), "elapsed_s": round(elapsed, 3),
        "first_output_s": (round(marks["first_output_s"], 3)
                           if "first_output_s" in marks else None),
        "qemu_exit": rc, "timed_out": timed_out, "exit_status": status,
        "status_name": STATUS_NAMES.get(status, str(status)),
        "commit": header.get("commit") or git_commit(), "source": "hugezero",
        "host_load": host_load, "busy_threads": busy_threads,
        "record_stream": [p.reason for p in problems] or "ok",
        "serial": kind, "serial_rate": getattr(cfg, "serial_rate", 0),
    }
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    return Outcome(status=status, qemu_rc=rc, timed_out=timed_out, elapsed=elapsed,
                   records=recs, diags=diags + problems, stream_problems=problems,
                   outdir=outdir, argv=argv, accel=accel, stderr=stderr, meta=meta, choice=choice)
