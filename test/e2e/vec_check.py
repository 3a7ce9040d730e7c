#!/usr/bin/python3
"""vec_check.py: the vector ops end to end through `ptoc run`, against numpy.

  vec_check.py PTOC TARGET DTYPE WORKDIR [RxC]

Writes one kernel (WORKDIR/vec_TARGET_DTYPE_RxC.pto, default 16x64) that loads two
R x C tiles a and b
(and a row column r, a column row c) and stores the result of every vector op below
to its own output, runs it with `ptoc run --target TARGET` on random inputs, and
compares every output bit for bit with a reference computed here, independently of
ptoc (docs/semantics.md §7):
  * f32: numpy float32 + - * / sqrt, max, min (correctly rounded: IEEE); exp, ln,
    1/sqrt in float64 rounded once to f32 (expdif: exp of the difference rounded);
  * f16: every op in float64 on the f16 inputs (exact for + - * of two f16), rounded
    once to f16;
  * reductions in the order of §7.6 for the target (trowprod too), each step rounded
    once; taddc / tsubc / taddsc / tsubsc left to right and taxpy (product, then sum),
    each step rounded once (§7.3), taddc and tsubsc also with dst = their last source.
Prints one line per op and `vec_check: TARGET DTYPE RxC: N ops, K failed`; exit 1 when
one differs.
"""
import os
import subprocess
import sys

import numpy as np

R, C = 16, 64


def rnd(x, dt):
    """x (float64) rounded once to dt (numpy rounds float64 -> f32 / f16 to nearest even)"""
    with np.errstate(over="ignore"):  # overflow to inf is the rounding's result
        return np.asarray(x, dtype=np.float64).astype(dt)


def tree(v, dt):
    """pairwise tree over a power-of-two vector, one rounding per step"""
    v = list(v)
    while len(v) > 1:
        v = [rnd(np.float64(v[i]) + np.float64(v[i + 1]), dt) for i in range(0, len(v), 2)]
    return v[0]


def add(x, y, dt):
    """elementwise x + y, one rounding"""
    return rnd(np.asarray(x, dtype=np.float64) + np.asarray(y, dtype=np.float64), dt)


def g8(v, dt):
    """a tree of every 8 consecutive values (one vcgadd)"""
    return np.array([tree(v[i:i + 8], dt) for i in range(0, len(v), 8)], dtype=dt)


