#!/usr/bin/python3
"""fixpipe_check.py: textract_fp and tinsert_fp end to end through `ptoc run`
(docs/semantics.md §6.2a).

  fixpipe_check.py PTOC TARGET WORKDIR

Each case fills the accumulator exactly with a matmul (A times a diagonal B: acc(r, c)
= A(r, c) * B(c, c), exact in f32 / i32), loads one 64-bit quantization word per column
into the scaling buffer (GM -> mat -> scaling, as i32 pairs), moves a region out of the
accumulator through the fixpipe into a mat tile (Nz; also a vec tile on A5) and stores
that tile. The expectation is written here from the rule with numpy: the word's scale
is the f32 of its bits 13-31 (low 13 bits zero; the test sets them at random), the
product is taken in float32, then to 8 bits rint, clip to [-256, 255], plus the word's
9-bit signed offset, clip by the word's sign bit; to f16 a float16 rounding clipped to
+-65504. pto_ref's model of each op is checked against the same expectation.

Then tmov and tstore out of acc through the fixpipe's stages (§6.2b), each written from
the rule: the i64 pre-quant word (a constant; and once a run-time kernel argument) or a
scaling tile of words, ReLU after the quantization (a negative 8-bit result 0, a float
with its sign set +0) or before a plain conversion, accToVecMode run as vector core 0
(vec1 leaves the tile, the dual modes write the top / left half), atomic_add as one
rounding of the exact sum (integers modulo 2^bits), acc i32 -> f16 as a word of scale
1.0. Prints one line per case and `fixpipe_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import tb, same_bits, layouts, run_groups, run_cases  # noqa: E402
import pto_ref  # noqa: E402

NPT = {"i8": np.int8, "ui8": np.uint8, "f16": np.float16}


def words(rng, n, signed):
    scale = (rng.standard_normal(n) * 2.0 ** rng.integers(-6, 3, size=n)).astype(np.float32)
    q = scale.view(np.uint32).astype(np.uint64)
    q |= rng.integers(0, 1 << 13, size=n).astype(np.uint64)            # ignored bits
    off = rng.integers(-40, 41, size=n)
    q |= (off.astype(np.int64) & 0x1FF).astype(np.uint64) << np.uint64(37)
    q |= np.uint64(int(signed)) << np.uint64(46)
    return q


def quantize(acc, q, to):
    m1 = (q & np.uint64(0xFFFFE000)).astype(np.uint32).view(np.float32)
    with np.errstate(all="ignore"):
        p = (acc.astype(np.float32) * m1[None, :]).astype(np.float32)
        if to == "f16":
            return np.clip(p, -65504, 65504).astype(np.float16)
        i = np.clip(np.rint(np.where(np.isnan(p), 0, p)), -256, 255).astype(np.int64)
        off = ((q >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
        off = np.where(off >= 256, off - 512, off)
        i = i + off[None, :]
        signed = ((q >> np.uint64(46)) & np.uint64(1)).astype(bool)[None, :]
        i = np.where(signed, np.clip(i, -128, 127), np.clip(i, 0, 255))
        return (i & 0xFF).astype(np.uint8).view(NPT[to])


def acc_by_matmul(c, k, d, rng, target, st, m, n):
    """an m x n acc tile of type st (f32 or i32) holding A(r, c) * b_c; returns its value
    and type"""
    it = "f16" if st == "f32" else "i8"
    left, right = layouts(target)
    a, an, af = c.arg(k, d, "a", it)
    b, bn, bf = c.arg(k, d, "b", it)
    amt, alt = tb("mat", it, m, n, m, n, *left), tb("left", it, m, n, m, n, *left)
    bmt, brt = tb("mat", it, n, n, n, n, *right), tb("right", it, n, n, n, n, *right)
    x, y = k.load(a, it, m, n, amt), k.load(b, it, n, n, bmt)
    xl, yr = k.alloc(alt), k.alloc(brt)
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (x, amt, xl, alt))
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (y, bmt, yr, brt))
    accty = tb("acc", st, m, n, m, n, "col_major", "row_major", 1024)
    acc = k.alloc(accty)
    k.emit("pto.tmatmul ins(%s, %s : %s, %s) outs(%s : %s)" % (xl, yr, alt, brt, acc, accty))
    if it == "f16":
        A = (rng.standard_normal((m, n)) * 8).astype(np.float16)
        bd = (rng.standard_normal(n) * 4).astype(np.float16)
    else:
        A = rng.integers(-128, 128, size=(m, n)).astype(np.int8)
        bd = rng.integers(-127, 128, size=n).astype(np.int8)
    B = np.zeros((n, n), dtype=A.dtype)
    np.fill_diagonal(B, bd)
    A.tofile(af)
    B.tofile(bf)
    c.ins += [(an, af), (bn, bf)]
    val = A.astype(np.float64) * bd.astype(np.float64)[None, :]
    return (val.astype(np.float32) if st == "f32" else val.astype(np.int32)), acc, accty


def case(c, k, d, target, op, st, dt, dloc, r0, c0, seed):
    rng = np.random.default_rng(seed)
    h, w = 16, 32                       # the region moved
    M, N = (32, 64) if op == "textract_fp" else (h, w)   # the acc tile
    acc, x, xty = acc_by_matmul(c, k, d, rng, target, st, M, N)
    qa, qn, qf = c.arg(k, d, "q", "i32")
    o, on, of = c.arg(k, d, "o", dt)
    DR, DC = (h, w) if op == "textract_fp" else (32, 64)
    qmt = tb("mat", "i32", 1, 2 * w, 1, 2 * w)
    qst = tb("scaling", "i32", 1, 2 * w, 1, 2 * w)
    q1 = k.load(qa, "i32", 1, 2 * w, qmt)
    q2 = k.alloc(qst)
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (q1, qmt, q2, qst))
    if dloc == "mat":
        dty = tb("mat", dt, DR, DC, DR, DC, "col_major", "row_major", 512)
    else:
        dty = tb("vec", dt, DR, DC, DR, DC)
    z = k.load(o, dt, DR, DC, dty)
    k.emit("pto.%s ins(%s, %s, %s, %s : %s, %s, index, index) outs(%s : %s)"
           % (op, x, q2, k.c(r0), k.c(c0), xty, qst, z, dty))
    k.store(z, dty, o, dt, DR, DC)
    Q = words(rng, w, rng.integers(0, 2))
    if dt == "i8":
        Q |= np.uint64(1) << np.uint64(46)
    Q.view(np.int32).tofile(qf)
    O = rng.integers(0, 256, size=(DR, DC)).astype(np.uint8)
    if dt == "f16":
        O = (rng.standard_normal((DR, DC))).astype(np.float16)
    else:
        O = O.view(NPT[dt])
    O.tofile(of)
    want = O.copy()
    if op == "textract_fp":
        want[:, :] = quantize(acc[r0:r0 + h, c0:c0 + w], Q, dt)
    else:
        want[r0:r0 + h, c0:c0 + w] = quantize(acc, Q, dt)
    ts = [pto_ref.Tile(ty) for ty in (xty, qst, dty)]  # pto_ref's model agrees
    ts[0].data[:, :] = acc.view(ts[0].data.dtype)
    ts[1].data[:, :] = Q.view(np.int32).reshape(1, 2 * w).view(ts[1].data.dtype)
    ts[2].data[:, :] = O.view(ts[2].data.dtype)
    getattr(pto_ref.Interp(target), "op_pto_" + op)(None, [ts[0], ts[1], r0, c0, ts[2]], {})
    assert (ts[2].data.view(want.dtype) == want).all(), "pto_ref's %s differs" % op
    c.ins += [(qn, qf), (on, of)]
    c.outs.append((on, of))
    c.check = lambda: same_bits(np.fromfile(of, dtype=want.dtype).reshape(DR, DC), want)


# ---- tmov and tstore through the fixpipe (docs/semantics.md §6.2b) -------------------

NP = {"i8": np.int8, "ui8": np.uint8, "f16": np.float16, "f32": np.float32, "i32": np.int32}
RELU = "reluPreMode = #pto<relu_pre_mode normal_relu>"


def relu_after(r, dt, q):
    """ReLU of a quantized result: a negative 8-bit result (signed words) becomes 0, a
    float with its sign set +0"""
    if dt in ("i8", "ui8"):
        signed = ((q >> np.uint64(46)) & np.uint64(1)).astype(bool)[None, :]
        return np.where(signed & (r.view(np.uint8) >= 0x80), 0, r).astype(r.dtype)
    return np.where(np.signbit(r) & ~np.isnan(r), 0, r).astype(r.dtype)


def fix_expect(acc, st, dt, Q, relu):
    """the value each acc element becomes (Q: the words per column, None: no quant)"""
    if Q is None:
        a = acc
        if relu:
            a = np.where(np.signbit(a) if st == "f32" else a < 0, 0, a).astype(acc.dtype)
        if st == dt:
            return a.copy()
        if st == "i32":      # [decision] as a word of scale 1.0
            return quantize(a, np.full(a.shape[1], 0x3F800000, dtype=np.uint64), dt)
        with np.errstate(all="ignore"):
            return np.clip(a, -65504, 65504).astype(np.float16)
    r = quantize(acc, Q, dt)
    return relu_after(r, dt, Q) if relu else r


def fix_expect_checked(target, acc, st, dt, Q, relu, quant, qty):
    """fix_expect, with pto_ref's model of the same move asserted to agree"""
    want = fix_expect(acc, st, dt, Q, relu)
    q = None
    if quant == "fp":
        q = pto_ref.Tile(qty)
        q.data[:, :] = Q.view(np.int32).reshape(1, -1).view(q.data.dtype)
    elif quant is not None:
        q = int(Q[0])
    ref = pto_ref.Interp(target).fix_move(None, np.ascontiguousarray(acc).view(pto_ref.storage(st)),
                                          st, dt, q, relu, acc.shape[1])
    assert (np.ascontiguousarray(ref).view(np.uint8) == np.ascontiguousarray(want).view(np.uint8)).all(), \
        "pto_ref's fixpipe move %s -> %s differs" % (st, dt)
    return want


