"""hz report in a real browser: headless Chromium (Debian package chromium,
which tools/deps.sh --test installs) opens report.html of the fixture result
set with verdict records, takes a screenshot, dumps the DOM and prints the
page to PDF. Asserts that the page rendered: the screenshot has the window's
size and is not blank, the verdict sentences are in the DOM, and the PDF has
more than one page."""

import html
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import hztest
from hzlib import plot, report, results

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1200, 1600


def chromium(profile, *args):
    """Run headless Chromium with its own profile folder; its stdout."""
    p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--no-first-run", "--disable-dev-shm-usage",
                        "--user-data-dir=" + profile]
                       + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90)
    if p.returncode != 0:
        raise AssertionError("chromium %s exited %d:\n%s" % (" ".join(args), p.returncode,
                                                            p.stderr.decode(errors="replace")[-2000:]))
    return p.stdout.decode(errors="replace")


@unittest.skipUnless(CHROMIUM, "chromium not installed (Debian package chromium; "
                               "tools/deps.sh --test installs it)")
class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hz-test-browser-")
        cls.rs = results.load(hztest.fixture("results-verdict"))
        cls.page = os.path.join(cls.tmp, "report.html")
        report.write(cls.rs, cls.page)
        url = "file://" + cls.page
        profile = os.path.join(cls.tmp, "profile")
        cls.shot = os.path.join(cls.tmp, "shot.png")
        chromium(profile, "--screenshot=" + cls.shot, "--window-size=%d,%d" % (WIDTH, HEIGHT), url)
        cls.dom = chromium(profile, "--dump-dom", url)
        cls.pdf = os.path.join(cls.tmp, "report.pdf")
        chromium(profile, "--no-pdf-header-footer", "--print-to-pdf=" + cls.pdf, url)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_screenshot_has_the_window_size(self):
        self.assertEqual(hztest.png_size(self.shot), (WIDTH, HEIGHT))

    def test_screenshot_is_not_blank(self):
        # The top 700 rows hold the title and the verdict table (text on white).
        w, _, bpp, rows = hztest.png_rows(self.shot, 700)
        pixels = [r[i:i + 3] for r in rows for i in range(0, w * bpp, bpp * 3)]
        colours = set(pixels)
        dark = sum(1 for p in pixels if sum(p) < 200)
        white = sum(1 for p in pixels if sum(p) >= 750)
        self.assertGreater(len(colours), 50, "too few colours: a blank or flat page")
        self.assertGreater(dark / len(pixels), 0.005, "no dark (text) pixels")
        self.assertGreater(white / len(pixels), 0.5, "not a white page")

    def test_verdict_text_in_the_dom(self):
        self.assertIn('<h2 id="verdict">Verdict: how this machine should zero memory</h2>', self.dom)
        for r in self.rs.of_type("verdict"):
            shown = r["reason"] if r["decided"] is not True else r["text"]
            shown = re.sub(r"^not decided: ", "", shown)
            self.assertIn(html.escape(shown, quote=False), self.dom, r["item"])
        self.assertLess(self.dom.index("Verdict: how"), self.dom.index("Clear cells"))

    @unittest.skipUnless(plot.terminal(), "gnuplot with a png terminal is not installed")
    def test_plots_are_in_the_dom_as_data_uris(self):
        self.assertEqual(len(re.findall(r'<img src="data:image/png;base64,', self.dom)), 5)

    def test_prints_to_a_several_page_pdf(self):
        with open(self.pdf, "rb") as f:
            data = f.read()
        self.assertTrue(data.startswith(b"%PDF-"))
        self.assertGreater(len(re.findall(rb"/Type\s*/Page(?!s)", data)), 2)


if __name__ == "__main__":
    unittest.main()
