#!/usr/bin/python3
"""vec_check_more.py: integer vector ops, compare/select and tfillpad end to end.

  vec_check_more.py PTOC TARGET DTYPE WORKDIR [RxC]

DTYPE i8 or ui8: and, or, xor and their scalar forms (byte pairs on A2A3).
DTYPE i16 or i32: the integer ops both targets take for that type (wrapping add, sub,
mul, neg; max, min, relu; bitwise and shifts (i16); tdivs truncating; reductions
(trowprod too) and expands; taddc, tsubc, taddsc, tsubsc), against numpy's
two's-complement arithmetic; shift amounts 0..20 (amounts of the width or more give 0, or the sign fill for shr: docs/semantics.md §7.2).
Both: tcmps (gt, ne) and for i32 tcmp (eq, ne: all A2A3 takes) predicate bits, tsel /
tsels through the tcmps gt predicate.
DTYPE f32 or f16: tcmp (lt, eq) / tcmps (ge, le) predicate bits (one per element,
least significant bit first), tsel / tsels, tfillpad of a half-valid tile with pad=1
(0), 2 (+inf), 3 (-inf).
Same report as vec_check.py.
"""
import os
import subprocess
import sys

import numpy as np

R, C = 16, 64
S_INT = 3
S_FLT = 0.5


def wrap(x, dt):
    return np.asarray(x, dtype=np.int64).astype(dt)


def shl(a, n, dt):
    bits = np.dtype(dt).itemsize * 8
    n = np.asarray(n, dtype=np.int64) + np.zeros(a.shape, dtype=np.int64)
    v = wrap(a.astype(np.int64) << np.minimum(n, bits), dt)
    return np.where(n >= bits, dt(0), v).astype(dt)


def shr(a, n, dt):
    bits = np.dtype(dt).itemsize * 8
    n = np.asarray(n, dtype=np.int64) + np.zeros(a.shape, dtype=np.int64)
    return (a.astype(np.int64) >> np.minimum(n, bits - 1)).astype(dt)


def byte_ops(dt):
    """and / or / xor of 8-bit elements (A2A3 runs them as byte pairs in 16-bit lanes)"""
    return [
        ("tand", "ab", "full", lambda a, b, r, c: a & b),
        ("tor", "ab", "full", lambda a, b, r, c: a | b),
        ("txor", "ab", "full", lambda a, b, r, c: a ^ b),
        ("tands", "as", "full", lambda a, b, r, c: a & dt(S_INT)),
        ("tors", "as", "full", lambda a, b, r, c: a | dt(S_INT)),
        ("txors", "as", "full", lambda a, b, r, c: a ^ dt(S_INT)),
    ]


