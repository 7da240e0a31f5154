"""Boot hugezero once in QEMU: stream the console, enforce the timeout, map
QEMU's exit status back to the kernel status, save the results folder.

Exit statuses (docs/results.md): QEMU exits with (status << 1) | 1 through
isa-debug-exit, so an odd QEMU status s means kernel status s >> 1. The
runner adds 124 (timed out, QEMU killed) and 125 (QEMU ended without a
kernel status: killed, triple fault with -no-reboot, bad option, or a "KVM
internal error" after which QEMU pauses the guest and is killed at once).
"""

import datetime
import fcntl
import json
import os
import platform
import selectors
import shlex
import socket
import subprocess
import sys
import tempfile
import time

from . import ROOT, loadcheck, probe, qemu, records as rec, results

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


class Console:
    """Live console: prints each finished line without escape sequences; on
    a terminal, `progress` records become one line rewritten in place."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.tty = self.out.isatty()
        self.partial = b""
        self.status_shown = False

    def _clear_status(self):
        if self.status_shown:
            self.out.write("\r\x1b[K")
            self.status_shown = False

    def _line(self, raw):
        text = raw.decode("utf-8", errors="replace")
        if self.tty and rec.MARK in text:
            prog = [r for r in rec.records_in_line(text) if r["t"] == "progress"]
            if prog:
                p = prog[-1]
                self._clear_status()
                self.out.write("[%s %s%% eta %ss]" % (p.get("phase", "?"), p.get("pct", "?"),
                                                       p.get("eta_s", "?")))
                self.status_shown = True
                return
        self._clear_status()
        self.out.write(rec.clean_line(text) + "\n")

    def feed(self, data):
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for raw in lines:
            self._line(raw)
        self.out.flush()

    def close(self):
        if self.partial:
            self._line(self.partial)
            self.partial = b""
        self._clear_status()
        self.out.flush()


class Outcome:
    """The result of one boot; `status` is the kernel status or 124/125."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    @property
    def status_name(self):
        return STATUS_NAMES.get(self.status, "status %d" % self.status)


def no_status_note(out):
    """What to tell the user when a boot ended with no kernel status, or
    None when it did not. QEMU runs with -no-reboot (qemu.command), so a
    guest reset, a triple fault included, ends QEMU with status 0: with no
    `summary` record that is "the guest reset", said with the last console
    line (where the kernel got to); QEMU's stderr then holds only unrelated
    warnings. Otherwise QEMU's own words, when it said anything."""
    if out.status != NO_STATUS or out.timed_out:
        return None
    if out.qemu_rc == 0 and not any(r.get("t") == "summary" for r in out.records):
        last = ""
        try:
            with open(os.path.join(out.outdir, "serial.log"), "rb") as f:
                lines = [rec.clean_line(l) for l in f.read().decode(errors="replace").split("\n")]
            last = next((l for l in reversed(lines) if l.strip()), "")
        except OSError:
            pass
        return ("the guest reset (triple fault?) before its summary; last console line: %s"
                % (last.strip() or "(none)"))
    if out.stderr.strip():
        return "QEMU said:\n" + out.stderr.rstrip("\n")
    return None


# QEMU prints this and pauses the guest instead of exiting (KVM could not
# emulate an instruction): nothing more will happen, so stop waiting.
_STUCK = b"KVM internal error"


def memory_sample(pid, into, smaps="/proc/%d/smaps_rollup"):
    """Keep in `into` the largest Rss and AnonHugePages (bytes) seen in
    /proc/PID/smaps_rollup: how much of QEMU's memory (guest RAM, mostly)
    the host backs with transparent 2 MiB pages. Silent when unreadable."""
    try:
        with open(smaps % pid) as f:
            for line in f:
                key, _, val = line.partition(":")
                if key in ("Rss", "AnonHugePages"):
                    into[key] = max(into.get(key, 0), int(val.split()[0]) << 10)
    except (OSError, ValueError, IndexError):
        pass


