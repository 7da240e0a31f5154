"""hz compare: two result sets side by side, or one row per machine.

compare(A, B) prints each side's machine and configuration, then one row
per measurement found on both sides (each scenario's module,
tools/hzlib/scenarios/, says which of its records pair up and what each
side's statistic is, through the registry: all_rows(), one_sided()) with A, B and the comparison in
phrase.py's one form ("B takes 0.333x [0.320..0.350] the time of A
(faster)", "B gives 3x [..] the GB/s of A (faster)"), whose word is the
verdict (compare_stat.py: with samples on both sides, the Hodges-Lehmann ratio and
its Moses interval decide faster / slower / tie (+-X) / undecided at the
tolerance X, `--tolerance PCT`, default 5; rows without samples keep the
older spread rule and say so), then the cells found on one side only.

When A and B ran on different machines (another QEMU -cpu string, another
CPU model from the header's CPUID identification, another host CPU in
meta.json), B/A measures the machines as well as the code: differences()
names what differs, a WARNING line heads the table and every row's flags
say `machine(A,B)`; `hz compare --strict` refuses such a pair (status 2).

With more than two result sets (one per machine, `hz compare A B C ...`),
fleet() prints one row per set instead: the machine, the run's status and
check counts, and the headline figures the LAVA measurement cases also carry
(docs/results.md "LAVA result lines"), each scenario's `fleet` columns taken
from the records: best single-CPU clear GB/s (gbps_median), median service
time of the fault self-test, the pre-zeroed (`boot` policy) fault p50, and
the all-CPU fill s/TiB.
"""

from . import decide, phrase, results, scenarios
from .compare_rows import generic_rows
from .compare_stat import SPREAD, TOL_PCT, Judgement, flags_text, judge

TABLE_HEAD = ("measurement", "A", "B", "B against A", "flags")
# what the columns hold (compare_rows.py): one line above the table
COLUMNS = ("columns: A and B are each side's lower median (clear cells: gbps_median, at the "
           "lower middle of the repeats' times; fault rows: the faults' median_low; p99 rows "
           "the 99th percentile; model and settings rows the record's value); B against A is "
           "the Hodges-Lehmann ratio of B's samples over A's with its Moses interval, not B/A "
           "of the columns (rows marked (%s): B/A of the columns)" % SPREAD)


def _fmt(v):
    return "%.3f" % v if isinstance(v, float) else str(v)


def word(j: Judgement) -> str:
    """A Judgement's outcome for phrase.comparison: 'slower', 'tie at
    ±5%', 'noise, spread rule'."""
    if j.cmp is None:
        return "%s, %s" % (j.word, SPREAD)
    if j.word == decide.TIE:
        return "tie at ±%g%%" % j.tol_pct
    return j.word


def quantity(label, higher_is_better):
    """What a row's ratio is a ratio of, for phrase.comparison: phrase.TIME
    for times (lower is better), else the label's unit (GB/s, gain) or
    member (hit_pct, gbps)."""
    if not higher_is_better:
        return phrase.TIME
    return "GB/s" if label.endswith("GB/s") else label.split()[-1]


def all_rows(a, b):
    """Every matching row of every kind, in hz compare's order: each
    scenario's rows in the registry's order, then its generic types'."""
    rows = [row for s in scenarios.ALL for rowf in s.rows for row in rowf(a, b)]
    for t in (t for s in scenarios.ALL for t in s.generic):
        rows += generic_rows(a, b, t)
    return rows


def one_sided(a, b):
    """([labels of cells only in A], [only in B]) over the scenarios' cell
    types (clear, fault, faultclear, faultclear_gain, vmstart,
    interference), in record order."""
    only = ([], [])
    for t, keyf, labelf in (c for s in scenarios.ALL for c in s.cells):
        ka = list(dict.fromkeys(keyf(r) for r in a.of_type(t)))
        kb = list(dict.fromkeys(keyf(r) for r in b.of_type(t)))
        only[0].extend(labelf(k) for k in ka if k not in set(kb))
        only[1].extend(labelf(k) for k in kb if k not in set(ka))
    return only


def judged_rows(a, b, tol_pct=TOL_PCT):
    """[(label, Stat A, Stat B, Judgement, quantity)] of every matching row."""
    return [(label, sa, sb, judge(sa, sb, hib, tol_pct), quantity(label, hib))
            for label, sa, sb, hib in all_rows(a, b)]


def _cpu_id(rs):
    """'GenuineIntel family 6 model 143 stepping 8 (brand)' from the header, or None."""
    cpu = rs.header().get("cpu")
    if not isinstance(cpu, dict) or not cpu.get("vendor"):
        return None
    return "%s family %s model %s stepping %s (%s)" % (
        cpu.get("vendor"), cpu.get("family"), cpu.get("model"), cpu.get("stepping"),
        cpu.get("brand") or "no brand")