def quant_operand(c, k, d, rng, quant, w, dt):
    """the pre-quant operand: (its SSA name, its type, the words per column)"""
    if isinstance(quant, np.uint64):      # a run-time word: the kernel's argument %rtw
        if "%rtw: i64" not in k.args:
            k.args.append("%rtw: i64")
        return "%rtw", "i64", np.repeat(np.array([quant], dtype=np.uint64), w)
    if quant == "word":
        Q = words(rng, 1, rng.integers(0, 2) or dt == "i8")
        x = k.name("w")
        k.emit("%s = arith.constant %d : i64" % (x, int(Q[0])))
        return x, "i64", np.repeat(Q, w)
    qa, qn, qf = c.arg(k, d, "q", "i32")
    qmt = tb("mat", "i32", 1, 2 * w, 1, 2 * w)
    qst = tb("scaling", "i32", 1, 2 * w, 1, 2 * w)
    q1 = k.load(qa, "i32", 1, 2 * w, qmt)
    q2 = k.alloc(qst)
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (q1, qmt, q2, qst))
    Q = words(rng, w, rng.integers(0, 2))
    if dt == "i8":
        Q |= np.uint64(1) << np.uint64(46)
    Q.view(np.int32).tofile(qf)
    c.ins.append((qn, qf))
    return q2, qst, Q


