"""ptoc.legality: every pair of element types on both targets, with RINT, NONE and
ROUND, against the rows of `ptoc legality --format csv` (the table printer's own
query loop), plus verdicts written out in docs/targets.md and the errors."""
import csv
import io
import subprocess
import unittest

import ptoc
from util import PTOC


def rows(target):
    out = subprocess.run([PTOC, "legality", "--target", target, "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    return {(r["src"], r["dst"]): r for r in csv.DictReader(io.StringIO(out))}


class Verdicts(unittest.TestCase):
    def test_every_pair(self):
        n = 0
        for target in ("a2a3", "a5"):
            table = rows(target)
            for s in ptoc.TYPES:
                for d in ptoc.TYPES:
                    r = table.get((s, d))
                    for rm in ("RINT", "NONE", "ROUND"):
                        v = ptoc.legality(target, s, d, rm)
                        if r and rm in r["rmodes"].split():
                            if r["verdict"] == "native":
                                self.assertEqual(v, "native", (target, s, d, rm))
                            else:
                                chain = r["chain"].split()
                                self.assertEqual(v, "decomposed via %s: %s" % (
                                    ", ".join(chain[1:-1]), " -> ".join(chain)), (target, s, d, rm))
                        else:
                            self.assertTrue(v.startswith("illegal: "), (target, s, d, rm, v))
                        n += 1
        self.assertEqual(n, 2 * 3 * len(ptoc.TYPES) ** 2)

    def test_documented(self):
        self.assertEqual(ptoc.legality("a5", "f32", "hif8", "ROUND"), "native")
        self.assertEqual(ptoc.legality("A5", "f16", "bf16", "RINT"),
                         "decomposed via f32: f16 -> f32 -> bf16")
        self.assertEqual(ptoc.legality("a3", "f32", "f16", "CAST_RINT", sat="off"), "native")
        self.assertEqual(ptoc.legality("a5", "f32", "hif8", "RINT"),
                         "illegal: f32 -> hif8 with round mode RINT is not supported on a5; legal "
                         "modes of f32 -> hif8: ROUND, HYBRID")

    def test_same_as_command_line(self):
        for args in (("a2a3", "f16", "f8E4M3FN", "RINT"), ("a5", "i8", "bf16", "TRUNC"),
                     ("a2a3", "i32", "f16", "FLOOR")):
            p = subprocess.run([PTOC, "legality", "--target", args[0], "--from", args[1], "--to",
                                args[2], "--rmode", args[3]], capture_output=True, text=True)
            self.assertEqual(ptoc.legality(*args), p.stdout.rstrip("\n"))

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "unknown target 'a4'"):
            ptoc.legality("a4", "f32", "f16", "RINT")
        with self.assertRaisesRegex(ValueError, "unknown type 'float'"):
            ptoc.legality("a5", "float", "f16", "RINT")
        with self.assertRaisesRegex(ValueError, "unknown round mode 'up'"):
            ptoc.legality("a5", "f32", "f16", "up")


if __name__ == "__main__":
    unittest.main()
