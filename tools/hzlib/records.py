"""Extract `@hz {json}` records from a serial capture (docs/results.md).

Real captures are noisy: CRLF line ends, ANSI escape sequences from GRUB and
firmware (CSI and OSC), NUL and other control bytes, text before or after a
record on the same line, a record split over two lines by a serial
reconnect, a truncated last line. extract() copes with all of these and
reports each record it cannot read as a Diagnostic instead of failing.

Several runs in one capture (a PXE reboot loop) are kept apart: every record
gets a `run` member, 0 for the first run, incremented at each `header` record
that follows other records, or at a `seq` that does not follow the last one
(a reboot whose header was lost).

check_stream() then checks each run's records against the kernel's own
count (docs/results.md "Sequence numbers"): every `seq` from 0 to the
summary's, none twice, and the summary's crc32 over the lines as received.
A missing, merged or broken record is a problem naming the seq numbers;
captures without `seq` (linux-bench, kernels before it) are not checked.
"""

import json
import re
import zlib
from dataclasses import dataclass, field
from typing import List, Optional

PREFIX = "@hz "          # every record line starts with this (docs/results.md)
MARK = PREFIX + "{"
MAX_RECORD = 4096        # bytes per record line, as the kernel writes them
MAX_JOIN_LINES = 3       # continuation lines tried for a split record
MAX_DIAGS = 100          # diagnostics listed per capture; the rest are counted

# ESC sequences: OSC (ESC ] ... BEL or ESC \, or to the end of the line), CSI
# (ESC [ params intermediates final), and the short ESC forms (ESC ( B, ESC 7).
_ANSI = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)"
                   r"|\x1b\[[0-?]*[ -/]*[@-~]"
                   r"|\x1b[ -/]*[0-~]")
# Every other control byte except TAB; CR goes too (CRLF, GRUB redraws).
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


@dataclass
class Diagnostic:
    """A record that could not be read: where, and why; seq is the
    record's sequence number when its start was readable, else None."""
    source: str
    line: int
    reason: str
    seq: Optional[int] = None

    def __str__(self) -> str:
        return "%s:%d: malformed record: %s" % (self.source, self.line, self.reason)


class StreamProblem(Diagnostic):
    """Records of a run that did not arrive as the kernel sent them."""

    def __str__(self) -> str:
        return "%s:%d: record stream: %s" % (self.source, self.line, self.reason)


class RecordError(ValueError):
    pass


@dataclass
class Diagnostics:
    """The diagnostics of one capture: the first MAX_DIAGS are kept, the
    rest only counted, so that a capture of pure garbage (10 MB of bare
    "@hz ") gives a bounded report."""

    source: str
    kept: List[Diagnostic] = field(default_factory=list)
    dropped: int = 0
    last_line: int = 0

    def add(self, line: int, reason: str, seq: Optional[int] = None) -> None:
        if len(self.kept) < MAX_DIAGS:
            self.kept.append(Diagnostic(self.source, line, reason, seq))
        else:
            self.dropped += 1
            self.last_line = line

    def result(self) -> List[Diagnostic]:
        """The kept diagnostics, then one that counts the others."""
        if not self.dropped:
            return list(self.kept)
        return self.kept + [Diagnostic(self.source, self.last_line,
                                       "%d more not listed (the first %d are)"
                                       % (self.dropped, MAX_DIAGS))]


def clean_line(line):
    """One line of a capture without escape sequences and control bytes."""
    return _CONTROL.sub("", _ANSI.sub("", line))


def _reject_constant(name):
    raise RecordError("%s is not JSON (RFC 8259)" % name)


def _finite_float(text):
    """1e999 parses as infinity in Python; RFC 8259 numbers are finite and
    json.dumps would write them back as `Infinity`, which is not JSON."""
    v = float(text)
    if v in (float("inf"), float("-inf")):
        raise RecordError("number %s is out of range" % text)
    return v


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


def parse_record(text):
    """Parse the JSON object at the start of `text` (what follows "@hz ").

    Text after the object is noise and ignored. Returns the record (a dict),
    or raises RecordError saying what is wrong.
    """
    return _decode(text)[0]


