#!/usr/bin/env python3
"""tests/boot/boottests.py - run the QEMU boot tests of tests/boot/cases.cfg.

Each case boots once through tools/hzlib (the code behind `hz run`) and
passes only when the exit status, the summary record and the case's own
expectations all agree, under the case's timeout. The results folder of
each case is kept in build/boot-tests/<case>/ for inspection.

  tests/boot/boottests.py [--filter SUBSTR] [-j N] [--list]
"""

import argparse
import configparser
import os
import re
import shlex
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from hzlib import probe, qemu, records as rec, runner  # noqa: E402
import numa_check  # noqa: E402

CASES = os.path.join(HERE, "cases.cfg")
OUTBASE = os.path.join(ROOT, "build", "boot-tests")
BOOT_HEADER = {"direct": "pvh", "iso": "multiboot2-bios", "pxe": "multiboot2-bios",
               "uefi": "multiboot2-efi", "pxe-uefi": "multiboot2-efi"}


class Case:
    def __init__(self, name, sec):
        self.name = name
        self.boot = sec["boot"]
        self.accel = sec["accel"]
        self.mem = sec["mem"]
        self.smp = int(sec["smp"])
        self.maxcpus = sec.getint("maxcpus", fallback=0)
        self.cpu = sec["cpu"] or None
        self.machine = sec.get("machine", "q35")
        self.console = sec.get("console", "com1")
        self.qemu_args = shlex.split(sec.get("qemu_args", ""))
        self.modules = [os.path.join(ROOT, m) for m in sec.get("modules", "").split()]
        self.prealloc = sec.getboolean("prealloc")
        # \xNN in args is that byte (a control byte in a command line).
        self.args = re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)),
                           " ".join(sec["args"].split()))
        # header.cmdline: args, unless the case expects the kernel to drop them
        self.cmdline = sec.get("cmdline", fallback=self.args)
        self.timeout = float(sec["timeout"])
        self.status = int(sec["status"])
        self.records = [shlex.split(l) for l in sec["records"].splitlines() if l.strip()]
        self.order = [l.split() for l in sec.get("order", "").splitlines() if l.strip()]
        self.log = [l.strip() for l in sec["log"].splitlines() if l.strip()]
        self.groups = sec["groups"].split()
        self.mem_check = sec.getboolean("mem_check", fallback=False)
        # numa: qemu (the numa record must be what -numa builds) or one (one node)
        self.numa = sec.get("numa", fallback="qemu" if "-numa" in self.qemu_args else "")
        if self.boot not in qemu.BOOTS or self.accel not in ("tcg", "kvm", "auto"):
            raise ValueError("%s: bad boot %r or accel %r" % (name, self.boot, self.accel))
        if self.console not in qemu.CONSOLES:
            raise ValueError("%s: bad console %r" % (name, self.console))
        for l in self.log:
            re.compile(l)
        for conds in self.records:
            record_want(conds)
        for words in self.order:
            order_sides(words)


# The QEMU matrix ([matrix] in cases.cfg): one row per configuration.
MATRIX_COLUMNS = ("machine", "boot", "cpu", "smp", "mem")
MATRIX_GROUPS = {"direct": "boot", "iso": "firmware", "uefi": "firmware",
                 "pxe": "firmware pxe", "pxe-uefi": "firmware pxe"}
MATRIX_TIMEOUT = {"direct": 60, "iso": 90, "pxe": 120, "uefi": 150, "pxe-uefi": 180}
# CPU model -> the header's cpu.brand must match (QEMU's model_id).
MATRIX_BRAND = {"qemu64": "^QEMU Virtual CPU", "max": "^QEMU TCG CPU",
                "Haswell": "Haswell", "Icelake-Server": "Icelake",
                "EPYC-Milan": "EPYC-Milan", "host": ""}


