#!/usr/bin/python3
"""gen_check.py: tgather's compare form, trandom and tpack end to end through `ptoc run`
(docs/semantics.md §7.8a, §7.8e, §7.8f).

  gen_check.py PTOC TARGET WORKDIR

Each case loads its tiles from GM (destinations too, so that what the op must leave
alone shows), runs the op and stores every destination whole. Expected outputs are
computed here with numpy, independently of the runtime and of pto_ref.py, whose model
of each op must agree with them:

  tgather compare  every element type the target takes, eq and gt, whole and ragged
                   sources, offsets 0 and 7: the indices r * cols + c + offset of the
                   matching valid elements packed from column 0 of each row, the counts
                   in cdst's first elements, the rest of both as loaded;
  trandom (A5)     i32 and ui32, 7 and 10 rounds, a whole 4 x 256 tile, a ragged 3 x 300
                   region of 4 x 512 (a partial block, counter step 128): the generator
                   vectorised over its 64 lanes with numpy's uint64 arithmetic;
  tpack (A5)       4 -> 2, 4 -> 1 and 2 -> 1 bytes, whole and ragged: the low bytes of
                   each valid element (numpy's view of the little-endian words).

Prints one line per case and `gen_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import tb, rand_bits, run_cases, same_bits  # noqa: E402
import pto_ref  # noqa: E402

NP = {"f16": np.float16, "f32": np.float32, "i8": np.int8, "ui8": np.uint8, "i16": np.int16,
      "ui16": np.uint16, "i32": np.int32, "ui32": np.uint32}


def scalar_const(k, t, v):
    name = k.name("k")
    lit = repr(float(v)) if t.startswith("f") else str(int(v))
    k.emit("%s = arith.constant %s : %s" % (name, lit, t))
    return name


def case_compare(c, k, d, t, mode, vr, vc, off, seed):
    rng = np.random.default_rng(seed)
    R, C = 4, 32
    a, an, af = c.arg(k, d, "a", t)
    o, on, of = c.arg(k, d, "o", "i32")
    n, nn, nf = c.arg(k, d, "n", "i32")
    sty = tb("vec", t, R, C, vr, vc)
    mty = tb("vec", "ui8", R, C, R, C)
    oty = tb("vec", "i32", R, C, R, C)
    nty = tb("vec", "i32", 1, 8, 1, 8)
    x = k.load(a, t, vr, vc, sty)
    y = k.load(o, "i32", R, C, oty)
    z = k.load(n, "i32", 1, 8, nty)
    tmp = k.alloc(mty)
    kv = 3
    s = scalar_const(k, t, kv)
    attrs = []
    if mode != "eq":
        attrs.append("cmpMode = #pto<cmp %s>" % mode)
    if off:
        attrs.append("offset = %d : i32" % off)
    k.emit("pto.tgather ins(%s, %s, %s : %s, %s, %s) outs(%s, %s : %s, %s)%s" % (
        x, s, tmp, sty, t, mty, y, z, oty, nty, " {%s}" % ", ".join(attrs) if attrs else ""))
    k.store(y, oty, o, "i32", R, C)
    k.store(z, nty, n, "i32", 1, 8)
    A = rng.integers(0, 7, size=(vr, vc)).astype(NP[t])  # small values: many equal to k
    O = rand_bits(rng, "i32", (R, C))
    N = rand_bits(rng, "i32", (1, 8))
    A.tofile(af)
    O.tofile(of)
    N.tofile(nf)
    wo, wn = O.copy(), N.copy()
    for r in range(vr):
        hit = [j for j in range(vc) if (A[r, j] == kv if mode == "eq" else A[r, j] > kv)]
        wo[r, :len(hit)] = [off + r * C + j for j in hit]
        wn.reshape(-1)[r] = len(hit)
    # pto_ref's model agrees
    ts = [pto_ref.Tile(ty) for ty in (sty, mty, oty, nty)]
    ts[0].data[:vr, :vc] = A.view(ts[0].data.dtype)
    ts[2].data[:] = O.view(ts[2].data.dtype)
    ts[3].data[:] = N.view(ts[3].data.dtype)
    attr = {}
    if mode != "eq":
        attr["cmpMode"] = "#pto<cmp %s>" % mode
    if off:
        attr["offset"] = "%d : i32" % off
    op = pto_ref.Op("pto.tgather", [], ["%a", "%k", "%m", "%o", "%n"], attr, [sty, t, mty, oty, nty], 0)
    kb = ("fbits", t, int(np.array([kv], dtype=NP[t]).view({2: np.uint16, 4: np.uint32}[A.itemsize])[0])) \
        if t.startswith("f") else kv
    pto_ref.Interp("a2a3").tgather_compare(op, [ts[0], kb, ts[1], ts[2], ts[3]])
    assert (ts[2].data == wo.view(ts[2].data.dtype)).all() and (ts[3].data == wn.view(ts[3].data.dtype)).all(), \
        "pto_ref's tgather compare form differs"
    c.ins += [(an, af), (on, of), (nn, nf)]
    c.outs += [(on, of + ".out"), (nn, nf + ".out")]

    def check():
        g1, m1 = same_bits(np.fromfile(of + ".out", dtype=np.int32).reshape(R, C), wo)
        g2, m2 = same_bits(np.fromfile(nf + ".out", dtype=np.int32).reshape(1, 8), wn)
        return g1 and g2, "dst %s, cdst %s" % (m1, m2)
    c.check = check


def philox_np(key, counter, rounds, rows, cols, vr, vc):
    """the generator over a rows x cols tile's vr x vc region, all 64 lanes at once"""
    out = np.zeros((rows, cols), dtype=np.uint64)
    m32 = np.uint64(0xFFFFFFFF)
    ctr = sum(int(w) << (32 * i) for i, w in enumerate(counter))
    lanes = np.arange(64, dtype=object)
    for r in range(vr):
        for b in range(0, vc, 256):
            cs = [(ctr + int(l)) % (1 << 128) for l in lanes]
            x = [np.array([(v >> (32 * i)) & 0xFFFFFFFF for v in cs], dtype=np.uint64) for i in range(4)]
            k0, k1 = np.uint64(key[0]), np.uint64(key[1])
            for _ in range(rounds):
                p0 = x[0] * np.uint64(0xD2511F53)
                p1 = x[2] * np.uint64(0xCD9E8D57)
                x = [(p1 >> np.uint64(32)) ^ x[1] ^ k0, p1 & m32, (p0 >> np.uint64(32)) ^ x[3] ^ k1, p0 & m32]
                k0, k1 = (k0 + np.uint64(0x9E3779B9)) & m32, (k1 + np.uint64(0xBB67AE85)) & m32
            for w in range(4):
                c0 = b + 64 * w
                n = max(0, min(64, vc - c0))
                out[r, c0:c0 + n] = x[w][:n]
            ctr = (ctr + cols // 4) % (1 << 128)
    return out.astype(np.uint32)


def case_trandom(c, k, d, t, rounds, rows, cols, vr, vc, key, counter, seed):
    rng = np.random.default_rng(seed)
    o, on, of = c.arg(k, d, "o", t)
    ty = tb("vec", t, rows, cols, vr, vc)
    y = k.load(o, t, vr, vc, ty)
    names = [scalar_const(k, "i32", np.int32(np.uint32(w))) for w in list(key) + list(counter)]
    k.emit("pto.trandom ins(%s {rounds = %d : i32} : i32, i32, i32, i32, i32, i32) outs(%s : %s)" % (
        ", ".join(names), rounds, y, ty))
    k.store(y, ty, o, t, vr, vc)
    O = rand_bits(rng, t, (vr, vc))
    O.tofile(of)
    want = philox_np(key, counter, rounds, rows, cols, vr, vc)[:vr, :vc]
    ts = pto_ref.Tile(ty)  # pto_ref's model agrees
    op = pto_ref.Op("pto.trandom", [], [], {"rounds": "%d : i32" % rounds}, [], 0)
    pto_ref.Interp("a5").op_pto_trandom(op, [int(w) for w in list(key) + list(counter)] + [ts], {})
    assert (ts.data.view(np.uint32)[:vr, :vc] == want).all(), "pto_ref's trandom differs"
    c.ins.append((on, of))
    c.outs.append((on, of + ".out"))
    c.check = lambda: same_bits(np.fromfile(of + ".out", dtype=np.uint32).reshape(vr, vc), want)


def case_tpack(c, k, d, st, dt, vr, vc, seed):
    rng = np.random.default_rng(seed)
    R, C = 8, 64
    a, an, af = c.arg(k, d, "a", st)
    o, on, of = c.arg(k, d, "o", dt)
    sty = tb("vec", st, R, C, vr, vc)
    dty = tb("vec", dt, R, C, vr, vc)
    x = k.load(a, st, vr, vc, sty)
    y = k.load(o, dt, vr, vc, dty)
    k.emit("pto.tpack ins(%s : %s) outs(%s : %s)" % (x, sty, y, dty))
    k.store(y, dty, o, dt, vr, vc)
    A = rand_bits(rng, st, (vr, vc))
    O = rand_bits(rng, dt, (vr, vc))
    A.tofile(af)
    O.tofile(of)
    sb, db = A.itemsize, O.itemsize
    want = A.view(np.uint8).reshape(vr, vc, sb)[:, :, :db].copy().view(O.dtype).reshape(vr, vc)
    ts = [pto_ref.Tile(sty), pto_ref.Tile(dty)]  # pto_ref's model agrees
    ts[0].data[:vr, :vc] = A.view(ts[0].data.dtype)
    pto_ref.Interp("a5").op_pto_tpack(None, ts, {})
    assert (ts[1].data[:vr, :vc] == want.view(ts[1].data.dtype)).all(), "pto_ref's tpack differs"
    c.ins += [(an, af), (on, of)]
    c.outs.append((on, of + ".out"))
    c.check = lambda: same_bits(np.fromfile(of + ".out", dtype=O.dtype).reshape(vr, vc), want)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    a5 = target == "a5"
    cases = []
    n = 0
    types = ["f16", "f32", "i32"] + (["i16"] if a5 else [])
    for t in types:
        for mode in ("eq", "gt"):
            if mode == "gt" and t == "i32" and not a5:
                continue
            for vr, vc, off in ((4, 32, 0), (3, 20, 7)):
                n += 1
                cases.append(("tgather compare %s %s, valid %dx%d of 4x32, offset %d" % (t, mode, vr, vc, off),
                              lambda c, k, d, a=(t, mode, vr, vc, off, n): case_compare(c, k, d, *a)))
    if a5:
        for t, rounds, shape, key, ctr in (
                ("ui32", 10, (4, 256, 4, 256), (0x12345678, 0x9ABCDEF0), (0, 0x11111111, 0x22222222, 0x33333333)),
                ("i32", 7, (2, 256, 2, 256), (0x13579BDF, 0x2468ACE0), (0x10, 0x20, 0x30, 0x40)),
                ("i32", 10, (4, 512, 3, 300), (0xFFFFFFFF, 1), (0xFFFFFFF0, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF))):
            n += 1
            cases.append(("trandom %s %d rounds, valid %dx%d of %dx%d" % (t, rounds, shape[2], shape[3],
                                                                         shape[0], shape[1]),
                          lambda c, k, d, a=(t, rounds) + shape + (key, ctr, n): case_trandom(c, k, d, *a)))
        for st, dt in (("i32", "i16"), ("ui32", "ui8"), ("i16", "i8"), ("f32", "f16"), ("i32", "i8")):
            for vr, vc in ((8, 64), (5, 37)):
                n += 1
                cases.append(("tpack %s -> %s, valid %dx%d of 8x64" % (st, dt, vr, vc),
                              lambda c, k, d, a=(st, dt, vr, vc, n): case_tpack(c, k, d, *a)))
    total = failed = 0
    for part in range(0, len(cases), 8):
        m, f = run_cases(ptoc, target, os.path.join(work, "%s_gen%d" % (target, part)), cases[part:part + 8])
        total += m
        failed += f
    print("gen_check: %s: %d cases, %d failed" % (target, total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
