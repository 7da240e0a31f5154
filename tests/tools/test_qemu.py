"""hz run internals: QEMU command lines, grub.cfg, exit mapping, timeouts."""

import io
import os
import tempfile
import unittest
from unittest import mock

import hztest
from hzlib import hugepages, qemu, qemurun, runner

ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")


class GrubCfg(unittest.TestCase):
    def test_one_entry_on_the_serial_console(self):
        self.assertEqual(qemu.grub_cfg("run=none  smp=2"),
                         "serial --unit=0 --speed=115200\n"
                         "terminal_input serial\n"
                         "terminal_output serial\n"
                         "set timeout=0\n"
                         "menuentry 'hugezero' {\n"
                         "    multiboot2 /boot/hugezero.elf run=none smp=2\n"
                         "    boot\n"
                         "}\n")

    def test_no_args_and_quoting(self):
        self.assertIn("    multiboot2 /boot/hugezero.elf\n", qemu.grub_cfg(""))
        self.assertEqual(qemu.grub_quote("sizes=4K,2M,1G"), "sizes=4K,2M,1G")
        self.assertEqual(qemu.grub_quote("a;b"), "'a;b'")
        self.assertEqual(qemu.grub_quote("it's$x"), "'it'\\''s$x'")

    def test_module_lines(self):
        cfg = qemu.grub_cfg("run=none", ["/x/module.txt", "/y/a b.img"])
        self.assertIn("    multiboot2 /boot/hugezero.elf run=none\n"
                      "    module2 /boot/modules/module.txt module.txt\n"
                      "    module2 /boot/modules/'a b.img' 'a b.img'\n"
                      "    boot\n", cfg)


class Modules(unittest.TestCase):
    def test_direct_boot_takes_one_module_as_initrd(self):
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.bin")
            open(mod, "w").write("x")
            cfg = qemu.BootConfig(kernel=__file__, modules=[mod], args="run=none")
            self.assertEqual(qemu.prepare(cfg, d)[-2:], ["-initrd", mod])
            missing = qemu.BootConfig(kernel=__file__, modules=[mod + ".gone"])
            self.assertRaisesRegex(qemu.ConfigError, "boot module .* not found", qemu.prepare,
                                   missing, d)
        self.assertRaisesRegex(qemu.ConfigError, "one module", qemu.BootConfig,
                               modules=["a", "b"])


class ExitStatus(unittest.TestCase):
    def test_map_exit(self):
        cases = [((1, False), 0), ((3, False), 1), ((5, False), 2), ((7, False), 3),
                 ((9, False), 4), ((0, False), 125), ((2, False), 125), ((-9, False), 125),
                 ((None, False), 125), ((1, True), 124), ((-9, True), 124)]
        for (rc, to), want in cases:
            self.assertEqual(runner.map_exit(rc, to), want, (rc, to))

    def test_status_needs_the_kernels_summary(self):
        # QEMU exit 1 is "(0 << 1) | 1" but also QEMU's own start-up error.
        self.assertEqual(runner.checked_status(0, []), 125)
        self.assertEqual(runner.checked_status(0, [{"t": "header"}]), 125)
        self.assertEqual(runner.checked_status(0, [{"t": "summary", "status": 0}]), 0)
        self.assertEqual(runner.checked_status(3, [{"t": "summary", "status": 0}]), 125)
        self.assertEqual(runner.checked_status(124, []), 124)

    def test_parse_size(self):
        self.assertEqual(qemu.parse_size("2G"), 2 << 30)
        self.assertEqual(qemu.parse_size("512M"), 512 << 20)
        self.assertEqual(qemu.parse_size("1024"), 1 << 30)  # QEMU: no suffix = MiB
        self.assertEqual(qemu.parse_size("64k"), 64 << 10)
        for bad in ("", "2X", "-1G", "1.5G"):
            self.assertRaises(ValueError, qemu.parse_size, bad)