def _decode(text):
    """parse_record(), and where the object ends in text."""
    if not text.startswith("{"):
        raise RecordError("no JSON object after %r" % PREFIX)
    try:
        obj, end = _DECODER.raw_decode(text)
    except RecordError:
        raise
    except json.JSONDecodeError as e:
        raise RecordError("%s (column %d)" % (e.msg, e.pos + 1)) from None
    except RecursionError:
        raise RecordError("nested deeper than the JSON parser allows") from None
    except ValueError as e:  # e.g. an integer past Python's 4300-digit limit
        raise RecordError("unreadable value: %s" % e) from None
    if not isinstance(obj, dict):
        raise RecordError("not a JSON object")
    t = obj.get("t")
    if not isinstance(t, str) or not t:
        raise RecordError('no "t" (record type) string')
    v = obj.get("v")
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError('no "v" (schema version) integer')
    return obj, end


# The start of a record as the kernel writes it (lib/print.h): enough
# to name a broken record by its type and seq.
_HEAD = re.compile(r'\{"t":"((?:[^"\\]|\\.)*)","v":\d+,"seq":(\d+)[,}]')


def _seq(rec):
    s = rec.get("seq")
    return s if isinstance(s, int) and not isinstance(s, bool) and s >= 0 else None


def records_in_line(line):
    """Records in one already-complete line; malformed ones are skipped.

    For live display while a run streams (the full extract() runs after).
    """
    out = []
    for seg in clean_line(line).split(PREFIX)[1:]:
        try:
            out.append(parse_record(seg))
        except RecordError:
            pass
    return out


def _try_join(first, lines, start):
    """Try to complete the split record `first` with lines[start:].

    Returns (record, last line index used, the record's text) or None. Candidates, in order:
    first + one of the next MAX_JOIN_LINES lines (the lines between being
    reconnect noise, such as an IPMI SOL banner), then first + several of
    them concatenated. Single joins go first: a banner pasted into the middle
    of a JSON string would otherwise still parse. A line that holds another
    record ends the search.
    """
    single, cumulative = [], []
    joined = first
    for k in range(start, min(start + MAX_JOIN_LINES, len(lines))):
        if PREFIX in lines[k] or len(joined) > 2 * MAX_RECORD:
            break
        joined += lines[k]
        single.append((first + lines[k], k))
        if k > start:
            cumulative.append((joined, k))
    for text, k in single + cumulative:
        try:
            obj, end = _decode(text)
            return obj, k, text[:end]
        except RecordError:
            continue
    return None


def extract(data, source="<log>", raw=None):
    """All records in a capture, in order.

    data: bytes or str. source: name used in diagnostics. Returns
    (records, diagnostics): at most MAX_DIAGS diagnostics, then one counting
    the rest. Each record dict gets a `run` member. With a list `raw`, one
    (line number, record text from "@hz " to its last "}") is appended to
    it per record, for check_stream().
    """
    if isinstance(data, bytes):
        data = data.decode("utf-8", errors="replace")
    lines = [clean_line(line) for line in data.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    records, diags = [], Diagnostics(source)
    run, run_has_records, last_seq = 0, False, None

    def add(rec, line, text):
        nonlocal run, run_has_records, last_seq
        seq = _seq(rec)
        if run_has_records and (rec["t"] == "header" or (
                seq is not None and last_seq is not None and seq <= last_seq)):
            run += 1
        rec["run"] = run
        run_has_records = True
        last_seq = seq if seq is not None else last_seq
        records.append(rec)
        if raw is not None:
            raw.append((line, PREFIX + text))

    def broken(line, text, reason):
        m = _HEAD.match(text)
        if m:
            reason += " (record %s, seq %s)" % (m.group(1), m.group(2))
        diags.add(line, reason, int(m.group(2)) if m else None)

    i = 0
    while i < len(lines):
        segs = lines[i].split(PREFIX)[1:]
        for n, seg in enumerate(segs):
            text = seg
            if not text.startswith("{"):  # no join can make this an object
                diags.add(i + 1, "no JSON object after %r" % PREFIX)
                continue
            try:
                obj, end = _decode(text)
                add(obj, i + 1, text[:end])
                continue
            except RecordError as e:
                err = e
            joined = _try_join(text, lines, i + 1) if n == len(segs) - 1 else None
            if joined:
                add(joined[0], i + 1, joined[2])
                i = joined[1]
            elif n == len(segs) - 1 and i == len(lines) - 1:
                broken(i + 1, text, "truncated at end of log (%s)" % err)
            else:
                broken(i + 1, text, str(err))
        i += 1
    return records, diags.result()


def _ranges(nums):
    """[1, 2, 3, 7] -> "1-3, 7"."""
    out, nums = [], sorted(nums)
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else "%d-%d" % (nums[i], nums[j]))
        i = j + 1
    return ", ".join(out)


