#!/usr/bin/python3
"""concat_check.py: tconcat end to end through `ptoc run` (docs/semantics.md §7.8d).

  concat_check.py PTOC TARGET WORKDIR

Each case loads two sources (whole or ragged valid columns) and a destination from GM,
joins them and stores the destination; the expected output is the GM destination with
the first rows' columns [0, c0) replaced by src0's valid region and [c0, c0 + c1) by
src1's (numpy slicing), the rest kept. Every element type the verifier takes; pto_ref's
model of the op is checked against the same expectation. Prints one line per case and
`concat_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import tb, rand_bits, run_groups, same_bits  # noqa: E402
import pto_ref  # noqa: E402

R, C, DC = 8, 32, 64


def case(c, k, d, t, vr, c0, c1, seed):
    rng = np.random.default_rng(seed)
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    o, on, of = c.arg(k, d, "o", t)
    aty = tb("vec", t, R, C, vr, c0)
    bty = tb("vec", t, R, C, vr, c1)
    oty = tb("vec", t, R, DC, vr, DC)
    x = k.load(a, t, vr, c0, aty)
    y = k.load(b, t, vr, c1, bty)
    z = k.load(o, t, vr, DC, oty)
    k.emit("pto.tconcat ins(%s, %s : %s, %s) outs(%s : %s)" % (x, y, aty, bty, z, oty))
    k.store(z, oty, o, t, vr, DC)
    A = rand_bits(rng, t, (vr, c0))
    B = rand_bits(rng, t, (vr, c1))
    O = rand_bits(rng, t, (vr, DC))
    A.tofile(af)
    B.tofile(bf)
    O.tofile(of)
    want = O.copy()
    want[:, :c0] = A
    want[:, c0:c0 + c1] = B
    ts = [pto_ref.Tile(ty) for ty in (aty, bty, oty)]  # pto_ref's model agrees
    ts[0].data[:vr, :c0] = A.view(ts[0].data.dtype)
    ts[1].data[:vr, :c1] = B.view(ts[1].data.dtype)
    ts[2].data[:vr, :] = O.view(ts[2].data.dtype)
    op = pto_ref.Op("pto.tconcat", [], ["%a", "%b", "%o"], {}, [aty, bty, oty], 0)
    pto_ref.Interp("a2a3").op_pto_tconcat(op, ts, {})
    assert (ts[2].data[:vr, :] == want.view(ts[2].data.dtype)).all(), "pto_ref's tconcat differs"
    c.ins += [(an, af), (bn, bf), (on, of)]
    c.outs.append((on, of))
    c.check = lambda: same_bits(np.fromfile(of, dtype=want.dtype).reshape(vr, DC), want)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    cases = []
    n = 0
    for t in ("i8", "i16", "i32", "f16", "f32", "bf16"):
        for vr, c0, c1 in ((R, C, C), (5, 20, 9), (3, 1, 32)):
            n += 1
            cases.append(("tconcat %s, valid %dx%d + %dx%d into %dx%d" % (t, vr, c0, vr, c1, R, DC),
                          lambda c, k, d, t=t, a=(vr, c0, c1), n=n: case(c, k, d, t, *a, n)))
    n_built, failed = run_groups(ptoc, target, work, target + "_concat", cases, 9)
    print("concat_check: %s: %d cases, %d failed" % (target, n_built, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