def differences(a, b):
    """What tells A's machine from B's: ['-cpu: X vs Y', 'CPU: ...', 'host:
    ...'] for the QEMU -cpu string (meta.json cpu_model), the CPU model the
    guest saw (header cpu) and the host's CPU (meta.json host_cpu), each
    only when both sides name it; [] for the same machine as far as known."""
    out = []
    for what, get in (("-cpu", lambda rs: rs.meta.get("cpu_model")), ("CPU", _cpu_id),
                      ("host", lambda rs: rs.meta.get("host_cpu"))):
        va, vb = get(a), get(b)
        if va and vb and va != vb:
            out.append("%s: %s vs %s" % (what, va, vb))
    return out


def table(a, b, tol_pct=TOL_PCT):
    """Every matching row as text cells, in TABLE_HEAD order (hz compare's
    table; hz report A B shows the same rows). The comparison is the row's
    B over A of its value, with its interval when samples decided it; the
    flags end with machine(A,B) when differences() finds any."""
    out = []
    other = " machine(A,B)" if differences(a, b) else ""
    for label, sa, sb, j, what in judged_rows(a, b, tol_pct):
        if label.startswith("fault "):  # a latency statistic: say how many faults it covers
            label += " (n=%d/%d)" % (sa.n, sb.n)
        out.append((label, _fmt(sa.value), _fmt(sb.value),
                    phrase.comparison("B", "A", j.ratio, j.lo, j.hi, word(j), what),
                    (flags_text(sa, sb) + other).strip()))
    return out


def rule_text(tol_pct=TOL_PCT):
    """'Hodges-Lehmann ratio of B's samples over A's ... tolerance ±5%'."""
    return ("Hodges-Lehmann ratio of B's samples over A's (time per byte) with its Moses interval "
            "(z %g), %s (%s: rounds do not pair), widened where a side is serially dependent, "
            "0 ns samples left out as bad; tolerance ±%g%%"
            % (decide.Z_X1000 / 1000, decide.TWO_SAMPLE, decide.APART, tol_pct))


def rule_line(tol_pct=TOL_PCT):
    """What the verdicts mean, one line above the table."""
    return "rule: %s; rows marked (%s) lack samples on a side" % (rule_text(tol_pct), SPREAD)


def compare(a, b, tol_pct=TOL_PCT):
    """The comparison report (a list of lines) and the number of rows."""
    rows = table(a, b, tol_pct)
    out = []
    for side, rs in (("A", a), ("B", b)):
        out.append("%s: %s" % (side, rs.name))
        out.append("   machine: %s" % results.machine(rs))
        out.append("   config:  %s" % results.config(rs))
    only = one_sided(a, b)
    if not rows:
        out.append("no matching clear, fault or prezero records on both sides")
    else:
        diff = differences(a, b)
        if diff:
            out.append("WARNING: A and B ran on different machines (%s): B/A compares the "
                       "machines too, not the code alone" % "; ".join(diff))
        out.append(rule_line(tol_pct))
        out.append(COLUMNS)
        cells = [TABLE_HEAD] + rows
        widths = [max(len(r[i]) for r in cells) for i in range(5)]
        for r in cells:
            out.append("  ".join([r[0].ljust(widths[0])] +
                                 [r[i].rjust(widths[i]) for i in range(1, 3)] +
                                 [r[3].ljust(widths[3]), r[4]]).rstrip())
    for side, labels in zip("AB", only):
        out += ["only in %s: %s" % (side, label) for label in labels]
    return out, len(rows)


def _headline(rs):
    """The fleet row's figures of one result set: the summary's status and
    counts, then each scenario's `fleet` columns ("-" when absent)."""
    summ = rs.of_type("summary")
    s = summ[-1] if summ else {}
    return [s.get("status_name", "-"),
            "%s/%s/%s" % (s.get("pass", "-"), s.get("fail", "-"), s.get("skip", "-"))] + \
        [figure(rs) for sc in scenarios.ALL for _, figure in sc.fleet]


def fleet(sets):
    """One row per result set (lines, number of sets with a summary)."""
    head = ("results", "machine", "status", "pass/fail/skip") + tuple(
        name for sc in scenarios.ALL for name, _ in sc.fleet)
    rows = [head] + [tuple([rs.name, results.machine(rs)] + _headline(rs)) for rs in sets]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    out = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return out, sum(1 for rs in sets if rs.of_type("summary"))
