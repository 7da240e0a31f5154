"""The walk of a fault request (issue 33: "Name the functions it passes
through"), as docs/hacking.md "The walk of a fault request" lists it for
run=faultclear and run=vmstart, checked against the call graph of the
kernel objects of measure/, the scenarios and mm/ (tests/tools/objgraph.py),
so the list cannot drift from the code:

- every step's function is defined in the file it names;
- a step's function is called or handed on (its address taken) by the
  step before it, or, when the step says it is "installed by `C` (file)",
  C hands it on (a #PF handler, a pool's clear function, a struct pz_ops
  member) and an earlier step reaches C through calls;
- a function GCC inlined (no symbol of its own) is checked through its
  caller: the steps around it must then join up directly.
"""

import os
import re
import unittest

import hztest
import objgraph

STEP = re.compile(r"^(\d+)\. `(\w+)` \(([\w/]+\.c)\)(.*)$")
INSTALLED = re.compile(r"installed by\s+`(\w+)`\s+\(([\w/]+\.c)\)")


def walks(text):
    """{title: [(function, unit, installer or None)]} of the section: a
    list starts after a line "run=...:" and holds its numbered steps, each
    with its continuation lines."""
    sec = text[text.index("## The walk of a fault request"):]
    sec = sec[:sec.index("\n## ", 3)]
    out, title, steps = {}, None, None
    for line in sec.splitlines():
        if line.startswith("run=") and line.endswith(":"):
            title, steps = line, []
            out[title] = steps
        elif steps is not None and STEP.match(line):
            steps.append(line)
        elif steps and line.startswith(" ") and line.strip():
            steps[-1] += " " + line.strip()
        elif not line.strip():
            steps = None
    parsed = {}
    for title, lines in out.items():
        parsed[title] = []
        for n, line in enumerate(lines, 1):
            m = STEP.match(line)
            assert int(m.group(1)) == n, "%s: step %s out of order" % (title, m.group(1))
            inst = INSTALLED.search(m.group(4))
            parsed[title].append((m.group(2), m.group(3), inst.groups() if inst else None))
    return parsed


def defined_in(unit, name):
    """name is defined (not only called) in the C source unit."""
    with open(os.path.join(hztest.ROOT, unit)) as f:
        src = f.read()
    return re.search(r"^[a-z][\w \*]*\b%s\(" % re.escape(name), src, re.M) is not None


def check(graph, steps):
    """The broken links of one walk, as sentences (none: it holds)."""
    errors, present = [], []
    for name, unit, inst in steps:
        f = "%s:%s" % (unit, name)
        if not defined_in(unit, name):
            errors.append("%s is not defined in %s" % (name, unit))
            continue
        if f not in graph.funcs:
            continue  # inlined: its caller's edges stand for it
        if inst:
            c = "%s:%s" % (inst[1], inst[0])
            if f not in graph.hands.get(c, ()):
                errors.append("%s does not hand on %s" % (c, f))
            if c not in graph.reach(present):
                errors.append("no earlier step reaches %s, which installs %s" % (c, f))
        elif present:
            prev = present[-1]
            if f not in graph.calls.get(prev, ()) | graph.hands.get(prev, set()):
                errors.append("%s neither calls nor hands on %s" % (prev, f))
        present.append(f)
    if not present:
        errors.append("no step's function is in the kernel objects")
    return errors


class FaultWalk(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(hztest.ROOT, "docs", "hacking.md")) as f:
            cls.walks = walks(f.read())
        dumps = objgraph.kernel_dumps(("measure", "scenarios", "mm"))
        cls.graph = objgraph.Graph(list(dumps.values()))

    def test_both_walks_are_listed(self):
        titles = " ".join(self.walks)
        self.assertIn("run=faultclear", titles)
        self.assertIn("run=vmstart", titles)
        for steps in self.walks.values():
            self.assertGreaterEqual(len(steps), 8)
            self.assertEqual(steps[-1][0], "memop_clear")  # down to the clear routine's call

    def test_each_step_reaches_the_next(self):
        for title, steps in self.walks.items():
            self.assertEqual(check(self.graph, steps), [], title)

    def test_a_broken_walk_fails(self):
        steps = self.walks[next(t for t in self.walks if t.startswith("run=faultclear"))]
        names = [s[0] for s in steps]
        # a step left out: zero_fn does not hand on piece
        cut = steps[:names.index("fault_clear_run")] + steps[names.index("piece"):]
        self.assertIn("measure/fault_pool.c:zero_fn neither calls nor hands on "
                      "measure/fault_clear.c:piece", check(self.graph, cut))
        # a wrong installer, a renamed function
        wrong = [(n, u, ("run_size", "scenarios/faultclear/run.c") if i else None)
                 for n, u, i in steps]
        self.assertIn("scenarios/faultclear/run.c:run_size does not hand on "
                      "measure/fault_pool.c:zero_fn", check(self.graph, wrong))
        renamed = [("zero_page" if n == "zero_fn" else n, u, i) for n, u, i in steps]
        self.assertIn("zero_page is not defined in measure/fault_pool.c",
                      check(self.graph, renamed))


if __name__ == "__main__":
    unittest.main()