def matrix_row(words):
    """The case keys of one matrix row `machine boot cpu smp mem`: cpu host
    is KVM with the probed model (direct boot only), every other model TCG;
    mem SIZE/LOW is -m SIZE with max-ram-below-4g=LOW. Each row checks its
    summary, that every CPU came up, the CPU model's brand string, and
    (with a hole) RAM continuing at 4 GiB."""
    if len(words) != len(MATRIX_COLUMNS):
        raise ValueError("matrix row %r: want %s" % (" ".join(words), " ".join(MATRIX_COLUMNS)))
    machine, boot, cpu, smp, mem = words
    if cpu not in MATRIX_BRAND or boot not in MATRIX_TIMEOUT or not smp.isdigit():
        raise ValueError("matrix row %r: bad cpu, boot or smp" % " ".join(words))
    if cpu == "host" and boot != "direct":
        raise ValueError("matrix row %r: KVM (cpu host) only with direct boot" % " ".join(words))
    size, _, low = mem.partition("/")
    name = "matrix-%s-%s-%s-%s-%s" % (machine, boot, cpu.lower(), smp, mem.replace("/", "-"))
    records = ["summary fail=0 status_name=pass",
               "smp enabled=%s online=%s failed=0" % (smp, smp)]
    if MATRIX_BRAND[cpu]:
        records.append("header 'cpu.brand~%s'" % MATRIX_BRAND[cpu])
    if low:
        records.append("memmap type=usable base=0x100000000")
    return name, {
        "boot": boot, "machine": machine + (",max-ram-below-4g=" + low if low else ""),
        "accel": "kvm" if cpu == "host" else "tcg", "cpu": "" if cpu == "host" else cpu,
        "smp": smp, "mem": size, "args": "run=none", "records": "\n".join(records),
        "timeout": str(MATRIX_TIMEOUT[boot] * (2 if cpu == "host" else 1)),
        "groups": "matrix " + MATRIX_GROUPS[boot] + (" kvm" if cpu == "host" else ""),
        "mem_check": "yes"}


def load_cases(path=CASES):
    cp = configparser.ConfigParser(interpolation=None)
    with open(path) as f:
        cp.read_file(f)
    cases = [Case(name, cp[name]) for name in cp.sections() if name != "matrix"]
    if cp.has_section("matrix"):
        for line in cp["matrix"]["rows"].splitlines():
            if line.strip():
                name, keys = matrix_row(line.split())
                if cp.has_section(name):
                    raise ValueError("%s: matrix row given twice" % name)
                cp[name] = keys
                cases.append(Case(name, cp[name]))
    return cases


def select(cases, substr=None):
    """Cases whose name or one of whose groups contains substr."""
    if not substr:
        return cases
    return [c for c in cases if substr in c.name or any(substr in g for g in c.groups)]


def _member(r, path):
    """The member at a dotted path; a number indexes an array (node.1.cpus)."""
    for part in path.split("."):
        if isinstance(r, list) and part.isdigit() and int(part) < len(r):
            r = r[int(part)]
        elif isinstance(r, dict) and part in r:
            r = r[part]
        else:
            return False, None
    return True, r


def _as_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return "null" if v is None else str(v)


def conditions(words):
    """[(member, op, value)] of MEMBER=VALUE / MEMBER~REGEX / MEMBER? / MEMBER!
    words; a malformed word raises ValueError."""
    out = []
    for c in words:
        m = re.fullmatch(r"([\w.-]+)(=|~|\?|!)(.*)", c, re.S)
        if not m or (m.group(2) in "?!" and m.group(3)):
            raise ValueError("bad record condition %r" % c)
        out.append(m.groups())
    return out


def record_matches(r, conds):
    """True when record r meets every MEMBER=VALUE / MEMBER~REGEX / MEMBER?
    (present) / MEMBER! (absent) word."""
    for name, op, want in conditions(conds):
        present, v = _member(r, name)
        if present != (op != "!"):
            return False
        if op == "=" and _as_text(v) != want:
            return False
        if op == "~" and not re.search(want, _as_text(v)):
            return False
    return True


