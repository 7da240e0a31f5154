"""fuzz/fuzzing.py - run the libFuzzer harnesses of fuzz/ (used by fuzz/run,
i.e. `make fuzz`, and by the fuzz group of tests/run-all).

Each harness build/fuzz/fuzz_<name> first runs every input of
fuzz/corpus/<name>/ (seeds and regression inputs), then mutates for the time
given. New interesting inputs go to build/fuzz/work/<name>/, never into the
tree; a finding is written to build/fuzz/findings/<name>-crash-<sha1> (or
-leak-, -timeout-, -oom-) and fails the run. Once fixed, copy it to
fuzz/corpus/<name>/regress-<what> so that every later run replays it.
"""

import glob
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "fuzz")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
# libFuzzer limits: one input may take 10 s and 2 GiB before it is a finding.
LIMITS = ["-timeout=10", "-rss_limit_mb=2048"]
_STAT = re.compile(r"^stat::number_of_executed_units:\s*(\d+)", re.M)
_ARTIFACT = re.compile(r"Test unit written to (\S+)")
_REPORT = re.compile(r"^(==\d+==ERROR: .*|SUMMARY: .*|.*runtime error: .*)$", re.M)


def harnesses():
    """Harness names, from the sources fuzz/fuzz_<name>.c."""
    return sorted(os.path.basename(p)[len("fuzz_"):-2]
                  for p in glob.glob(os.path.join(ROOT, "fuzz", "fuzz_*.c")))


def run_one(name, secs):
    """Run one harness for secs seconds after replaying its corpus (secs 0:
    replay only). Returns (verdict, executions, detail lines)."""
    binary = os.path.join(BUILD, "fuzz_" + name)
    corpus = os.path.join(CORPUS, name)
    if not os.access(binary, os.X_OK):
        return "FAIL", 0, ["%s missing: run make fuzz-build (needs clang)" % binary]
    if not os.path.isdir(corpus) or not os.listdir(corpus):
        return "FAIL", 0, ["%s is empty: run fuzz/mkseeds.py" % corpus]
    work = os.path.join(BUILD, "work", name)
    findings = os.path.join(BUILD, "findings")
    os.makedirs(work, exist_ok=True)
    os.makedirs(findings, exist_ok=True)
    cmd = [binary, "-print_final_stats=1", "-artifact_prefix=%s/%s-" % (findings, name)] + LIMITS
    cmd += ["-max_total_time=%d" % secs] if secs > 0 else ["-runs=0"]
    cmd += [work, corpus]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=secs + 300, cwd=ROOT)
        out, rc = p.stdout.decode(errors="replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace"), "timeout"
    m = _STAT.findall(out)
    execs = int(m[-1]) if m else 0
    if rc == 0:
        return "PASS", execs, []
    details = ["exit status %s after %d executions" % (rc, execs)]
    details += _REPORT.findall(out)[:6]
    for a in _ARTIFACT.findall(out):
        details.append("input: %s (reproduce: %s %s)" % (a, os.path.relpath(binary, ROOT), a))
        details.append("after the fix, keep it: cp %s fuzz/corpus/%s/regress-<what>" % (a, name))
    return "FAIL", execs, details


def run_all(names, secs, jobs, report):
    """Run the harnesses `jobs` at a time; report(name, verdict, details,
    execs) for each as it ends, in order. Returns the number that failed."""
    failed = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [(n, pool.submit(run_one, n, secs)) for n in names]
        for name, fut in futures:
            verdict, execs, details = fut.result()
            failed += verdict == "FAIL"
            report(name, verdict, details, execs)
    return failed
