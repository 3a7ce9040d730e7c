#!/usr/bin/python3
"""vec_check_part.py: tpartadd / tpartmul / tpartmax / tpartmin end to end.

  vec_check_part.py PTOC TARGET DTYPE WORKDIR [RxC]

One kernel (default 16x64) loads R x C inputs a and b into tiles whose valid regions
differ, applies each partial op in five patterns and stores every R x C destination:
  eq     both sources have dst's valid region
  rows   src1 has R/2 valid rows (all columns)
  cols   src1 has R-3 rows and C-5 columns
  swap   src0 has R/2 rows and C/2 columns, src1 is whole
  inpl   as cols, the destination is src0's own tile
Each output is compared bit for bit with numpy (docs/semantics.md §7.3): where both
sources are valid, the element op (floats: f32 in numpy float32, IEEE; f16 in float64
rounded once; integers wrap); elsewhere the whole source's element.
DTYPE f32, f16, i16 or i32. Prints one line per case and
`vec_check_part: TARGET DTYPE RxC: N cases, K failed`; exit 1 when one differs.
"""
import os
import subprocess
import sys

import numpy as np

R, C = 16, 64
OPS = ("tpartadd", "tpartmul", "tpartmax", "tpartmin")


def patterns():
    """name -> (src0 valid, src1 valid, in place)"""
    return {"eq": ((R, C), (R, C), False), "rows": ((R, C), (R // 2, C), False),
            "cols": ((R, C), (R - 3, C - 5), False), "swap": ((R // 2, C // 2), (R, C), False),
            "inpl": ((R, C), (R - 3, C - 5), True)}


def elem(op, x, y, dt):
    if np.issubdtype(dt, np.integer):
        w = x.astype(np.int64), y.astype(np.int64)
        v = {"tpartadd": w[0] + w[1], "tpartmul": w[0] * w[1],
             "tpartmax": np.maximum(*w), "tpartmin": np.minimum(*w)}[op]
        return v.astype(dt)
    if op == "tpartmax":
        return np.maximum(x, y)
    if op == "tpartmin":
        return np.minimum(x, y)
    if dt == np.float32:
        return x + y if op == "tpartadd" else x * y
    f = np.float64
    return (x.astype(f) + y.astype(f) if op == "tpartadd" else x.astype(f) * y.astype(f)).astype(dt)


def reference(op, pat, a, b, dt):
    (r0, c0), (r1, c1), _ = patterns()[pat]
    full = a if (r0, c0) == (R, C) else b
    pr, pc = (r1, c1) if full is a else (r0, c0)
    out = full.copy()
    out[:pr, :pc] = elem(op, a[:pr, :pc], b[:pr, :pc], dt)
    return out


def tb(dt, v_row, v_col):
    return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=row_major, slayout=none_box, fractal=512, pad=0>" % (dt, R, C, v_row, v_col))


def kernel(dts, target):
    lines, n = [], [0]
    outs = ["%s_%s" % (op, p) for op in OPS for p in patterns()]
    args = ["%%a: !pto.ptr<%s>" % dts, "%%b: !pto.ptr<%s>" % dts]
    args += ["%%o_%s: !pto.ptr<%s>" % (o, dts) for o in outs]
    lines.append('module attributes {pto.target_arch = "%s"} {' % target)
    lines.append("  func.func @part(%s) attributes {pto.entry} {" % ", ".join(args))
    lines.append("    %c0 = arith.constant 0 : index")
    lines.append("    %c1 = arith.constant 1 : index")
    sizes = sorted({R, C, R // 2, C // 2, R - 3, C - 5} - {0, 1})
    for v in sizes:
        lines.append("    %%c%d = arith.constant %d : index" % (v, v))
    for g in ("a", "b"):
        lines.append("    %%v_%s = pto.make_tensor_view %%%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>"
                     % (g, g, R, C, C, dts))

    def load(g, vr, vc):
        n[0] += 1
        t = "%%t%d" % n[0]
        pv = "!pto.partition_tensor_view<%dx%dx%s>" % (vr, vc, dts)
        lines.append("    %%p%d = pto.partition_view %%v_%s, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> %s"
                     % (n[0], g, vr, vc, dts, pv))
        lines.append("    %s = pto.alloc_tile : %s" % (t, tb(dts, vr, vc)))
        lines.append("    pto.tload ins(%%p%d : %s) outs(%s : %s)" % (n[0], pv, t, tb(dts, vr, vc)))
        return t

    tiles = {}
    for op in OPS:
        for p, (s0, s1, inpl) in patterns().items():
            if inpl or (("a",) + s0) not in tiles:
                t0 = load("a", *s0)
                if not inpl:
                    tiles[("a",) + s0] = t0
            else:
                t0 = tiles[("a",) + s0]
            if ("b",) + s1 not in tiles:
                tiles[("b",) + s1] = load("b", *s1)
            t1 = tiles[("b",) + s1]
            T = tb(dts, R, C)
            name = "%s_%s" % (op, p)
            if inpl:
                d = t0
            else:
                d = "%%o_t_%s" % name
                lines.append("    %s = pto.alloc_tile : %s" % (d, T))
            lines.append("    pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (
                op, t0, t1, tb(dts, *s0), tb(dts, *s1), d, T))
            pv = "!pto.partition_tensor_view<%dx%dx%s>" % (R, C, dts)
            lines.append("    %%ov_%s = pto.make_tensor_view %%o_%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>"
                         % (name, name, R, C, C, dts))
            lines.append("    %%op_%s = pto.partition_view %%ov_%s, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> %s"
                         % (name, name, R, C, dts, pv))
            lines.append("    pto.tstore ins(%s : %s) outs(%%op_%s : %s)" % (d, T, name, pv))
    lines.append("    return")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n", outs


def main():
    global R, C
    ptoc, target, dts, work = sys.argv[1:5]
    if len(sys.argv) > 5:
        R, C = (int(x) for x in sys.argv[5].split("x"))
    dt = {"f32": np.float32, "f16": np.float16, "i16": np.int16, "i32": np.int32}[dts]
    rng = np.random.default_rng(23)
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, (R, C), endpoint=True).astype(dt)
        b = rng.integers(info.min, info.max, (R, C), endpoint=True).astype(dt)
    else:
        a = rng.uniform(-2, 2, (R, C)).astype(dt)
        b = rng.uniform(-2, 2, (R, C)).astype(dt)
        b[0, :4] = -a[0, :4]  # exact cancellations: +0
    os.makedirs(work, exist_ok=True)
    tag = "%s_%s_%dx%d" % (target, dts, R, C)
    src = os.path.join(work, "part_%s.pto" % tag)
    text, outs = kernel(dts, target)
    with open(src, "w") as fh:
        fh.write(text)
    cmd = [ptoc, "run", src, "--target", target]
    for g, x in (("a", a), ("b", b)):
        p = os.path.join(work, "pin_%s_%s.bin" % (tag, g))
        x.tofile(p)
        cmd += ["--in", "%s=%s" % (g, p)]
    files = {}
    for o in outs:
        files[o] = os.path.join(work, "pout_%s_%s.bin" % (tag, o))
        cmd += ["--out", "o_%s=%s" % (o, files[o])]
    rc = subprocess.run(cmd).returncode
    if rc:
        print("vec_check_part: ptoc run failed (%d)" % rc)
        return 1
    bad = 0
    u = "u%d" % np.dtype(dt).itemsize
    for o in outs:
        op, pat = o.split("_")
        want = reference(op, pat, a, b, dt)
        got = np.fromfile(files[o], dtype=dt).reshape(R, C)
        diff = np.nonzero(want.view(u) != got.view(u))
        if len(diff[0]):
            i = (diff[0][0], diff[1][0])
            print("FAIL %s %s %s: %d elements differ, first at %s: got %r want %r" % (
                target, dts, o, len(diff[0]), i, got[i], want[i]))
            bad += 1
        else:
            print("ok %s %s %s" % (target, dts, o))
    print("vec_check_part: %s %s %dx%d: %d cases, %d failed" % (target, dts, R, C, len(outs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