def record_want(words):
    """(count, type, conditions) of one `records` line: `[=N] TYPE COND...`.
    count None: at least one record of TYPE meets every condition; =N:
    exactly N do (=0: none)."""
    count = None
    if words and re.fullmatch(r"=\d+", words[0]):
        count, words = int(words[0][1:]), words[1:]
    if not words or not re.fullmatch(r"[a-z0-9_]+", words[0]):
        raise ValueError("bad records line %r: want [=N] TYPE COND..." % " ".join(words))
    conditions(words[1:])  # raises on a bad condition
    return count, words[0], words[1:]


def order_sides(words):
    """(before, after) types of one `order` line `A B < C D`."""
    if words.count("<") != 1 or words[0] == "<" or words[-1] == "<":
        raise ValueError("bad order line %r: want TYPE... < TYPE..." % " ".join(words))
    i = words.index("<")
    return set(words[:i]), set(words[i + 1:])


def check_records(case, recs):
    """The case's `records` lines and `order` lines against the records."""
    errs = []
    for words in case.records:
        count, t, conds = record_want(words)
        n = sum(1 for r in recs if r["t"] == t and record_matches(r, conds))
        if count is None and not n:
            errs.append("no record matching: %s" % " ".join(words))
        elif count is not None and n != count:
            errs.append("%d records match, want %s" % (n, " ".join(words)))
    for words in case.order:
        before, after = order_sides(words)
        last = max((i for i, r in enumerate(recs) if r["t"] in before), default=-1)
        first = min((i for i, r in enumerate(recs) if r["t"] in after), default=len(recs))
        if last > first:
            errs.append("order %s: a %s record after a %s record"
                        % (" ".join(words), recs[last]["t"], recs[first]["t"]))
    return errs


def _is(v, t):
    return isinstance(v, t) and not (t is int and isinstance(v, bool))


def check_frame(case, out):
    """Checks every case gets: header/summary shape, boot path, cmdline,
    exit status agreeing with the summary, counts agreeing with the records."""
    errs = []
    recs = out.records
    if out.timed_out:
        errs.append("timed out after %g s (hang)" % case.timeout)
    if out.status != case.status:
        errs.append("exit status %d (%s), expected %d" % (out.status, out.status_name, case.status))
    for d in out.diags:
        errs.append(str(d))
    heads = [r for r in recs if r["t"] == "header"]
    sums = [r for r in recs if r["t"] == "summary"]
    if not recs or recs[0]["t"] != "header" or len(heads) != 1:
        errs.append("want exactly one header record, first (got %d)" % len(heads))
    if not recs or recs[-1]["t"] != "summary" or len(sums) != 1:
        errs.append("want exactly one summary record, last (got %d)" % len(sums))
    if heads:
        h = heads[0]
        for k, t in (("version", str), ("commit", str), ("cc", str), ("cc_version", str),
                     ("cflags", str), ("boot", str), ("loader", str),
                     ("cmdline", str), ("cpu", dict), ("hypervisor", str), ("tcg", bool),
                     ("features", dict), ("mem", dict), ("page_size", str)):
            if not _is(h.get(k), t):
                errs.append("header.%s missing or not %s" % (k, t.__name__))
        if h.get("boot") != BOOT_HEADER[case.boot]:
            errs.append("header.boot %r, expected %r" % (h.get("boot"), BOOT_HEADER[case.boot]))
        if h.get("cmdline") != case.cmdline:
            errs.append("header.cmdline %r, expected %r" % (h.get("cmdline"), case.cmdline))
        if _is(h.get("tcg"), bool) and h["tcg"] != (out.accel == "tcg"):
            errs.append("header.tcg %s under accel %s" % (h["tcg"], out.accel))
        if not (_is(h.get("mem"), dict) and _is(h["mem"].get("usable_bytes"), int)
                and h["mem"]["usable_bytes"] > 0):
            errs.append("header.mem.usable_bytes missing or zero")
    if sums:
        s = sums[0]
        for k in ("pass", "fail", "skip", "status"):
            if not _is(s.get(k), int) or s[k] < 0:
                errs.append("summary.%s missing or not a count" % k)
            elif k != "status" and s[k] != sum(1 for r in recs if r["t"] == k):
                errs.append("summary.%s = %d but %d %s records" %
                            (k, s[k], sum(1 for r in recs if r["t"] == k), k))
        if s.get("status") != out.status:
            errs.append("summary.status %r disagrees with exit status %d" % (s.get("status"), out.status))
        if _is(s.get("steal_pct"), (int, float)) and not 0 <= s["steal_pct"] <= 100:
            errs.append("summary.steal_pct %r is not a share of the timed time (0..100)"
                        % s["steal_pct"])
        if s.get("status_name") != runner.STATUS_NAMES.get(s.get("status")):
            errs.append("summary.status_name %r does not name status %r" %
                        (s.get("status_name"), s.get("status")))
    return errs


