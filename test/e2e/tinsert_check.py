#!/usr/bin/python3
"""tinsert_check.py: tinsert end to end through `ptoc run` (docs/semantics.md §7.8).

  tinsert_check.py PTOC TARGET WORKDIR

Each case loads a destination tile from GM (so that a stray write shows), inserts a
source's valid region at (r0, c0) and stores the whole destination back; the expected
output is the loaded destination with numpy's slice assignment of the source:
  * acc -> mat (both targets): A (m x k, f16) times an identity, so the accumulator
    holds A exactly in f32, inserted into an f16 or bf16 mat tile (f32 on A5), the
    f32 -> bf16 rounding done here on the bits (nearest, ties to even);
  * A5 vec -> vec and vec -> mat: the same element type, f32, f16, i8, a ragged
    source (valid 7 x 24 of 16 x 32) at (3, 8) and a full one at (0, 0).
Prints one line per case and `tinsert_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import run_cases, tb, rand_bits, same_bits, layouts  # noqa: E402


def bf16_rne(f32):
    """f32 values -> bf16 bits, round to nearest even (finite inputs)"""
    b = f32.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def case_acc_mat(c, k, d, target, dt, r0, c0):
    rng = np.random.default_rng(3 + r0 + c0)
    m, kk = 16, 32
    R, C = 48, 64
    left, right = layouts(target)
    a, an, af = c.arg(k, d, "a", "f16")
    e, en, ef = c.arg(k, d, "e", "f16")
    b, bn, bf = c.arg(k, d, "b", dt)
    amt = tb("mat", "f16", m, kk, m, kk, *left)
    alt = tb("left", "f16", m, kk, m, kk, *left)
    imt = tb("mat", "f16", kk, kk, kk, kk, *right)
    irt = tb("right", "f16", kk, kk, kk, kk, *right)
    act = tb("acc", "f32", m, kk, m, kk, "col_major", "row_major", 1024)
    dty = tb("mat", dt, R, C, R, C, "col_major", "row_major")
    am = k.load(a, "f16", m, kk, amt)
    al = k.alloc(alt)
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (am, amt, al, alt))
    im = k.load(e, "f16", kk, kk, imt)
    ir = k.alloc(irt)
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (im, imt, ir, irt))
    acc = k.alloc(act)
    k.emit("pto.tmatmul ins(%s, %s : %s, %s) outs(%s : %s)" % (al, ir, alt, irt, acc, act))
    dst = k.load(b, dt, R, C, dty)
    k.emit("pto.tinsert ins(%s, %s, %s : %s, index, index) outs(%s : %s)"
           % (acc, k.c(r0), k.c(c0), act, dst, dty))
    k.store(dst, dty, b, dt, R, C)
    A = (rng.standard_normal((m, kk)) * 100).astype(np.float16)
    I = np.eye(kk, dtype=np.float16)
    B = rand_bits(rng, dt, (R, C))
    A.tofile(af)
    I.tofile(ef)
    B.tofile(bf)
    want = B.copy()
    if dt == "f16":
        want[r0:r0 + m, c0:c0 + kk] = A
    elif dt == "bf16":
        want[r0:r0 + m, c0:c0 + kk] = bf16_rne(A.astype(np.float32))
    else:
        want[r0:r0 + m, c0:c0 + kk] = A.astype(np.float32)
    c.ins += [(an, af), (en, ef), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=want.dtype).reshape(R, C), want)


def case_vec(c, k, d, dloc, t, ragged, r0, c0):
    rng = np.random.default_rng(17 + ragged + len(t))
    SR, SC = 16, 32
    vr, vc = (7, 24) if ragged else (SR, SC)
    R, C = 32, 64
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    sty = tb("vec", t, SR, SC, vr, vc)
    dty = tb(dloc, t, R, C, R, C)
    src = k.load(a, t, vr, vc, sty)
    dst = k.load(b, t, R, C, dty)
    k.emit("pto.tinsert ins(%s, %s, %s : %s, index, index) outs(%s : %s)"
           % (src, k.c(r0), k.c(c0), sty, dst, dty))
    k.store(dst, dty, b, t, R, C)
    A = rand_bits(rng, t, (vr, vc))
    B = rand_bits(rng, t, (R, C))
    A.tofile(af)
    B.tofile(bf)
    want = B.copy()
    want[r0:r0 + vr, c0:c0 + vc] = A
    c.ins += [(an, af), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=want.dtype).reshape(R, C), want)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    cases = []
    for dt in ("f16", "bf16") + (("f32",) if target == "a5" else ()):
        for r0, c0 in ((0, 0), (16, 32), (5, 7)):
            cases.append(("tinsert acc f32 -> mat %s at (%d, %d)" % (dt, r0, c0),
                          lambda c, k, d, dt=dt, r0=r0, c0=c0: case_acc_mat(c, k, d, target, dt, r0, c0)))
    if target == "a5":
        for dloc in ("vec", "mat"):
            for t in ("f32", "f16", "i8"):
                for ragged, (r0, c0) in ((0, (0, 0)), (1, (3, 8))):
                    cases.append(("tinsert vec -> %s %s %s at (%d, %d)" % (
                        dloc, t, "7x24 of 16x32" if ragged else "16x32", r0, c0),
                        lambda c, k, d, dloc=dloc, t=t, ragged=ragged, r0=r0, c0=c0:
                        case_vec(c, k, d, dloc, t, ragged, r0, c0)))
    n, failed = run_cases(ptoc, target, os.path.join(work, "%s_tinsert" % target), cases)
    print("tinsert_check: %s: %d cases, %d failed" % (target, n, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
