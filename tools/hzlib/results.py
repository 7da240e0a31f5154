"""Results folders and record files.

A results folder (written by `hz run`, or `hz parse -o`) holds:
  serial.log     the raw console capture
  records.jsonl  one record per line, each with its `run` index
  summary.csv    one row per record except header/progress; `clear` columns first
  meta.json      how the run was made (QEMU command line, host CPU, ...)
  linux.jsonl    records from build/tools/linux-bench (`hz run --linux`)
  *.png          plots (`hz plot`)
load() reads any of: a folder, a .jsonl file, or a raw capture.
"""

import csv
import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from . import records as rec, schema, verdict_merge


@dataclass
class ResultSet:
    """Records from one place, with the run metadata when there is some.
    stream_problems: records.check_stream() of the serial capture behind
    these records: lost, repeated or broken records (empty: none seen, or
    no capture)."""
    name: str
    records: List[Dict[str, Any]]
    meta: Dict[str, Any] = field(default_factory=dict)
    diags: List[rec.Diagnostic] = field(default_factory=list)
    stream_problems: List[rec.Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.meta = self.meta or {}
        self.diags = self.diags or []
        self.stream_problems = self.stream_problems or []

    def stream_warning(self) -> Optional[str]:
        """One line for reports when the capture lost or broke records, else None."""
        if not self.stream_problems:
            return None
        return ("WARNING: %d record stream problem(s) in %s (records lost or broken on the "
                "way: %s); its figures and verdict are incomplete"
                % (len(self.stream_problems), self.name, self.stream_problems[0].reason))

    def of_type(self, t: str) -> List[Dict[str, Any]]:
        return [r for r in self.records if r.get("t") == t]

    def header(self) -> Dict[str, Any]:
        """The first header record, or {}."""
        h = self.of_type("header")
        return h[0] if h else {}


def _assign_runs(records):
    run, seen = 0, False
    for r in records:
        if r.get("t") == "header" and seen:
            run += 1
        r.setdefault("run", run)
        seen = True
    return records


def read_jsonl(path):
    """Records from a JSON-lines file. Bad lines become Diagnostics (at most
    records.MAX_DIAGS, then a count)."""
    out, diags = [], rec.Diagnostics(path)
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            try:
                out.append(rec.parse_record(line))
            except rec.RecordError as e:
                diags.add(n, str(e))
    return _assign_runs(out), diags.result()


def _looks_like_jsonl(path):
    with open(path, "rb") as f:
        for raw in f:
            s = raw.strip()
            if s:
                return s.startswith(b"{")
    return False


def load(path):
    """A ResultSet from a results folder, a .jsonl file or a raw capture.

    Raises OSError when nothing readable is there.
    """
    meta = {}
    if os.path.isdir(path):
        mp = os.path.join(path, "meta.json")
        if os.path.exists(mp):
            with open(mp) as f:
                meta = json.load(f)
        log = os.path.join(path, "serial.log")
        problems = load(log).stream_problems if os.path.exists(log) else []
        for name in ("records.jsonl", "serial.log"):
            p = os.path.join(path, name)
            if os.path.exists(p):
                rs = load(p)
                return ResultSet(path, rs.records, meta, rs.diags, problems)
        raise OSError("%s: no records.jsonl or serial.log" % path)
    if path.endswith(".jsonl") or _looks_like_jsonl(path):
        recs, diags = read_jsonl(path)
        return ResultSet(path, recs, meta, diags)
    with open(path, "rb") as f:
        raw = []
        recs, diags = rec.extract(f.read(), path, raw)
    return ResultSet(path, recs, meta, diags, rec.check_stream(recs, raw, diags, path))


def dump_jsonl(f, records):
    for r in records:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")


def write_jsonl(path, records):
    with open(path, "w") as f:
        dump_jsonl(f, records)


def flatten(obj, prefix, out):
    """obj's members into the dict out as text-ready values: nested objects
    as dotted names, arrays as JSON text, booleans as true/false, null as ""."""
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict):
            flatten(v, key + ".", out)
        elif isinstance(v, list):
            out[key] = json.dumps(v, separators=(",", ":"))
        elif isinstance(v, bool):
            out[key] = "true" if v else "false"
        elif v is None:
            out[key] = ""
        else:
            out[key] = v
    return out


