#!/usr/bin/python3
"""argred_check.py: trowargmax/min and tcolargmax/min through `ptoc run`
(docs/semantics.md §7.6a).

  argred_check.py PTOC TARGET WORKDIR

Each source type of the target, whole (16x32) and ragged (valid 11x27 of 16x32)
sources of small integers (so that equal values, ties, are common), i32 and ui32
indices; against numpy's argmax/argmin, which return the first of equal values. Prints
one line per case and `argred_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import run_cases, tb, same_bits  # noqa: E402

NP = {"f32": np.float32, "f16": np.float16, "i16": np.int16, "i32": np.int32,
      "ui16": np.uint16, "ui32": np.uint32}


def values(rng, t, shape):
    v = rng.integers(0 if t.startswith("ui") else -4, 5, size=shape)
    if t == "bf16":
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16), v
    return v.astype(NP[t]), v


def case(c, k, d, op, t, it, ragged, seed):
    rng = np.random.default_rng(seed)
    R, C = 16, 32
    vr, vc = (11, 27) if ragged else (R, C)
    col = op.startswith("tcol")
    a, an, af = c.arg(k, d, "a", t)
    o, on, of = c.arg(k, d, "o", it)
    sty = tb("vec", t, R, C, vr, vc)
    tmp = tb("vec", t, R, C, vr, vc)
    if col:
        dty, orr, occ = tb("vec", it, 1, C, 1, vc), 1, vc
    else:
        dty, orr, occ = tb("vec", it, R, 8, vr, 1), vr, 1
    src = k.load(a, t, vr, vc, sty)
    tm = k.alloc(tmp)
    dst = k.alloc(dty)
    k.emit("pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (op, src, tm, sty, tmp, dst, dty))
    k.store(dst, dty, o, it, orr, occ)
    A, V = values(rng, t, (vr, vc))
    A.tofile(af)
    f = np.argmin if op.endswith("min") else np.argmax
    want = f(V, axis=0 if col else 1).astype(np.int32 if it == "i32" else np.uint32)
    c.ins.append((an, af))
    c.outs.append((on, of))
    c.check = lambda: same_bits(np.fromfile(of, dtype=want.dtype)[:want.size], want)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    types = ("f16", "f32", "i16", "i32") + (("bf16", "ui16", "ui32") if target == "a5" else ())
    cases = []
    seed = 0
    for op in ("trowargmax", "trowargmin", "tcolargmax", "tcolargmin"):
        for t in types:
            for ragged in (0, 1):
                seed += 1
                it = "ui32" if seed % 2 else "i32"
                cases.append(("%s %s -> %s %s" % (op, t, it, "11x27 of 16x32" if ragged else "16x32"),
                              lambda c, k, d, op=op, t=t, it=it, ragged=ragged, seed=seed:
                              case(c, k, d, op, t, it, ragged, seed)))
    n, failed = run_cases(ptoc, target, os.path.join(work, "%s_argred" % target), cases)
    print("argred_check: %s: %d cases, %d failed" % (target, n, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
