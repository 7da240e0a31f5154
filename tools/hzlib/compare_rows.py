"""The rows of hz compare: which records pair up, and each side's Stat.

Rows (each [(label, Stat A, Stat B, higher_is_better)]):
  clear    one per (strategy, chunk, bytes, cache, threads) present on both
           sides; the value is gbps_median (GB/s, 10^9 B/s), falling back to
           gbps; the samples the records' samples_ns (time per repeat of
           `bytes`). Spread: the median's 95 % interval gbps_lo .. gbps_hi
           when the records have it (docs/results.md); else (older records)
           the GB/s range bytes/max_ns .. bytes/min_ns and cv_pct. Flags: a
           side's records marked noisy, steal_high or cache_verified:false.
  fault    per scenario (the self-test, or run=policies' `workload`), pre-zero
           policy and page size (`bytes`): median and 99th
           percentile of service_ns and median clear_ns over the fault
           records; the medians' samples are the faults' own times (one per
           record); spread: the statistic's 95 % order-statistic interval
           (quantile_ci95), or, with too few faults for one, the
           interquartile range (shown, not judged), and the samples'
           coefficient of variation. The p99 row only when both sides have
           P99_MIN_N samples: with fewer, a nearest-rank p99 is the maximum
           (lib/stats.h stats_percentile_min_n).
  faultclear per (frame size, model, strategy): the median GB/s, spread the
           median's 95 % interval gbps_lo .. gbps_hi (older records: cv_pct);
           flags noisy, steal_high. faultclear_gain per (frame size,
           strategy): the predicted clear_pages() gain, spread its interval
           gain_lo .. gain_hi (95 % Moses; older records: the range both
           cells' intervals allow).
  interference
           per (zeroer, strategy, chunk, rate_pct, victim): the victim's
           metric (ns_per_load, lower is better; gbps, higher) at its median
           time; spread: value_lo .. value_hi, the median's 95 % interval.
  prezero  per record identity (its string members and sizes): every _ns,
           _cyc, gbps, cpb and _pct member (hit_pct) present on both sides
           but the settings (schema.GENERIC_SETTINGS: tol_pct, lead_idle_ns,
           claim_min_ns);
           spread: cv_pct when the record has one.
  vmstart  one per (policy, threads, bytes, strategy) cell: GB/s with the
           median's interval gbps_lo .. gbps_hi (a one-repeat cell has none);
           flag noisy. vmstart_model rows (generic, as above) are the 2 TiB
           model's figures: the label says vmstart_model, they are not
           measurements.
How a row is judged: compare_stat.py. The identities and the members read
are schema.py's.
"""

import statistics
from typing import Any, Callable, Dict, Tuple

from . import results
from .schema import (CLEAR_KEY, FAULT_KEY, GENERIC_KEY_INTS, GENERIC_SETTINGS, GENERIC_TYPES,
                     GENERIC_VALUE_SUFFIXES, INTERFERENCE_KEY, TYPES, VMSTART_KEY, key)
from .compare_stat import (P99_MIN_N, Stat, dist_stat, num, percentile, record_flags,
                           sample_count, times_of)

# faultclear rows: record type -> (identity members, (value, lo, hi) members, what)
FAULTCLEAR = {t: (TYPES[t].key, TYPES[t].values[:3], what)
              for t, what in (("faultclear", "GB/s"), ("faultclear_gain", "predicted gain"))}
_LABEL_ALWAYS = ("workload", "policy")


def group(recs, keyf):
    out = {}
    for r in recs:
        out.setdefault(keyf(r), []).append(r)
    return out


def _sizes(names, k):
    return " ".join("%s=%s" % (n, results.human_size(v)) for n, v in zip(names, k)
                    if v is not None)


def clear_label(k):
    return "clear %s %s GB/s" % (k[0], _sizes(CLEAR_KEY[1:], k[1:]))


def fault_label(k):
    """'fault self-test policy=none bytes=1G', 'fault workload=vm_boot ...':
    the fault self-test's faults (no workload) and each run=policies
    workload's are rows of their own, never pooled."""
    return "fault %s policy=%s" % ("workload=%s" % k[0] if k[0] is not None else "self-test",
                                   k[1]) + (" bytes=%s" % results.human_size(k[2])
                                            if k[2] is not None else "")


def vmstart_label(k):
    return "vmstart policy=%s threads=%s bytes=%s %s GB/s" % (
        k[0], k[1], results.human_size(k[2]), k[3])


def interference_label(k, metric=None):
    zeroer, _, _, rate, victim = k
    return "interference %s%s %s%s" % (zeroer, " %s%%" % rate if zeroer != "none" else "",
                                       victim, " " + metric if metric else "")


def faultclear_label(t, k):
    names, _, what = FAULTCLEAR[t]
    return "%s %s %s" % (t, _sizes(names, k), what)