def check_stream(records, raw, diags, source="<log>"):
    """Problems (StreamProblem list, empty when all is well) of the runs in
    records (from extract() with `raw` filled) whose records carry `seq`:
    seq numbers missing below the summary's (or the last one seen), given
    twice, records without seq among them, broken records (diags with a
    seq), and a summary crc32 that the lines received do not give."""
    problems = []
    broken = [d for d in diags if d.seq is not None]
    for run in sorted({r["run"] for r in records}):
        idx = [k for k, r in enumerate(records) if r["run"] == run]
        seqs = [_seq(records[k]) for k in idx]
        if all(s is None for s in seqs):
            continue
        first, last = raw[idx[0]][0], raw[idx[-1]][0]
        before = [raw[k][0] for k in range(idx[0]) if records[k]["run"] == run - 1]
        nxt = [raw[k][0] for k in range(len(records)) if records[k]["run"] == run + 1]
        start, end_line = (before[-1] + 1 if before else 0), (nxt[0] if nxt else float("inf"))
        where = first

        def problem(text):
            problems.append(StreamProblem(source, where, "run %d: %s" % (run, text)))

        bad = [s for s in seqs if s is None]
        if bad:
            problem("%d record(s) without seq among records with one" % len(bad))
        got = [s for s in seqs if s is not None]
        twice = sorted({s for s in got if got.count(s) > 1}) if len(set(got)) != len(got) else []
        if twice:
            problem("seq %s received twice" % _ranges(twice))
        sums = [records[k] for k in idx if records[k]["t"] == "summary"]
        summary = sums[-1] if sums else None
        top = _seq(summary) if summary and _seq(summary) is not None else max(got)
        missing = set(range(top + 1)) - set(got)
        here = [d for d in broken if start <= d.line < end_line and d.seq in missing]
        if here:
            problem("broken record(s) seq %s (malformed, see line %s)"
                    % (_ranges({d.seq for d in here}), ", ".join(str(d.line) for d in here)))
            missing -= {d.seq for d in here}
        if missing:
            problem("record(s) lost: seq %s (%d of %d)" % (_ranges(missing), len(missing), top + 1))
        count = summary.get("records") if summary else None
        want = summary.get("crc32") if summary else None
        if isinstance(count, int) and isinstance(want, str) and not missing and not here \
                and not twice:
            texts = sorted((_seq(records[k]), raw[k][1]) for k in idx
                           if _seq(records[k]) is not None and _seq(records[k]) < count)
            crc = 0
            for _, text in texts:
                crc = zlib.crc32((text + "\n").encode("utf-8", errors="replace"), crc)
            if "0x%x" % crc != want.lower():
                where = last
                problem("crc32 0x%x of seq 0-%d as received, the kernel sent %s: a record's "
                        "bytes changed in transit" % (crc, count - 1, want))
    return problems


def runs(records):
    """Split a record list into runs (lists), by their `run` member."""
    out = {}
    for r in records:
        out.setdefault(r.get("run", 0), []).append(r)
    return [out[k] for k in sorted(out)]


def zeroing_faults(records, nbytes):
    """The `fault` records of nbytes-sized frames that zeroed in the fault
    (prezeroed false or absent: records from before the member). run=fault
    also times faults on pre-zeroed frames; those measure the fault path
    without the clear, and a fault figure set beside Linux's hugetlb fault,
    which always clears, must leave them out."""
    return [r for r in records if r.get("t") == "fault" and r.get("bytes") == nbytes
            and not r.get("prezeroed")]
