#!/usr/bin/python3
"""cvt_dynvalid_check.py: tcvt on a valid shape known only at run time, both targets.

  cvt_dynvalid_check.py PTOC TARGET WORKDIR

For each conversion below, a kernel loads an 8x64 tile, sets its valid shape to
(m, n) with pto.set_validshape (run-time values) and converts it into a tile whose
valid shape is (m, n) too, then stores that tile over a prefilled output; its twin
has the same (m, n) as constants (on A2A3: the repeat form with masks). For ragged
shapes (m, n) = (1, 1), (3, 37), (8, 64), (5, 63), (8, 1), (2, 129 - 65) the output
must equal the twin's byte for byte, and numpy's conversion inside the region (f32 ->
f16 and f16 -> f32 with ties to even, f32 -> i32 rounded to nearest even, the
saturating f32 -> bf16 of docs/semantics.md §3.2 through the exact twin) with the
prefill outside. Prints one line per conversion; exit 1 on any difference.
"""
import os
import subprocess
import sys

import numpy as np

TB = ("!pto.tile_buf<loc=vec, dtype=%s, rows=8, cols=64, v_row=%s, v_col=%s, "
      "blayout=row_major, slayout=none_box, fractal=512, pad=0>")
NP = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "bf16": np.uint16, "i16": np.int16}

KERNEL = """module {
  func.func @k(%%a: !pto.ptr<%(S)s>, %%o: !pto.ptr<%(D)s>, %%m: index, %%n: index) attributes {pto.entry} {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%c8 = arith.constant 8 : index
    %%c64 = arith.constant 64 : index
    %%va = pto.make_tensor_view %%a, shape = [%%c8, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<?x?x%(S)s>
    %%vo = pto.make_tensor_view %%o, shape = [%%c8, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<?x?x%(D)s>
    %%pm = arith.constant %(PM)s : index
    %%pn = arith.constant %(PN)s : index
    %%pa = pto.partition_view %%va, offsets = [%%c0, %%c0], sizes = [%%pm, %%pn] : !pto.tensor_view<?x?x%(S)s> -> !pto.partition_tensor_view<%(PM)sx%(PN)sx%(S)s>
    %%po = pto.partition_view %%vo, offsets = [%%c0, %%c0], sizes = [%%pm, %%pn] : !pto.tensor_view<?x?x%(D)s> -> !pto.partition_tensor_view<%(PM)sx%(PN)sx%(D)s>
%(ALLOC)s
    pto.tload ins(%%pa : !pto.partition_tensor_view<%(PM)sx%(PN)sx%(S)s>) outs(%%t : %(TS)s)
%(SETV)s
    pto.tcvt ins(%%t {rmode = #pto<round_mode %(RM)s>} : %(TSV)s) outs(%%u : %(TD)s)
    pto.tstore ins(%%u : %(TD)s) outs(%%po : !pto.partition_tensor_view<%(PM)sx%(PN)sx%(D)s>)
    return
  }
}
"""


def kernel(s, d, rm, m, n):
    """m, n None: the dynamic kernel; else the static twin."""
    if m is None:
        ts = TB % (s, "?", "?")
        td = TB % (d, "?", "?")
        alloc = ("    %%t = pto.alloc_tile valid_row = %%c8 valid_col = %%c64 : %s\n"
                 "    %%u = pto.alloc_tile valid_row = %%m valid_col = %%n : %s" % (ts, td))
        setv = "    pto.set_validshape %%t, %%m, %%n : %s" % ts
        tsv = ts
    else:
        ts = TB % (s, m, n)
        td = TB % (d, m, n)
        alloc = "    %%t = pto.alloc_tile : %s\n    %%u = pto.alloc_tile : %s" % (ts, td)
        # the twin loads and stores the region only (a static tile's transfers cover
        # its valid shape), so its load reads the region and leaves the rest zero
        setv = ""
        tsv = ts
    return KERNEL % {"S": s, "D": d, "RM": rm, "ALLOC": alloc, "TS": ts, "SETV": setv,
                     "TSV": tsv, "TD": td, "PM": 8 if m is None else m, "PN": 64 if m is None else n}


def run(ptoc, path, target, a, o0, m, n, work, tag):
    ain, out = os.path.join(work, "a_%s.bin" % tag), os.path.join(work, "o_%s.bin" % tag)
    a.tofile(ain)
    o0.tofile(out)
    cmd = [ptoc, "run", path, "--target", target, "--in", "a=" + ain, "--in", "o=" + out,
           "--out", "o=" + out, "--arg", "m=%d" % m, "--arg", "n=%d" % n]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stderr)
        return None
    return np.fromfile(out, dtype=o0.dtype).reshape(8, 64)


def main():
    ptoc, target, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(7)
    bad = 0
    shapes = [(1, 1), (3, 37), (8, 64), (5, 63), (8, 1), (2, 64)]
    for s, d, rm, ref in [("f32", "f16", "RINT", lambda x: x.astype(np.float16)),
                          ("f16", "f32", "RINT", lambda x: x.astype(np.float32)),
                          ("f32", "i32", "RINT", lambda x: np.rint(x).astype(np.int32)),
                          ("f32", "bf16", "RINT", None),
                          ("f32", "i16", "TRUNC", None)]:
        if s == "f32":
            a = (rng.standard_normal((8, 64)) * 3000).astype(np.float32)
        else:
            a = (rng.standard_normal((8, 64)) * 30).astype(np.float16)
        o0 = (np.arange(8 * 64) % 251).astype(NP[d]).reshape(8, 64)
        dyn = os.path.join(work, "dyn_%s_%s.pto" % (s, d))
        with open(dyn, "w") as f:
            f.write(kernel(s, d, rm, None, None))
        nb = cases = 0
        for m, n in shapes:
            st = os.path.join(work, "st_%s_%s_%d_%d.pto" % (s, d, m, n))
            with open(st, "w") as f:
                f.write(kernel(s, d, rm, m, n))
            got = run(ptoc, dyn, target, a, o0, m, n, work, "d")
            twin = run(ptoc, st, target, a, o0, m, n, work, "s")
            if got is None or twin is None:
                print("cvt_dynvalid_check: ptoc run failed (%s -> %s %dx%d)" % (s, d, m, n))
                return 1
            cases += got.size
            nb += int((got.view(np.uint8) != twin.view(np.uint8)).sum())
            if ref is not None:
                want = o0.copy()
                want[:m, :n] = ref(a[:m, :n])
                nb += int((got.view(np.uint8) != want.view(np.uint8)).sum())
            else:
                want = o0.copy()
                outside = np.ones((8, 64), bool)
                outside[:m, :n] = False
                nb += int((got[outside] != want[outside]).sum())
        print("cvt_dynvalid_check: %s %s -> %s: %d shapes, %d elements, %d differ"
              % (target, s, d, len(shapes), cases, nb))
        bad += nb
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
