#!/usr/bin/python3
"""scf_acc_check.py: run/Inputs/scf_acc_ssa.pto (a K loop carrying the accumulator as a
tile iteration argument) with `ptoc run`; C must equal A . B with k in increasing
order, one f32 rounding per step (docs/semantics.md §6.3: for f16 inputs the f64 sum of
the f32 accumulator and the exact product, rounded once to f32), bit for bit.

  scf_acc_check.py PTOC KERNEL TARGET WORKDIR
"""
import os
import subprocess
import sys

import numpy as np


def main():
    ptoc, kernel, target, work = sys.argv[1:5]
    rng = np.random.default_rng(3)
    a = rng.standard_normal((16, 128)).astype(np.float16)
    b = rng.standard_normal((128, 16)).astype(np.float16)
    os.makedirs(work, exist_ok=True)
    ain, bin_ = os.path.join(work, "a.bin"), os.path.join(work, "b.bin")
    out = os.path.join(work, "c_%s.bin" % target)
    a.tofile(ain)
    b.tofile(bin_)
    rc = subprocess.run([ptoc, "run", kernel, "--target", target, "--in", "a=" + ain,
                         "--in", "b=" + bin_, "--out", "c=" + out]).returncode
    if rc:
        print("scf_acc_check: ptoc run failed (%d)" % rc)
        return 1
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    acc = np.zeros((16, 16), dtype=np.float32)
    for k in range(128):
        acc = (acc.astype(np.float64) + np.outer(a64[:, k], b64[k, :])).astype(np.float32)
    got = np.fromfile(out, dtype=np.float32).reshape(16, 16)
    bad = int((acc.view(np.uint32) != got.view(np.uint32)).sum())
    print("scf_acc_check: %s: %d of 256 elements differ" % (target, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
