#!/usr/bin/python3
"""scf_while_check.py: kernels with scf.while, run with `ptoc run`, against numpy.

  scf_while_check.py PTOC MODE KERNEL TARGET N WORKDIR

MODE ref: run/Inputs/scf_while.pto. Tile buffers are references: x, y start as the
  buffers holding a and b; each iteration runs while i < n and the flag holds (the
  flag drops once k = 3 * iterations reaches 9), does buf[x] += buf[y] (one f32
  addition per element) and swaps x and y. The output is buf[x] + buf[y].
MODE ssa: run/Inputs/scf_while_ssa.pto. Tile values: v, w = a, b; loop: s = v + w;
  leave when not i < n with (s, v); else v, w = s + 1, v and i += 1. Output s + v.
MODE corpus: KERNEL is PTOAS's SCF/scf_while_break.pto (no GM arguments); a
  pto.tprint of its tile is added before its return and the printed tile must be
  what the loop computes from zero-filled memory: while i < 4 and alive: tile += 1;
  if i == 2 alive = false else tile += 10; i += 1; then tile += 1 if not alive.
Prints one line with the number of differing elements; exit 1 when any differs.
"""
import os
import subprocess
import sys

import numpy as np

TB32 = ("!pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>")


def run_corpus(ptoc, kernel, target, work):
    src = open(kernel).read().split("\n")
    # the last `return` of the function: print the tile just before it
    k = max(i for i, l in enumerate(src) if l.strip() == "return")
    src.insert(k, "    pto.tprint ins(%%tile : %s)" % TB32)
    path = os.path.join(work, "scf_while_break_print.pto")
    open(path, "w").write("\n".join(src))
    r = subprocess.run([ptoc, "run", path, "--target", target], capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stderr)
        return None, None
    lines = r.stdout.strip().split("\n")
    if lines[0] != "tile f32 32x32" or len(lines) != 33:
        sys.stderr.write(r.stdout)
        return None, None
    got = np.array([[np.float32(x) for x in l.split()] for l in lines[1:]], dtype=np.float32)
    tile = np.zeros((32, 32), np.float32)
    one, ten = np.float32(1.0), np.float32(10.0)
    i, alive = 0, True
    while i < 4 and alive:
        tile = tile + one
        if i == 2:
            alive = False
        else:
            tile = tile + ten
        i += 1
    if not alive:
        tile = tile + one
    return got, tile


def main():
    ptoc, mode, kernel, target = sys.argv[1:5]
    n, work = int(sys.argv[5]), sys.argv[6]
    os.makedirs(work, exist_ok=True)
    if mode == "corpus":
        got, want = run_corpus(ptoc, kernel, target, work)
        if got is None:
            print("scf_while_check: ptoc run failed")
            return 1
    else:
        rng = np.random.default_rng(5)
        a = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
        b = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
        ain, bin_ = os.path.join(work, "a.bin"), os.path.join(work, "b.bin")
        out = os.path.join(work, "o_%s_%s_%d.bin" % (mode, target, n))
        a.tofile(ain)
        b.tofile(bin_)
        cmd = [ptoc, "run", kernel, "--target", target, "--in", "a=" + ain, "--in",
               "b=" + bin_, "--out", "o=" + out, "--arg", "n=%d" % n]
        if subprocess.run(cmd).returncode:
            print("scf_while_check: ptoc run failed")
            return 1
        got = np.fromfile(out, dtype=np.float32).reshape(8, 64)
        if mode == "ref":
            buf = [a.copy(), b.copy()]
            x, y, i, k, go = 0, 1, 0, 0, True
            while i < n and go:
                buf[x] = buf[x] + buf[y]
                k += 3
                go = k != 9
                i += 1
                x, y = y, x
            want = buf[x] + buf[y]
        else:
            v, w, i = a, b, 0
            while True:
                s = v + w
                if not i < n:
                    break
                v, w = s + np.float32(1.0), v
                i += 1
            want = s + v
    bad = int((want.view(np.uint32) != got.view(np.uint32)).sum())
    print("scf_while_check: %s %s n=%d: %d of %d elements differ"
          % (mode, target, n, bad, want.size))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
