"""ptoc.run: corpus kernels of PTOAS (VectorAddition, Addc, PyPTOIRParser's mul)
against numpy goldens written from what they compute (f32 adds and multiplies are
IEEE's, so numpy's results are exact); a kernel of this file converting to bf16
against a numpy model of RINT; arrays in Fortran order; arguments by position; the
errors. The corpus tests skip without the corpus (PTOC_SHARED_DIR)."""
import os
import subprocess
import sys
import unittest

import numpy as np

import ptoc
from util import CORPUS, SRC_ROOT

RNG = np.random.default_rng(29)


def corpus(rel):
    p = os.path.join(CORPUS, "samples", rel)
    if not os.path.exists(p):
        raise unittest.SkipTest("the PTOAS corpus is not at %s (PTOC_SHARED_DIR)" % CORPUS)
    return p


def signed(shape, scale=100.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def bits_equal(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


TILE = ("!pto.tile_buf<loc=vec, dtype=%s, rows=16, cols=32, v_row=16, v_col=32, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>")
BF16_KERNEL = """module attributes {pto.target_arch = "a5"} {
  func.func @to_bf16(%%src: !pto.ptr<f32>, %%dst: !pto.ptr<bf16>) attributes {pto.entry} {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%c16 = arith.constant 16 : index
    %%c32 = arith.constant 32 : index
    %%sv = pto.make_tensor_view %%src, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xf32>
    %%dv = pto.make_tensor_view %%dst, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xbf16>
    %%sp = pto.partition_view %%sv, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x32xf32>
    %%dp = pto.partition_view %%dv, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<16x32xbf16>
    %%x = pto.alloc_tile : %(f)s
    %%y = pto.alloc_tile : %(b)s
    pto.tload ins(%%sp : !pto.partition_tensor_view<16x32xf32>) outs(%%x : %(f)s)
    pto.tcvt ins(%%x {rmode = #pto<round_mode RINT>} : %(f)s) outs(%%y : %(b)s)
    pto.tstore ins(%%y : %(b)s) outs(%%dp : !pto.partition_tensor_view<16x32xbf16>)
    return
  }
}
""" % {"f": TILE % "f32", "b": TILE % "bf16"}


def bf16_rint(x):
    """f32 -> bf16 bits, round to nearest even, saturation ON (the pair's default;
    docs/semantics.md §3: a magnitude rounding above the largest finite value and an
    infinity give the largest finite value with the sign, a NaN gives +0)."""
    u = x.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    sign = (u >> 31).astype(np.uint16) << 15
    big = (r & 0x7FFF) >= 0x7F80  # overflow, inf (and NaN, set below)
    r[big] = sign[big] | 0x7F7F
    r[np.isnan(x)] = 0
    return r


class Corpus(unittest.TestCase):
    def test_vector_addition(self):
        k = corpus("VectorAddition/vadd.pto")
        a, b = signed((32, 32)), signed((32, 32))
        for target in ("a2a3", "a5"):
            out = ptoc.run(k, target=target, inputs={"arg0": a, "arg1": b}, outputs=["arg2"])
            self.assertTrue(bits_equal(out["arg2"], a + b), target)

    def test_addc(self):
        k = corpus("Addc/addc.pto")
        a, b, c = signed((32, 32)), signed((32, 32)), signed((32, 32), 1.0)
        out = ptoc.run(k, inputs={0: a, 1: b, 2: c}, outputs=[3])
        self.assertTrue(bits_equal(out[3], (a + b) + c))

    def test_mul(self):
        k = corpus("PyPTOIRParser/vector_example_dag_kernel_mul.pto")
        a, b = signed((128, 128)), signed((128, 128), 0.01)
        out = ptoc.run(k, target="a5", inputs={"arg0": a, "arg1": b}, outputs="arg2")
        self.assertTrue(bits_equal(out["arg2"], a * b))


class Kernels(unittest.TestCase):
    def test_bf16_output(self):
        bits = np.concatenate([RNG.integers(0, 1 << 32, 500, dtype=np.uint64).astype(np.uint32),
                               np.array([0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x7F800000,
                                         0xFF800000, 0x7FC00000, 0x80000000, 0x00000001,
                                         0x7F7F8000, 0x3F80FFFF, 0, 0x3F800000], np.uint32)])
        x = bits.view(np.float32).reshape(16, 32)
        want = bf16_rint(x)
        self.assertGreater(int(np.isnan(x).sum()), 0)
        for a in (x, np.asfortranarray(x)):
            y = ptoc.run(BF16_KERNEL, inputs={"src": a}, outputs=["dst"])["dst"]
            self.assertTrue(bits_equal(y, want))
            self.assertTrue(bits_equal(y, ptoc.cvt(x, "bf16")))

    def test_example(self):
        ex = os.path.join(SRC_ROOT, "examples", "python_golden.py")
        p = subprocess.run([sys.executable, ex], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout.count("matches numpy"), 2, p.stdout)

    def test_blocks_and_args(self):
        # test/lit/run/Inputs/blocks_arg.pto: y = x * x + 0.5 on the 8 rows from %row
        k = os.path.join(SRC_ROOT, "test", "lit", "run", "Inputs", "blocks_arg.pto")
        x = signed((256, 64), 10.0)
        want = x * x + np.float32(0.5)
        y = ptoc.run(k, inputs={"x": x}, outputs=["y"], args={"row": "block*8"}, blocks=32,
                     threads=2)["y"]
        self.assertTrue(bits_equal(y, want))
        y = ptoc.run(k, inputs={"x": x}, outputs=["y"], args={"row": 8})["y"]
        part = np.zeros_like(want)
        part[8:16] = want[8:16]
        self.assertTrue(bits_equal(y, part))

    def test_outputs_start_zeroed(self):
        out = ptoc.run(BF16_KERNEL, inputs={"src": np.zeros((16, 32), np.float32)},
                       outputs=["src", "dst"])
        self.assertTrue(bits_equal(out["dst"], np.zeros((16, 32), np.uint16)))


class Errors(unittest.TestCase):
    def test_errors(self):
        x = np.zeros((16, 32), np.float32)
        with self.assertRaisesRegex(ptoc.RunError, r"<string>:2:\d+: error: --in src: '.*' holds "
                                    r"float64 \('<f8'\); the kernel's f32 buffer takes float32"):
            ptoc.run(BF16_KERNEL, inputs={"src": x.astype(np.float64)}, outputs=["dst"])
        with self.assertRaisesRegex(ptoc.RunError, r"has shape \(32, 16\); the argument's shape "
                                    r"is \(16, 32\)"):
            ptoc.run(BF16_KERNEL, inputs={"src": x.reshape(32, 16)}, outputs=["dst"])
        with self.assertRaisesRegex(ptoc.RunError, r"no kernel argument 'nope=" ):
            ptoc.run(BF16_KERNEL, inputs={"nope": x})
        with self.assertRaisesRegex(ptoc.CompileError, r"^<string>:\d+:\d+: error: "):
            ptoc.run(BF16_KERNEL.replace("tcvt", "tcvv"), inputs={"src": x})
        with self.assertRaisesRegex(ptoc.CompileError, r"^kern\.pto:\d+:\d+: error: "):
            ptoc.run(BF16_KERNEL.replace("tcvt", "tcvv"), filename="kern.pto")
        with self.assertRaisesRegex(ptoc.RunError, r"no C compiler"):
            ptoc.run(BF16_KERNEL, inputs={"src": x}, cc="/nonexistent/cc")


if __name__ == "__main__":
    unittest.main()
