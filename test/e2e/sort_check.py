#!/usr/bin/python3
"""sort_check.py: tsort32 and tmrgsort end to end through `ptoc run` (docs/semantics.md §7.8b).

  sort_check.py PTOC TARGET WORKDIR

The expected outputs are computed here from the rules of §7.8b (written from pto-isa's
ISA pages), with Python's sort and an explicit merge, not from ptoc:

* tsort32: each row of src's valid region, in blocks of 32 columns (the last may be
  shorter), sorted with the ui32 indices beside it, descending by value (NaN above
  every number, -0 equal to +0; equal values: smaller index first, then the earlier
  column), written as 8-byte structures, f32 (value, index) and f16 (value, 0, index
  low, index high), structure c at element column c * (8 / element bytes) of dst's row;
  only structures inside dst's valid columns are written (one case has half of them).
  Values come from a small set so that ties are common; NaN, -0 and +0 among them.
* tmrgsort, multi-list form: 2, 3 and 4 sorted lists of structures (ragged valid
  columns, ties across lists) merged into dst until its valid columns are full or the
  lists are used, the earlier list first on equal values; exhausted = true stops when
  the first list runs out. One-list form: groups of 4 sorted blocks of blockLen
  elements merged in place of the group.

Each case loads its tiles from GM, runs the op and stores dst (loaded from random GM
data first, so that what the op must not write shows). Prints one line per case and
`sort_check: TARGET: N cases, K failed`.
"""
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import tb, run_groups, same_bits  # noqa: E402

NP = {"f16": np.float16, "f32": np.float32}
UI = {"f16": np.uint16, "f32": np.uint32}


def slots(t):
    return 4 if t == "f16" else 2


def pick_values(rng, t, shape):
    """values from a small set (ties), with NaN, -0 and +0 among them"""
    pool = np.array([-3.5, -1.0, -0.0, 0.0, 0.25, 1.0, 2.0, 7.5, float("inf"), -float("inf"),
                     float("nan"), 100.0, -100.0, 3.0], dtype=NP[t])
    v = pool[rng.integers(0, len(pool), size=shape)]
    return v


def key(value, idx, pos):
    f = float(value)
    if math.isnan(f):
        return (0, 0.0, idx, pos)
    return (1, -f, idx, pos)


def pack(t, vbits, idx):
    """the 8-byte structure of (value bits, index) as elements of type t"""
    if t == "f32":
        return [int(vbits), int(idx)]
    return [int(vbits), 0, int(idx) & 0xFFFF, int(idx) >> 16]


def case_tsort32(c, k, d, t, rows, cols, vr, vc, half_dst, seed):
    rng = np.random.default_rng(seed)
    s = slots(t)
    dcols = cols * s // (2 if half_dst else 1)
    a, an, af = c.arg(k, d, "a", t)
    x, xn, xf = c.arg(k, d, "x", "ui32")
    b, bn, bf = c.arg(k, d, "b", t)
    sty = tb("vec", t, rows, cols, vr, vc)
    xty = tb("vec", "ui32", rows, cols, vr, vc)
    dty = tb("vec", t, rows, dcols, rows, dcols)
    src = k.load(a, t, vr, vc, sty)
    idx = k.load(x, "ui32", vr, vc, xty)
    dst = k.load(b, t, rows, dcols, dty)
    k.emit("pto.tsort32 ins(%s, %s : %s, %s) outs(%s : %s)" % (src, idx, sty, xty, dst, dty))
    k.store(dst, dty, b, t, rows, dcols)
    A = pick_values(rng, t, (vr, vc))
    I = rng.integers(0, 8 if seed % 2 else 1 << 32, size=(vr, vc)).astype(np.uint32)
    B = rng.integers(0, 1 << (16 if t == "f16" else 32), size=(rows, dcols)).astype(UI[t])
    A.tofile(af)
    I.tofile(xf)
    B.tofile(bf)
    want = B.copy()
    bits = A.view(UI[t])
    for r in range(vr):
        out = []
        for b0 in range(0, vc, 32):
            blk = [(A[r, j], I[r, j], j) for j in range(b0, min(vc, b0 + 32))]
            blk.sort(key=lambda p: key(*p))
            out += [(bits[r, j], i) for _, i, j in blk]
        for n, (vb, i) in enumerate(out):
            if (n + 1) * s <= dcols:
                want[r, n * s:(n + 1) * s] = pack(t, vb, i)
    c.ins += [(an, af), (xn, xf), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=want.dtype).reshape(rows, dcols), want)


def sorted_list(rng, t, n, base):
    """n structures sorted as tsort32 orders them: (value bits, index) pairs"""
    v = pick_values(rng, t, (n,))
    idx = [base + i for i in range(n)]
    order = sorted(range(n), key=lambda i: key(v[i], idx[i], i))
    return [(v[i], idx[i]) for i in order]


def list_row(t, lst, cols):
    """a 1 x cols row holding the structures of lst from column 0, the rest random"""
    s = slots(t)
    row = np.zeros(cols, dtype=UI[t])
    bits = np.array([v for v, _ in lst], dtype=NP[t]).view(UI[t])
    for n, (_, i) in enumerate(lst):
        row[n * s:(n + 1) * s] = pack(t, bits[n], i)
    return row


def merge(lists, room, exhausted):
    at = [0] * len(lists)
    out = []
    while len(out) < room:
        pick = -1
        for q, lst in enumerate(lists):
            if at[q] >= len(lst):
                continue
            if pick < 0:
                pick = q
                continue
            a, b = float(lst[at[q]][0]), float(lists[pick][at[pick]][0])
            above = (math.isnan(a) and not math.isnan(b)) or (not math.isnan(a) and not math.isnan(b) and a > b)
            if above:
                pick = q
        if pick < 0:
            break
        out.append(lists[pick][at[pick]])
        at[pick] += 1
        if exhausted and any(at[q] == len(lists[q]) for q in range(len(lists))):
            break
    return out


