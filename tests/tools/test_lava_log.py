"""hzlib/lava.py's job log reader on hand-made lines: YAML's escapes, the `!`
tag LAVA's dumper puts on numbers, lava-server's "- " form, and a broken
line named by number. (test_lava.py checks it against PyYAML on the logs of
real lava-run jobs.)"""

import unittest

import hztest  # noqa: F401 (import path)
from hzlib import lava


class ParseLog(unittest.TestCase):
    def test_escapes_tags_and_list_form(self):
        text = ('# a comment\n\n'
                '{"dt": "2026-01-01T00:00:00", "lvl": "target", "msg": "a\\e[0m\\x41\\N\\U0001F600\\" b"}\n'
                '- {"dt": "2026-01-01T00:00:01", "lvl": "results", '
                '"msg": {"case": "c", "measurement": ! "9.917", "n": ! "-3"}}\n'
                '{"no": "lvl"}\n')
        entries = lava.parse_log(text)
        self.assertEqual([e["lvl"] for e in entries], ["target", "results"])
        self.assertEqual(entries[0]["msg"], 'a\x1b[0mA\x85\U0001F600" b')
        self.assertEqual(entries[1]["msg"], {"case": "c", "measurement": 9.917, "n": -3})
        self.assertEqual(lava.test_cases(entries), [entries[1]["msg"]])
        self.assertEqual(lava.serial_text(entries), 'a\x1b[0mA\x85\U0001F600" b\n')

    def test_broken_line_is_named(self):
        text = '{"dt": "x", "lvl": "info", "msg": "ok"}\n{"dt": "x", "lvl": "info", "msg": "cut\n'
        with self.assertRaises(lava.LavaError) as c:
            lava.parse_log(text)
        self.assertRegex(str(c.exception), r"^job log line 2: not a LAVA log entry \([^\n]+\)$")


if __name__ == "__main__":
    unittest.main()
