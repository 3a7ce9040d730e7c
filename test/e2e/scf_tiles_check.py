#!/usr/bin/python3
"""scf_tiles_check.py: run/Inputs/scf_tiles.pto (tile buffers through scf.for iter_args
and scf.if results) with `ptoc run`; the output must be v(n) + a (LAST=1) or
v(n-1) + a (LAST=0), where v(0) = a and v(k+1) = v(k) + (a if k is even else b), each
sum one IEEE f32 addition (numpy float32), bit for bit.

  scf_tiles_check.py PTOC KERNEL TARGET N LAST WORKDIR
"""
import os
import subprocess
import sys

import numpy as np


def main():
    ptoc, kernel, target = sys.argv[1], sys.argv[2], sys.argv[3]
    n, last, work = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    rng = np.random.default_rng(11)
    a = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
    b = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
    os.makedirs(work, exist_ok=True)
    ain, bin_ = os.path.join(work, "a.bin"), os.path.join(work, "b.bin")
    out = os.path.join(work, "o_%s_%d_%d.bin" % (target, n, last))
    a.tofile(ain)
    b.tofile(bin_)
    rc = subprocess.run([ptoc, "run", kernel, "--target", target, "--in", "a=" + ain,
                         "--in", "b=" + bin_, "--out", "o=" + out, "--arg", "n=%d" % n,
                         "--arg", "last=%d" % last]).returncode
    if rc:
        print("scf_tiles_check: ptoc run failed (%d)" % rc)
        return 1
    v = [a]
    for k in range(n):
        v.append(v[-1] + (a if k % 2 == 0 else b))
    want = (v[n] if last else v[n - 1]) + a
    got = np.fromfile(out, dtype=np.float32).reshape(8, 64)
    bad = int((want.view(np.uint32) != got.view(np.uint32)).sum())
    print("scf_tiles_check: %s n=%d last=%d: %d of 512 elements differ" % (target, n, last, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