def clear_ci_stat(recs, keys=("gbps_median", "gbps_lo", "gbps_hi")):
    """Stat from records with intervals, the members `keys` (value, lo, hi)
    (several runs: the median of the values, the union of the intervals),
    or None when one lacks it."""
    vals, los, his, flags = [], [], [], []
    for r in recs:
        v, lo, hi = (num(r.get(k)) for k in keys)
        if None in (v, lo, hi) or r.get("repeats") == 1:
            return None  # no interval (a single sample's is a point at 0 % confidence)
        vals.append(v)
        los.append(lo)
        his.append(hi)
        flags += [f for f in record_flags(r) if f not in flags]
    if not vals:
        return None
    cvs = [r["cv_pct"] for r in recs if num(r.get("cv_pct")) is not None]
    return Stat(statistics.median(vals), min(los), max(his), max(cvs) if cvs else None,
                len(vals), ci=True, flags=flags, samples=sample_count(recs))


def _with_times(st, recs):
    """st with the records' samples_ns (when every record has them and one
    size), for the Hodges-Lehmann rule."""
    sizes = {num(r.get("bytes")) for r in recs}
    times = times_of(recs)
    if st and times is not None and len(sizes) == 1 and None not in sizes:
        st.times, st.nbytes = times, sizes.pop()
    return st


def clear_stat(recs):
    with_ci = clear_ci_stat(recs)
    if with_ci:
        return _with_times(with_ci, recs)
    vals, los, his, cvs = [], [], [], []
    for r in recs:
        v = num(r.get("gbps_median"))
        v = v if v is not None else num(r.get("gbps"))
        if v is None:
            continue
        vals.append(v)
        if r.get("repeats") == 1:
            continue  # one sample (first_touch): its min, max and cv say nothing of spread
        b, mn, mx = num(r.get("bytes")), num(r.get("min_ns")), num(r.get("max_ns"))
        if b and mn and mx:
            los.append(b / mx)
            his.append(b / mn)
        if num(r.get("cv_pct")) is not None:
            cvs.append(r["cv_pct"])
    if not vals:
        return None
    lo = min(los + vals) if (los or len(vals) > 1) else None
    hi = max(his + vals) if (his or len(vals) > 1) else None
    return _with_times(Stat(statistics.median(vals), lo, hi, max(cvs) if cvs else None,
                            len(vals), samples=sample_count(recs)), recs)


def clear_rows(a, b):
    """[(label, Stat A, Stat B, higher_is_better)] for matching clear records."""
    ga = group(a.of_type("clear"), lambda r: key(r, CLEAR_KEY))
    gb = group(b.of_type("clear"), lambda r: key(r, CLEAR_KEY))
    rows = []
    for k in ga:
        if k in gb:
            sa, sb = clear_stat(ga[k]), clear_stat(gb[k])
            if sa and sb:
                rows.append((clear_label(k), sa, sb, True))
    return rows


def faultclear_rows(a, b):
    """[(label, Stat A, Stat B, higher_is_better)]: per faultclear cell on
    both sides its median GB/s with the median's 95 % interval; per
    faultclear_gain the predicted gain with its range. Records without
    intervals (older runs) keep cv_pct."""
    rows = []
    for t, (names, keys, what) in FAULTCLEAR.items():
        ga = group(a.of_type(t), lambda r: key(r, names))
        gb = group(b.of_type(t), lambda r: key(r, names))
        for k in ga:
            if k not in gb:
                continue
            pair = []
            for recs in (ga[k], gb[k]):
                st = clear_ci_stat(recs, keys)
                if not st and num(recs[-1].get(keys[0])) is not None:
                    st = Stat(recs[-1][keys[0]], cv=num(recs[-1].get("cv_pct")),
                              samples=sample_count(recs[-1:]), flags=record_flags(recs[-1]))
                pair.append(st)
            if all(pair):
                rows.append((faultclear_label(t, k), pair[0], pair[1], True))
    return rows


def fault_rows(a, b):
    """[(label, Stat A, Stat B, False)]: per (workload, policy, bytes) on both sides
    the faults' median service_ns and clear_ns, with the faults' times as
    samples, and their p99 with enough faults (module comment)."""
    ga = group(a.of_type("fault"), lambda r: key(r, FAULT_KEY))
    gb = group(b.of_type("fault"), lambda r: key(r, FAULT_KEY))
    rows = []
    for k in ga:
        if k not in gb:
            continue
        nbytes = k[2] if num(k[2]) else 1
        for member, what, pick, q, min_n in (
                ("service_ns", "median", statistics.median_low, 0.5, 1),
                ("service_ns", "p99", lambda v: percentile(v, 99), 0.99, P99_MIN_N),
                ("clear_ns", "median", statistics.median_low, 0.5, 1)):
            va = [r[member] for r in ga[k] if num(r.get(member)) is not None]
            vb = [r[member] for r in gb[k] if num(r.get(member)) is not None]
            if len(va) >= min_n and len(vb) >= min_n:
                hl = what == "median" and min(va + vb) > 0  # Hodges-Lehmann estimates a shift
                rows.append(("%s %s %s" % (fault_label(k), what, member),
                             dist_stat(va, pick, q, va if hl else None, nbytes),
                             dist_stat(vb, pick, q, vb if hl else None, nbytes), False))
    return rows


