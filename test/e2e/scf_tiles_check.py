#!/usr/bin/python3
"""scf_tiles_check.py: run/Inputs/scf_tiles.pto (tile buffers through scf.for iter_args
and scf.if results) with `ptoc run`; the output must be v(n) + a (LAST=1) or
v(n-1) + a (LAST=0), where v(0) = a and v(k+1) = v(k) + (a if k is even else b), each
sum one IEEE f32 addition (numpy float32), bit for bit.
With LAST = ssa, the kernel is run/Inputs/scf_tiles_ssa.pto (tile values, level 1):
v(0) = a, w(0) = b, s = v + w, t = (k even ? s + a : s), (v, w) <- (t, v); the
output is v(n) + w(n).

  scf_tiles_check.py PTOC KERNEL TARGET N LAST|ssa WORKDIR
"""
import os
import subprocess
import sys

import numpy as np


def main():
    ptoc, kernel, target = sys.argv[1], sys.argv[2], sys.argv[3]
    n, work = int(sys.argv[4]), sys.argv[6]
    ssa = sys.argv[5] == "ssa"
    last = 0 if ssa else int(sys.argv[5])
    rng = np.random.default_rng(11)
    a = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
    b = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
    os.makedirs(work, exist_ok=True)
    ain, bin_ = os.path.join(work, "a.bin"), os.path.join(work, "b.bin")
    out = os.path.join(work, "o_%s_%d_%d.bin" % (target, n, last))
    a.tofile(ain)
    b.tofile(bin_)
    cmd = [ptoc, "run", kernel, "--target", target, "--in", "a=" + ain, "--in", "b=" + bin_,
           "--out", "o=" + out, "--arg", "n=%d" % n]
    rc = subprocess.run(cmd + ([] if ssa else ["--arg", "last=%d" % last])).returncode
    if rc:
        print("scf_tiles_check: ptoc run failed (%d)" % rc)
        return 1
    if ssa:
        v, w = a, b
        for k in range(n):
            s = v + w
            v, w = (s + a if k % 2 == 0 else s), v
        want = v + w
    else:
        v = [a]
        for k in range(n):
            v.append(v[-1] + (a if k % 2 == 0 else b))
        want = (v[n] if last else v[n - 1]) + a
    got = np.fromfile(out, dtype=np.float32).reshape(8, 64)
    bad = int((want.view(np.uint32) != got.view(np.uint32)).sum())
    print("scf_tiles_check: %s n=%d %s: %d of 512 elements differ"
          % (target, n, "ssa" if ssa else "last=%d" % last, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
