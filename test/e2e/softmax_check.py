#!/usr/bin/python3
"""softmax_check.py: run/Inputs/softmax_ssa.pto (tile SSA form) through `ptoc run` and
compare with numpy bit for bit: rowmax, x - max (f32), exp in float64 rounded once,
the row sum in the target's order (docs/semantics.md §7.6, vec_check.rowsum), e / sum.

  softmax_check.py PTOC KERNEL TARGET WORKDIR
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vec_check as vc  # noqa: E402


def main():
    ptoc, kernel, target, work = sys.argv[1:5]
    vc.R, vc.C = 8, 64
    f32 = np.float32
    x = vc.rnd(np.random.default_rng(3).uniform(-6, 6, (8, 64)), f32)
    os.makedirs(work, exist_ok=True)
    xin, yout = os.path.join(work, "x_%s.bin" % target), os.path.join(work, "y_%s.bin" % target)
    x.tofile(xin)
    rc = subprocess.run([ptoc, "run", kernel, "--target", target, "--in", "x=" + xin,
                         "--out", "y=" + yout]).returncode
    if rc:
        print("softmax_check: ptoc run failed (%d)" % rc)
        return 1
    m = x.max(axis=1).reshape(8, 1)
    e = vc.rnd(np.exp((x - m).astype(np.float64)), f32)
    s = vc.rowsum(e, f32, target)
    want = e / s
    got = np.fromfile(yout, dtype=f32).reshape(8, 64)
    bad = int((want.view(np.uint32) != got.view(np.uint32)).sum())
    print("softmax_check: %s: %d of 512 elements differ" % (target, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