def check_smp(recs):
    """Invariants of the smp scenario's records, whatever the case: a wall
    time is never below a CPU's own time (the fastest wall time is at least
    every CPU's best); every cell says how much of its wall is start and end
    skew (none with one thread, never more than the wall); and every cell
    of an interleaved part has exactly as many repeats as the part had
    rounds (one repeat per cell per round)."""
    errs = []
    for r in recs:
        if r["t"] == "smp_scale" and isinstance(r.get("cpu_ns"), list) and r["cpu_ns"]:
            if not r.get("wall_min_ns", 0) >= max(r["cpu_ns"]):
                errs.append("smp_scale %s threads=%s: wall_min_ns %s below a CPU's own %s"
                            % (r.get("strategy"), r.get("threads"), r.get("wall_min_ns"),
                               max(r["cpu_ns"])))
        if r["t"] in ("smp_scale", "smp_fill") and r.get("repeats"):
            name = "%s %s threads=%s" % (r["t"], r.get("strategy"), r.get("threads"))
            skew = [r.get(k) for k in ("start_skew_ns", "end_skew_ns", "start_skew_pct",
                                       "end_skew_pct", "late_starts")]
            if any(not isinstance(v, (int, float)) for v in skew):
                errs.append("%s: no start/end skew members" % name)
            elif r.get("threads") == 1 and any(skew):
                errs.append("%s: one thread but skew %s" % (name, skew))
            elif max(skew[2], skew[3]) > 100:
                errs.append("%s: a skew above 100%% of the wall: %s" % (name, skew))
    for part, t in (("scale", "smp_scale"), ("fill", "smp_fill")):
        rounds = [r for r in recs if r["t"] == "smp_rounds" and r.get("part") == part]
        cells = [r for r in recs if r["t"] == t]
        if rounds and rounds[-1].get("stop") != "abort":
            n = rounds[-1].get("rounds")
            if len(cells) != rounds[-1].get("cells"):
                errs.append("smp_rounds part=%s cells=%s but %d %s records"
                            % (part, rounds[-1].get("cells"), len(cells), t))
            for r in cells:
                if r.get("repeats") != n:
                    errs.append("%s threads=%s: repeats %s, the part ran %s rounds"
                                % (t, r.get("threads"), r.get("repeats"), n))
    return errs


def check_case(case, out, serial_text):
    errs = check_frame(case, out)
    errs += check_smp(out.records)
    errs += check_records(case, out.records)
    for pat in case.log:
        if not re.search(pat, serial_text, re.M):
            errs.append("serial log does not match /%s/" % pat)
    if case.mem_check:
        errs += check_mem(case, out.records)
    errs += check_numa(case, out.records)
    return errs


def check_numa(case, recs):
    """The numa record's invariants, and with `numa = qemu` every node and
    distance as the case's -numa arguments build them (tests/boot/numa_check.py)."""
    errs = numa_check.check_records(recs)
    numas = [r for r in recs if r["t"] == "numa"]
    if case.numa and not numas:
        return errs + ["no numa record"]
    if case.numa == "qemu":
        errs += numa_check.check_expected(numa_check.expected(case.qemu_args), numas[0])
    elif case.numa == "one" and (numas[0].get("nodes"), numas[0].get("source")) != (1, "none"):
        errs.append("numa: %r nodes from %r, want one node from none"
                    % (numas[0].get("nodes"), numas[0].get("source")))
    return errs


