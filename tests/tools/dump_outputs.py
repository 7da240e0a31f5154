#!/usr/bin/env python3
"""Every output of hz report (--text, --text --full, the page), hz compare
(pairs and the fleet view) and hz plot over the tools fixtures and a few
sets made from them, written into OUT by the hz of tree ROOT. Not a test:
a refactor of tools/hzlib that must not change what hz prints runs it on
the tree before and after and compares the folders:

    tests/tools/dump_outputs.py /path/to/old-tree /tmp/before
    tests/tools/dump_outputs.py . /tmp/after && diff -r /tmp/before /tmp/after

The sets: every tests/tools/fixtures/results-*, two run=interference sets
(test_interference.result_set), run=vmstart cells (test_vmstart.RECS) and
`mix`, results-verdict with the vmstart, faultclear and interference
records added (every table, plot and row at once). hz runs in the sets'
folder with their names; paths inside OUT are written as OUT.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import hztest
import test_interference
import test_vmstart


def _write(folder, recs, meta=None):
    os.makedirs(folder)
    with open(os.path.join(folder, "records.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in recs)
    if meta:
        shutil.copy(meta, folder)


def _records(folder):
    with open(os.path.join(folder, "records.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def inputs(into):
    """The result sets (module comment) under into; their names."""
    for d in sorted(os.listdir(hztest.FIXTURES)):
        if d.startswith("results-"):
            shutil.copytree(hztest.fixture(d), os.path.join(into, d))
    for name, slow in (("interf-a", 40.0), ("interf-b", 80.0)):
        _write(os.path.join(into, name), test_interference.result_set(name, slow).records)
    _write(os.path.join(into, "vmstart"), test_vmstart.RECS)
    mix = _records(hztest.fixture("results-verdict"))
    extra = test_vmstart.RECS + [r for r in _records(hztest.fixture("results-tcg-faultclear"))
                                 if r["t"].startswith("faultclear")]
    extra += test_interference.result_set("mix", 40.0).records
    _write(os.path.join(into, "mix"), mix[:-1] + extra + mix[-1:],
           os.path.join(hztest.fixture("results-verdict"), "meta.json"))
    return sorted(os.listdir(into))


PAIRS = (("results-a", "results-b"), ("results-kvm-a", "results-kvm-b"),
         ("results-tcg-faultclear", "results-a"), ("interf-a", "interf-b"),
         ("mix", "results-verdict"), ("results-verdict", "mix"), ("mix", "vmstart"),
         ("vmstart", "results-tcg-faultclear"), ("mix", "interf-b"))


def main(root, out):
    hz = os.path.join(os.path.abspath(root), "tools", "hz")
    out = os.path.abspath(out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    def run(name, args):
        p = subprocess.run([hz] + args, capture_output=True, text=True, cwd=inp)
        with open(os.path.join(out, name), "w") as f:
            f.write("exit %d\n--stdout\n%s--stderr\n%s" % (
                p.returncode, p.stdout.replace(out, "OUT"), p.stderr.replace(out, "OUT")))

    with tempfile.TemporaryDirectory(prefix="hz-dump-") as inp:
        sets = inputs(inp)
        for s in sets:  # by relative names, so that no path of IN shows
            p = s
            run(s + ".text", ["report", "--text", p])
            run(s + ".full", ["report", "--text", "--full", p])
            run(s + ".html.log", ["report", p, "-o", os.path.join(out, s + ".html")])
            run(s + ".plot.log", ["plot", p, "-o", os.path.join(out, s + ".plots")])
        for a, b in PAIRS:
            pa, pb, n = a, b, "%s--%s" % (a, b)
            run(n + ".compare", ["compare", pa, pb])
            run(n + ".text", ["report", "--text", pa, pb])
            run(n + ".full", ["report", "--text", "--full", pa, pb])
            run(n + ".html.log", ["report", pa, pb, "-o", os.path.join(out, n + ".html")])
        run("fleet.compare", ["compare"] + sets)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: tests/tools/dump_outputs.py ROOT OUT")
    sys.exit(main(sys.argv[1], sys.argv[2]))
