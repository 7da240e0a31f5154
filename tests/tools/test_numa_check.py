"""tests/boot/numa_check.py: the topology a QEMU command line builds, and
the numa record checks fail on a wrong node, distance or frame."""

import copy
import unittest

import hztest  # noqa: F401  (puts tests/boot on the path)
import numa_check

G = 1 << 30
ARGS = ("-object memory-backend-ram,id=m0,size=2G -object memory-backend-ram,id=m1,size=1G "
        "-object memory-backend-ram,id=m2,size=1G -numa node,nodeid=0,memdev=m0,cpus=0-1 "
        "-numa node,nodeid=1,memdev=m1,cpus=2 -numa node,nodeid=2,memdev=m2 "
        "-numa node,nodeid=3,cpus=3 -numa dist,src=0,dst=1,val=21 "
        "-numa dist,src=1,dst=0,val=31").split()


def node(domain, cpus, mem, ranges, frame_2m=None, frame_1g=None):
    return {"domain": domain, "cpus": cpus, "mem_bytes": mem, "ranges": ranges,
            "memory_only": cpus == 0, "cpu_only": mem == 0, "frame_2m": frame_2m,
            "frame_1g": frame_1g}


def records():
    dist = [[10, 21, 20, 20], [31, 10, 20, 20], [20, 20, 10, 20], [20, 20, 20, 10]]
    numa = {"t": "numa", "nodes": 4, "source": "srat", "slit": True, "dist": dist,
            "node": [node(0, 2, 2 * G - 0x60000, 2, frame_2m="0xa00000"),
                     node(1, 1, G, 1, frame_1g="0x80000000"), node(2, 0, G, 1), node(3, 1, 0, 0)],
            "check": "pass"}
    head = {"t": "header", "numa": {k: copy.deepcopy(v) for k, v in numa.items()
                                    if k not in ("t", "check")}}
    for n in head["numa"]["node"]:
        del n["frame_2m"], n["frame_1g"]
    rng = [(0, 0, 0xa0000), (0, 0x100000, 2 * G - 0x100000), (1, 2 * G, G), (2, 3 * G, G)]
    return [head, numa] + [{"t": "numa_range", "node": n, "base": hex(b), "length": hex(ln)}
                           for n, b, ln in rng]


class Expected(unittest.TestCase):
    def test_command_line(self):
        e = numa_check.expected(ARGS)
        self.assertEqual([(n.nodeid, n.cpus, n.mem_bytes) for n in e.nodes],
                         [(0, 2, 2 * G - 0x60000), (1, 1, G), (2, 0, G), (3, 1, 0)])
        self.assertEqual(e.dist[0][1], 21)
        self.assertEqual(e.dist[1][0], 31)
        self.assertEqual(e.dist[2][3], 20)  # not given: QEMU's default
        self.assertIsNone(numa_check.expected(["-m", "2G"]))
        self.assertIsNone(numa_check.expected(ARGS[:14]).dist)  # no -numa dist

    def test_good_record_passes(self):
        recs = records()
        self.assertEqual(numa_check.check_records(recs), [])
        self.assertEqual(numa_check.check_expected(numa_check.expected(ARGS), recs[1]), [])

    def test_wrong_values_fail(self):
        e = numa_check.expected(ARGS)
        for path, value, word in ((("dist", 1), [20, 10, 20, 20], "numa.dist"),
                                  (("node", 2, "memory_only"), False, "memory_only"),
                                  (("node", 0, "cpus"), 1, "cpus"),
                                  (("nodes",), 3, "numa.nodes")):
            recs = records()
            r = recs[1]
            for p in path[:-1]:
                r = r[p]
            r[path[-1]] = value
            errs = numa_check.check_expected(e, recs[1])
            self.assertTrue(any(word in x for x in errs), (path, errs))

    def test_frame_outside_its_node_fails(self):
        recs = records()
        recs[1]["node"][1]["frame_1g"] = "0xc0000000"  # node 2's range
        self.assertIn("lies in the ranges of nodes [2]", " ".join(numa_check.check_records(recs)))
        recs = records()
        recs[1]["node"][0]["frame_2m"] = hex(2 * G - 0x100000)  # runs past node 0's end
        self.assertTrue(numa_check.check_records(recs))

    def test_header_must_agree(self):
        recs = records()
        recs[0]["numa"]["dist"][0][1] = 22
        self.assertIn("header.numa", " ".join(numa_check.check_records(recs)))
        recs = records()
        recs[1]["check"] = "fail"
        self.assertIn("numa.check", " ".join(numa_check.check_records(recs)))


if __name__ == "__main__":
    unittest.main()
