"""ptoc.compile: every --emit form gives the bytes the ptoc driver writes for the same
file; text and file inputs; CompileError with the located diagnostics."""
import os
import subprocess
import tempfile
import unittest
import warnings

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


TILE = ("!pto.tile_buf<loc=vec, dtype=%s, rows=16, cols=32, v_row=16, v_col=32, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>")
# i16 -> ui32 with saturation OFF on a5: the target forces it ON, with a warning
WARN = """module attributes {pto.target_arch = "a5"} {
  func.func @w(%%s: !pto.ptr<i16>, %%d: !pto.ptr<ui32>) attributes {pto.entry} {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%c16 = arith.constant 16 : index
    %%c32 = arith.constant 32 : index
    %%sv = pto.make_tensor_view %%s, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xi16>
    %%dv = pto.make_tensor_view %%d, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xui32>
    %%sp = pto.partition_view %%sv, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xi16> -> !pto.partition_tensor_view<16x32xi16>
    %%dp = pto.partition_view %%dv, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xui32> -> !pto.partition_tensor_view<16x32xui32>
    %%x = pto.alloc_tile : %(i)s
    %%y = pto.alloc_tile : %(u)s
    pto.tload ins(%%sp : !pto.partition_tensor_view<16x32xi16>) outs(%%x : %(i)s)
    pto.tcvt ins(%%x {rmode = #pto<round_mode RINT>, sat_mode = #pto<saturation_mode OFF>} : %(i)s) outs(%%y : %(u)s)
    pto.tstore ins(%%y : %(u)s) outs(%%dp : !pto.partition_tensor_view<16x32xui32>)
    return
  }
}
""" % {"i": TILE % "i16", "u": TILE % "ui32"}


class Compile(unittest.TestCase):
    def test_warning(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            c = ptoc.compile(WARN)
        self.assertIn("void w(", c)
        self.assertEqual([x.category for x in w], [ptoc.CompileWarning])
        self.assertRegex(str(w[0].message), r"^<string>:14:5: warning: 'pto.tcvt' op saturation OFF "
                         r"is not available for i16 -> ui32 on a5; saturation is forced ON\n")

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