class CommandLine(unittest.TestCase):
    def test_tcg_defaults(self):
        argv = qemu.command(qemu.BootConfig(mem="2G"), ["-kernel", "k"], "tcg", "max")
        s = " ".join(argv)
        self.assertIn("-accel tcg -cpu max -m 2G -smp 1", s)
        self.assertIn("-display none", s)
        self.assertIn("-no-reboot", s)
        self.assertIn("-device isa-debug-exit,iobase=0xf4,iosize=4", s)
        self.assertIn("-serial chardev:ser0", s)
        self.assertNotIn("-mem-prealloc", s)
        self.assertEqual(argv[-2:], ["-kernel", "k"])

    def test_kvm_cpu_and_prealloc(self):
        s = " ".join(qemu.command(qemu.BootConfig(smp=4), [], "kvm", "EPYC-Milan,+invtsc"))
        self.assertIn("-accel kvm -cpu EPYC-Milan,+invtsc -m 4G -smp 4", s)
        self.assertIn("-mem-prealloc", s)
        s = " ".join(qemu.command(qemu.BootConfig(prealloc=False), [], "kvm", "host"))
        self.assertNotIn("-mem-prealloc", s)

    def test_cpu_among_extras_is_not_passed_twice(self):
        cfg = qemu.BootConfig(extra=["-cpu", "EPYC-Rome", "-s", "--cpu", "qemu64,pmu=off"])
        self.assertEqual(qemu.split_cpu(cfg.extra), (["-s"], "qemu64,pmu=off"))
        argv = qemu.command(cfg, [], "kvm", "qemu64,pmu=off")
        self.assertEqual([argv[i + 1] for i, a in enumerate(argv) if a in ("-cpu", "--cpu")],
                         ["qemu64,pmu=off"])
        self.assertEqual(argv[-1], "-s")
        self.assertEqual(qemu.split_cpu(["-s", "-cpu"]), (["-s", "-cpu"], None))

    def test_hugepages(self):
        with mock.patch.object(hugepages, "find_backing", return_value=("/mnt/huge", 2 << 20)):
            cfg = qemu.BootConfig(mem="2G", hugepages=True)
            s = " ".join(qemu.command(cfg, [], "kvm", "host"))
            self.assertEqual(qemu.guest_ram(cfg, "kvm")[0], "hugetlbfs 2M")
        self.assertIn("-object memory-backend-file,id=m0,size=2147483648,mem-path=/mnt/huge,"
                      "prealloc=on,share=off -machine memory-backend=m0", s)
        self.assertNotIn("-mem-prealloc", s)
        self.assertEqual(qemu.guest_ram(qemu.BootConfig(), "kvm"),
                         ("anonymous 4K", ["-mem-prealloc"]))
        self.assertEqual(qemu.guest_ram(qemu.BootConfig(), "tcg"), ("anonymous 4K", []))
        with mock.patch.object(hugepages, "find_backing",
                               side_effect=hugepages.HugePageError("no hugetlbfs mounted")):
            with self.assertRaisesRegex(qemu.ConfigError, "^--hugepages: no hugetlbfs mounted"):
                qemu.guest_ram(qemu.BootConfig(hugepages=True), "kvm")

    def test_bad_config(self):
        self.assertRaises(qemu.ConfigError, qemu.BootConfig, boot="floppy")
        self.assertRaises(qemu.ConfigError, qemu.BootConfig, accel="hvf")

    def test_direct_media(self):
        with tempfile.TemporaryDirectory() as d:
            k = os.path.join(d, "k.elf")
            open(k, "w").close()
            media = qemu.prepare(qemu.BootConfig(kernel=k, args="run=none"), d)
            self.assertEqual(media, ["-kernel", k, "-append", "run=none"])
            self.assertRaisesRegex(qemu.ConfigError, "not found",
                                   qemu.prepare, qemu.BootConfig(kernel=k + "x"), d)

    @unittest.skipUnless(os.path.exists(ELF), "build/hugezero.elf missing (run make)")
    def test_pxe_uefi_media(self):
        with tempfile.TemporaryDirectory() as d:
            media = qemu.prepare(qemu.BootConfig(boot="pxe-uefi", args="run=none x=1"), d)
            s = " ".join(media)
            self.assertIn("if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/", s)
            vars_copy = [a for a in media if a.startswith("if=pflash") and "unit=1" in a][0]
            self.assertTrue(os.path.exists(vars_copy.split("file=")[1]))
            self.assertIn("-netdev user,id=n0,tftp=%s/pxe,"
                          "bootfile=boot/grub/x86_64-efi/core.efi" % d, s)
            self.assertIn("-device e1000,netdev=n0,bootindex=0", s)
            with open(os.path.join(d, "pxe", "boot", "grub", "grub.cfg")) as f:
                self.assertIn("multiboot2 /boot/hugezero.elf run=none x=1\n", f.read())
            self.assertTrue(os.path.exists(os.path.join(d, "pxe", "boot", "hugezero.elf")))


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