def a2a3_row(row, dt, lanes, special):
    """docs/semantics.md §7.6, trowsum on A2A3, one row"""
    C = len(row)
    if special:
        if C == 512:
            return g8(g8(g8(row, dt), dt), dt)[0]
        if C == 128:
            s = g8(row, dt)
            return g8(add(s[:8], s[8:16], dt), dt)[0]
        if C == 256:
            s = g8(row, dt)
            w = np.concatenate([add(s[0:8], s[8:16], dt), add(s[16:24], s[24:32], dt)])
            return g8(add(w[:8], w[8:16], dt), dt)[0]
        s = g8(g8(row, dt), dt)  # 1024
        return g8(add(s[:8], s[8:16], dt), dt)[0]

    def padded(v):
        return list(v) + [dt(0)] * (lanes - len(v))
    if C <= lanes:
        return tree(padded(row), dt)
    n, t = C // lanes, C % lanes
    chunks = [row[i * lanes:(i + 1) * lanes] for i in range(n)]
    tail = row[n * lanes:]
    if n == 1:
        p0 = chunks[0].copy()
        p0[:t] = add(p0[:t], tail, dt)
        return tree(p0, dt)
    p = [add(chunks[2 * i], chunks[2 * i + 1], dt) for i in range(n // 2)]
    if n % 2:
        p[0] = add(p[0], chunks[n - 1], dt)
    if t:
        p[0][:t] = add(p[0][:t], tail, dt)
    m = n // 2
    while m > 1:
        q = [add(p[2 * i], p[2 * i + 1], dt) for i in range(m // 2)]
        if m % 2:
            q[m // 2 - 1] = add(q[m // 2 - 1], p[m - 1], dt)
        p, m = q, m // 2
    return tree(p[0], dt)


def rowsum(a, dt, target):
    lanes = 2048 // (np.dtype(dt).itemsize * 8)
    special = dt == np.float32 and (R, C) in ((64, 128), (32, 256), (16, 512), (8, 1024))
    out = []
    for row in a:
        if target == "a5":  # acc = +0; acc + tree(register) per register
            acc = dt(0)
            for k in range(0, len(row), lanes):
                reg = list(row[k:k + lanes]) + [dt(0)] * (lanes - len(row[k:k + lanes]))
                acc = rnd(np.float64(acc) + np.float64(tree(reg, dt)), dt)
            out.append(acc)
        else:
            out.append(a2a3_row(row, dt, lanes, special))
    return np.array(out, dtype=dt).reshape(R, 1)


def colsum(a, dt, target):
    if target == "a5":  # r0 + (r1 + r2) + (r3 + r4) + ... (+ r_{R-1} when R-1 is odd)
        acc = a[0].copy()
        i = 1
        while i + 1 < len(a):
            pair = rnd(a[i].astype(np.float64) + a[i + 1].astype(np.float64), dt)
            acc = rnd(acc.astype(np.float64) + pair.astype(np.float64), dt)
            i += 2
        if (len(a) - 1) % 2:
            acc = rnd(acc.astype(np.float64) + a[-1].astype(np.float64), dt)
        return acc.reshape(1, C)
    acc = a[0].copy()
    for i in range(1, len(a)):
        acc = rnd(acc.astype(np.float64) + a[i].astype(np.float64), dt)
    return acc.reshape(1, C)


def colprod(a, dt, target):
    """tcolprod (§7.6): A2A3 r0 * r1 * ... in order; A5 r0 * (r1 * r2) * (r3 * r4) ...
    (* r_{R-1} when R-1 is odd); each product rounded once"""
    def mul(x, y):
        return rnd(x.astype(np.float64) * y.astype(np.float64), dt)
    acc = a[0].copy()
    i = 1
    while i < len(a):
        if target == "a5" and i + 1 < len(a):
            acc = mul(acc, mul(a[i], a[i + 1]))
            i += 2
        else:
            acc = mul(acc, a[i])
            i += 1
    return acc.reshape(1, C)


def colsum_binary(a, dt, target):
    """tcolsum {isBinary}: pair sums, the odd last row into pair 0 (A2A3) or pair
    R/2-1 (A5), halving likewise; one row: a copy (A2A3), +0 + r_0 (A5)"""
    if len(a) == 1:
        return (a[0] if target == "a2a3" else add(np.zeros(C, dtype=dt), a[0], dt)).reshape(1, C)
    m = len(a) // 2
    p = [add(a[2 * i], a[2 * i + 1], dt) for i in range(m)]
    if len(a) % 2:
        k = m - 1 if target == "a5" else 0
        p[k] = add(p[k], a[-1], dt)
    while m > 1:
        q = [add(p[2 * i], p[2 * i + 1], dt) for i in range(m // 2)]
        if m % 2:
            k = m // 2 - 1 if target == "a5" else 0
            q[k] = add(q[k], p[m - 1], dt)
        p, m = q, m // 2
    return p[0].reshape(1, C)


def rowprod(a, dt, target):
    """trowprod (§7.6): A2A3 one 32-byte block of lanes starting at 1 multiplies the
    row's blocks in order, then lane 0 * lane 1 * ... left to right (f16: in f32, one
    rounding to f16 at the end); A5 a register of lanes starting at 1 multiplies the
    row's registers, then halving (lane i * lane i + h, h = L/2 ... 1)"""
    f = np.float64
    out = []
    for row in a:
        if target == "a2a3":
            E = 32 // np.dtype(dt).itemsize
            t = np.ones(E, dtype=dt)
            for k in range(0, len(row), E):
                blk = row[k:k + E]
                t[:len(blk)] = rnd(t[:len(blk)].astype(f) * blk.astype(f), dt)
            cd = np.float32
            acc = cd(t[0])
            for k in range(1, E):
                acc = rnd(f(acc) * f(cd(t[k])), cd)
            out.append(dt(acc))
        else:
            L = 256 // np.dtype(dt).itemsize
            t = np.ones(L, dtype=dt)
            for k in range(0, len(row), L):
                reg = row[k:k + L]
                t[:len(reg)] = rnd(t[:len(reg)].astype(f) * reg.astype(f), dt)
            h = L // 2
            while h >= 1:
                t[:h] = rnd(t[:h].astype(f) * t[h:2 * h].astype(f), dt)
                h //= 2
            out.append(t[0])
    return np.array(out, dtype=dt).reshape(R, 1)


# The scalar operand of the scalar forms.
S = 0.75


def ops(dt, target):
    """(name, operands, reference): operands a b (tiles), r (row column), c (column
    row), s (the scalar), t (the tmp tile), in the op's order"""
    f = np.float64
    return [
        ("tadd", "ab", lambda a, b, r, c, e: rnd(a.astype(f) + b.astype(f), dt)),
        ("tsub", "ab", lambda a, b, r, c, e: rnd(a.astype(f) - b.astype(f), dt)),
        ("tmul", "ab", lambda a, b, r, c, e: rnd(a.astype(f) * b.astype(f), dt)),
        ("tdiv", "ab", lambda a, b, r, c, e: rnd(a.astype(f) / b.astype(f), dt)),
        ("tmax", "ab", lambda a, b, r, c, e: np.maximum(a, b)),
        ("tmin", "ab", lambda a, b, r, c, e: np.minimum(a, b)),
        ("tadds", "as", lambda a, b, r, c, e: rnd(a.astype(f) + S, dt)),
        ("tsubs", "as", lambda a, b, r, c, e: rnd(a.astype(f) - S, dt)),
        ("tmuls", "as", lambda a, b, r, c, e: rnd(a.astype(f) * S, dt)),
        ("tdivs", "as", lambda a, b, r, c, e: rnd(a.astype(f) / S, dt)),
        ("tdivs_first", "sa", lambda a, b, r, c, e: rnd(S / a.astype(f), dt)),
        ("tmaxs", "as", lambda a, b, r, c, e: np.maximum(a, dt(S))),
        ("tmins", "as", lambda a, b, r, c, e: np.minimum(a, dt(S))),
        ("tneg", "a", lambda a, b, r, c, e: -a),
        ("tabs", "a", lambda a, b, r, c, e: np.abs(a)),
        ("trelu", "a", lambda a, b, r, c, e: np.where(a > 0, a, dt(0))),
        ("texp", "a", lambda a, b, r, c, e: rnd(np.exp(a.astype(f)), dt)),
        ("tlog", "b", lambda a, b, r, c, e: rnd(np.log(b.astype(f)), dt)),
        ("tsqrt", "b", lambda a, b, r, c, e: rnd(np.sqrt(b.astype(f)), dt)),
        ("trsqrt_tmp", "bt", lambda a, b, r, c, e: rnd(1.0 / np.sqrt(b.astype(f)), dt)),
        ("trsqrt", "b", lambda a, b, r, c, e: rnd(1.0 / np.sqrt(b.astype(f)), dt)),
        ("trecip", "a", lambda a, b, r, c, e: rnd(1.0 / a.astype(f), dt)),
        ("texpands", "s", lambda a, b, r, c, e: np.full((R, C), S, dtype=dt)),
        ("trowsum", "at", lambda a, b, r, c, e: rowsum(a, dt, target)),
        ("trowmax", "at", lambda a, b, r, c, e: a.max(axis=1).reshape(R, 1)),
        ("trowmin", "at", lambda a, b, r, c, e: a.min(axis=1).reshape(R, 1)),
        ("tcolsum", "at", lambda a, b, r, c, e: colsum(a, dt, target)),
        ("tcolsum_binary", "at", lambda a, b, r, c, e: colsum_binary(a, dt, target)),
        ("tcolprod", "a", lambda a, b, r, c, e: colprod(a, dt, target)),
        ("tcolmax", "a", lambda a, b, r, c, e: a.max(axis=0).reshape(1, C)),
        ("tcolmin", "a", lambda a, b, r, c, e: a.min(axis=0).reshape(1, C)),
        ("trowexpandadd", "ar", lambda a, b, r, c, e: rnd(a.astype(f) + r.astype(f), dt)),
        ("trowexpandsub", "ar", lambda a, b, r, c, e: rnd(a.astype(f) - r.astype(f), dt)),
        ("trowexpandmul", "ar", lambda a, b, r, c, e: rnd(a.astype(f) * r.astype(f), dt)),
        ("trowexpanddiv", "ar", lambda a, b, r, c, e: rnd(a.astype(f) / r.astype(f), dt)),
        ("trowexpandmax", "ar", lambda a, b, r, c, e: np.maximum(a, r)),
        ("trowexpandmin", "ar", lambda a, b, r, c, e: np.minimum(a, r)),
        ("trowexpandexpdif", "ar", lambda a, b, r, c, e: rnd(np.exp(rnd(a.astype(f) - r.astype(f), dt).astype(f)), dt)),
        ("trowexpandexpdif_tmp", "art", lambda a, b, r, c, e: rnd(np.exp(rnd(a.astype(f) - r.astype(f), dt).astype(f)), dt)),
        ("trowexpandmax_tmp", "art", lambda a, b, r, c, e: np.maximum(a, r)),
        ("trowexpand", "r", lambda a, b, r, c, e: np.broadcast_to(r, (R, C))),
        ("tcolexpand", "c", lambda a, b, r, c, e: np.broadcast_to(c, (R, C))),
        ("tcolexpandadd", "ac", lambda a, b, r, c, e: rnd(a.astype(f) + c.astype(f), dt)),
        ("tcolexpandsub", "ac", lambda a, b, r, c, e: rnd(a.astype(f) - c.astype(f), dt)),
        ("tcolexpandmul", "ac", lambda a, b, r, c, e: rnd(a.astype(f) * c.astype(f), dt)),
        ("tcolexpanddiv", "ac", lambda a, b, r, c, e: rnd(a.astype(f) / c.astype(f), dt)),
        ("tcolexpandmax", "ac", lambda a, b, r, c, e: np.maximum(a, c)),
        ("tcolexpandmin", "ac", lambda a, b, r, c, e: np.minimum(a, c)),
        ("tcolexpandexpdif", "ac", lambda a, b, r, c, e: rnd(np.exp(rnd(a.astype(f) - c.astype(f), dt).astype(f)), dt)),
        ("tfmod", "ab", lambda a, b, r, c, e: np.fmod(a, b)),
        ("tfmods", "as", lambda a, b, r, c, e: np.fmod(a, dt(S))),
        ("tprelu", "ab", lambda a, b, r, c, e: np.where(a > 0, a, rnd(a.astype(f) * b, dt))),
        ("tlrelu", "as", lambda a, b, r, c, e: np.where(a > 0, a, rnd(a.astype(f) * S, dt))),
        ("trowprod", "et", lambda a, b, r, c, e: rowprod(e, dt, target)),
        ("taddc", "abe", lambda a, b, r, c, e: add(add(a, b, dt), e, dt)),
        ("tsubc", "abe", lambda a, b, r, c, e: add(rnd(a.astype(f) - b.astype(f), dt), e, dt)),
        ("taddsc", "ase", lambda a, b, r, c, e: add(rnd(a.astype(f) + S, dt), e, dt)),
        ("tsubsc", "ase", lambda a, b, r, c, e: add(rnd(a.astype(f) - S, dt), e, dt)),
        ("taddc_alias", "abo", lambda a, b, r, c, e: add(add(a, b, dt), e, dt)),
        ("tsubsc_alias", "aso", lambda a, b, r, c, e: add(rnd(a.astype(f) - S, dt), e, dt)),
        ("taxpy", "es", lambda a, b, r, c, e: add(b, rnd(e.astype(f) * S, dt), dt)),
    ] + ([] if dt == np.float16 and target == "a2a3" else [  # trem: f32 only on A2A3
        ("trem", "ab", lambda a, b, r, c, e: floored_rem(a, b, dt)),
        ("trems", "as", lambda a, b, r, c, e: floored_rem(a, np.full(a.shape, S, dtype=dt), dt)),
    ])


def floored_rem(a, b, dt):
    """docs/semantics.md §7.1: fmod, then b added once (rounded) when the signs differ;
    a zero result takes b's sign"""
    r = np.fmod(a, b)
    fix = (r != 0) & (np.signbit(r) != np.signbit(b))
    r = np.where(fix, rnd(r.astype(np.float64) + b, dt), r)
    return np.where(r == 0, np.copysign(dt(0), b), r).astype(dt)


# Ops whose destination is loaded from an input first: taxpy adds into it, the _alias
# cases read it as their last source.
PRELOAD = {"taxpy": "b", "taddc_alias": "e", "tsubsc_alias": "e"}


def out_shape(name):
    if name.startswith("trow") and not name.startswith("trowexpand"):
        return (R, 1)
    if name.startswith("tcol") and not name.startswith("tcolexpand"):  # tcolsum_binary too
        return (1, C)
    return (R, C)


def tb(dt, rows, cols, col_major=False):
    return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=%s, slayout=none_box, fractal=512, pad=0>"
            % (dt, rows, cols, rows, cols, "col_major" if col_major else "row_major"))


def kernel(dts, target, names):
    T = tb(dts, R, C)
    TR = tb(dts, R, 1, True)
    TC = tb(dts, 1, C)
    lines = []
    args = ["%%%s: !pto.ptr<%s>" % (n, dts) for n in ["a", "b", "r", "c", "e"] + ["o_" + x for x in names]]
    lines.append('module attributes {pto.target_arch = "%s"} {' % target)
    lines.append("  func.func @vec(%s) attributes {pto.entry} {" % ", ".join(args))
    lines.append("    %c0 = arith.constant 0 : index")
    lines.append("    %c1 = arith.constant 1 : index")
    lines.append("    %%cR = arith.constant %d : index" % R)
    lines.append("    %%cC = arith.constant %d : index" % C)
    lines.append("    %%s = arith.constant %r : %s" % (S, dts))

    def view(name, rows, cols):
        lines.append("    %%v_%s = pto.make_tensor_view %%%s, shape = [%%c%s, %%c%s], strides = [%%c%s, %%c1] : !pto.tensor_view<?x?x%s>"
                     % (name, name, "R" if rows == R else "1", "C" if cols == C else "1", "C" if cols == C else "1", dts))
        lines.append("    %%p_%s = pto.partition_view %%v_%s, offsets = [%%c0, %%c0], sizes = [%%c%s, %%c%s] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                     % (name, name, "R" if rows == R else "1", "C" if cols == C else "1", dts, rows, cols, dts))
        return "!pto.partition_tensor_view<%dx%dx%s>" % (rows, cols, dts)

    def alloc(name, ty):
        lines.append("    %%t_%s = pto.alloc_tile : %s" % (name, ty))

    for n, rows, cols, ty in (("a", R, C, T), ("b", R, C, T), ("r", R, 1, TR), ("c", 1, C, TC),
                              ("e", R, C, T)):
        pv = view(n, rows, cols)
        alloc(n, ty)
        lines.append("    pto.tload ins(%%p_%s : %s) outs(%%t_%s : %s)" % (n, pv, n, ty))
    alloc("tmp", T)
    for x in names:
        shp = out_shape(x)
        ty = TR if shp == (R, 1) else TC if shp == (1, C) else T
        alloc("o_" + x, ty)
        ins = dict(a=("%t_a", T), b=("%t_b", T), r=("%t_r", TR), c=("%t_c", TC),
                   s=("%s", dts), t=("%t_tmp", T), e=("%t_e", T), o=("%t_o_" + x, ty))
        if x in PRELOAD:  # the destination starts as a copy of an input
            lines.append("    pto.tload ins(%%p_%s : !pto.partition_tensor_view<%dx%dx%s>) outs(%%t_o_%s : %s)"
                         % (PRELOAD[x], R, C, dts, x, ty))
        kinds = {o[0]: o[1] for o in ops(np.float32, target)}[x]
        op = "tdivs" if x == "tdivs_first" else x.split("_")[0]
        vals = [ins[k] for k in kinds]
        lines.append("    pto.%s ins(%s : %s) outs(%%t_o_%s : %s)%s" % (
            op, ", ".join(v[0] for v in vals), ", ".join(v[1] for v in vals), x, ty,
            " {isBinary = true}" if x.endswith("_binary") else ""))
        pv = view("o_" + x, shp[0], shp[1])
        lines.append("    pto.tstore ins(%%t_o_%s : %s) outs(%%p_o_%s : %s)" % (x, ty, x, pv))
    lines.append("    return")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    global R, C
    ptoc, target, dts, work = sys.argv[1:5]
    if len(sys.argv) > 5:
        R, C = (int(x) for x in sys.argv[5].split("x"))
    dt = {"f32": np.float32, "f16": np.float16}[dts]
    rng = np.random.default_rng(19)
    table = ops(dt, target)
    names = [o[0] for o in table]
    a = rnd(rng.uniform(-4, 4, (R, C)), dt)
    b = rnd(rng.uniform(0.125, 8, (R, C)), dt)
    r = rnd(rng.uniform(0.5, 2, (R, 1)), dt)
    c = rnd(rng.uniform(0.5, 2, (1, C)), dt)
    e = rnd(rng.uniform(0.5, 2, (R, C)) * rng.choice([-1, 1], (R, C)), dt)
    a[a == 0] = dt(1)
    os.makedirs(work, exist_ok=True)
    tag = "%s_%s_%dx%d" % (target, dts, R, C)
    src = os.path.join(work, "vec_%s.pto" % tag)
    with open(src, "w") as fh:
        fh.write(kernel(dts, target, names))
    cmd = [ptoc, "run", src, "--target", target]
    for n, x in (("a", a), ("b", b), ("r", r), ("c", c), ("e", e)):
        p = os.path.join(work, "in_%s_%s.bin" % (tag, n))
        x.tofile(p)
        cmd += ["--in", "%s=%s" % (n, p)]
    outs = {}
    for x in names:
        p = os.path.join(work, "out_%s_%s.bin" % (tag, x))
        outs[x] = p
        cmd += ["--out", "o_%s=%s" % (x, p)]
    rc = subprocess.run(cmd).returncode
    if rc:
        print("vec_check: ptoc run failed (%d)" % rc)
        return 1
    bad = 0
    utype = {np.float32: np.uint32, np.float16: np.uint16}[dt]
    for name, _, ref in table:
        want = np.asarray(ref(a, b, r, c, e), dtype=dt).reshape(out_shape(name))
        got = np.fromfile(outs[name], dtype=dt).reshape(out_shape(name))
        diff = np.nonzero(want.view(utype) != got.view(utype))
        if len(diff[0]):
            i = (diff[0][0], diff[1][0])
            print("FAIL %s %s %s: %d elements differ, first at %s: got %r want %r" % (
                target, dts, name, len(diff[0]), i, got[i], want[i]))
            bad += 1
        else:
            print("ok %s %s %s" % (target, dts, name))
    print("vec_check: %s %s %dx%d: %d ops, %d failed" % (target, dts, R, C, len(table), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
