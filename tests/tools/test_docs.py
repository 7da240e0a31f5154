"""docs/options.md must list every option the kernel declares (HZ_OPTION)."""
import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECL = re.compile(r'HZ_OPTION\(\s*\w+\s*,\s*\.name\s*=\s*"([a-z0-9_]+)"', re.S)


def kernel_options():
    names = set()
    for sub in ("arch", "boot", "kernel", "mm"):
        for src in (ROOT / sub).glob("*.c"):
            names.update(DECL.findall(src.read_text()))
    return names


class OptionsDocumented(unittest.TestCase):
    def test_declarations_found(self):
        # The kernel always has these; finding none means the pattern broke.
        self.assertTrue({"run", "console", "on_exit", "selftest", "help"} <= kernel_options())

    def test_every_option_in_docs(self):
        doc = (ROOT / "docs" / "options.md").read_text()
        listed = set(re.findall(r"^\| `([a-z0-9_]+)` \|", doc, re.M))
        missing = sorted(kernel_options() - listed)
        self.assertEqual(missing, [], "options missing from docs/options.md")

    def test_no_stale_options_in_docs(self):
        doc = (ROOT / "docs" / "options.md").read_text()
        listed = set(re.findall(r"^\| `([a-z0-9_]+)` \|", doc, re.M))
        stale = sorted(listed - kernel_options())
        self.assertEqual(stale, [], "docs/options.md lists options the kernel lacks")


if __name__ == "__main__":
    unittest.main()
