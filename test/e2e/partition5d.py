#!/usr/bin/python3
"""partition5d.py: 5-D partitions through tload/tstore and `ptoc run`, checked with numpy.

  partition5d.py PTOC TARGET WORKDIR

Each case is a tensor view of shape S (rank 3 to 5, dense row-major strides) and a
partition (offsets O, sizes N) whose outer dims are larger than 1. The kernel tloads
the partition into a `mat` tile (row-major or col-major) and tstores the tile into a
dense 2-D output view. docs/semantics.md §6.2 says where element (i0..i4) of the
partition goes: for a row-major tile the outer dims flatten into rows (the tile is
(n0*n1*n2*n3) x n4), for a col-major one into columns (n3 x (n0*n1*n2*n4)); the 2-D
output is that tile, so numpy's reshape of the slice (after moving dim 3 first for the
col-major case) is the independent reference. A second kernel tloads the 2-D input
back and tstores it into the 5-D partition of a zeroed output, whose expected content
is the zero tensor with the slice written. Prints one line per case and a summary;
exit 1 on any failure.
"""
import os
import subprocess
import sys

import numpy as np

# (tensor shape, partition offsets, partition sizes, tile blayout)
CASES = [
    ((1, 1, 16, 64, 32), (0, 0, 0, 0, 0), (1, 1, 16, 16, 16), "row_major"),
    ((2, 3, 4, 8, 16), (0, 1, 1, 2, 0), (2, 2, 3, 5, 16), "row_major"),
    ((2, 3, 4, 8, 16), (1, 0, 1, 3, 4), (1, 3, 3, 4, 8), "row_major"),
    ((3, 5, 7, 24), (1, 2, 3, 4), (2, 3, 4, 16), "row_major"),
    ((5, 9, 32), (1, 2, 8), (3, 6, 16), "row_major"),
    ((2, 3, 4, 24, 16), (0, 1, 1, 2, 3), (2, 2, 3, 16, 4), "col_major"),
    ((2, 3, 4, 32, 8), (1, 0, 2, 0, 1), (1, 3, 2, 16, 5), "col_major"),
    ((5, 16, 9), (1, 0, 2), (3, 16, 6), "col_major"),
]


def up(x, m):
    return (x + m - 1) // m * m


def consts(vals, names):
    lines = []
    for v in sorted(set(vals)):
        if ("%%c%d" % v) not in names:
            names.add("%%c%d" % v)
            lines.append("    %%c%d = arith.constant %d : index" % (v, v))
    return lines


def lst(vals):
    return ", ".join("%%c%d" % v for v in vals)


def dims(vals):
    return "x".join(str(v) for v in vals)


def strides_of(shape):
    st, acc = [], 1
    for d in reversed(shape):
        st.insert(0, acc)
        acc *= d
    return st


def kernel(shape, off, size, blayout, load_5d):
    outer = int(np.prod(size[:-2]))
    if blayout == "row_major":
        vr, vc = outer * size[-2], size[-1]
    else:
        vr, vc = size[-2], outer * size[-1]
    rows, cols = up(vr, 16), up(vc, 16)
    st = strides_of(shape)
    st2 = [vc, 1]
    names = set()
    body = consts(list(shape) + list(off) + list(size) + st + [vr, vc, 0, 1], names)
    rank = len(shape)
    tb = ("!pto.tile_buf<loc=mat, dtype=f32, rows=%d, cols=%d, v_row=%d, v_col=%d, blayout=%s, "
          "slayout=none_box, fractal=512, pad=0>" % (rows, cols, vr, vc, blayout))
    t5 = "!pto.tensor_view<%sxf32>" % dims(shape)
    p5 = "!pto.partition_tensor_view<%sxf32>" % dims(size)
    t2 = "!pto.tensor_view<%dx%dxf32>" % (vr, vc)
    p2 = "!pto.partition_tensor_view<%dx%dxf32>" % (vr, vc)
    body += [
        "    %%v5 = pto.make_tensor_view %%%s, shape = [%s], strides = [%s] : %s"
        % ("src" if load_5d else "dst", lst(shape), lst(st), t5),
        "    %%p5 = pto.partition_view %%v5, offsets = [%s], sizes = [%s] : %s -> %s"
        % (lst(off), lst(size), t5, p5),
        "    %%v2 = pto.make_tensor_view %%%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : %s"
        % ("dst" if load_5d else "src", vr, vc, vc, t2),
        "    %%p2 = pto.partition_view %%v2, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : %s -> %s"
        % (vr, vc, t2, p2),
        "    %%t = pto.alloc_tile : %s" % tb,
    ]
    if load_5d:
        body += ["    pto.tload ins(%%p5 : %s) outs(%%t : %s)" % (p5, tb),
                 "    pto.tstore ins(%%t : %s) outs(%%p2 : %s)" % (tb, p2)]
    else:
        body += ["    pto.tload ins(%%p2 : %s) outs(%%t : %s)" % (p2, tb),
                 "    pto.tstore ins(%%t : %s) outs(%%p5 : %s)" % (tb, p5)]
    del rank
    return ("module {\n  func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) {\n" +
            "\n".join(body) + "\n    return\n  }\n}\n")


def flat(x, blayout):
    """The partition slice as the 2-D tile of docs/semantics.md §6.2."""
    x5 = x.reshape((1,) * (5 - x.ndim) + x.shape)
    if blayout == "row_major":
        return x5.reshape(-1, x5.shape[4])
    return x5.transpose(3, 0, 1, 2, 4).reshape(x5.shape[3], -1)


def main():
    ptoc, target, work = sys.argv[1:4]
    rng = np.random.default_rng(5)
    failed = 0
    for n, (shape, off, size, blayout) in enumerate(CASES):
        sl = tuple(slice(o, o + s) for o, s in zip(off, size))
        src5 = rng.standard_normal(shape).astype(np.float32)
        want2 = flat(src5[sl], blayout)
        ok = True
        for load_5d in (True, False):
            f = os.path.join(work, "p5_%s_%d_%d.pto" % (target, n, load_5d))
            with open(f, "w") as fh:
                fh.write(kernel(shape, off, size, blayout, load_5d))
            i, o = f + ".in", f + ".out"
            (src5 if load_5d else want2).tofile(i)
            r = subprocess.run([ptoc, "run", f, "--target", target, "--in", "src=" + i,
                                "--out", "dst=" + o], capture_output=True, text=True)
            if r.returncode:
                print("FAIL %s: %s" % (f, r.stderr.strip()))
                ok = False
                continue
            got = np.fromfile(o, dtype=np.float32)
            if load_5d:
                want = want2.reshape(-1)
            else:
                z = np.zeros(shape, dtype=np.float32)
                z[sl] = src5[sl]
                want = z.reshape(-1)
            if got.shape != want.shape or got.view(np.uint32).tolist() != want.view(np.uint32).tolist():
                print("FAIL %s: %s" % (f, "differs from numpy"))
                ok = False
        print("partition5d: %s %s %s offsets %s sizes %s %s: %s"
              % (target, dims(shape), blayout, off, size, "load+store", "ok" if ok else "FAILED"))
        failed += not ok
    print("partition5d: %s: %d cases, %d failed" % (target, len(CASES), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
