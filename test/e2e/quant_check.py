#!/usr/bin/python3
"""quant_check.py: tquant and tdequant end to end through `ptoc run` (docs/semantics.md §7.8g).

  quant_check.py PTOC TARGET WORKDIR

Each case loads src and the per-row parameter tiles from GM, runs the op and stores dst.
The expectation is written here from the rule, not from the runtime's steps:
tquant: y = f32(x * s) (numpy float32, IEEE round to nearest even), y = f32(y + o) for
INT8_ASYM, then a NaN gives 0 and anything else rint(y) clipped to [-128, 127] (i8) or
[0, 255] (ui8) — the runtime's chain f32 -> i32 -> f16 -> i8 must agree with that
clip; tdequant: f32((f32(x) - o)) * s in float32. s and o are element (r, 0) of the
scale and offset tiles (their other columns hold noise that must not be read).
pto_ref's model of each op is checked against the same expectation. Prints one line
per case and `quant_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_check import tb, same_bits, run_groups  # noqa: E402
import pto_ref  # noqa: E402

R, C, PC = 16, 32, 8


def special_f32(rng, shape):
    """normal values over many magnitudes, with halves (ties), infinities and NaN"""
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 4, size=shape)
    x = x.astype(np.float32)
    flat = x.reshape(-1)
    k = flat.size
    picks = rng.choice(k, size=min(k, 24), replace=False)
    specials = np.array([np.nan, np.inf, -np.inf, 0.5, -0.5, 1.5, 2.5, -2.5, 127.5, -128.5, 255.5,
                         1e30, -1e30, -0.0, 0.0, 126.5, 3e9, -3e9, 65520.0, 254.5, -0.49, 0.49,
                         128.0, -129.0], dtype=np.float32)
    flat[picks] = specials[:len(picks)]
    return x


def quant_want(x, s, o, asym):
    with np.errstate(all="ignore"):
        y = (x * s).astype(np.float32)
        if asym:
            y = (y + o).astype(np.float32)
        y = np.where(np.isnan(y), np.float32(0), y).astype(np.float64)
        lo, hi, t = (0, 255, np.uint8) if asym else (-128, 127, np.int8)
        return np.clip(np.rint(y), lo, hi).astype(t)


def dequant_want(x, s, o):
    with np.errstate(all="ignore"):
        return ((x.astype(np.float32) - o).astype(np.float32) * s).astype(np.float32)


def case_quant(c, k, d, asym, vr, vc, seed):
    rng = np.random.default_rng(seed)
    dt = "ui8" if asym else "i8"
    a, an, af = c.arg(k, d, "src", "f32")
    sp, sn, sf = c.arg(k, d, "scale", "f32")
    op, on, of = c.arg(k, d, "off", "f32")
    o_, oun, ouf = c.arg(k, d, "out", dt)
    aty, pty = tb("vec", "f32", R, C, vr, vc), tb("vec", "f32", R, PC, vr, PC)
    dty = tb("vec", dt, R, C, vr, vc)
    x = k.load(a, "f32", vr, vc, aty)
    s = k.load(sp, "f32", vr, PC, pty)
    ins, tys = [x, s], [aty, pty]
    if asym:
        ins.append(k.load(op, "f32", vr, PC, pty))
        tys.append(pty)
    z = k.load(o_, dt, vr, vc, dty)
    k.emit("pto.tquant ins(%s : %s) outs(%s : %s) {quant_type = #pto<quant_type %s>}"
           % (", ".join(ins), ", ".join(tys), z, dty, "INT8_ASYM" if asym else "INT8_SYM"))
    k.store(z, dty, o_, dt, vr, vc)
    X = special_f32(rng, (vr, vc))
    S = (rng.standard_normal((vr, PC)) * 10.0 ** rng.integers(-2, 2, size=(vr, PC))).astype(np.float32)
    S[0, 0] = np.float32(0.5)
    O = np.rint(rng.standard_normal((vr, PC)) * 60).astype(np.float32) + np.float32(0.5) * (
        rng.integers(0, 2, size=(vr, PC)).astype(np.float32))
    Z = rng.integers(0, 256, size=(vr, vc)).astype(np.uint8).view(np.int8 if not asym else np.uint8)
    want = quant_want(X, S[:, :1], O[:, :1], asym)
    ts = [pto_ref.Tile(ty) for ty in tys + [dty]]
    ts[0].data[:vr, :vc] = X.view(ts[0].data.dtype)
    ts[1].data[:vr, :] = S.view(ts[1].data.dtype)
    if asym:
        ts[2].data[:vr, :] = O.view(ts[2].data.dtype)
    pto_ref.Interp(k.target).op_pto_tquant(None, ts, {})
    assert (ts[-1].data[:vr, :vc].view(want.dtype) == want).all(), "pto_ref's tquant differs"
    for arr, f in ((X, af), (S, sf), (O, of), (Z, ouf)):
        arr.tofile(f)
    c.ins += [(an, af), (sn, sf), (on, of), (oun, ouf)]
    c.outs.append((oun, ouf))
    c.check = lambda: same_bits(np.fromfile(ouf, dtype=want.dtype).reshape(vr, vc), want)


def case_dequant(c, k, d, st, vr, vc, seed):
    rng = np.random.default_rng(seed)
    a, an, af = c.arg(k, d, "src", st)
    sp, sn, sf = c.arg(k, d, "scale", "f32")
    op, on, of = c.arg(k, d, "off", "f32")
    o_, oun, ouf = c.arg(k, d, "out", "f32")
    aty, pty, dty = tb("vec", st, R, C, vr, vc), tb("vec", "f32", R, PC, vr, PC), tb("vec", "f32", R, C, vr, vc)
    x = k.load(a, st, vr, vc, aty)
    s = k.load(sp, "f32", vr, PC, pty)
    o = k.load(op, "f32", vr, PC, pty)
    z = k.alloc(dty)
    k.emit("pto.tdequant ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)" % (x, s, o, aty, pty, pty, z, dty))
    k.store(z, dty, o_, "f32", vr, vc)
    info = np.iinfo(np.int8 if st == "i8" else np.int16)
    X = rng.integers(info.min, info.max, size=(vr, vc), endpoint=True).astype(info.dtype)
    S = (rng.standard_normal((vr, PC)) * 10.0 ** rng.integers(-6, 3, size=(vr, PC))).astype(np.float32)
    S[-1, 0] = np.float32(3e38)  # overflows to infinity for large |x - o|
    O = (rng.standard_normal((vr, PC)) * 100).astype(np.float32)
    want = dequant_want(X, S[:, :1], O[:, :1])
    ts = [pto_ref.Tile(ty) for ty in (aty, pty, pty, dty)]
    ts[0].data[:vr, :vc] = X.view(ts[0].data.dtype)
    ts[1].data[:vr, :] = S.view(ts[1].data.dtype)
    ts[2].data[:vr, :] = O.view(ts[2].data.dtype)
    pto_ref.Interp(k.target).op_pto_tdequant(None, ts, {})
    assert (ts[3].data[:vr, :vc].view(np.float32).view(np.uint32) == want.view(np.uint32)).all(), \
        "pto_ref's tdequant differs"
    for arr, f in ((X, af), (S, sf), (O, of)):
        arr.tofile(f)
    c.ins += [(an, af), (sn, sf), (on, of)]
    c.outs.append((oun, ouf))
    c.check = lambda: same_bits(np.fromfile(ouf, dtype=np.float32).reshape(vr, vc), want)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    cases = []
    n = 0
    for vr, vc in ((R, C), (5, 19), (1, 1), (16, 7)):
        for asym in (False, True):
            n += 1
            cases.append(("tquant %s, valid %dx%d" % ("INT8_ASYM -> ui8" if asym else "INT8_SYM -> i8", vr, vc),
                          lambda c, k, d, a=(asym, vr, vc), n=n: case_quant(c, k, d, *a, n)))
        for st in ("i8", "i16"):
            n += 1
            cases.append(("tdequant %s -> f32, valid %dx%d" % (st, vr, vc),
                          lambda c, k, d, a=(st, vr, vc), n=n: case_dequant(c, k, d, *a, n)))
    n_built, failed = run_groups(ptoc, target, work, "%s_quant" % target, cases, 8)
    print("quant_check: %s: %d cases, %d failed" % (target, n_built, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
