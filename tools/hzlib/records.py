"""Extract `@hz {json}` records from a serial capture (docs/results.md).

Real captures are noisy: CRLF line ends, ANSI escape sequences from GRUB and
firmware (CSI and OSC), NUL and other control bytes, text before or after a
record on the same line, a record split over two lines by a serial
reconnect, a truncated last line. extract() copes with all of these and
reports each record it cannot read as a Diagnostic instead of failing.

Several runs in one capture (a PXE reboot loop) are kept apart: every record
gets a `run` member, 0 for the first run, incremented at each `header` record
that follows other records.
"""

import json
import re

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


class Diagnostic:
    """A record that could not be read: where, and why."""

    def __init__(self, source, line, reason):
        self.source = source
        self.line = line
        self.reason = reason

    def __str__(self):
        return "%s:%d: malformed record: %s" % (self.source, self.line, self.reason)


class RecordError(ValueError):
    pass


class Diagnostics:
    """The diagnostics of one capture: the first MAX_DIAGS are kept, the
    rest only counted, so that a capture of pure garbage (10 MB of bare
    "@hz ") gives a bounded report."""

    def __init__(self, source):
        self.source = source
        self.kept = []
        self.dropped = 0
        self.last_line = 0

    def add(self, line, reason):
        if len(self.kept) < MAX_DIAGS:
            self.kept.append(Diagnostic(self.source, line, reason))
        else:
            self.dropped += 1
            self.last_line = line

    def result(self):
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
    if not text.startswith("{"):
        raise RecordError("no JSON object after %r" % PREFIX)
    try:
        obj, _ = _DECODER.raw_decode(text)
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
    return obj


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

    Returns (record, last line index used) or None. Candidates, in order:
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
            return parse_record(text), k
        except RecordError:
            continue
    return None


def extract(data, source="<log>"):
    """All records in a capture, in order.

    data: bytes or str. source: name used in diagnostics. Returns
    (records, diagnostics): at most MAX_DIAGS diagnostics, then one counting
    the rest. Each record dict gets a `run` member.
    """
    if isinstance(data, bytes):
        data = data.decode("utf-8", errors="replace")
    lines = [clean_line(l) for l in data.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    records, diags = [], Diagnostics(source)
    run, run_has_records = 0, False

    def add(rec):
        nonlocal run, run_has_records
        if rec["t"] == "header" and run_has_records:
            run += 1
        rec["run"] = run
        run_has_records = True
        records.append(rec)

    i = 0
    while i < len(lines):
        segs = lines[i].split(PREFIX)[1:]
        for n, seg in enumerate(segs):
            text = seg
            if not text.startswith("{"):  # no join can make this an object
                diags.add(i + 1, "no JSON object after %r" % PREFIX)
                continue
            try:
                add(parse_record(text))
                continue
            except RecordError as e:
                err = e
            joined = _try_join(text, lines, i + 1) if n == len(segs) - 1 else None
            if joined:
                add(joined[0])
                i = joined[1]
            elif n == len(segs) - 1 and i == len(lines) - 1:
                diags.add(i + 1, "truncated at end of log (%s)" % err)
            else:
                diags.add(i + 1, str(err))
        i += 1
    return records, diags.result()


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
