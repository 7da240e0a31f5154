"""The loaded-host check (issue 12 acceptance, docs/validation.md "A loaded
host"): boot the guest with N busy threads beside it and see whether every
timed cell says so (`noisy` or `steal_high`) instead of printing a silent
figure.

BusyLoad starts N CPU hogs (`python3 -c "while True: pass"`, the shape of
`stress-ng --cpu N` without the package), each in its own session, and kills
them on exit, also when the run raises. host_sample() reads the host's load
average and /proc/stat CPU times so that a results folder says how loaded
its host was (runner.boot writes both into meta.json); the `steal` column
there is the time *this* host's CPUs lost to the hypervisor below it (nested
virtualization), which the guest's KVM steal time cannot see.
"""

import os
import signal
import subprocess
import sys

from . import steal

# /proc/stat cpu line columns (proc(5)): user nice system idle iowait irq softirq steal
_STAT_COLS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


class BusyLoad:
    """`with BusyLoad(n):` n busy-loop processes run beside the block."""

    def __init__(self, n, popen=subprocess.Popen):
        self.n, self.popen, self.procs = n, popen, []

    def __enter__(self):
        try:
            for _ in range(self.n):
                self.procs.append(self.popen([sys.executable, "-c", "while True: pass"],
                                             start_new_session=True))
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        self.procs = []


def host_sample(loadavg="/proc/loadavg", stat="/proc/stat"):
    """{"loadavg_1m": float, "cpu": {column: USER_HZ ticks}} of the host, or
    {} where the files are missing (not Linux)."""
    try:
        with open(loadavg) as f:
            load = float(f.read().split()[0])
        with open(stat) as f:
            cols = f.readline().split()
    except (OSError, ValueError, IndexError):
        return {}
    if not cols or cols[0] != "cpu":
        return {}
    return {"loadavg_1m": load,
            "cpu": {k: int(v) for k, v in zip(_STAT_COLS, cols[1:])}}


def host_load(before, after):
    """What meta.json says of the host during a run: the 1-minute load
    average at both ends and the share of all host CPU time that was busy
    (not idle or iowait) and stolen (by the hypervisor below), in percent;
    None where a sample is missing."""
    if not before or not after:
        return None
    d = {k: after["cpu"].get(k, 0) - before["cpu"].get(k, 0) for k in _STAT_COLS}
    total = sum(d.values())
    pct = (lambda x: round(100.0 * x / total, 2)) if total > 0 else (lambda x: None)
    return {"loadavg_1m_start": before["loadavg_1m"], "loadavg_1m_end": after["loadavg_1m"],
            "busy_pct": pct(total - d["idle"] - d["iowait"]), "steal_pct": pct(d["steal"])}


def _label(r):
    if r["t"] == "clear":
        return "clear %s chunk=%s bytes=%s %s threads=%s" % (
            r.get("strategy"), r.get("chunk"), r.get("bytes"), r.get("cache"), r.get("threads"))
    return "%s %s threads=%s" % (r["t"], r.get("strategy"), r.get("threads"))


def flagged_cells(records):
    """[(label, flags)] for every timed cell with repeats (clear records
    with more than one repeat, smp_scale, smp_fill); flags lists `noisy`
    and `steal` where the record carries them (empty: a silent figure)."""
    out = []
    for r in records:
        if r.get("t") not in ("clear", "smp_scale", "smp_fill"):
            continue
        if r["t"] == "clear" and (r.get("repeats") or 0) < 2:
            continue  # first_touch: one sample, no spread to flag
        if r["t"] == "smp_scale" and any(c.get("t") == "clear" and c.get("threads") ==
                                         r.get("threads") and c.get("strategy") ==
                                         r.get("strategy") for c in records):
            continue  # its clear record (threads=N) carries the same cell
        flags = [f for f, on in (("noisy", r.get("noisy") is True),
                                 ("steal", r.get("steal_high") is True)) if on]
        out.append((_label(r), flags))
    return out


def report(records, threads):
    """(lines, silent count): what the check says about a run with `threads`
    busy threads beside it."""
    cells = flagged_cells(records)
    silent = [lab for lab, fl in cells if not fl]
    summ = next((r for r in records if r.get("t") == "summary"), {})
    lines = ["load check: %d busy thread(s) beside the guest; %s"
             % (threads, steal.guest(summ or None)),
             "load check: %d timed cell(s): %d noisy, %d with steal above 1%%, %d silent"
             % (len(cells), sum("noisy" in fl for _, fl in cells),
                sum("steal" in fl for _, fl in cells), len(silent))]
    lines += ["load check: SILENT (no noisy or steal flag under load): " + lab for lab in silent]
    if not cells:
        lines.append("load check: no timed cells in the run (run=clear or run=smp)")
    return lines, len(silent) if cells else 1
