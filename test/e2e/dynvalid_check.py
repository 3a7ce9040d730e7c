#!/usr/bin/python3
"""dynvalid_check.py: run/Inputs/dynamic_valid.pto with valid columns N through `ptoc run`;
the output must be exp(x + 0.5) (float64 rounded once to f32 after the f32 sum) in
columns < N and -inf elsewhere, bit for bit.

  dynvalid_check.py PTOC KERNEL TARGET N WORKDIR
"""
import os
import subprocess
import sys

import numpy as np


def main():
    ptoc, kernel, target, n, work = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    x = np.random.default_rng(5).uniform(-4, 4, (8, 64)).astype(np.float32)
    os.makedirs(work, exist_ok=True)
    xin = os.path.join(work, "a_%s_%d.bin" % (target, n))
    out = os.path.join(work, "o_%s_%d.bin" % (target, n))
    x.tofile(xin)
    rc = subprocess.run([ptoc, "run", kernel, "--target", target, "--in", "a=" + xin,
                         "--out", "o=" + out, "--arg", "n=%d" % n]).returncode
    if rc:
        print("dynvalid_check: ptoc run failed (%d)" % rc)
        return 1
    want = np.full((8, 64), -np.inf, dtype=np.float32)
    s = (x[:, :n] + np.float32(0.5)).astype(np.float32)
    want[:, :n] = np.exp(s.astype(np.float64)).astype(np.float32)
    got = np.fromfile(out, dtype=np.float32).reshape(8, 64)
    bad = int((want.view(np.uint32) != got.view(np.uint32)).sum())
    print("dynvalid_check: %s n=%d: %d of 512 elements differ" % (target, n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