def case_tmrgsort(c, k, d, t, lens, room, exhausted, seed):
    rng = np.random.default_rng(seed)
    s = slots(t)
    ebytes = 2 if t == "f16" else 4
    lists, names, tys = [], [], []
    for q, n in enumerate(lens):
        lists.append(sorted_list(rng, t, n, 1000 * q))
    # the tile columns: whole 32-byte rows; the valid columns hold the list
    for q, n in enumerate(lens):
        vc = n * s
        cols = (vc * ebytes + 31) // 32 * 32 // ebytes
        a, an, af = c.arg(k, d, "s%d" % q, t)
        ty = tb("vec", t, 1, cols, 1, vc)
        names.append(k.load(a, t, 1, vc, ty))
        tys.append(ty)
        list_row(t, lists[q], vc).tofile(af)
        c.ins.append((an, af))
    dcols = room * s
    dty = tb("vec", t, 1, dcols, 1, dcols)
    b, bn, bf = c.arg(k, d, "b", t)
    dst = k.load(b, t, 1, dcols, dty)
    tmp = k.alloc(dty)
    ex = "%ex"
    k.emit("pto.tmrgsort ins(%s, %s {exhausted = %s} : %s, %s) outs(%s, %s : %s, vector<4xi16>)"
           % (", ".join(names), tmp, "true" if exhausted else "false", ", ".join(tys), dty, dst, ex, dty))
    k.store(dst, dty, b, t, 1, dcols)
    B = rng.integers(0, 1 << (8 * ebytes), size=dcols).astype(UI[t])
    B.tofile(bf)
    out = merge(lists, room, exhausted)
    want = B.copy()
    if out:
        want[:len(out) * s] = list_row(t, out, len(out) * s)
    c.ins.append((bn, bf))
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=want.dtype), want)


def case_tmrgsort1(c, k, d, t, block, groups, seed):
    """the one-list form: each group of 4 sorted blocks of `block` elements merged"""
    rng = np.random.default_rng(seed)
    s = slots(t)
    per = block // s
    cols = 4 * block * groups
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    ty = tb("vec", t, 1, cols, 1, cols)
    src = k.load(a, t, 1, cols, ty)
    dst = k.load(b, t, 1, cols, ty)
    k.emit("pto.tmrgsort ins(%s, %s : %s, i32) outs(%s : %s)" % (src, "%%bl%d" % block, ty, dst, ty))
    k.store(dst, ty, b, t, 1, cols)
    whole, want = [], []
    for g in range(groups):
        blocks = [sorted_list(rng, t, per, 100 * (4 * g + q)) for q in range(4)]
        whole += sum(blocks, [])
        want += merge(blocks, 4 * per, False)
    list_row(t, whole, cols).tofile(af)
    rng.integers(0, 1 << 16, size=cols).astype(UI[t]).tofile(bf)
    W = list_row(t, want, cols)
    c.ins += [(an, af), (bn, bf)]
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=W.dtype), W)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    cases = []
    n = 0
    for t in ("f16", "f32"):
        for rows, cols, vr, vc, half in ((1, 32, 1, 32, 0), (2, 64, 2, 64, 0), (3, 64, 3, 45, 0),
                                         (4, 96, 3, 70, 0), (2, 64, 2, 64, 1)):
            n += 1
            cases.append(("tsort32 %s valid %dx%d of %dx%d%s" % (t, vr, vc, rows, cols,
                                                                   ", dst half as wide" if half else ""),
                          lambda c, k, d, t=t, a=(rows, cols, vr, vc, half), n=n:
                          case_tsort32(c, k, d, t, *a, n)))
        for lens, room, exh in (((16, 16), 32, 0), ((16, 8, 24), 48, 0), ((8, 20, 4, 12), 44, 0),
                                ((16, 16), 20, 0), ((12, 16), 32, 1), ((8, 20, 4, 12), 44, 1),
                                ((16, 24, 8), 64, 0)):
            n += 1
            cases.append(("tmrgsort %s lists %s into %d%s" % (t, "+".join(map(str, lens)), room,
                                                               ", exhausted" if exh else ""),
                          lambda c, k, d, t=t, lens=lens, room=room, exh=exh, n=n:
                          case_tmrgsort(c, k, d, t, lens, room, exh, n)))
        for block, groups in ((64, 1), (64, 2), (128, 1)):
            n += 1
            cases.append(("tmrgsort %s one list, blockLen %d, %d group%s" % (t, block, groups,
                                                                               "s" if groups > 1 else ""),
                          lambda c, k, d, t=t, block=block, groups=groups, n=n:
                          case_tmrgsort1(c, k, d, t, block, groups, n)))
    def edit(text):
        # the executed counts: an argument of the kernel (nothing reads it back); the
        # one-list block lengths: i32 constants
        text = text.replace("attributes {pto.entry} {", "attributes {pto.entry} {\n" + "\n".join(
            "    %%bl%d = arith.constant %d : i32" % (b, b) for b in (64, 128)), 1)
        return text.replace("func.func @k(", "func.func @k(%ex: vector<4xi16>, ", 1)
    # the executed counts' argument given (0)
    n_built, failed = run_groups(ptoc, target, work, target + "_sort", cases, 8, edit,
                                 ("--arg", "ex=0"))
    print("sort_check: %s: %d cases, %d failed" % (target, n_built, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