class Streaming(unittest.TestCase):
    def test_progress_records_become_a_status_line_on_a_tty(self):
        out = FakeTTY()
        c = qemurun.Console(out)
        c.feed(b'\x1b[1mboot\x1b[0m\r\n'
               b'@hz {"t":"progress","v":1,"phase":"clear","pct":50,"eta_s":12}\r\n')
        c.feed(b'@hz {"t":"progress","v":1,"phase":"clear","pct":75,"eta_s":6}\r\nnext li')
        c.feed(b"ne\r\n")
        c.close()
        self.assertEqual(out.getvalue(), "boot\n[clear 50% eta 12s]\r\x1b[K[clear 75% eta 6s]"
                                         "\r\x1b[Knext line\n")

    def test_records_only_with_records_on(self):
        for records, want in ((False, "tail\n"),
                              (True, '@hz {"t":"progress","v":1,"phase":"x","pct":1,"eta_s":1}\n'
                                     '@hz {"t":"x","v":1}\ntail\n')):
            out = io.StringIO()
            c = qemurun.Console(out, records=records)
            c.feed(b'@hz {"t":"progress","v":1,"phase":"x","pct":1,"eta_s":1}\r\n'
                   b'@hz {"t":"x","v":1}\r\ntail')
            c.close()
            self.assertEqual(out.getvalue(), want)

    def test_repeated_lines_are_shown_once_with_a_count(self):
        feed = (b"a\r\n" + b"pool of 6 x 1024 MiB frames, dirtied\r\n" * 3
                + b'@hz {"t":"x","v":1}\r\n' + b"pool of 6 x 1024 MiB frames, dirtied\r\n" * 82
                + b"b\r\nb\r\nc\r\n")
        out = io.StringIO()
        c = qemurun.Console(out)
        c.feed(feed)
        c.close()
        self.assertEqual(out.getvalue(), "a\npool of 6 x 1024 MiB frames, dirtied (x85)\n"
                                         "b (x2)\nc\n")
        tty = FakeTTY()  # a terminal sees the first copy at once, then its count in place
        c = qemurun.Console(tty)
        c.feed(b"a\r\nb\r\n")
        self.assertEqual(tty.getvalue(), "a\nb\n")
        c.feed(b"b\r\nb\r\nc\r\n")
        c.close()
        self.assertEqual(tty.getvalue(), "a\nb\n\x1b[1A\r\x1b[Kb (x3)\nc\n")

    def test_timeout_kills_and_output_is_kept(self):
        with tempfile.TemporaryDirectory() as d:
            log, err = os.path.join(d, "serial.log"), os.path.join(d, "err")
            rc, timed_out, secs = qemurun.run_qemu(
                ["sh", "-c", "printf 'hello\\r\\n'; exec sleep 30"], 1.0, log, err)
            self.assertTrue(timed_out)
            self.assertLess(secs, 10)
            self.assertEqual(runner.map_exit(rc, timed_out), 124)
            with open(log, "rb") as f:
                self.assertEqual(f.read(), b"hello\r\n")

    def test_kvm_internal_error_stops_the_run(self):
        with tempfile.TemporaryDirectory() as d:
            err = os.path.join(d, "err")
            rc, timed_out, secs = qemurun.run_qemu(
                ["sh", "-c", "echo 'KVM internal error. Suberror: 1' >&2; exec sleep 30"],
                20, os.path.join(d, "s"), err)
            self.assertEqual((rc, timed_out, runner.map_exit(rc, timed_out)), (None, False, 125))
            self.assertLess(secs, 10)
            with open(err, "rb") as f:
                self.assertEqual(f.read(), b"KVM internal error. Suberror: 1\n")

    def test_exit_status_passes_through(self):
        with tempfile.TemporaryDirectory() as d:
            rc, timed_out, _ = qemurun.run_qemu(["sh", "-c", "exit 7"], 10, os.path.join(d, "s"),
                                                os.path.join(d, "e"))
            self.assertEqual((rc, timed_out, runner.map_exit(rc, timed_out)), (7, False, 3))


if __name__ == "__main__":
    unittest.main()
