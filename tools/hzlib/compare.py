"""Compare two result sets side by side.

Rows:
  clear    one per (strategy, chunk, bytes, cache, threads) present on both
           sides; the value is gbps_median (GB/s, 10^9 B/s), falling back to
           gbps. Spread: the median's 95 % interval gbps_lo .. gbps_hi when the
           records have it (docs/results.md); else (older records) the GB/s
           range bytes/max_ns .. bytes/min_ns and cv_pct. Flags: a side's
           records marked noisy, steal_high or cache_verified:false.
  fault    per pre-zero policy (and page size, `bytes`): median and 99th percentile of service_ns and
           median clear_ns over the fault records; spread: the statistic's
           95 % order-statistic interval (quantile_ci95), or, with too few
           faults for one, the interquartile range (shown, not judged), and
           the samples' coefficient of variation. The p99 row only when both
           sides have P99_MIN_N samples: with fewer, a nearest-rank p99 is
           the maximum (lib/stats.h stats_percentile_min_n).
  faultclear per (frame size, model, strategy): the median GB/s, spread the
           median's 95 % interval gbps_lo .. gbps_hi (older records: cv_pct);
           flags noisy, steal_high. faultclear_gain per (frame size,
           strategy): the predicted clear_pages() gain, spread the range
           gain_lo .. gain_hi both cells' intervals allow.
  interference
           per (zeroer, strategy, chunk, rate_pct, victim): the victim's
           metric (ns_per_load, lower is better; gbps, higher) at its median
           time; spread: value_lo .. value_hi, the median's 95 % interval.
  prezero  per record identity (its string members and sizes): every _ns,
           _cyc, gbps, cpb and _pct member (hit_pct) present on both sides;
           spread: cv_pct when the record has one.
  vmstart  one per (policy, threads, bytes, strategy) cell: GB/s with the
           median's interval gbps_lo .. gbps_hi (a one-repeat cell has none);
           flag noisy. vmstart_model rows (generic, as above) are the 2 TiB
           model's figures: the label says vmstart_model, they are not
           measurements.

With more than two result sets (one per machine, `hz compare A B C ...`),
fleet() prints one row per set instead: the machine, the run's status and
check counts, and the headline figures the LAVA measurement cases also carry
(docs/results.md "LAVA result lines"), taken from the records: best
single-CPU clear GB/s (gbps_median), median service time of the fault self-test, the
pre-zeroed (`boot` policy) fault p50, and the all-CPU fill s/TiB.

Verdict: first, each side's statistic must rest on at least MIN_SAMPLES
samples (the repeats of a clear cell, the faults of a fault row, the record's
repeats / n / lat_n / faults member), else "too few samples": from 6
samples on the median has a distribution-free 95 % interval (lib/stats.h
stats_median_ci95); below that any interval is the min..max range at less
than 95 % confidence. A p99 row also needs enough faults for an interval of
its own (quantile_ci95: 368 and more), else "too few samples". A side that
does not say how many samples it has (records older than these members)
keeps the spread rule below. Then "faster"/"slower" only when the
difference is larger than the runs' own spread: with 95 % intervals on both
sides (clear cells' median intervals, fault rows' order-statistic
intervals), the intervals do not overlap (overlapping intervals are
"noise", whatever the CVs). Otherwise: the ranges do not overlap, or
|B - A| / A > 2 x max(CV A, CV B). Else "noise"; "n/a" when a side gives no
spread at all.
"""

import json
import math
import statistics

from . import results

CLEAR_KEY = ("strategy", "chunk", "bytes", "cache", "threads")
P99_MIN_N = 100
MIN_SAMPLES = 6  # fewest samples whose median has a 95 % order-statistic interval
TOO_FEW = "too few samples"
_SAMPLE_COUNTS = ("repeats", "n", "lat_n", "faults")  # members that count a record's samples
GENERIC_TYPES = ("prezero", "vmstart_model")
VMSTART_KEY = ("policy", "threads", "bytes", "strategy")
_GENERIC_VALUE_SUFFIXES = ("_ns", "_cyc", "gbps", "gbps_median", "cpb", "_pct")
_GENERIC_KEY_INTS = ("chunk", "bytes", "threads", "cpu", "node", "order", "pages",
                     "frame_bytes", "chunk_bytes")