def int_ops(dt):
    w = np.int64
    t16 = dt == np.int16
    if np.dtype(dt).itemsize == 1:
        return byte_ops(dt)
    ops = [
        ("tadd", "ab", "full", lambda a, b, r, c: wrap(a.astype(w) + b, dt)),
        ("tsub", "ab", "full", lambda a, b, r, c: wrap(a.astype(w) - b, dt)),
        ("tmul", "ab", "full", lambda a, b, r, c: wrap(a.astype(w) * b, dt)),
        ("tmax", "ab", "full", lambda a, b, r, c: np.maximum(a, b)),
        ("tmin", "ab", "full", lambda a, b, r, c: np.minimum(a, b)),
        ("tshl", "ab", "full", lambda a, b, r, c: shl(a, b, dt)),
        ("tshr", "ab", "full", lambda a, b, r, c: shr(a, b, dt)),
        ("tadds", "as", "full", lambda a, b, r, c: wrap(a.astype(w) + S_INT, dt)),
        ("tsubs", "as", "full", lambda a, b, r, c: wrap(a.astype(w) - S_INT, dt)),
        ("tmuls", "as", "full", lambda a, b, r, c: wrap(a.astype(w) * S_INT, dt)),
        ("tdivs", "as", "full", lambda a, b, r, c: wrap(np.sign(a) * (np.abs(a.astype(w)) // S_INT), dt)),
        ("tmaxs", "as", "full", lambda a, b, r, c: np.maximum(a, dt(S_INT))),
        ("tmins", "as", "full", lambda a, b, r, c: np.minimum(a, dt(S_INT))),
        ("tshls", "as", "full", lambda a, b, r, c: shl(a, S_INT, dt)),
        ("tshrs", "as", "full", lambda a, b, r, c: shr(a, S_INT, dt)),
        ("tneg", "a", "full", lambda a, b, r, c: wrap(-a.astype(w), dt)),
        ("texpands", "s", "full", lambda a, b, r, c: np.full((R, C), S_INT, dtype=dt)),
        ("trowsum", "at", "row", lambda a, b, r, c: wrap(a.astype(w).sum(axis=1), dt).reshape(R, 1)),
        ("trowmax", "at", "row", lambda a, b, r, c: a.max(axis=1).reshape(R, 1)),
        ("trowmin", "at", "row", lambda a, b, r, c: a.min(axis=1).reshape(R, 1)),
        ("tcolsum", "at", "col", lambda a, b, r, c: wrap(a.astype(w).sum(axis=0), dt).reshape(1, C)),
        ("tcolprod", "a", "col", lambda a, b, r, c: wrap(np.prod(a.astype(np.int64), axis=0), dt).reshape(1, C)),
        ("tcolmax", "a", "col", lambda a, b, r, c: a.max(axis=0).reshape(1, C)),
        ("tcolmin", "a", "col", lambda a, b, r, c: a.min(axis=0).reshape(1, C)),
        ("trowexpandadd", "ar", "full", lambda a, b, r, c: wrap(a.astype(w) + r, dt)),
        ("trowexpandmax", "ar", "full", lambda a, b, r, c: np.maximum(a, r)),
        ("trowexpand", "r", "full", lambda a, b, r, c: np.broadcast_to(r, (R, C))),
        ("tcolexpand", "c", "full", lambda a, b, r, c: np.broadcast_to(c, (R, C))),
        ("tcolexpandadd", "ac", "full", lambda a, b, r, c: wrap(a.astype(w) + c, dt)),
        ("tcolexpandmul", "ac", "full", lambda a, b, r, c: wrap(a.astype(w) * c, dt)),
        ("trowprod", "at", "row", lambda a, b, r, c: wrap(np.prod(a.astype(np.int64), axis=1), dt).reshape(R, 1)),
        ("taddc", "aba", "full", lambda a, b, r, c: wrap(a.astype(w) + b + a, dt)),
        ("tsubc", "aba", "full", lambda a, b, r, c: wrap(a.astype(w) - b + a, dt)),
        ("taddsc", "asb", "full", lambda a, b, r, c: wrap(a.astype(w) + S_INT + b, dt)),
        ("tsubsc", "asb", "full", lambda a, b, r, c: wrap(a.astype(w) - S_INT + b, dt)),
    ]
    gt = lambda a: a > dt(S_INT)  # noqa: E731  the mask of tsel / tsels (tcmps gt)
    ops += [
        ("tcmps_gt", "as", "bits", lambda a, b, r, c: bits_of(gt(a))),
        ("tcmps_ne", "as", "bits", lambda a, b, r, c: bits_of(a != dt(S_INT))),
        ("tsel", "mabt", "full", lambda a, b, r, c: np.where(gt(a), a, b)),
        ("tsels", "mats", "full", lambda a, b, r, c: np.where(gt(a), a, dt(S_INT))),
    ]
    if t16:
        ops += [
            ("tand", "ab", "full", lambda a, b, r, c: a & b),
            ("tor", "ab", "full", lambda a, b, r, c: a | b),
            ("txor", "ab", "full", lambda a, b, r, c: a ^ b),
            ("tands", "as", "full", lambda a, b, r, c: a & dt(S_INT)),
            ("tors", "as", "full", lambda a, b, r, c: a | dt(S_INT)),
            ("txors", "as", "full", lambda a, b, r, c: a ^ dt(S_INT)),
            ("tnot", "a", "full", lambda a, b, r, c: ~a),
        ]
    else:  # i32: tcmp (eq / ne on A2A3) and relu
        ops += [("trelu", "a", "full", lambda a, b, r, c: np.maximum(a, dt(0))),
                ("tcmp_eq", "ab", "bits", lambda a, b, r, c: bits_of(a == b)),
                ("tcmp_ne", "ab", "bits", lambda a, b, r, c: bits_of(a != b))]
    return ops


def bits_of(pred):
    return np.packbits(pred, axis=1, bitorder="little")


def flt_ops(dt):
    gt = lambda a: a > dt(S_FLT)  # noqa: E731  the mask of tsel / tsels (tcmps gt)
    return [
        ("tcmp_lt", "ab", "bits", lambda a, b, r, c: bits_of(a < b)),
        ("tcmp_eq", "ab", "bits", lambda a, b, r, c: bits_of(a == b)),
        ("tcmps_ge", "as", "bits", lambda a, b, r, c: bits_of(a >= dt(S_FLT))),
        ("tcmps_le", "as", "bits", lambda a, b, r, c: bits_of(a <= dt(S_FLT))),
        ("tsel", "mabt", "full", lambda a, b, r, c: np.where(gt(a), a, b)),
        ("tsels", "mats", "full", lambda a, b, r, c: np.where(gt(a), a, dt(S_FLT))),
        ("tfillpad", "h", "pad1", lambda a, b, r, c: padded(a, 0.0, dt)),
        ("tfillpad_max", "h", "pad2", lambda a, b, r, c: padded(a, np.inf, dt)),
        ("tfillpad_min", "h", "pad3", lambda a, b, r, c: padded(a, -np.inf, dt)),
    ]


def padded(a, v, dt):
    out = np.full((R, C), v, dtype=dt)
    out[:, :C // 2] = a[:, :C // 2]
    return out


def tb(dt, rows, cols, col_major=False, v_col=None, pad=0):
    return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=%s, slayout=none_box, fractal=512, pad=%d>"
            % (dt, rows, cols, rows, cols if v_col is None else v_col,
               "col_major" if col_major else "row_major", pad))


def shape_of(kind):
    return {"row": (R, 1), "col": (1, C), "bits": (R, C // 8)}.get(kind, (R, C))


def kernel(dts, target, table):
    T, TR, TC = tb(dts, R, C), tb(dts, R, 1, True), tb(dts, 1, C)
    TM = tb("ui8", R, C // 8)
    TH = tb(dts, R, C, v_col=C // 2)
    lines = []
    names = [o[0] for o in table]
    args = ["%%%s: !pto.ptr<%s>" % (n, dts) for n in ("a", "b", "r", "c")]
    args += ["%%o_%s: !pto.ptr<%s>" % (o[0], "ui8" if o[2] == "bits" else dts) for o in table]
    lines.append('module attributes {pto.target_arch = "%s"} {' % target)
    lines.append("  func.func @vec(%s) attributes {pto.entry} {" % ", ".join(args))
    lines.append("    %c0 = arith.constant 0 : index")
    lines.append("    %c1 = arith.constant 1 : index")
    for v in sorted({R, C, C // 2, C // 8}):
        lines.append("    %%c%d = arith.constant %d : index" % (v, v))
    sval = repr(S_FLT) if dts in ("f32", "f16") else str(S_INT)
    lines.append("    %%s = arith.constant %s : %s" % (sval, dts))

    def view(name, et, rows, cols, prow, pcol):
        lines.append("    %%v_%s = pto.make_tensor_view %%%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>"
                     % (name, name.split("#")[0], rows, cols, cols, et))
        lines.append("    %%p_%s = pto.partition_view %%v_%s, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                     % (name, name, prow, pcol, et, prow, pcol, et))
        return "!pto.partition_tensor_view<%dx%dx%s>" % (prow, pcol, et)

    def load(name, ty, rows, cols, prow, pcol, tile):
        pv = view(name, dts, rows, cols, prow, pcol)
        lines.append("    %%t_%s = pto.alloc_tile : %s" % (tile, ty))
        lines.append("    pto.tload ins(%%p_%s : %s) outs(%%t_%s : %s)" % (name, pv, tile, ty))

    load("a", T, R, C, R, C, "a")
    load("b", T, R, C, R, C, "b")
    load("r", TR, R, 1, R, 1, "r")
    load("c", TC, 1, C, 1, C, "c")
    if any("m" in o[1] for o in table):
        lines.append("    %%t_m = pto.alloc_tile : %s" % TM)
        lines.append("    pto.tcmps ins(%%t_a, %%s {cmpMode = #pto<cmp gt>} : %s, %s) outs(%%t_m : %s)" % (T, dts, TM))
    if dts in ("f32", "f16"):
        lines.append("    %%v_ah = pto.make_tensor_view %%a, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>" % (R, C, C, dts))
        lines.append("    %%p_ah = pto.partition_view %%v_ah, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>" % (R, C // 2, dts, R, C // 2, dts))
        lines.append("    %%t_h = pto.alloc_tile : %s" % TH)
        lines.append("    pto.tload ins(%%p_ah : !pto.partition_tensor_view<%dx%dx%s>) outs(%%t_h : %s)" % (R, C // 2, dts, TH))
    lines.append("    %%t_tmp = pto.alloc_tile : %s" % T)
    for name, kinds, kind, _ in table:
        rows, cols = shape_of(kind)
        et = "ui8" if kind == "bits" else dts
        pad = {"pad1": 1, "pad2": 2, "pad3": 3}.get(kind, 0)
        ty = TM if kind == "bits" else TR if kind == "row" else TC if kind == "col" else tb(dts, R, C, pad=pad)
        lines.append("    %%t_o_%s = pto.alloc_tile : %s" % (name, ty))
        ins = dict(a=("%t_a", T), b=("%t_b", T), r=("%t_r", TR), c=("%t_c", TC), s=("%s", dts),
                   t=("%t_tmp", T), m=("%t_m", TM), h=("%t_h", TH))
        vals = [ins[k] for k in kinds]
        op = name.split("_")[0]
        attrs = ""
        if op in ("tcmp", "tcmps"):
            attrs = " {cmpMode = #pto<cmp %s>}" % name.split("_")[1]
        lines.append("    pto.%s ins(%s%s : %s) outs(%%t_o_%s : %s)" % (
            op, ", ".join(v[0] for v in vals), attrs, ", ".join(v[1] for v in vals), name, ty))
        pv = view("o_" + name, et, rows, cols, rows, cols)
        lines.append("    pto.tstore ins(%%t_o_%s : %s) outs(%%p_o_%s : %s)" % (name, ty, name, pv))
    lines.append("    return")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    global R, C
    ptoc, target, dts, work = sys.argv[1:5]
    if len(sys.argv) > 5:
        R, C = (int(x) for x in sys.argv[5].split("x"))
    dt = {"f32": np.float32, "f16": np.float16, "i16": np.int16, "i32": np.int32,
          "i8": np.int8, "ui8": np.uint8}[dts]
    rng = np.random.default_rng(7)
    if dts in ("i16", "i32", "i8", "ui8"):
        table = int_ops(dt)
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, (R, C), endpoint=True).astype(dt)
        a[0, :4] = np.array([info.min, info.max, -1, 0]).astype(dt)
        b = rng.integers(0, 21, (R, C)).astype(dt)
        a[-1, :C // 2] = b[-1, :C // 2]  # equal pairs for tcmp eq
        r = rng.integers(info.min, info.max, (R, 1), endpoint=True).astype(dt)
        c = rng.integers(-100, 100, (1, C)).astype(dt)
    else:
        table = flt_ops(dt)
        a = rng.uniform(-2, 2, (R, C)).astype(dt)
        b = rng.uniform(-2, 2, (R, C)).astype(dt)
        b[0, :4] = a[0, :4]  # equal pairs
        r = np.ones((R, 1), dtype=dt)
        c = np.ones((1, C), dtype=dt)
    os.makedirs(work, exist_ok=True)
    tag = "%s_%s_%dx%d" % (target, dts, R, C)
    src = os.path.join(work, "more_%s.pto" % tag)
    with open(src, "w") as fh:
        fh.write(kernel(dts, target, table))
    cmd = [ptoc, "run", src, "--target", target]
    for n, x in (("a", a), ("b", b), ("r", r), ("c", c)):
        p = os.path.join(work, "min_%s_%s.bin" % (tag, n))
        x.tofile(p)
        cmd += ["--in", "%s=%s" % (n, p)]
    outs = {}
    for name, _, _, _ in table:
        p = os.path.join(work, "mout_%s_%s.bin" % (tag, name))
        outs[name] = p
        cmd += ["--out", "o_%s=%s" % (name, p)]
    rc = subprocess.run(cmd).returncode
    if rc:
        print("vec_check_more: ptoc run failed (%d)" % rc)
        return 1
    bad = 0
    for name, _, kind, ref in table:
        et = np.uint8 if kind == "bits" else dt
        want = np.asarray(ref(a, b, r, c), dtype=et).reshape(shape_of(kind))
        got = np.fromfile(outs[name], dtype=et).reshape(shape_of(kind))
        bw = want.view(np.uint8) if et == np.uint8 else want.view("u%d" % np.dtype(dt).itemsize)
        bg = got.view(np.uint8) if et == np.uint8 else got.view("u%d" % np.dtype(dt).itemsize)
        diff = np.nonzero(bw != bg)
        if len(diff[0]):
            i = (diff[0][0], diff[1][0])
            print("FAIL %s %s %s: %d elements differ, first at %s: got %r want %r" % (
                target, dts, name, len(diff[0]), i, got[i], want[i]))
            bad += 1
        else:
            print("ok %s %s %s" % (target, dts, name))
    print("vec_check_more: %s %s %dx%d: %d ops, %d failed" % (target, dts, R, C, len(table), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