def _vmstart_stat(r):
    """Stat of a vmstart cell: its GB/s and median interval, or None."""
    v, lo, hi = num(r.get("gbps")), num(r.get("gbps_lo")), num(r.get("gbps_hi"))
    if v is None:
        return None
    flags = record_flags(r)  # noisy, and unverified when a check of the cell failed
    n = sample_count([r])
    if None in (lo, hi) or r.get("repeats") == 1:
        return Stat(v, cv=num(r.get("cv_pct")), flags=flags, samples=n)
    return Stat(v, lo, hi, num(r.get("cv_pct")), ci=True, flags=flags, samples=n)


def vmstart_rows(a, b):
    """[(label, Stat A, Stat B, True)] for matching vmstart cells (the last
    record of a cell on each side)."""
    ga = group(a.of_type("vmstart"), lambda r: key(r, VMSTART_KEY))
    gb = group(b.of_type("vmstart"), lambda r: key(r, VMSTART_KEY))
    rows = []
    for k in ga:
        sa, sb = _vmstart_stat(ga[k][-1]), _vmstart_stat(gb[k][-1]) if k in gb else None
        if sa and sb:
            rows.append((vmstart_label(k), sa, sb, True))
    return rows


def interference_rows(a, b):
    ga = group(a.of_type("interference"), lambda r: key(r, INTERFERENCE_KEY))
    gb = group(b.of_type("interference"), lambda r: key(r, INTERFERENCE_KEY))
    rows = []
    for k, recs in ga.items():
        if k not in gb:
            continue
        sides = []
        for r in (recs[-1], gb[k][-1]):
            v, lo, hi = (num(r.get(m)) for m in ("value", "value_lo", "value_hi"))
            sides.append(Stat(v, lo, hi, cv=num(r.get("cv_pct")), n=r.get("rounds") or 1,
                              ci=None not in (lo, hi), flags=record_flags(r)))
        if None not in (sides[0].value, sides[1].value):
            rows.append((interference_label(k, recs[-1].get("metric")), sides[0], sides[1],
                         recs[-1].get("metric") == "gbps"))
    return rows


def _generic_identity(r):
    return tuple(sorted((k, v) for k, v in r.items()
                        if k not in ("t", "v", "run", "source")
                        and (isinstance(v, str) or (k in GENERIC_KEY_INTS and num(v) is not None))))


def generic_rows(a, b, t):
    ga = group(a.of_type(t), _generic_identity)
    gb = group(b.of_type(t), _generic_identity)
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
            if (m.endswith(GENERIC_VALUE_SUFFIXES) and m != "cv_pct" and m not in GENERIC_SETTINGS
                    and num(va) is not None and num(vb) is not None):
                rows.append(("%s %s %s" % (t, name, m),
                             Stat(va, cv=num(ra.get("cv_pct")), samples=sample_count([ra])),
                             Stat(vb, cv=num(rb.get("cv_pct")), samples=sample_count([rb])),
                             "gbps" in m or m.endswith("_pct")))
    return rows


def all_rows(a, b):
    """Every matching row of every kind, in hz compare's order."""
    rows = (clear_rows(a, b) + fault_rows(a, b) + faultclear_rows(a, b) + vmstart_rows(a, b)
            + interference_rows(a, b))
    for t in GENERIC_TYPES:
        rows += generic_rows(a, b, t)
    return rows


# record type -> (cell identity, label of a cell) for one_sided()
_CELLS: Dict[str, Tuple[Callable[[Dict[str, Any]], Tuple[Any, ...]], Callable[..., str]]] = {
          "clear": (lambda r: key(r, CLEAR_KEY), clear_label),
          "fault": (lambda r: key(r, FAULT_KEY), fault_label),
          "vmstart": (lambda r: key(r, VMSTART_KEY), vmstart_label),
          "interference": (lambda r: key(r, INTERFERENCE_KEY), interference_label)}


def _faultclear_cell(t):
    names = FAULTCLEAR[t][0]
    return (lambda r: key(r, names), lambda k: faultclear_label(t, k))


_CELLS.update((t, _faultclear_cell(t)) for t in FAULTCLEAR)


def one_sided(a, b):
    """([labels of cells only in A], [only in B]) over the cell types with
    an identity (clear, fault, faultclear, faultclear_gain, vmstart,
    interference), in record order."""
    only = ([], [])
    for t, (keyf, labelf) in _CELLS.items():
        ka = list(dict.fromkeys(keyf(r) for r in a.of_type(t)))
        kb = list(dict.fromkeys(keyf(r) for r in b.of_type(t)))
        only[0].extend(labelf(k) for k in ka if k not in set(kb))
        only[1].extend(labelf(k) for k in kb if k not in set(ka))
    return only
