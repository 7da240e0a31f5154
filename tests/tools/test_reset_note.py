"""hz run's message for a boot that ended without a kernel status
(runner.no_status_note): QEMU runs with -no-reboot, so a guest reset (a
triple fault: e.g. an AP that reads x2APIC MSR 0x802 before setting EXTD)
ends QEMU with status 0 and no summary. That is said as a reset, with the
last console line, not as "QEMU said:" followed by unrelated -smp warnings
(issue 23)."""

import os
import tempfile
import unittest

import hztest  # noqa: F401  (puts tools/ on sys.path)
from hzlib import qemu, runner

SMP_WARNING = ("qemu-system-x86_64: warning: Number of hotpluggable cpus requested (2) exceeds "
               "the recommended cpus supported by KVM (1)\n")


class NoStatusNote(unittest.TestCase):
    def outcome(self, serial, **kw):
        d = tempfile.mkdtemp(prefix="hz-test-reset-")
        self.addCleanup(lambda: (os.remove(os.path.join(d, "serial.log")), os.rmdir(d)))
        with open(os.path.join(d, "serial.log"), "wb") as f:
            f.write(serial)
        args = dict(status=runner.NO_STATUS, timed_out=False, qemu_rc=0, records=[],
                    stderr=SMP_WARNING, outdir=d)
        args.update(kw)
        return runner.Outcome(**args)

    def test_reset_before_summary_names_the_last_line(self):
        out = self.outcome(b"hugezero: starting\r\nsmp: AP trampoline at 0x9e000 (START-UP vector "
                           b"0x9e); starting 1 APs, 1 at a time\r\n\r\n")
        note = runner.no_status_note(out)
        self.assertEqual(note, "the guest reset (triple fault?) before its summary; last console "
                               "line: smp: AP trampoline at 0x9e000 (START-UP vector 0x9e); "
                               "starting 1 APs, 1 at a time")
        self.assertNotIn("QEMU said", note)
        self.assertIn("(none)", runner.no_status_note(self.outcome(b"")))

    def test_other_ends(self):
        # a reset after the summary (on_exit=reboot) is not "before its summary"
        after = self.outcome(b"x\n", records=[{"t": "summary", "status": 0}])
        self.assertEqual(runner.no_status_note(after), "QEMU said:\n" + SMP_WARNING.rstrip("\n"))
        killed = self.outcome(b"x\n", qemu_rc=-9, stderr="KVM internal error. Suberror: 1\n")
        self.assertEqual(runner.no_status_note(killed),
                         "QEMU said:\nKVM internal error. Suberror: 1")
        self.assertIsNone(runner.no_status_note(self.outcome(b"x\n", status=0)))
        self.assertIsNone(runner.no_status_note(self.outcome(b"x\n", timed_out=True,
                                                             status=runner.TIMEOUT)))
        self.assertIsNone(runner.no_status_note(self.outcome(b"x\n", qemu_rc=-9, stderr="")))

    def test_a_signal_from_outside_is_not_a_reset(self):
        # QEMU exits 0 on SIGTERM: that is no triple fault
        out = self.outcome(b"clear: ...\n", stderr=SMP_WARNING + "qemu-system-x86_64: terminating "
                           "on signal 15 from pid 8896 (bash)\n")
        self.assertEqual(runner.no_status_note(out),
                         "QEMU was stopped from outside before the kernel's summary: "
                         "qemu-system-x86_64: terminating on signal 15 from pid 8896 (bash)")

    def test_qemu_runs_with_no_reboot(self):
        cfg = qemu.BootConfig(boot="direct", accel="tcg", mem="256M", smp=1, args="run=none")
        argv = qemu.command(cfg, [], "tcg", "max", ram=("ram", []))
        self.assertIn("-no-reboot", argv)


if __name__ == "__main__":
    unittest.main()