def check_mem(case, recs):
    """The guest saw the RAM QEMU gave it: usable bytes at most -m and at
    least 85% of it (firmware, ACPI and the first MiB take the rest)."""
    size = qemu.parse_size(case.mem)
    heads = [r for r in recs if r["t"] == "header"]
    got = heads[0].get("mem", {}).get("usable_bytes") if heads else None
    if not _is(got, int) or not size * 0.85 <= got <= size:
        return ["header.mem.usable_bytes %r, expected 85..100%% of %d" % (got, size)]
    return []


def run_case(case, outbase=OUTBASE):
    """(verdict, detail lines, seconds): verdict is PASS, FAIL or SKIP. A
    `kvm` case SKIPs only when KVM itself is unusable (probe.KvmUnusable),
    never because of a CPU model: it boots with the probed one."""
    start = time.monotonic()
    cfg = qemu.BootConfig(boot=case.boot, accel=case.accel, mem=case.mem, smp=case.smp,
                          cpu=case.cpu, args=case.args, prealloc=case.prealloc,
                          maxcpus=case.maxcpus, machine=case.machine, extra=case.qemu_args,
                          modules=case.modules, console=case.console)
    outdir = os.path.join(outbase, case.name)
    try:
        out = runner.boot(cfg, outdir, case.timeout)
    except probe.KvmUnusable as e:
        return "SKIP", [str(e)], time.monotonic() - start
    except qemu.ConfigError as e:
        return "FAIL", [str(e)], time.monotonic() - start
    with open(os.path.join(outdir, "serial.log"), "rb") as f:
        serial = "\n".join(rec.clean_line(l) for l in
                           f.read().decode("utf-8", errors="replace").split("\n"))
    errs = check_case(case, out, serial)
    if errs:
        tail = [l for l in serial.split("\n") if l.strip()][-12:]
        errs += ["%s, %.1f s, results in %s" % (out.choice.line(), out.elapsed,
                                                os.path.relpath(outdir, ROOT))]
        lines = out.stderr.strip().split("\n") if out.stderr.strip() else []
        if any(l.startswith("KVM internal error") for l in lines):  # keep the telling lines
            lines = [l for l in lines if l.startswith(("KVM internal", "emulation", "RIP=", "Code="))]
        errs += ["qemu: " + l for l in lines[-5:]]
        errs += ["serial | " + l for l in tail]
    return ("FAIL" if errs else "PASS"), errs, time.monotonic() - start


def run_cases(cases, jobs, report):
    """Run cases on `jobs` threads; report(name, verdict, details, seconds)
    is called once per case, serialised, in completion order."""
    lock = threading.Lock()

    def one(case):
        try:
            verdict, details, secs = run_case(case)
        except Exception as e:  # a runner bug must show as a failure, not a hang
            verdict, details, secs = "FAIL", ["runner error: %r" % e], 0.0
        with lock:
            report("boot/" + case.name, verdict, details, secs)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, cases))


def main(argv=None):
    ap = argparse.ArgumentParser(description="hugezero QEMU boot tests")
    ap.add_argument("--filter", help="only cases whose name or group contains this")
    ap.add_argument("-j", type=int, default=2, help="parallel boots (default 2)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    a = ap.parse_args(argv)
    cases = select(load_cases(), a.filter)
    if a.list:
        for c in cases:
            print("%-16s %-8s %-4s -m %-4s smp %d  %s  [%s]"
                  % (c.name, c.boot, c.accel, c.mem, c.smp, c.args, " ".join(c.groups)))
        return 0
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}

    def report(name, verdict, details, secs):
        counts[verdict] += 1
        if verdict == "SKIP":
            print("SKIP %s (%s)" % (name, "; ".join(details)), flush=True)
            return
        print("%s %s" % (verdict, name), flush=True)
        for d in details:
            print("    " + d, flush=True)

    run_cases(cases, a.j, report)
    line = "%d passed, %d failed" % (counts["PASS"], counts["FAIL"])
    print(line + (", %d skipped" % counts["SKIP"] if counts["SKIP"] else ""))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
