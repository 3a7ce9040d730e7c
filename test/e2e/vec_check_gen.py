#!/usr/bin/python3
"""vec_check_gen.py: the generating vector ops end to end through `ptoc run`.

  vec_check_gen.py PTOC TARGET DTYPE WORKDIR [RxC]

One kernel per target and element type (default 16x64) with
  * tci (i16, i32, ui16, ui32): row 0's valid columns S + k and S - k, S near the
    type's edges so that the sequence wraps; the rest of the tile keeps what was
    loaded there;
  * ttri (every type the target takes): lower and upper masks for diagonals -3, 0
    and 5 (ones and zeros of the type), written over a loaded tile;
  * tfillpad_expand: a source of R/2 x C/2 valid elements into a destination twice
    its physical size, pad max / min / zero;
  * tfillpad_inplace: source and destination at the same UB address (the source's
    valid region R - 3 x C/2 of the destination's R x C), pad max and zero: only the
    elements outside the source's region are written;
each output compared bit for bit with numpy (docs/semantics.md §7.3). Prints one line
per case and `vec_check_gen: TARGET DTYPE RxC: N ops, K failed`; exit 1 when one
differs.
"""
import os
import subprocess
import sys

import numpy as np

R, C = 16, 64
NP = {"f32": np.float32, "f16": np.float16, "i16": np.int16, "i32": np.int32,
      "ui16": np.uint16, "ui32": np.uint32, "i8": np.int8, "ui8": np.uint8}