def initial(rng, dt, shape):
    if dt in ("f16", "f32"):
        return rng.standard_normal(shape).astype(NP[dt])
    return rng.integers(-100, 100, size=shape).astype(NP[dt])


def case_tmov(c, k, d, target, st, dt, quant, relu, mode, dloc, seed):
    rng = np.random.default_rng(seed)
    h, w = 16, 32
    acc, x, xty = acc_by_matmul(c, k, d, rng, target, st, h, w)
    o, on, of = c.arg(k, d, "o", dt)
    if dloc == "mat":
        dty = tb("mat", dt, h, w, h, w, "col_major", "row_major", 512)
    else:
        dty = tb("vec", dt, h, w, h, w)
    z = k.load(o, dt, h, w, dty)
    ins, tys, Q, qty = x, xty, None, None
    if quant:
        qx, qty, Q = quant_operand(c, k, d, rng, quant, w, dt)
        ins, tys = x + ", " + qx, xty + ", " + qty
    attrs = ([RELU] if relu else []) + (["accToVecMode = #pto.acc_to_vec_mode<%s>" % mode] if mode else [])
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)%s" % (ins, tys, z, dty,
                                                     " {%s}" % ", ".join(attrs) if attrs else ""))
    k.store(z, dty, o, dt, h, w)
    O = initial(rng, dt, (h, w))
    O.tofile(of)
    want = O.copy()
    qk = "fp" if quant == "fp" else None if quant is None else "word"
    if mode == "dual_mode_split_m":       # this core (vector core 0): the top half
        want[:h // 2] = fix_expect_checked(target, acc[:h // 2], st, dt, Q, relu, qk, qty)
    elif mode == "dual_mode_split_n":
        want[:, :w // 2] = fix_expect_checked(target, acc[:, :w // 2], st, dt, Q, relu, qk, qty)
    elif mode != "single_mode_vec1":      # vec1: the other core's UB
        want[:, :] = fix_expect_checked(target, acc, st, dt, Q, relu, qk, qty)
    c.ins.append((on, of))
    c.outs.append((on, of))
    c.check = lambda: same_bits(np.fromfile(of, dtype=want.dtype).reshape(h, w), want)


def case_tstore(c, k, d, target, sloc, st, dt, quant, relu, atomic, seed):
    rng = np.random.default_rng(seed)
    h, w = 16, 32
    if sloc == "acc":
        val, x, xty = acc_by_matmul(c, k, d, rng, target, st, h, w)
    else:
        a, an, af = c.arg(k, d, "a", st)
        xty = tb("vec", st, h, w, h, w)
        x = k.load(a, st, h, w, xty)
        val = initial(rng, st, (h, w))
        val.tofile(af)
        c.ins.append((an, af))
    o, on, of = c.arg(k, d, "o", dt)
    ins, tys, Q, qty = x, xty, None, None
    if quant:
        qx, qty, Q = quant_operand(c, k, d, rng, quant, w, dt)
        ins, tys = x + ", " + qx, xty + ", " + qty
    attrs = ([RELU] if relu else []) + (["atomicType = #pto<atomic_type atomic_add>"] if atomic else [])
    p, pty = k.part(o, dt, h, w)
    k.emit("pto.tstore ins(%s : %s) outs(%s : %s)%s" % (ins, tys, p, pty,
                                                       " {%s}" % ", ".join(attrs) if attrs else ""))
    O = initial(rng, dt, (h, w))
    O.tofile(of)
    qk = "fp" if quant == "fp" else None if quant is None else "word"
    f = fix_expect_checked(target, val, st, dt, Q, relu, qk, qty) if sloc == "acc" else val
    if not atomic:
        want = f
    elif dt in ("f16", "f32"):            # one rounding of the exact sum
        want = (O.astype(np.float64) + f.astype(np.float64)).astype(NP[dt])
    else:
        bits = 8 * np.dtype(NP[dt]).itemsize
        want = ((O.astype(np.int64) + f.view(NP[dt]).astype(np.int64)) % (1 << bits))
        want = want.astype(np.dtype("u%d" % (bits // 8))).view(NP[dt])
    c.ins.append((on, of))
    c.outs.append((on, of))
    c.check = lambda: same_bits(np.fromfile(of, dtype=want.dtype).reshape(h, w), want.view(NP[dt]))


def move_cases(target):
    """(label, fn) of the tmov and tstore cases"""
    out = []
    n = 1000
    tmovs = [("f32", "i8", "word", True, None), ("f32", "ui8", "word", False, None),
             ("i32", "f16", "word", True, None), ("i32", "i8", "fp", True, None),
             ("f32", "ui8", "fp", False, None), ("f32", "f32", None, True, None),
             ("f32", "f16", None, True, None)]
    vec_only = [("f32", "i8", "word", True, "single_mode_vec1"), ("f32", "f32", None, True, "dual_mode_split_m"),
                ("i32", "i32", None, False, "dual_mode_split_n"), ("i32", "ui8", "fp", True, "single_mode_vec0"),
                ("f32", "f32", None, False, "single_mode_vec1")]
    for dloc in ("mat", "vec"):
        for st, dt, quant, relu, mode in tmovs + (vec_only if dloc == "vec" else []):
            n += 1
            label = "tmov %s -> %s %s%s%s%s" % (st, dloc, dt, " " + quant if quant else "",
                                                 " relu" if relu else "", " " + mode if mode else "")
            out.append((label, lambda c, k, d, a=(st, dt, quant, relu, mode, dloc), n=n:
                        case_tmov(c, k, d, target, *a, n)))
    stores = [("acc", "f32", "i8", "word", True, True), ("acc", "i32", "f16", None, False, False),
              ("acc", "i32", "f16", None, True, True), ("acc", "i32", "f16", "word", True, True),
              ("acc", "i32", "ui8", "fp", False, False), ("acc", "f32", "f16", None, True, False),
              ("acc", "f32", "f32", None, False, True), ("acc", "i32", "i8", "word", False, True),
              ("vec", "f16", "f16", None, False, True), ("vec", "f32", "f32", None, False, True),
              ("vec", "i32", "i32", None, False, True), ("vec", "i8", "i8", None, False, True)]
    for sloc, st, dt, quant, relu, atomic in stores:
        n += 1
        label = "tstore %s %s -> %s%s%s%s" % (sloc, st, dt, " " + quant if quant else "",
                                            " relu" if relu else "", " atomic_add" if atomic else "")
        out.append((label, lambda c, k, d, a=(sloc, st, dt, quant, relu, atomic), n=n:
                    case_tstore(c, k, d, target, *a, n)))
    return out


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    dlocs = ("mat", "vec") if target == "a5" else ("mat",)
    cases = []
    n = 0
    for op in ("textract_fp", "tinsert_fp"):
        for st, dt in (("f32", "i8"), ("f32", "ui8"), ("i32", "i8"), ("i32", "ui8"), ("i32", "f16")):
            for dloc in dlocs:
                for r0, c0 in ((0, 0), (16, 32)):
                    n += 1
                    cases.append(("%s %s -> %s %s at (%d, %d)" % (op, st, dloc, dt, r0, c0),
                                  lambda c, k, d, a=(op, st, dt, dloc, r0, c0), n=n: case(c, k, d, target, *a, n)))
    cases += move_cases(target)
    n_built, failed = run_groups(ptoc, target, work, "%s_fixpipe" % target, cases, 4)
    # the word as a run-time value (a kernel argument given to `ptoc run --arg`)
    W = words(np.random.default_rng(7), 1, True)[0]
    rt = [("tmov f32 -> mat i8 run-time word relu",
           lambda c, k, d: case_tmov(c, k, d, target, "f32", "i8", W, True, None, "mat", 7)),
          ("tstore acc i32 -> f16 run-time word atomic_add",
           lambda c, k, d: case_tstore(c, k, d, target, "acc", "i32", "f16", W, False, True, 8))]
    k2, f2 = run_cases(ptoc, target, os.path.join(work, "%s_fixpipe_rt" % target), rt,
                       extra=("--arg", "rtw=%d" % int(W)))
    n_built, failed = n_built + k2, failed + f2
    print("fixpipe_check: %s: %d cases, %d failed" % (target, n_built, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
