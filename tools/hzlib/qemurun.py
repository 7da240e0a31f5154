"""Run QEMU once and read its console: run_qemu() copies COM1 to a file (and
a live Console), enforces the timeout and stops a guest KVM cannot go on
with; SerialTap reads COM1 from a pipe, socket or file instead of stdout.
hzlib/runner.py (a full boot and its results folder) and hzlib/probe.py
(a CPU model probe boot) both run QEMU through it.
"""

import fcntl
import os
import selectors
import socket
import subprocess
import sys
import time

from . import ROOT, records as rec


class Console:
    """Live console for a person (hz run): prints each finished line of the
    kernel without escape sequences. `@hz` record lines are left out (they
    are in serial.log and records.jsonl) unless records is true; on a
    terminal, `progress` records become one status line rewritten in place.
    A line repeated in a row is shown once, with "(xN)": on a terminal the
    first copy at once and rewritten with its count when the run of copies
    ends; elsewhere (a pipe, a log) each line when the next different one
    comes or the console closes."""

    def __init__(self, out=None, records=False):
        self.out = out or sys.stdout
        self.tty = self.out.isatty()
        self.records = records
        self.partial = b""
        self.status_shown = False
        self.last, self.count = None, 0

    def _clear_status(self):
        if self.status_shown:
            self.out.write("\r\x1b[K")
            self.status_shown = False

    def _flush_repeats(self):
        """Say how often the last line came, when it came more than once
        (terminal), or print it now (elsewhere)."""
        if self.last is None:
            return
        text = self.last + (" (x%d)" % self.count if self.count > 1 else "")
        if not self.tty:
            self.out.write(text + "\n")
        elif self.count > 1:
            self._clear_status()
            self.out.write("\x1b[1A\r\x1b[K" + text + "\n")
        self.last, self.count = None, 0

    def _line(self, raw):
        text = raw.decode("utf-8", errors="replace")
        if rec.MARK in text:
            prog = [r for r in rec.records_in_line(text) if r["t"] == "progress"]
            if self.tty and prog:
                p = prog[-1]
                self._clear_status()
                self.out.write("[%s %s%% eta %ss]" % (p.get("phase", "?"), p.get("pct", "?"),
                                                      p.get("eta_s", "?")))
                self.status_shown = True
                return
            if not self.records:
                return
        text = rec.clean_line(text)
        if text == self.last:
            self.count += 1
            return
        self._flush_repeats()
        self.last, self.count = text, 1
        if self.tty:
            self._clear_status()
            self.out.write(text + "\n")

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
        self._flush_repeats()
        self._clear_status()
        self.out.flush()


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


def run_qemu(argv, timeout, serial_path, stderr_path, console=None, memory=None, tap=None,
             marks=None):
    """Run argv, copying stdout to serial_path (and console) and stderr to
    stderr_path. Returns (exit status, or None when QEMU had to be killed
    because the guest was stuck; timed_out; elapsed seconds). With a dict
    `memory`, memory_sample() fills it about once a second. With a
    SerialTap, the console comes from it instead of stdout. With a dict
    `marks`, marks["first_output_s"] is the seconds from QEMU's launch to
    the first console byte."""
    start = time.monotonic()
    timed_out = stuck = False
    sampled = 0.0
    with open(serial_path, "wb") as log, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT)

        def serial(data):
            if marks is not None and data and "first_output_s" not in marks:
                marks["first_output_s"] = time.monotonic() - start
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