class SerialTap:
    """COM1 read from a pipe (FIFOs folder/serial.in, serial.out), a Unix
    socket QEMU connects to (folder/serial.sock) or a file (folder/serial.out,
    read after QEMU ends), at most `rate` bytes/s when rate > 0: a slow
    reader, as a log collector or a loaded host is. stdio needs no tap."""

    TICK = 0.01  # seconds between reads when throttled

    def __init__(self, kind, folder, rate=0):
        self.kind, self.folder, self.rate = kind, folder, rate
        self.fd = self.listener = None
        self.got = 0
        self.start = time.monotonic()
        if kind == "pipe":
            for end in ("in", "out"):
                os.mkfifo(os.path.join(folder, "serial." + end))
            # QEMU opens both O_RDWR; the reader's end must not block or see
            # EOF before QEMU is there: O_NONBLOCK, and b"" means nothing yet.
            self.fd = os.open(os.path.join(folder, "serial.out"), os.O_RDONLY | os.O_NONBLOCK)
            if rate:  # a slow reader's pipe holds one page, not 64 KiB (pipe(7))
                fcntl.fcntl(self.fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
        elif kind == "socket":
            self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.listener.bind(os.path.join(folder, "serial.sock"))
            self.listener.listen(1)
            self.listener.setblocking(False)
        self.conn = None

    def _allowed(self):
        if not self.rate:
            return 1 << 16
        return int(self.rate * (time.monotonic() - self.start)) - self.got

    def pump(self, final=False):
        """Bytes read now (b"" if none): as many as the rate allows, or all
        that is left when final (QEMU has ended)."""
        if self.kind == "socket" and self.conn is None:
            try:
                self.conn, _ = self.listener.accept()
                self.conn.setblocking(False)
                self.fd = self.conn.fileno()
            except (BlockingIOError, InterruptedError):
                return b""
        if self.fd is None:
            return b""
        out = b""
        while True:
            n = (1 << 16) if final else min(self._allowed(), 1 << 16)
            if n <= 0:
                return out
            try:
                data = os.read(self.fd, n)
            except (BlockingIOError, InterruptedError):
                return out
            if not data:
                return out
            self.got += len(data)
            out += data
            if not final:
                return out

    def rest(self):
        """What is left once QEMU has ended (the whole file for `file`)."""
        if self.kind == "file":
            try:
                with open(os.path.join(self.folder, "serial.out"), "rb") as f:
                    return f.read()
            except OSError:
                return b""
        return self.pump(final=True)

    def close(self):
        for c in (self.conn, self.listener):
            if c is not None:
                c.close()
        if self.kind == "pipe" and self.fd is not None:
            os.close(self.fd)


def run_qemu(argv, timeout, serial_path, stderr_path, console=None, memory=None, tap=None):
    """Run argv, copying stdout to serial_path (and console) and stderr to
    stderr_path. Returns (exit status, or None when QEMU had to be killed
    because the guest was stuck; timed_out; elapsed seconds). With a dict
    `memory`, memory_sample() fills it about once a second. With a
    SerialTap, the console comes from it instead of stdout."""
    start = time.monotonic()
    timed_out = stuck = False
    sampled = 0.0
    with open(serial_path, "wb") as log, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT)

        def serial(data):
            log.write(data)
            log.flush()
            if console:
                console.feed(data)

        try:
            sel = selectors.DefaultSelector()
            sel.register(proc.stdout, selectors.EVENT_READ, log)
            sel.register(proc.stderr, selectors.EVENT_READ, err)
            errtext, deadline = b"", start + timeout
            while sel.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    timed_out = not stuck
                    break
                if memory is not None and time.monotonic() - sampled >= 1.0:
                    memory_sample(proc.pid, memory)
                    sampled = time.monotonic()
                if tap:
                    data = tap.pump()
                    if data:
                        serial(data)
                for key, _ in sel.select(min(left, tap.TICK if tap else 1.0)):
                    data = os.read(key.fd, 65536)
                    if not data:
                        sel.unregister(key.fileobj)
                        continue
                    if key.data is log:
                        serial(data)
                        continue
                    key.data.write(data)
                    key.data.flush()
                    if not stuck:
                        errtext = (errtext + data)[-4096:]
                        if _STUCK in errtext:  # let the register dump finish
                            stuck, deadline = True, min(deadline, time.monotonic() + 0.5)
        finally:
            if proc.poll() is None and (timed_out or stuck or sys.exc_info()[0]):
                proc.kill()
            try:
                rc = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                rc = proc.wait()
            proc.stdout.close()
            proc.stderr.close()
            if tap:
                serial(tap.rest())
                tap.close()
            if console:
                console.close()
    return (None if stuck else rc), timed_out, time.monotonic() - start


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


def boot(cfg, outdir, timeout, console=None, say=None, busy_threads=0, tell_backing=False):
    """Boot cfg once; write serial.log, qemu.stderr, records.jsonl,
    summary.csv and meta.json into outdir (host_load: the host's load
    average and busy/steal shares during the boot, loadcheck.host_load).
    busy_threads > 0 runs that many busy loops beside QEMU
    (loadcheck.BusyLoad: the loaded-host check). The accelerator and -cpu model
    come from probe.choose(); say(text), when given, gets its line (and a
    note before a probe). Raises qemu.ConfigError (probe.KvmUnusable
    included) when the run cannot be set up. With tell_backing the kernel
    arguments get backing= (docs/options.md), how the guest RAM is backed,
    unless they give it."""
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
        tap = SerialTap(kind, work, getattr(cfg, "serial_rate", 0)) if kind != "stdio" else None
        started = datetime.datetime.now(datetime.timezone.utc)
        host0 = loadcheck.host_sample()
        memory = {}
        with loadcheck.BusyLoad(busy_threads):
            rc, timed_out, elapsed = run_qemu(argv, timeout, os.path.join(outdir, "serial.log"),
                                              os.path.join(outdir, "qemu.stderr"), console,
                                              memory, tap)
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
        "mem": cfg.mem, "guest_ram": ram[0], "qemu_rss_bytes": memory.get("Rss"),
        "qemu_thp_bytes": memory.get("AnonHugePages"), "smp": cfg.smp, "timeout_s": timeout,
        "started_utc": started.strftime("%Y-%m-%dT%H:%M:%SZ"), "elapsed_s": round(elapsed, 3),
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
