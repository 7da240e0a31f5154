"""tools/mkiso.sh and tools/mkpxe.sh work from any directory; the build
records its compiler and flags (build/buildflags.h, the header record)."""

import os
import shutil
import subprocess
import tempfile
import unittest

import hztest

ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")
TOOLS = os.path.join(hztest.ROOT, "tools")


@unittest.skipUnless(os.path.exists(ELF), "build/hugezero.elf missing (run make)")
@unittest.skipUnless(shutil.which("grub-mkrescue") and shutil.which("grub-mknetdir"),
                     "GRUB tools not installed")
class ImageScripts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hz-test-scripts-")
        shutil.copy(os.path.join(hztest.ROOT, "boot", "grub.cfg"), os.path.join(self.dir, "g.cfg"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_in_dir(self, *argv, env=None):
        return subprocess.run(list(argv), cwd=self.dir, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120, env=env)

    def test_mkiso_from_another_directory(self):
        p = self.run_in_dir(os.path.join(TOOLS, "mkiso.sh"), "out.iso", "g.cfg")
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stdout.decode().strip(), "mkiso: out.iso (BIOS + UEFI)")
        self.assertGreater(os.path.getsize(os.path.join(self.dir, "out.iso")), 1 << 20)

    def test_mkpxe_from_another_directory(self):
        p = self.run_in_dir(os.path.join(TOOLS, "mkpxe.sh"), "tftp", "g.cfg")
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        with open(os.path.join(self.dir, "tftp", "boot", "hugezero.elf"), "rb") as f, \
                open(ELF, "rb") as g:
            self.assertEqual(f.read(), g.read())

    def test_missing_kernel_is_a_clear_error(self):
        env = dict(os.environ, ELF=os.path.join(self.dir, "none.elf"))
        p = self.run_in_dir(os.path.join(TOOLS, "mkiso.sh"), "out.iso", "g.cfg", env=env)
        self.assertEqual(p.returncode, 1)
        self.assertIn("mkiso: kernel %s not found" % env["ELF"], p.stderr.decode())
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out.iso")))


class BuildFlags(unittest.TestCase):
    def flags(self, *make_args):
        with tempfile.TemporaryDirectory(prefix="hz-test-flags-") as b:
            subprocess.run(["make", "-s", "-C", hztest.ROOT, "B=" + b] + list(make_args)
                           + [os.path.join(b, "buildflags.h")], check=True, timeout=60,
                           stdout=subprocess.DEVNULL)
            with open(os.path.join(b, "buildflags.h")) as f:
                return dict(line.split(" ", 2)[1:] for line in f.read().splitlines())

    def test_flags_follow_opt_and_cc(self):
        default, o1 = self.flags(), self.flags("OPT=-O1")
        self.assertIn(" -O2 ", default["HZ_CFLAGS"])
        self.assertIn(" -O1 ", o1["HZ_CFLAGS"])
        self.assertNotIn(" -O2 ", o1["HZ_CFLAGS"])
        self.assertNotIn("-MMD", default["HZ_CFLAGS"])
        self.assertRegex(default["HZ_CC"], r'^"\S+"$')  # gcc unless CC= says otherwise
        self.assertRegex(default["HZ_CC_VERSION"], r'\d+\.\d+')
        if shutil.which("clang"):
            clang = self.flags("CC=clang")
            self.assertEqual(clang["HZ_CC"], '"clang"')
            self.assertIn("clang version", clang["HZ_CC_VERSION"])
            self.assertIn("--target=x86_64-elf", clang["HZ_CFLAGS"])


if __name__ == "__main__":
    unittest.main()


class MakeRun(unittest.TestCase):
    def test_records_variable_passes_records(self):
        """make run RECORDS=1 passes --records to hz run; without it, not."""
        def cmd(*extra):
            p = subprocess.run(["make", "-s", "-n", "run", *extra], cwd=hztest.ROOT,
                               stdout=subprocess.PIPE, universal_newlines=True, check=True)
            return p.stdout.replace("\\\n", " ").split()
        self.assertIn("--records", cmd("RECORDS=1"))
        self.assertNotIn("--records", cmd())
