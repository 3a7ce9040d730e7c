#!/usr/bin/python3
"""gather_check.py: tgather's index form end to end through `ptoc run` (docs/semantics.md §7.8a).

  gather_check.py PTOC TARGET WORKDIR

Each case loads a 16 x 32 source tile, an index tile and the destination from GM,
gathers, and stores the destination's valid region back; the expected output is the
GM destination with its first rows replaced by numpy's take of the source's flat
(row-major) elements at the indices, 0 where an index is outside the source (pto-isa's
CPU model). Indices are random in [0, 512), repeats common, with some set outside it
(512, -1 and 0x7fffffff, or 0xffff for 16-bit indices); whole and ragged (valid rows 5
of 8) destinations; every element width of the target and each index type it takes
(i32, ui32; A5 also i16, ui16). The mask-pattern form: each of the seven patterns on
f16 and f32 (A5 also i16), whole and ragged (5x27 of 16x32) sources, the selected
columns packed into the loaded destination. pto_ref.py's model of both forms is checked
against the same numpy expectation.
Prints one line per case and `gather_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import run_cases, tb, rand_bits, same_bits  # noqa: E402
import pto_ref  # noqa: E402

SR, SC = 16, 32
R, C = 8, 32

NP = {"i32": np.int32, "ui32": np.uint32, "i16": np.int16, "ui16": np.uint16}


def case(c, k, d, t, it, vr, seed):
    rng = np.random.default_rng(seed)
    a, an, af = c.arg(k, d, "a", t)
    x, xn, xf = c.arg(k, d, "x", it)
    b, bn, bf = c.arg(k, d, "b", t)
    sty = tb("vec", t, SR, SC, SR, SC)
    xty = tb("vec", it, R, C, vr, C)
    dty = tb("vec", t, R, C, vr, C)
    src = k.load(a, t, SR, SC, sty)
    idx = k.load(x, it, vr, C, xty)
    dst = k.load(b, t, vr, C, dty)
    k.emit("pto.tgather ins(%s, %s : %s, %s) outs(%s : %s)" % (src, idx, sty, xty, dst, dty))
    k.store(dst, dty, b, t, vr, C)
    A = rand_bits(rng, t, (SR, SC))
    I = rng.integers(0, SR * SC, size=(vr, C)).astype(NP[it])
    big = 0xFFFF if it in ("i16", "ui16") else 0x7FFFFFFF
    for j, v in enumerate((SR * SC, big, -1 if it[0] == "i" else big)):
        I[(seed + j) % vr, (7 * seed + 5 * j) % C] = np.array(v).astype(NP[it])
    B = rand_bits(rng, t, (vr, C))
    A.tofile(af)
    I.tofile(xf)
    B.tofile(bf)
    k64 = I.astype(np.int64)
    inside = (k64 >= 0) & (k64 < SR * SC)
    want = np.where(inside, A.reshape(-1)[np.where(inside, k64, 0)], np.zeros((), A.dtype))
    # pto_ref's model of the op (what the corpus run uses) agrees
    ts = [pto_ref.Tile(ty) for ty in (sty, xty, dty)]
    ts[0].data[:, :] = A.view(ts[0].data.dtype)
    ts[1].data[:vr, :] = I.view(ts[1].data.dtype)
    op = pto_ref.Op("pto.tgather", [], ["%s", "%x", "%d"], {}, [sty, xty, dty], 0)
    pto_ref.Interp(k.target if hasattr(k, "target") else "a2a3").op_pto_tgather(op, ts, {})
    assert (ts[2].data[:vr, :] == want.view(ts[2].data.dtype)).all(), "pto_ref's tgather differs"
    c.ins += [(an, af), (xn, xf), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=want.dtype).reshape(vr, C), want)


PATTERNS = ("P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111")


def mask_case(c, k, d, t, pat, ragged, seed):
    """the mask-pattern form: the selected columns of src's valid region, row by row,
    packed into dst's storage from (0, 0); the rest of dst kept"""
    rng = np.random.default_rng(seed)
    vr, vc = (5, 27) if ragged else (SR, SC)
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    sty = tb("vec", t, SR, SC, vr, vc)
    dty = tb("vec", t, SR, SC, SR, SC)
    src = k.load(a, t, vr, vc, sty)
    dst = k.load(b, t, SR, SC, dty)
    k.emit("pto.tgather ins(%%s, {maskPattern = #pto.mask_pattern<%s>} : %%s) outs(%%s : %%s)"
           % pat % (src, sty, dst, dty))
    k.store(dst, dty, b, t, SR, SC)
    A = rand_bits(rng, t, (vr, vc))
    B = rand_bits(rng, t, (SR, SC))
    A.tofile(af)
    B.tofile(bf)
    cols = np.arange(vc)
    i = PATTERNS.index(pat)
    sel = cols % 2 == i if i < 2 else (cols % 4 == i - 2 if i < 6 else np.ones(vc, bool))
    picked = A[:, sel].reshape(-1)
    want = B.copy().reshape(-1)
    want[:picked.size] = picked
    want = want.reshape(SR, SC)
    ts = [pto_ref.Tile(ty) for ty in (sty, dty)]  # pto_ref's model agrees
    ts[0].data[:vr, :vc] = A.view(ts[0].data.dtype)
    ts[1].data[:, :] = B.view(ts[1].data.dtype)
    op = pto_ref.Op("pto.tgather", [], ["%s", "%d"], {"maskPattern": "#pto.mask_pattern<%s>" % pat},
                    [sty, dty], 0)
    pto_ref.Interp("a2a3").op_pto_tgather(op, ts, {})
    assert (ts[1].data == want.view(ts[1].data.dtype)).all(), "pto_ref's masked tgather differs"
    c.ins += [(an, af), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=want.dtype).reshape(SR, SC), want)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    types = ("f16", "f32", "i16", "i32") + (("bf16", "ui16", "ui32") if target == "a5" else ())
    itypes = ("i32", "ui32") + (("i16", "ui16") if target == "a5" else ())
    cases = []
    n = 0
    for t in types:
        for it in itypes:
            for vr in (R, 5):
                n += 1
                cases.append(("tgather %s by %s, valid %dx%d of %dx%d" % (t, it, vr, C, R, C),
                              lambda c, k, d, t=t, it=it, vr=vr, n=n: case(c, k, d, t, it, vr, n)))
    for t in ("f16", "f32") + (("i16",) if target == "a5" else ()):
        for pat in PATTERNS:
            for ragged in (0, 1):
                n += 1
                cases.append(("tgather %s mask %s%s" % (t, pat, ", valid 5x27 of 16x32" if ragged else ""),
                              lambda c, k, d, t=t, pat=pat, ragged=ragged, n=n:
                              mask_case(c, k, d, t, pat, ragged, n)))
    failed = 0
    n_built = 0
    for part in range(0, len(cases), 16):  # tcc's main() holds at most so many arguments
        n, f = run_cases(ptoc, target, os.path.join(work, "%s_gather%d" % (target, part)),
                         cases[part:part + 16])
        failed += f
        n_built += n
    print("gather_check: %s: %d cases, %d failed" % (target, n_built, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
