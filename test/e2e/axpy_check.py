#!/usr/bin/python3
"""axpy_check.py: taxpy with an f16 source and an f32 destination through `ptoc run`.

  axpy_check.py PTOC TARGET WORKDIR RxC

dst (f32, loaded from y) = y + f32(x) * f32(s), the product rounded to f32 (exact for
two f16 values) and the sum rounded once (docs/semantics.md §7.3), against numpy;
also dst == src-shaped f32 taxpy with a scalar that needs rounding (0.1 as f32).
Prints `axpy_check: TARGET RxC: N cases, K failed`; exit 1 when one differs.
"""
import os
import subprocess
import sys

import numpy as np


def kernel(target, R, C):
    def tb(dt):
        return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
                "blayout=row_major, slayout=none_box, fractal=512, pad=0>" % (dt, R, C, R, C))
    L = ['module attributes {pto.target_arch = "%s"} {' % target,
         "  func.func @k(%x: !pto.ptr<f16>, %y: !pto.ptr<f32>, %o: !pto.ptr<f32>, %o2: !pto.ptr<f32>) attributes {pto.entry} {",
         "    %c0 = arith.constant 0 : index",
         "    %c1 = arith.constant 1 : index",
         "    %%cR = arith.constant %d : index" % R,
         "    %%cC = arith.constant %d : index" % C,
         "    %s = arith.constant 0.375 : f16",
         "    %s2 = arith.constant 0.1 : f32"]
    for n, dt in (("x", "f16"), ("y", "f32"), ("o", "f32"), ("o2", "f32")):
        L.append("    %%v_%s = pto.make_tensor_view %%%s, shape = [%%cR, %%cC], strides = [%%cC, %%c1] : !pto.tensor_view<?x?x%s>" % (n, n, dt))
        L.append("    %%p_%s = pto.partition_view %%v_%s, offsets = [%%c0, %%c0], sizes = [%%cR, %%cC] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>" % (n, n, dt, R, C, dt))
    px = "!pto.partition_tensor_view<%dx%dxf16>" % (R, C)
    py = "!pto.partition_tensor_view<%dx%dxf32>" % (R, C)
    L += ["    %%tx = pto.alloc_tile : %s" % tb("f16"),
          "    pto.tload ins(%%p_x : %s) outs(%%tx : %s)" % (px, tb("f16")),
          "    %%ty = pto.alloc_tile : %s" % tb("f32"),
          "    pto.tload ins(%%p_y : %s) outs(%%ty : %s)" % (py, tb("f32")),
          "    %%t2 = pto.alloc_tile : %s" % tb("f32"),
          "    pto.tload ins(%%p_y : %s) outs(%%t2 : %s)" % (py, tb("f32")),
          "    pto.taxpy ins(%%tx, %%s : %s, f16) outs(%%ty : %s)" % (tb("f16"), tb("f32")),
          "    pto.tstore ins(%%ty : %s) outs(%%p_o : %s)" % (tb("f32"), py),
          "    pto.taxpy ins(%%t2, %%s2 : %s, f32) outs(%%t2 : %s)" % (tb("f32"), tb("f32")),
          "    pto.tstore ins(%%t2 : %s) outs(%%p_o2 : %s)" % (tb("f32"), py),
          "    return", "  }", "}"]
    return "\n".join(L) + "\n"


def main():
    ptoc, target, work, shape = sys.argv[1:5]
    R, C = (int(v) for v in shape.split("x"))
    rng = np.random.default_rng(5)
    x = rng.uniform(-60, 60, (R, C)).astype(np.float16)
    y = rng.uniform(-1, 1, (R, C)).astype(np.float32)
    os.makedirs(work, exist_ok=True)
    tag = "%s_%dx%d" % (target, R, C)
    src = os.path.join(work, "axpy_%s.pto" % tag)
    with open(src, "w") as fh:
        fh.write(kernel(target, R, C))
    paths = {n: os.path.join(work, "axpy_%s_%s.bin" % (tag, n)) for n in ("x", "y", "o", "o2")}
    x.tofile(paths["x"])
    y.tofile(paths["y"])
    cmd = [ptoc, "run", src, "--target", target, "--in", "x=" + paths["x"], "--in",
           "y=" + paths["y"], "--out", "o=" + paths["o"], "--out", "o2=" + paths["o2"]]
    if subprocess.run(cmd).returncode:
        print("axpy_check: ptoc run failed")
        return 1
    f = np.float64
    s2 = np.float32(0.1)
    want = {"o": (y.astype(f) + (x.astype(f) * 0.375).astype(np.float32)).astype(np.float32),
            # y + y * s2: the product rounded to f32, then the sum
            "o2": (y.astype(f) + (y.astype(f) * f(s2)).astype(np.float32)).astype(np.float32)}
    bad = 0
    for n, w in want.items():
        got = np.fromfile(paths[n], dtype=np.float32).reshape(R, C)
        d = np.nonzero(got.view(np.uint32) != w.view(np.uint32))
        if len(d[0]):
            print("FAIL %s %s: %d differ, first at %s: got %r want %r" % (
                target, n, len(d[0]), (d[0][0], d[1][0]), got[d[0][0], d[1][0]], w[d[0][0], d[1][0]]))
            bad += 1
    print("axpy_check: %s %s: %d cases, %d failed" % (target, shape, len(want), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