def write_csv(path, records):
    """One row per record (header and progress records left out).

    Columns: run, t, then the `clear` members, then every other member in the
    order first seen; nested objects become dotted names, arrays JSON text.
    Returns the number of rows.
    """
    rows = [flatten(r, "", {}) for r in records if r.get("t") not in schema.CSV_SKIP_TYPES]
    cols = ["run", "t"] + schema.CLEAR_COLUMNS
    seen = set(cols) | {"v"}
    for row in rows:
        for k in row:
            if k not in seen:
                seen.add(k)
                cols.append(k)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return len(rows)


def write_records(outdir, records):
    """records.jsonl and summary.csv (plus run<N>.csv per run when there are
    several runs) into outdir. Returns the file names written."""
    os.makedirs(outdir, exist_ok=True)
    write_jsonl(os.path.join(outdir, "records.jsonl"), records)
    write_csv(os.path.join(outdir, "summary.csv"), records)
    names = ["records.jsonl", "summary.csv"]
    per_run = rec.runs(records)
    if len(per_run) > 1:
        for run in per_run:
            name = "run%d.csv" % run[0]["run"]
            write_csv(os.path.join(outdir, name), run)
            names.append(name)
    return names


def human_size(v):
    """4096 -> "4K", 2097152 -> "2M"; strings pass through."""
    if not isinstance(v, int) or isinstance(v, bool):
        return str(v)
    for shift, suffix in ((40, "T"), (30, "G"), (20, "M"), (10, "K")):
        if v >= 1 << shift and v % (1 << shift) == 0:
            return "%d%s" % (v >> shift, suffix)
    return str(v)


def machine(rs):
    """One line naming the machine: CPU brand, hypervisor (TCG noted; each
    boot's when the boots differ) and the QEMU -cpu model when meta.json
    names it."""
    h = rs.header()
    cpu = h.get("cpu") if isinstance(h.get("cpu"), dict) else {}
    brand = cpu.get("brand") or rs.meta.get("host_cpu") or "unknown CPU"

    def where_of(x):
        hv = x.get("hypervisor")
        tcg = ", QEMU TCG (not hardware timings)" if x.get("tcg") else ""
        return ("hypervisor unknown" if hv is None else "bare metal" if hv == "" else
                "hypervisor %s" % hv) + tcg
    heads = [(str(x.get("run", 0)), where_of(x)) for x in rs.of_type("header")]
    where = verdict_merge.each(heads or [("0", where_of(h))]) or "?"  # differing: each boot's
    if rs.meta.get("cpu_model"):  # the -cpu QEMU ran (hz run's meta.json)
        where += ", -cpu %s" % rs.meta["cpu_model"]
    return "%s, %s" % (brand, where)


def tcg(rs) -> bool:
    """Whether rs ran under QEMU TCG (any run's header `tcg`, or hz run's
    meta.json accelerator): its timings are the emulator's, no hardware
    result (in a set of several boots, one TCG boot is enough)."""
    return any(h.get("tcg") is True for h in rs.of_type("header")) or rs.meta.get("accel") == "tcg"


def config(rs):
    """One line naming the configuration: cmdline, boot path, commit/source."""
    h = rs.header()
    clear = rs.of_type("clear")
    source = clear[0].get("source") if clear else None
    source = source or h.get("source") or rs.meta.get("source") or "hugezero"
    cmdline = h.get("cmdline", rs.meta.get("cmdline"))
    boot = rs.meta.get("boot") or h.get("boot") or "?"
    commit = h.get("commit") or rs.meta.get("commit") or "?"
    return "cmdline %s, boot %s, %s %s" % (
        json.dumps(cmdline if cmdline is not None else "?"), boot, source, commit)