def bf16_bits(x):
    """float32 values (exactly bf16) as bf16 bit patterns"""
    return (np.asarray(x, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def tb(dt, rows, cols, vr=None, vc=None, pad=0):
    return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=row_major, slayout=none_box, fractal=512, pad=%d>"
            % (dt, rows, cols, rows if vr is None else vr, cols if vc is None else vc, pad))


def cases(dts, target):
    """(name, kind, parameters)"""
    out = []
    if dts in ("i16", "i32", "ui16", "ui32"):
        bits = 16 if "16" in dts else 32
        lo = 0 if dts.startswith("ui") else -(1 << (bits - 1))
        hi = (1 << bits) - 1 if dts.startswith("ui") else (1 << (bits - 1)) - 1
        out += [("tci_up", "tci", (hi - 20, False)), ("tci_down", "tci", (lo + 20, True)),
                ("tci_mid", "tci", (7, False))]
    tri_types = {"a2a3": ("f32", "f16", "i16", "i32", "ui16", "ui32"),
                 "a5": ("f32", "f16", "bf16", "i8", "i16", "i32", "ui8", "ui16", "ui32")}
    if dts in tri_types[target]:
        for ul in (0, 1):
            for d in (-3, 0, 5):
                out.append(("ttri_%d_%s" % (ul, str(d).replace("-", "m")), "ttri", (ul, d)))
    wide = dts not in ("i8", "ui8") or target == "a5"
    if wide:
        out += [("fpexp_max", "expand", 2), ("fpexp_min", "expand", 3), ("fpexp_zero", "expand", 1),
                ("fpin_max", "inplace", 2), ("fpin_zero", "inplace", 1)]
    return out


def kernel(dts, target, table):
    T = tb(dts, R, C)
    lines = ['module attributes {pto.target_arch = "%s"} {' % target]
    args = ["%a: !pto.ptr<" + dts + ">"] + ["%%o_%s: !pto.ptr<%s>" % (n, dts) for n, _, _ in table]
    lines.append("  func.func @gen(%s) attributes {pto.entry} {" % ", ".join(args))
    for v in sorted({0, 1, R, C, 2 * R, 2 * C, R // 2, C // 2, R - 3}):
        lines.append("    %%c%d = arith.constant %d : index" % (v, v))
    lines.append("    %cA = arith.constant 131072 : index")

    def view(name, ptr, rows, cols, prow, pcol):
        lines.append("    %%v_%s = pto.make_tensor_view %%%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>"
                     % (name, ptr, rows, cols, cols, dts))
        lines.append("    %%p_%s = pto.partition_view %%v_%s, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                     % (name, name, prow, pcol, dts, prow, pcol, dts))
        return "!pto.partition_tensor_view<%dx%dx%s>" % (prow, pcol, dts)

    pa = view("a", "a", R, C, R, C)
    pq = view("aq", "a", R, C, R // 2, C // 2)
    ph = view("ah", "a", R, C, R - 3, C // 2)
    TQ = tb(dts, R, C, R // 2, C // 2)
    lines.append("    %%t_q = pto.alloc_tile : %s" % TQ)
    lines.append("    pto.tload ins(%%p_aq : %s) outs(%%t_q : %s)" % (pq, TQ))
    et = "i32" if "32" in dts else "i16" if "16" in dts else "i8"
    for name, kind, par in table:
        if kind == "expand":
            TO = tb(dts, 2 * R, 2 * C, R, C, pad=par)
            lines.append("    %%t_%s = pto.alloc_tile : %s" % (name, TO))
            lines.append("    pto.tfillpad_expand ins(%%t_q : %s) outs(%%t_%s : %s)" % (TQ, name, TO))
            out_t, out_ty = "%t_" + name, TO  # its valid R x C region is stored
        elif kind == "inplace":
            TS = tb(dts, R, C, R - 3, C // 2)
            TD = tb(dts, R, C, pad=par)
            lines.append("    %%s_%s = pto.alloc_tile addr = %%cA : %s" % (name, TS))
            lines.append("    %%t_%s = pto.alloc_tile addr = %%cA : %s" % (name, TD))
            lines.append("    pto.tload ins(%%p_a : %s) outs(%%t_%s : %s)" % (pa, name, TD))
            lines.append("    pto.tload ins(%%p_ah : %s) outs(%%s_%s : %s)" % (ph, name, TS))
            lines.append("    pto.tfillpad_inplace ins(%%s_%s : %s) outs(%%t_%s : %s)" % (name, TS, name, TD))
            out_t, out_ty = "%t_" + name, TD
        else:
            lines.append("    %%t_%s = pto.alloc_tile : %s" % (name, T))
            lines.append("    pto.tload ins(%%p_a : %s) outs(%%t_%s : %s)" % (pa, name, T))
            if kind == "tci":
                s, desc = par
                lines.append("    %%s_%s = arith.constant %d : %s" % (name, s, et))
                lines.append("    pto.tci ins(%%s_%s {descending = %s} : %s) outs(%%t_%s : %s)"
                             % (name, "true" if desc else "false", et, name, T))
            else:
                ul, d = par
                lines.append("    %%s_%s = arith.constant %d : i32" % (name, d))
                lines.append("    pto.ttri ins(%%s_%s {upperOrLower = %d : i32} : i32) outs(%%t_%s : %s)"
                             % (name, ul, name, T))
            out_t, out_ty = "%t_" + name, T
        po = view("o_" + name, "o_" + name, R, C, R, C)
        lines.append("    pto.tstore ins(%s : %s) outs(%%p_o_%s : %s)" % (out_t, out_ty, name, po))
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def main():
    global R, C
    ptoc, target, dts, work = sys.argv[1:5]
    if len(sys.argv) > 5:
        R, C = (int(x) for x in sys.argv[5].split("x"))
    rng = np.random.default_rng(11)
    if dts == "bf16":
        vals = rng.uniform(-4, 4, (R, C)).astype(np.float32)
        a = bf16_bits(vals)
        ut = np.uint16
        one, zero, pmax, pmin = 0x3F80, 0, 0x7F80, 0xFF80
    else:
        dt = NP[dts]
        if dts.startswith("f"):
            a = rng.uniform(-4, 4, (R, C)).astype(dt)
            one, zero, pmax, pmin = dt(1), dt(0), dt(np.inf), dt(-np.inf)
        else:
            info = np.iinfo(dt)
            a = rng.integers(info.min, info.max, (R, C), endpoint=True).astype(dt)
            one, zero, pmax, pmin = dt(1), dt(0), dt(info.max), dt(info.min)
        ut = "u%d" % a.itemsize
    adt = a.dtype
    table = cases(dts, target)
    os.makedirs(work, exist_ok=True)
    tag = "%s_%s_%dx%d" % (target, dts, R, C)
    src = os.path.join(work, "gen_%s.pto" % tag)
    with open(src, "w") as fh:
        fh.write(kernel(dts, target, table))
    ain = os.path.join(work, "gen_%s_a.bin" % tag)
    a.tofile(ain)
    cmd = [ptoc, "run", src, "--target", target, "--in", "a=" + ain]
    outs = {}
    for name, _, _ in table:
        outs[name] = os.path.join(work, "gen_%s_%s.bin" % (tag, name))
        cmd += ["--out", "o_%s=%s" % (name, outs[name])]
    if subprocess.run(cmd).returncode:
        print("vec_check_gen: ptoc run failed")
        return 1
    bad = 0
    for name, kind, par in table:
        want = a.copy()
        if kind == "tci":
            s, desc = par
            bits = 8 * a.itemsize
            k = np.arange(C, dtype=np.int64)
            seq = (s - k) if desc else (s + k)
            want[0, :] = (seq % (1 << bits)).astype("u%d" % a.itemsize).view(adt)
        elif kind == "ttri":
            ul, d = par
            i = np.arange(R).reshape(R, 1)
            j = np.arange(C).reshape(1, C)
            ones = (j >= i + d) if ul else (j <= i + d)
            want = np.where(ones, one, zero).astype(adt)
        elif kind == "expand":
            pv = {1: zero, 2: pmax, 3: pmin}[par]
            want = np.full((R, C), pv, dtype=adt)
            want[:R // 2, :C // 2] = a[:R // 2, :C // 2]
        else:
            pv = {1: zero, 2: pmax}[par]
            want = np.full((R, C), pv, dtype=adt)
            want[:R - 3, :C // 2] = a[:R - 3, :C // 2]
        got = np.fromfile(outs[name], dtype=adt).reshape(R, C)
        diff = np.nonzero(want.view(ut) != got.view(ut))
        if len(diff[0]):
            i = (diff[0][0], diff[1][0])
            print("FAIL %s %s %s: %d elements differ, first at %s: got %r want %r" % (
                target, dts, name, len(diff[0]), i, got[i], want[i]))
            bad += 1
        else:
            print("ok %s %s %s" % (target, dts, name))
    print("vec_check_gen: %s %s %dx%d: %d ops, %d failed" % (target, dts, R, C, len(table), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
