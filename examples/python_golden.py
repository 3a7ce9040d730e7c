#!/usr/bin/python3
"""python_golden.py: a kernel checked against a numpy golden, all from Python.

Writes the input of examples/cvt_kernel.pto (a 16x32 f32 tile converted to f16 with
RINT and to bf16 with TRUNC) with numpy, runs the kernel on the CPU through
ptoc.run and compares both outputs bit for bit with numpy's own results: astype
(float16) rounds to nearest even, and bf16 toward zero keeps the high 16 bits of
each f32. numpy has no bf16, so that output comes back as its bit patterns in uint16.

  make && PYTHONPATH=build/python python3 examples/python_golden.py
"""
import os
import sys

import numpy as np

import ptoc

KERNEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cvt_kernel.pto")


def main():
    rng = np.random.default_rng(0)
    src = (rng.standard_normal((16, 32)) * 1000).astype(np.float32)  # within f16's range

    out = ptoc.run(KERNEL, inputs={"src": src}, outputs=["f16", "bf16"])

    want = {"f16": src.astype(np.float16),
            "bf16": (src.view(np.uint32) >> 16).astype(np.uint16)}
    bad = 0
    for name, w in want.items():
        got = out[name]
        same = got.dtype == w.dtype and got.shape == w.shape and np.array_equal(got, w)
        print("%-5s %s %s: %s" % (name, got.dtype, got.shape, "matches numpy" if same else "DIFFERS"))
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
