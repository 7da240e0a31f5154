"""What hz compare's rows share: grouping records into cells, the Stat of
clear-like records and the generic rows. Each scenario's own rows (which
records pair up, their labels) are in its module, tools/hzlib/scenarios/
(the clear, fault, faultclear, vmstart and interference rows);
compare.py walks the registry for them.

  clear_ci_stat  records with a median and its 95 % interval (value, lo,
                 hi members): several runs give the median of the values
                 and the union of the intervals
  clear_stat     a `clear` cell: gbps_median (GB/s, 10^9 B/s), falling
                 back to gbps, with the median's interval gbps_lo ..
                 gbps_hi when the records have it (scenarios/clear/records.md); else
                 (older records) the GB/s range bytes/max_ns .. bytes/min_ns
                 and cv_pct; the samples the records' samples_ns (time per
                 repeat of `bytes`). Flags: a side's records marked noisy,
                 steal_high or cache_verified:false.
  generic_rows   a type compared member by member (a scenario's `generic`
                 types: prezero, vmstart_model): per record identity (its
                 string members and sizes) every _ns, _cyc, gbps, cpb and
                 _pct member (hit_pct) present on both sides but the
                 settings (schema.GENERIC_SETTINGS: tol_pct, lead_idle_ns,
                 claim_min_ns); spread: cv_pct when the record has one.
                 vmstart_model rows are the 2 TiB model's figures: the
                 label says vmstart_model, they are not measurements.
How a row is judged: compare_stat.py. The identities and the members read
are schema.py's.
"""

import statistics

from . import results
from .schema import GENERIC_KEY_INTS, GENERIC_SETTINGS, GENERIC_VALUE_SUFFIXES
from .compare_stat import Stat, num, record_flags, sample_count, times_of

_LABEL_ALWAYS = ("workload", "policy")


def group(recs, keyf):
    """{keyf(r): [records with that identity, in order]}."""
    out = {}
    for r in recs:
        out.setdefault(keyf(r), []).append(r)
    return out


def sizes(names, k):
    """'chunk=4K bytes=1G ...': the members names with their values k (sizes
    in binary units), those without a value left out."""
    return " ".join("%s=%s" % (n, results.human_size(v)) for n, v in zip(names, k)
                    if v is not None)


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
