"""COM1 read three ways gives the same records: -serial file: (no reader to
wait for), a pipe and a Unix socket each read at 20 KB/s by
qemurun.SerialTap, so that the kernel's transmitter waits (backpressure)
instead of dropping. Boots under TCG, about 20 s each: run=prezero
workload=churn with one cycle writes about 140 KB in bursts faster than
20 KB/s, and the tap's pipe holds one page, so the slow reader really holds
the kernel back.
"""

import os
import tempfile
import threading
import time
import unittest

import hztest
from hzlib import qemu, qemurun, runner

ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")
ARGS = "run=prezero workload=churn think=0 hold=0 cycles=1"
RATE = 20000


def key(r):
    """What identifies a record whatever the timing (progress records are
    printed by the clock, so their number varies between boots)."""
    return (r["t"], r.get("name"), r.get("policy"), r.get("page"), r.get("phase"))


@unittest.skipUnless(os.path.exists(ELF), "build/hugezero.elf missing: run make")
class SlowReaders(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out, cls.size = {}, {}
        with tempfile.TemporaryDirectory(prefix="hz-tap-") as d:
            for kind, rate in (("file", 0), ("pipe", RATE), ("socket", RATE)):
                cfg = qemu.BootConfig(accel="tcg", mem="1G", args=ARGS, serial=kind,
                                      serial_rate=rate)
                cls.out[kind] = runner.boot(cfg, os.path.join(d, kind), 120)
                cls.size[kind] = os.path.getsize(os.path.join(d, kind, "serial.log"))

    def test_every_record_arrives(self):
        for kind, out in self.out.items():
            with self.subTest(serial=kind):
                self.assertEqual(out.status, 0, [str(p) for p in out.diags][:5])
                self.assertEqual(out.diags, [])
                self.assertEqual(out.stream_problems, [])
                summary = out.records[-1]
                self.assertEqual(summary["t"], "summary")
                self.assertEqual([r["seq"] for r in out.records], list(range(len(out.records))))
                self.assertEqual(summary["records"], len(out.records) - 1)
                self.assertGreater(len(out.records), 500)
                self.assertEqual(summary["uart"]["dropped"], 0)
                self.assertEqual(summary["uart"]["timeouts"], 0)
                header = out.records[0]
                self.assertEqual((header["uart"]["fifo"], header["uart"]["fifo_depth"]),
                                 ("16550A", 16))

    def test_same_records_whatever_the_reader(self):
        want = [key(r) for r in self.out["file"].records if r["t"] != "progress"]
        for kind in ("pipe", "socket"):
            with self.subTest(serial=kind):
                got = [key(r) for r in self.out[kind].records if r["t"] != "progress"]
                self.assertEqual(got, want)

    def test_more_than_the_pipe_buffer_went_through(self):
        self.assertGreater(self.size["pipe"], 2 * 65536)
        self.assertEqual((self.out["pipe"].meta["serial"], self.out["pipe"].meta["serial_rate"]),
                         ("pipe", RATE))


class Tap(unittest.TestCase):
    def test_the_tap_reads_at_its_rate(self):
        # 60 KB written at once into the tap's pipe come out at 40 KB/s:
        # about 1.5 s, never much faster; the rest at once after the end.
        with tempfile.TemporaryDirectory(prefix="hz-tap-") as d:
            tap = qemurun.SerialTap("pipe", d, 40000)
            fd = os.open(os.path.join(d, "serial.out"), os.O_WRONLY)
            writer = threading.Thread(target=lambda: (os.write(fd, b"x" * 60000), os.close(fd)))
            writer.start()
            got, t0 = b"", time.monotonic()
            while len(got) < 40000:
                got += tap.pump()
                time.sleep(tap.TICK)
            took = time.monotonic() - t0
            while writer.is_alive() and time.monotonic() - t0 < 30:
                got += tap.pump(final=True)
            got += tap.rest()
            tap.close()
        self.assertEqual(got, b"x" * 60000)
        self.assertGreater(took, 0.9)
        self.assertLess(took, 10)


if __name__ == "__main__":
    unittest.main()
