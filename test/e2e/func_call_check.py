#!/usr/bin/python3
"""func_call_check.py: run/Inputs/func_call.pto with `ptoc run`, against numpy.

  func_call_check.py PTOC KERNEL TARGET N WORKDIR

Runs @kmain with n = N and @refs on seeded random 32x64 f32 inputs and compares, bit
for bit, the output buffers and the results @kmain prints ("result #I TYPE VALUE",
docs/runtime.md "Results") with this file's model of the kernels (the comment at the
top of the kernel). Prints one line per kernel; exit 1 on any difference.
"""
import os
import subprocess
import sys

import numpy as np


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stderr)
        return None
    return r.stdout


def main():
    ptoc, kernel, target, n, work = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(16 + n)
    a = rng.uniform(-8, 8, (32, 64)).astype(np.float32)
    b = rng.uniform(-8, 8, (32, 64)).astype(np.float32)
    o0 = rng.uniform(-8, 8, (32, 64)).astype(np.float32)  # rows not written stay
    paths = {k: os.path.join(work, "%s_%s_%d.bin" % (k, target, n)) for k in ("a", "b", "o", "r")}
    a.tofile(paths["a"])
    b.tofile(paths["b"])
    bad = 0
    # @kmain
    o0.tofile(paths["o"])
    out = run([ptoc, "run", kernel, "--target", target, "--entry", "kmain", "--in", "a=" + paths["a"],
               "--in", "b=" + paths["b"], "--in", "o=" + paths["o"], "--out", "o=" + paths["o"],
               "--arg", "n=%d" % n])
    if out is None:
        print("func_call_check: ptoc run kmain failed")
        return 1
    got = np.fromfile(paths["o"], dtype=np.float32).reshape(32, 64)
    want = o0.copy()
    k, s, big = 1, np.float32(0.5), False
    for i in range(n):
        odd = i % 2 == 1
        f = np.float32(2.0) if big else np.float32(0.5)
        want[8 * i:8 * i + 8] = a[8 * i:8 * i + 8] * f + b[8 * i:8 * i + 8]
        k = (k * 3 + 2 ** 31) % 2 ** 32 - 2 ** 31
        s = np.float32(2.0) if odd else np.float32(0.5)
        big = odd
    want_text = "result #0 i32 %d\nresult #1 f32 %s\nresult #2 i64 %d\n" % (k, "%.9g" % s, 8 * n)
    nb = int((want.view(np.uint32) != got.view(np.uint32)).sum())
    if out != want_text:
        sys.stderr.write("printed:\n%swanted:\n%s" % (out, want_text))
        nb += 1
    print("func_call_check: kmain %s n=%d: %d differences" % (target, n, nb))
    bad += nb
    # @refs
    o0.tofile(paths["r"])
    out = run([ptoc, "run", kernel, "--target", target, "--entry", "refs", "--in", "a=" + paths["a"],
               "--in", "b=" + paths["b"], "--in", "o=" + paths["r"], "--out", "o=" + paths["r"]])
    if out is None:
        print("func_call_check: ptoc run refs failed")
        return 1
    got = np.fromfile(paths["r"], dtype=np.float32).reshape(32, 64)
    want = o0.copy()
    want[0:8] = (a[0:8] + b[0:8]) + b[0:8]
    nb = int((want.view(np.uint32) != got.view(np.uint32)).sum()) + (out != "")
    print("func_call_check: refs %s: %d differences" % (target, nb))
    bad += nb
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