class Stat:
    """One side of a row: value, optional (lo, hi) range, optional CV %.

    ci: (lo, hi) is a 95 % confidence interval of the statistic, not a
    min..max range. n: records (or faults) merged into the row. samples:
    the fewest samples behind the statistic (None: the records do not say).
    few: the samples allow no 95 % interval of this statistic.
    flags: words for the records' own warnings (noisy, steal, not-cold)."""

    def __init__(self, value, lo=None, hi=None, cv=None, n=1, ci=False, flags=(), samples=None,
                 few=False):
        self.value, self.lo, self.hi, self.cv, self.n = value, lo, hi, cv, n
        self.ci, self.flags, self.samples, self.few = ci, tuple(flags), samples, few


def _binom_cdf(k, n, q):
    """P(B <= k) for B ~ Binomial(n, q) (exact, math.comb)."""
    return sum(math.comb(n, i) * q ** i * (1 - q) ** (n - i) for i in range(0, k + 1))


def quantile_ci95(n, q):
    """0-based indices (lo, hi) into n ascending samples whose values hold the
    q-quantile with probability >= 95 %, 2.5 % at most in each tail (the
    order-statistic interval: [x_(r), x_(s)] misses it when fewer than r or
    at least s samples lie below it, B ~ Binomial(n, q)); None when even the
    whole sample falls short (the median below 6 samples, p99 below 368).
    For q = 1/2 these are lib/stats.h stats_median_ci95()'s ranks."""
    r = 0  # largest rank r with P(B <= r - 1) <= 2.5 %
    while r < n and _binom_cdf(r, n, q) <= 0.025:
        r += 1
    s = n + 1  # smallest rank s with P(B >= s) <= 2.5 %
    while s > 1 and 1 - _binom_cdf(s - 2, n, q) <= 0.025:
        s -= 1
    return (r - 1, s - 1) if 1 <= r <= s <= n else None


def _samples(recs):
    """The fewest samples any of recs says it has, or None."""
    counts = []
    for r in recs:
        c = next((_num(r.get(k)) for k in _SAMPLE_COUNTS if _num(r.get(k)) is not None), None)
        if c is None:
            return None
        counts.append(c)
    return min(counts) if counts else None


def _num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def record_flags(r):
    """The warnings a clear-like record carries (docs/results.md)."""
    return [f for f, on in (("noisy", r.get("noisy") is True),
                            ("steal", r.get("steal_high") is True),
                            ("not-cold", r.get("cache_verified") is False),
                            ("unverified", r.get("verified") is False)) if on]


def _clear_ci_stat(recs, keys=("gbps_median", "gbps_lo", "gbps_hi")):
    """Stat from records with intervals, the members `keys` (value, lo, hi)
    (several runs: the median of the values, the union of the intervals),
    or None when one lacks it."""
    vals, los, his, flags = [], [], [], []
    for r in recs:
        v, lo, hi = (_num(r.get(k)) for k in keys)
        if None in (v, lo, hi) or r.get("repeats") == 1:
            return None  # no interval (a single sample's is a point at 0 % confidence)
        vals.append(v)
        los.append(lo)
        his.append(hi)
        flags += [f for f in record_flags(r) if f not in flags]
    if not vals:
        return None
    cvs = [r["cv_pct"] for r in recs if _num(r.get("cv_pct")) is not None]
    return Stat(statistics.median(vals), min(los), max(his), max(cvs) if cvs else None,
                len(vals), ci=True, flags=flags, samples=_samples(recs))


def _clear_stat(recs):
    with_ci = _clear_ci_stat(recs)
    if with_ci:
        return with_ci
    vals, los, his, cvs = [], [], [], []
    for r in recs:
        v = _num(r.get("gbps_median"))
        v = v if v is not None else _num(r.get("gbps"))
        if v is None:
            continue
        vals.append(v)
        if r.get("repeats") == 1:
            continue  # one sample (first_touch): its min, max and cv say nothing of spread
        b, mn, mx = _num(r.get("bytes")), _num(r.get("min_ns")), _num(r.get("max_ns"))
        if b and mn and mx:
            los.append(b / mx)
            his.append(b / mn)
        if _num(r.get("cv_pct")) is not None:
            cvs.append(r["cv_pct"])
    if not vals:
        return None
    lo = min(los + vals) if (los or len(vals) > 1) else None
    hi = max(his + vals) if (his or len(vals) > 1) else None
    return Stat(statistics.median(vals), lo, hi, max(cvs) if cvs else None, len(vals),
                samples=_samples(recs))


