#!/usr/bin/python3
"""hist_check.py: thistogram end to end through `ptoc run` on A5 (docs/semantics.md §7.8c).

  hist_check.py PTOC WORKDIR

Each case loads a ui16 source (whole or ragged valid region), a ui8 index column (DN)
and a ui32 destination of 256 or more columns from GM, counts, and stores dst. The
expected rows are computed here with numpy's bincount and cumsum from the rule of
§7.8c: isMSB (the default) counts the high byte of every valid element; isMSB = false
counts the low byte of the valid elements whose high byte equals the row's index.
Columns past 256 and rows past the valid ones keep their GM data. Sources are drawn
so that the index's high byte is common. Prints one line per case and
`hist_check: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import tb, run_groups, same_bits  # noqa: E402


def case(c, k, d, rows, cols, vr, vc, dcols, msb, seed):
    rng = np.random.default_rng(seed)
    a, an, af = c.arg(k, d, "a", "ui16")
    x, xn, xf = c.arg(k, d, "x", "ui8")
    b, bn, bf = c.arg(k, d, "b", "ui32")
    sty = tb("vec", "ui16", rows, cols, vr, vc)
    xty = tb("vec", "ui8", rows, 1, vr, 1, bl="col_major")
    dty = tb("vec", "ui32", rows, dcols, vr, dcols)
    src = k.load(a, "ui16", vr, vc, sty)
    # the index column: a DN (col_major) tile loaded from a rows x 1 view
    p, pty = k.part(x, "ui8", vr, 1)
    idx = k.alloc(xty)
    k.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (p, pty, idx, xty))
    dst = k.load(b, "ui32", vr, dcols, dty)
    attr = "" if msb is None else " {isMSB = %s}" % ("true" if msb else "false")
    k.emit("pto.thistogram ins(%s, %s : %s, %s) outs(%s : %s)%s" % (src, idx, sty, xty, dst, dty, attr))
    k.store(dst, dty, b, "ui32", vr, dcols)
    keys = rng.integers(0, 256, size=vr).astype(np.uint8)
    hi = np.where(rng.random((vr, vc)) < 0.5, keys[:, None], rng.integers(0, 256, size=(vr, vc)))
    A = ((hi.astype(np.uint16) << 8) | rng.integers(0, 256, size=(vr, vc)).astype(np.uint16)).astype(np.uint16)
    B = rng.integers(0, 1 << 32, size=(vr, dcols)).astype(np.uint32)
    A.tofile(af)
    keys.tofile(xf)
    B.tofile(bf)
    want = B.copy()
    for r in range(vr):
        if msb is None or msb:
            vals = A[r] >> 8
        else:
            vals = (A[r] & 0xFF)[(A[r] >> 8) == keys[r]]
        want[r, :256] = np.cumsum(np.bincount(vals.astype(np.int64), minlength=256)).astype(np.uint32)
    c.ins += [(an, af), (xn, xf), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=np.uint32).reshape(vr, dcols), want)


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    ptoc, work = argv[1:3]
    cases = []
    n = 0
    for rows, cols, vr, vc, dcols in ((8, 32, 8, 32, 256), (4, 256, 3, 200, 256), (2, 64, 2, 64, 264),
                                      (16, 128, 16, 97, 256)):
        for msb in (None, True, False):
            n += 1
            cases.append(("thistogram %s, valid %dx%d of %dx%d, dst %d columns" % (
                "isMSB default" if msb is None else "isMSB = %s" % ("true" if msb else "false"),
                vr, vc, rows, cols, dcols),
                lambda c, k, d, a=(rows, cols, vr, vc, dcols, msb), n=n: case(c, k, d, *a, n)))
    n_built, failed = run_groups(ptoc, "a5", work, "hist", cases, 6)
    print("hist_check: %d cases, %d failed" % (n_built, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
