"""ptoc.compile: every --emit form gives the bytes the ptoc driver writes for the same
file; text and file inputs; CompileError with the located diagnostics."""
import os
import subprocess
import tempfile
import unittest

import ptoc
from util import PTOC, SRC_ROOT

KERNEL = os.path.join(SRC_ROOT, "examples", "cvt_kernel.pto")

BAD = """module {
  func.func @k(%a: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    pto.tbogus ins(%c0 : index)
    return
  }
}
"""


class Compile(unittest.TestCase):
    def test_same_as_driver(self):
        for emit in ("c", "main", "ir", "generic", "lowered"):
            for target in (None, "a5"):
                cmd = [PTOC, KERNEL, "--emit=" + emit]
                if target:
                    cmd += ["--target", target]
                want = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                self.assertEqual(ptoc.compile(KERNEL, target=target, emit=emit), want, (emit, target))

    def test_text(self):
        with open(KERNEL) as f:
            text = f.read()
        c = ptoc.compile(text, target="a5")
        self.assertIn('#include "ptort.h"', c)
        self.assertEqual(c, ptoc.compile(text.encode(), target="a5"))
        self.assertEqual(ptoc.compile(text, emit="none"), "")
        ir = ptoc.compile(text, emit="ir")
        self.assertEqual(ptoc.compile(ir, emit="ir"), ir)

    def test_errors(self):
        with self.assertRaises(ptoc.CompileError) as e:
            ptoc.compile(BAD)
        msg = str(e.exception)
        self.assertRegex(msg, r"^<string>:4:5: error: ")
        self.assertIn("pto.tbogus ins(%c0 : index)\n    ^", msg)
        self.assertIsInstance(e.exception, ptoc.Error)
        with self.assertRaisesRegex(ptoc.CompileError, r"^bad\.pto:4:5: error: "):
            ptoc.compile(BAD, filename="bad.pto")
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "k.pto")
            with open(p, "w") as f:
                f.write(BAD)
            with self.assertRaisesRegex(ptoc.CompileError, r"k\.pto:4:5: error: "):
                ptoc.compile(p)
        with self.assertRaisesRegex(ptoc.CompileError, r"no function named 'nope'"):
            ptoc.compile(KERNEL, emit="main", entry="nope")
        with self.assertRaisesRegex(ValueError, r"unknown emit 'asm'"):
            ptoc.compile(KERNEL, emit="asm")
        with self.assertRaisesRegex(ValueError, r"unknown target 'a6'"):
            ptoc.compile(KERNEL, target="a6")
        with self.assertRaises(FileNotFoundError):
            ptoc.compile("/nonexistent/k.pto")


if __name__ == "__main__":
    unittest.main()