def percentile(sorted_vals, pct):
    """Nearest-rank percentile of an ascending list."""
    k = max(1, -(-pct * len(sorted_vals) // 100))
    return sorted_vals[min(k, len(sorted_vals)) - 1]


def _dist_stat(vals, pick, q):
    """Stat of the q-quantile (pick) of samples: its 95 % order-statistic
    interval when they allow one, else the interquartile range (shown, never
    judged: too few samples)."""
    vals = sorted(vals)
    mean = statistics.fmean(vals)
    cv = statistics.stdev(vals) / mean * 100 if mean and len(vals) > 1 else None
    ci = quantile_ci95(len(vals), q)
    if ci:
        return Stat(pick(vals), vals[ci[0]], vals[ci[1]], cv, len(vals), ci=True,
                    samples=len(vals))
    return Stat(pick(vals), percentile(vals, 25), percentile(vals, 75), cv, len(vals),
                samples=len(vals), few=True)


def _key(r, names):
    """The members `names` of r as a hashable tuple (objects as JSON text)."""
    return tuple(v if v is None or isinstance(v, (str, int, float)) else
                 json.dumps(v, sort_keys=True) for v in (r.get(k) for k in names))


def _group(recs, keyf):
    out = {}
    for r in recs:
        out.setdefault(keyf(r), []).append(r)
    return out


def clear_rows(a, b):
    """[(label, Stat A, Stat B, higher_is_better)] for matching clear records."""
    ga = _group(a.of_type("clear"), lambda r: _key(r, CLEAR_KEY))
    gb = _group(b.of_type("clear"), lambda r: _key(r, CLEAR_KEY))
    rows = []
    for k in ga:
        if k in gb:
            sa, sb = _clear_stat(ga[k]), _clear_stat(gb[k])
            if sa and sb:
                label = "clear %s %s GB/s" % (k[0], " ".join(
                    "%s=%s" % (n, results.human_size(v)) for n, v in zip(CLEAR_KEY[1:], k[1:])
                    if v is not None))
                rows.append((label, sa, sb, True))
    return rows


# faultclear rows: record type -> (identity members, (value, lo, hi) members, what)
FAULTCLEAR = {"faultclear": (("bytes", "model", "strategy"), ("gbps", "gbps_lo", "gbps_hi"),
                             "GB/s"),
              "faultclear_gain": (("bytes", "strategy"), ("gain", "gain_lo", "gain_hi"),
                                  "predicted gain")}


def faultclear_rows(a, b):
    """[(label, Stat A, Stat B, higher_is_better)]: per faultclear cell on
    both sides its median GB/s with the median's 95 % interval; per
    faultclear_gain the predicted gain with its range. Records without
    intervals (older runs) keep cv_pct."""
    rows = []
    for t, (names, keys, what) in FAULTCLEAR.items():
        ga = _group(a.of_type(t), lambda r: _key(r, names))
        gb = _group(b.of_type(t), lambda r: _key(r, names))
        for k in ga:
            if k not in gb:
                continue
            pair = []
            for recs in (ga[k], gb[k]):
                st = _clear_ci_stat(recs, keys)
                if not st and _num(recs[-1].get(keys[0])) is not None:
                    st = Stat(recs[-1][keys[0]], cv=_num(recs[-1].get("cv_pct")),
                              samples=_samples(recs[-1:]), flags=record_flags(recs[-1]))
                pair.append(st)
            if all(pair):
                label = "%s %s %s" % (t, " ".join("%s=%s" % (n, results.human_size(v))
                                                  for n, v in zip(names, k)), what)
                rows.append((label, pair[0], pair[1], True))
    return rows


def fault_rows(a, b):
    def key(r):
        return _key(r, ("policy", "bytes"))

    ga, gb = _group(a.of_type("fault"), key), _group(b.of_type("fault"), key)
    rows = []
    for k in ga:
        if k not in gb:
            continue
        what_faults = "policy=%s" % k[0] + (" bytes=%s" % results.human_size(k[1])
                                             if k[1] is not None else "")
        for member, what, pick, q, min_n in (
                ("service_ns", "median", statistics.median_low, 0.5, 1),
                ("service_ns", "p99", lambda v: percentile(v, 99), 0.99, P99_MIN_N),
                ("clear_ns", "median", statistics.median_low, 0.5, 1)):
            va = [r[member] for r in ga[k] if _num(r.get(member)) is not None]
            vb = [r[member] for r in gb[k] if _num(r.get(member)) is not None]
            if len(va) >= min_n and len(vb) >= min_n:
                rows.append(("fault %s %s %s" % (what_faults, what, member),
                             _dist_stat(va, pick, q), _dist_stat(vb, pick, q), False))
    return rows


def _vmstart_stat(r):
    """Stat of a vmstart cell: its GB/s and median interval, or None."""
    v, lo, hi = _num(r.get("gbps")), _num(r.get("gbps_lo")), _num(r.get("gbps_hi"))
    if v is None:
        return None
    flags = record_flags(r)  # noisy, and unverified when a check of the cell failed
    n = _samples([r])
    if None in (lo, hi) or r.get("repeats") == 1:
        return Stat(v, cv=_num(r.get("cv_pct")), flags=flags, samples=n)
    return Stat(v, lo, hi, _num(r.get("cv_pct")), ci=True, flags=flags, samples=n)


def vmstart_rows(a, b):
    """[(label, Stat A, Stat B, True)] for matching vmstart cells (the last
    record of a cell on each side)."""
    ga = _group(a.of_type("vmstart"), lambda r: _key(r, VMSTART_KEY))
    gb = _group(b.of_type("vmstart"), lambda r: _key(r, VMSTART_KEY))
    rows = []
    for k in ga:
        sa, sb = _vmstart_stat(ga[k][-1]), _vmstart_stat(gb[k][-1]) if k in gb else None
        if sa and sb:
            rows.append(("vmstart policy=%s threads=%s bytes=%s %s GB/s" % (
                k[0], k[1], results.human_size(k[2]), k[3]), sa, sb, True))
    return rows


def _generic_identity(r):
    return tuple(sorted((k, v) for k, v in r.items()
                        if k not in ("t", "v", "run", "source")
                        and (isinstance(v, str) or (k in _GENERIC_KEY_INTS and _num(v) is not None))))


_LABEL_ALWAYS = ("workload", "policy")


INTERFERENCE_KEY = ("zeroer", "strategy", "chunk", "rate_pct", "victim")


def interference_rows(a, b):
    ga = _group(a.of_type("interference"), lambda r: tuple(r.get(k) for k in INTERFERENCE_KEY))
    gb = _group(b.of_type("interference"), lambda r: tuple(r.get(k) for k in INTERFERENCE_KEY))
    rows = []
    for key, recs in ga.items():
        if key not in gb:
            continue
        sides = []
        for r in (recs[-1], gb[key][-1]):
            v, lo, hi = (_num(r.get(m)) for m in ("value", "value_lo", "value_hi"))
            sides.append(Stat(v, lo, hi, cv=_num(r.get("cv_pct")), n=r.get("rounds") or 1,
                              ci=None not in (lo, hi), flags=record_flags(r)))
        zeroer, _, _, rate, victim = key
        label = "interference %s%s %s %s" % (zeroer, " %s%%" % rate if zeroer != "none" else "",
                                             victim, recs[-1].get("metric"))
        if None not in (sides[0].value, sides[1].value):
            rows.append((label, sides[0], sides[1], recs[-1].get("metric") == "gbps"))
    return rows


def generic_rows(a, b, t):
    ga = _group(a.of_type(t), _generic_identity)
    gb = _group(b.of_type(t), _generic_identity)
    # Label rows by workload, policy and whatever else tells the groups apart.
    varying = {n for n, _ in set().union(*ga, *gb)
               if len({dict(i).get(n) for i in list(ga) + list(gb)}) > 1}
    rows = []
    for ident in ga:
        if ident not in gb:
            continue
        name = " ".join("%s=%s" % (n, results.human_size(v)) for n, v in ident
                        if n in _LABEL_ALWAYS or n in varying)
        ra, rb = ga[ident][-1], gb[ident][-1]
        for m, va in ra.items():
            vb = rb.get(m)
            if (m.endswith(_GENERIC_VALUE_SUFFIXES) and m != "cv_pct"
                    and _num(va) is not None and _num(vb) is not None):
                rows.append(("%s %s %s" % (t, name, m),
                             Stat(va, cv=_num(ra.get("cv_pct")), samples=_samples([ra])),
                             Stat(vb, cv=_num(rb.get("cv_pct")), samples=_samples([rb])),
                             "gbps" in m or m.endswith("_pct")))
    return rows


def verdict(sa, sb, higher_is_better):
    """"faster", "slower", "noise", "n/a" or TOO_FEW (see the module comment)."""
    if any(st.few or (st.samples is not None and st.samples < MIN_SAMPLES) for st in (sa, sb)):
        return TOO_FEW
    if sa.value == sb.value:
        return "noise"
    if sa.ci and sb.ci:  # median intervals: they alone decide
        if not (sa.hi < sb.lo or sb.hi < sa.lo):
            return "noise"
        better = sb.value > sa.value if higher_is_better else sb.value < sa.value
        return "faster" if better else "slower"
    spread_known = False
    separated = False
    if None not in (sa.lo, sa.hi, sb.lo, sb.hi):
        spread_known = True
        separated = sa.hi < sb.lo or sb.hi < sa.lo
    cvs = [c for c in (sa.cv, sb.cv) if c is not None]
    if cvs and sa.value:
        spread_known = True
        separated = separated or abs(sb.value - sa.value) / abs(sa.value) * 100 > 2 * max(cvs)
    if not spread_known:
        return "n/a"
    if not separated:
        return "noise"
    better = sb.value > sa.value if higher_is_better else sb.value < sa.value
    return "faster" if better else "slower"


def _fmt(v):
    return "%.3f" % v if isinstance(v, float) else str(v)


def flags_text(sa, sb):
    """'noisy(A) steal(A,B)': each flag with the sides that carry it."""
    words = []
    for f in list(sa.flags) + [f for f in sb.flags if f not in sa.flags]:
        sides = [n for n, st in (("A", sa), ("B", sb)) if f in st.flags]
        words.append("%s(%s)" % (f, ",".join(sides)))
    return " ".join(words)


TABLE_HEAD = ("measurement", "A", "B", "B/A", "verdict", "flags")


def table(a, b):
    """Every matching row as text cells, in TABLE_HEAD order (hz compare's
    table; hz report A B shows the same rows)."""
    rows = (clear_rows(a, b) + fault_rows(a, b) + faultclear_rows(a, b) + vmstart_rows(a, b)
            + interference_rows(a, b))
    for t in GENERIC_TYPES:
        rows += generic_rows(a, b, t)
    out = []
    for label, sa, sb, hib in rows:
        ratio = "%.3f" % (sb.value / sa.value) if sa.value else "-"
        if label.startswith("fault "):  # a latency statistic: say how many faults it covers
            label += " (n=%d/%d)" % (sa.n, sb.n)
        out.append((label, _fmt(sa.value), _fmt(sb.value), ratio, verdict(sa, sb, hib),
                    flags_text(sa, sb)))
    return out


def compare(a, b):
    """The comparison report (a list of lines) and the number of rows."""
    rows = table(a, b)
    out = []
    for side, rs in (("A", a), ("B", b)):
        out.append("%s: %s" % (side, rs.name))
        out.append("   machine: %s" % results.machine(rs))
        out.append("   config:  %s" % results.config(rs))
    if not rows:
        out.append("no matching clear, fault or prezero records on both sides")
        return out, 0
    cells = [TABLE_HEAD] + rows
    widths = [max(len(r[i]) for r in cells) for i in range(6)]
    for r in cells:
        out.append("  ".join([r[0].ljust(widths[0])] +
                             [r[i].rjust(widths[i]) for i in range(1, 4)] +
                             [r[4].ljust(widths[4]), r[5]]).rstrip())
    return out, len(rows)


def _headline(rs):
    """The fleet row's figures of one result set ("-" when absent)."""
    summ = rs.of_type("summary")
    s = summ[-1] if summ else {}
    gbps = [r.get("gbps_median", r.get("gbps")) for r in rs.of_type("clear")
            if r.get("threads") == 1 and r.get("verified") is True
            and _num(r.get("gbps_median", r.get("gbps"))) is not None]
    selftest = sorted(r["service_ns"] for r in rs.of_type("fault")
                      if "workload" not in r and r.get("policy", "none") == "none"
                      and _num(r.get("service_ns")) is not None)
    boot = [r["lat_p50_ns"] for r in rs.of_type("prezero")
            if r.get("policy") == "boot" and _num(r.get("lat_p50_ns")) is not None]
    fill = [r for r in rs.of_type("smp_fill") if _num(r.get("s_per_tib")) is not None]
    fill_top = max(fill, key=lambda r: r.get("threads") or 0) if fill else None
    return [s.get("status_name", "-"),
            "%s/%s/%s" % (s.get("pass", "-"), s.get("fail", "-"), s.get("skip", "-")),
            "%.3f" % max(gbps) if gbps else "-",
            "%.3f" % (statistics.median_low(selftest) / 1e6) if selftest else "-",
            "%.1f" % (statistics.median_low(boot) / 1e3) if boot else "-",
            "%.3f (%s CPUs)" % (fill_top["s_per_tib"], fill_top.get("threads")) if fill_top else "-"]


def fleet(sets):
    """One row per result set (lines, number of sets with a summary)."""
    head = ("results", "machine", "status", "pass/fail/skip", "best clear GB/s",
            "fault median ms", "pre-zeroed p50 us", "fill s/TiB")
    rows = [head] + [tuple([rs.name, results.machine(rs)] + _headline(rs)) for rs in sets]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    out = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return out, sum(1 for rs in sets if rs.of_type("summary"))
