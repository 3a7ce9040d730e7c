#!/usr/bin/python3
"""vec_check_forms.py: the vector-op forms of issue 25, end to end on one target.

  vec_check_forms.py PTOC TARGET WORKDIR

Each case is a small kernel run through `ptoc run` and compared bit for bit with a
numpy reference written from docs/semantics.md (never from ptoc's code):

  colred_dyn   tcolmax/tcolmin/tcolsum/tcolprod (and tcolsum isBinary) of a source
               whose valid columns are known only at run time (set by alloc_tile
               valid_col = %v), for v = 16 and 5 (§7.6; columns >= v stay 0)
  rowexp_blk   trowexpand<op> whose src1 holds one 32-byte block per row (pto-isa's
               mode 2): dst(i, j) = src0(i, j) op src1(i, j mod E), E = 32 / bytes (§7.3);
               also in a tile of 2E columns, and with run-time valid rows
  rowexp_nd    trowexpandsub and trowexpand whose row values sit in column 0 of a
               row-major (ND) tile rows x E (§7.3)
  nan_const    texpands of hex NaN constants: an f16 / f32 tile keeps every bit of
               its own type's constant; converted across types it is the canonical
               NaN (§8.2, §3)
  colsum_notmp tcolsum without tmp, and with a tmp too small for the pairs (§7.6)
  shift8       tshl / tshr / tshls on i8 and ui8 (§7.2), amounts 0..9
  bits8_dyn    tors / tands / txors on i8 with run-time valid rows, 32 columns, and
               tor on 31 static columns (§7.2)
  pad8         tfillpad of an i8 / ui8 tile (pad max / min, §7.3)

Prints one line per case and `vec_check_forms: TARGET: N cases, K failed`; exit 1
when one differs.
"""
import os
import subprocess
import sys

import numpy as np

DT = {"f32": np.float32, "f16": np.float16, "i8": np.int8, "ui8": np.uint8,
      "i16": np.int16, "i32": np.int32}
CANON = {"f32": 0x7FC00000, "f16": 0x7E00}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def tb(dt, rows, cols, vr=None, vc=None, layout="row_major", pad=0):
    vr = rows if vr is None else vr
    vc = cols if vc is None else vc
    return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%s, v_col=%s, "
            "blayout=%s, slayout=none_box, fractal=512, pad=%d>" % (dt, rows, cols, vr, vc, layout, pad))


class Kernel:
    """One kernel: GM arguments, index arguments, tiles, ops."""

    def __init__(self, target):
        self.target, self.args, self.body, self.consts, self.n = target, [], [], set(), 0

    def c(self, v):
        self.consts.add(v)
        return "%%c%d" % v

    def gm(self, name, dt, rows, cols):
        """a GM argument rows x cols; returns (partition value, its type)"""
        self.args.append("%%%s: !pto.ptr<%s>" % (name, dt))
        self.body.append("    %%v_%s = pto.make_tensor_view %%%s, shape = [%s, %s], strides = [%s, %s] : !pto.tensor_view<?x?x%s>"
                         % (name, name, self.c(rows), self.c(cols), self.c(cols), self.c(1), dt))
        return self.part(name, dt, rows, cols)

    def part(self, name, dt, rows, cols):
        """the partition rows x cols at the origin of GM argument `name`'s view"""
        self.n += 1
        pv = "!pto.partition_tensor_view<%dx%dx%s>" % (rows, cols, dt)
        self.body.append("    %%p%d = pto.partition_view %%v_%s, offsets = [%s, %s], sizes = [%s, %s] : !pto.tensor_view<?x?x%s> -> %s"
                         % (self.n, name, self.c(0), self.c(0), self.c(rows), self.c(cols), dt, pv))
        return "%%p%d" % self.n, pv

    def index_arg(self, name):
        self.args.append("%%%s: index" % name)
        return "%" + name

    def tile(self, ty, vr=None, vc=None):
        self.n += 1
        t = "%%t%d" % self.n
        kw = ""
        if vr:
            kw += " valid_row = %s" % vr
        if vc:
            kw += " valid_col = %s" % vc
        self.body.append("    %s = pto.alloc_tile%s : %s" % (t, kw, ty))
        return t

    def load(self, g, ty, vr=None, vc=None):
        t = self.tile(ty, vr, vc)
        self.body.append("    pto.tload ins(%s : %s) outs(%s : %s)" % (g[0], g[1], t, ty))
        return t

    def store(self, t, ty, g):
        self.body.append("    pto.tstore ins(%s : %s) outs(%s : %s)" % (t, ty, g[0], g[1]))

    def op(self, text):
        self.body.append("    " + text)

    def const(self, text, ty):
        self.n += 1
        name = "%%k%d" % self.n
        self.body.append("    %s = arith.constant %s : %s" % (name, text, ty))
        return name

    def text(self):
        lines = ['module attributes {pto.target_arch = "%s"} {' % self.target,
                 "  func.func @k(%s) attributes {pto.entry} {" % ", ".join(self.args)]
        lines += ["    %%c%d = arith.constant %d : index" % (v, v) for v in sorted(self.consts)]
        return "\n".join(lines + self.body + ["    return", "  }", "}"]) + "\n"


# ---- element semantics (docs/semantics.md §7.1, §7.2) -------------------------------------

def bits(x):
    x = np.asarray(x)
    return x.view(UINT[x.dtype.itemsize])


def canon(x, dts):
    """NaN results as the canonical quiet NaN (§7.1)"""
    x = np.array(x, dtype=DT[dts])
    b = bits(x).copy()
    b[np.isnan(x)] = CANON[dts]
    return b.view(DT[dts])


def fmax(a, b, is_max):
    """IEEE maximum / minimum: NaN when either is NaN, -0 < +0 (§7.1)"""
    a, b = np.broadcast_arrays(a, b)
    gt = (a > b) | ((a == b) & (np.signbit(b) & ~np.signbit(a)))
    r = np.where(gt if is_max else ~gt, a, b)
    eq = (a == b) & (np.signbit(a) == np.signbit(b))
    r = np.where(eq, a, r)
    r = np.where(np.isnan(a) | np.isnan(b), np.nan, r)
    return r


def fop(op, a, b, dts):
    """one element op on float arrays, rounded once to dts (float64 is exact enough for
    + - * / of 24-bit values, 53 >= 2 * 24 + 2)"""
    dt = DT[dts]
    if op in ("max", "min"):
        return canon(fmax(a, b, op == "max").astype(dt), dts)
    x, y = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(all="ignore"):
        r = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y}[op]
    return canon(r.astype(dt), dts)


def colred(op, src, target, dts):
    """the column reduction of the R rows of src in the order of §7.6"""
    R = src.shape[0]
    if op in ("max", "min"):
        acc = src[0]
        for i in range(1, R):
            acc = fop(op, acc, src[i], dts)
        return acc
    if target == "a2a3" or R <= 2:
        acc = src[0]
        for i in range(1, R):
            acc = fop(op, acc, src[i], dts)
        return acc
    acc = src[0]
    for k in range((R - 1) // 2):
        acc = fop(op, acc, fop(op, src[2 * k + 1], src[2 * k + 2], dts), dts)
    if (R - 1) % 2:
        acc = fop(op, acc, src[R - 1], dts)
    return acc


def colsum_binary(src, target, dts):
    """tcolsum isBinary (§7.6)"""
    R = src.shape[0]
    if R == 1:
        return src[0] if target == "a2a3" else fop("add", np.zeros_like(src[0]), src[0], dts)
    m = R // 2
    p = [fop("add", src[2 * i], src[2 * i + 1], dts) for i in range(m)]
    if R % 2:
        k = m - 1 if target == "a5" else 0
        p[k] = fop("add", p[k], src[R - 1], dts)
    while m > 1:
        h = m // 2
        q = [fop("add", p[2 * i], p[2 * i + 1], dts) for i in range(h)]
        if m % 2:
            k = h - 1 if target == "a5" else 0
            q[k] = fop("add", q[k], p[m - 1], dts)
        p, m = q, h
    return p[0]


def shift(op, a, n, dts):
    """§7.2: the amount as an unsigned N-bit number; >= N gives 0 or the sign fill"""
    dt = DT[dts]
    w = np.dtype(dt).itemsize * 8
    x = a.astype(np.int64)
    n = np.asarray(n).astype(np.int64) & ((1 << w) - 1)
    if op == "shl":
        r = np.where(n >= w, 0, x << np.minimum(n, w))
    elif np.issubdtype(dt, np.signedinteger):
        r = x >> np.minimum(n, w - 1)
    else:
        r = np.where(n >= w, 0, x >> np.minimum(n, w - 1))
    return (r & ((1 << w) - 1)).astype(UINT[w // 8]).view(dt)


def special_floats(rng, shape, dts):
    """uniform values with NaN, +-inf, +-0 and subnormals sprinkled in"""
    dt = DT[dts]
    x = rng.uniform(-4, 4, shape).astype(dt)
    flat = x.reshape(-1)
    tiny = np.finfo(dt).smallest_subnormal
    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, tiny, -3 * tiny]
    idx = rng.choice(flat.size, min(len(specials) * 2, flat.size // 3), replace=False)
    for k, i in enumerate(idx):
        flat[i] = specials[k % len(specials)]
    return x


# ---- the cases: each returns (kernel, inputs {name: array}, args {name: int},
# outputs {name: (dtype, shape)}, reference {name: array}) --------------------------------

def case_colred_dyn(target, rng, v, dts="f32"):
    R, C = 4, 16
    k = Kernel(target)
    a = k.gm("a", dts, R, C)
    vv = k.index_arg("v")
    ops = ["tcolmax", "tcolmin", "tcolsum", "tcolprod", "tcolsum_bin"]
    outs = {o: k.gm("o_" + o, dts, 1, C) for o in ops}
    ST = tb(dts, R, C, R, "?")
    DTT = tb(dts, 1, C, 1, "?")
    src = k.load(a, ST, vc=vv)
    tmp = k.tile(tb(dts, R, C))
    for o in ops:
        d = k.tile(DTT, vc=vv)
        if o == "tcolsum_bin":
            k.op("pto.tcolsum ins(%s, %s {isBinary = true} : %s, %s) outs(%s : %s)"
                 % (src, tmp, ST, tb(dts, R, C), d, DTT))
        else:
            k.op("pto.%s ins(%s : %s) outs(%s : %s)" % (o, src, ST, d, DTT))
        k.store(d, DTT, outs[o])
    x = special_floats(rng, (R, C), dts) if dts == "f32" else rng.uniform(-4, 4, (R, C)).astype(DT[dts])
    ref = {}
    for o in ops:
        want = np.zeros((1, C), DT[dts])
        s = x[:, :v]
        if o == "tcolsum_bin":
            want[0, :v] = colsum_binary(s, target, dts)
        else:
            want[0, :v] = colred({"tcolmax": "max", "tcolmin": "min", "tcolsum": "add",
                                  "tcolprod": "mul"}[o], s, target, dts)
        ref["o_" + o] = want
    return k, {"a": x}, {"v": v}, ref


def case_rowexp_blk(target, rng, dts, R, C, wide=1, rows=None):
    """src1: the blocks in an R x (wide * E) tile; rows: run-time valid rows of src0
    and dst (the rows below stay 0)"""
    E = 32 // np.dtype(DT[dts]).itemsize
    k = Kernel(target)
    a, b = k.gm("a", dts, R, C), k.gm("b", dts, R, E)
    vr = k.index_arg("r") if rows else None
    T, TB = tb(dts, R, C, "?" if rows else R, C), tb(dts, R, wide * E, R, E)
    ops = ["add", "sub", "mul", "div", "max", "min"]
    outs = {o: k.gm("o_" + o, dts, R, C) for o in ops}
    ta, tbb = k.load(a, T, vr=vr), k.load(b, TB)
    for o in ops:
        d = k.tile(T, vr=vr)
        k.op("pto.trowexpand%s ins(%s, %s : %s, %s) outs(%s : %s)" % (o, ta, tbb, T, TB, d, T))
        k.store(d, T, outs[o])
    x, y = special_floats(rng, (R, C), dts), special_floats(rng, (R, E), dts)
    yy = y[:, np.arange(C) % E]
    ref = {}
    for o in ops:
        want = fop(o, x, yy, dts)
        if rows:
            want[rows:] = 0
        ref["o_" + o] = want
    return k, {"a": x, "b": y}, {"r": rows} if rows else {}, ref


def case_rowexp_nd(target, rng, dts, R, C):
    """row values in column 0 of a row-major R x E tile with one valid column"""
    E = 32 // np.dtype(DT[dts]).itemsize
    k = Kernel(target)
    a, b = k.gm("a", dts, R, C), k.gm("b", dts, R, 1)
    o1, o2 = k.gm("o_sub", dts, R, C), k.gm("o_expand", dts, R, C)
    T, TB = tb(dts, R, C), tb(dts, R, E, R, 1)
    ta = k.load(a, T)
    tbb = k.load(b, TB)
    d1, d2 = k.tile(T), k.tile(T)
    k.op("pto.trowexpandsub ins(%s, %s : %s, %s) outs(%s : %s)" % (ta, tbb, T, TB, d1, T))
    k.op("pto.trowexpand ins(%s : %s) outs(%s : %s)" % (tbb, TB, d2, T))
    k.store(d1, T, o1)
    k.store(d2, T, o2)
    x, y = special_floats(rng, (R, C), dts), special_floats(rng, (R, 1), dts)
    y[0, 0] = np.array(0x7FA1 if dts == "f16" else 0x7FA00001,  # a signalling NaN: copied as is
                       dtype=UINT[np.dtype(DT[dts]).itemsize]).view(DT[dts])
    yy = np.broadcast_to(y, (R, C))
    return k, {"a": x, "b": y}, {}, {"o_sub": fop("sub", x, yy, dts), "o_expand": yy.copy()}


NANS = {"f16": [0x7C01, 0x7D00, 0xFC01, 0x7E01, 0xFDFF], "f32": [0xFF800001, 0x7FA00000, 0xFFC00123]}


def case_nan_const(target, rng):
    k = Kernel(target)
    ref, n = {}, 0
    for cdt in ("f16", "f32"):
        for hexv in NANS[cdt]:
            for tdt in ("f16", "f32"):
                n += 1
                name = "o%d_%s_%x_%s" % (n, cdt, hexv, tdt)
                g = k.gm(name, tdt, 1, 16)
                c = k.const("0x%X" % hexv, cdt)
                T = tb(tdt, 1, 16)
                t = k.tile(T)
                k.op("pto.texpands ins(%s : %s) outs(%s : %s)" % (c, cdt, t, T))
                k.store(t, T, g)
                # its own type: the bits as written; another: a conversion's NaN (§3)
                want = hexv if cdt == tdt else CANON[tdt]
                ref[name] = np.full((1, 16), want, UINT[np.dtype(DT[tdt]).itemsize]).view(DT[tdt])
    return k, {}, {}, ref


def case_colsum_notmp(target, rng, R, C, dts="f32"):
    k = Kernel(target)
    a = k.gm("a", dts, R, C)
    o1, o2 = k.gm("o_notmp", dts, 1, C), k.gm("o_smalltmp", dts, 1, C)
    T, D = tb(dts, R, C), tb(dts, 1, C)
    TS = tb(dts, 1, 8)  # too small for the pairs: not used
    s = k.load(a, T)
    d1, d2, tmp = k.tile(D), k.tile(D), k.tile(TS)
    k.op("pto.tcolsum ins(%s : %s) outs(%s : %s)" % (s, T, d1, D))
    k.op("pto.tcolsum ins(%s, %s : %s, %s) outs(%s : %s)" % (s, tmp, T, TS, d2, D))
    k.store(d1, D, o1)
    k.store(d2, D, o2)
    x = special_floats(rng, (R, C), dts)
    want = colred("add", x, target, dts).reshape(1, C)
    return k, {"a": x}, {}, {"o_notmp": want, "o_smalltmp": want}


def case_shift8(target, rng, dts, R=4, C=40):
    dt = DT[dts]
    k = Kernel(target)
    a, b = k.gm("a", dts, R, C), k.gm("b", dts, R, C)
    ops = ["tshl", "tshr", "tshls"]
    outs = {o: k.gm("o_" + o, dts, R, C) for o in ops}
    T = tb(dts, R, C)
    ta, tbb = k.load(a, T), k.load(b, T)
    s = k.const("3", dts)
    for o in ops:
        d = k.tile(T)
        if o == "tshls":
            k.op("pto.tshls ins(%s, %s : %s, %s) outs(%s : %s)" % (ta, s, T, dts, d, T))
        else:
            k.op("pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (o, ta, tbb, T, T, d, T))
        k.store(d, T, outs[o])
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, (R, C), endpoint=True).astype(dt)
    n = rng.integers(0, 10, (R, C)).astype(dt)
    return k, {"a": x, "b": n}, {}, {"o_tshl": shift("shl", x, n, dts), "o_tshr": shift("shr", x, n, dts),
                                     "o_tshls": shift("shl", x, np.full((R, C), 3), dts)}


def case_bits8_dyn(target, rng, rows):
    dts, R, C = "i8", 8, 32
    k = Kernel(target)
    a, b = k.gm("a", dts, R, C), k.gm("b", dts, R, C)
    vr = k.index_arg("r")
    ops = ["tors", "tands", "txors", "tor31"]
    outs = {o: k.gm("o_" + o, dts, R, C) for o in ops}
    T = tb(dts, R, C, "?", C)
    ta = k.load(a, T, vr=vr)
    s = k.const("90", dts)
    for o in ops[:3]:
        d = k.tile(T, vr=vr)
        k.op("pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (o, ta, s, T, dts, d, T))
        k.store(d, T, outs[o])
    T31 = tb(dts, R, C, R, 31)
    t0, t1 = k.load(k.part("a", dts, R, 31), T31), k.load(k.part("b", dts, R, 31), T31)
    d = k.tile(T31)
    k.op("pto.tor ins(%s, %s : %s, %s) outs(%s : %s)" % (t0, t1, T31, T31, d, T31))
    k.store(d, T31, k.part("o_tor31", dts, R, 31))
    x = rng.integers(-128, 127, (R, C), endpoint=True).astype(np.int8)
    y = rng.integers(-128, 127, (R, C), endpoint=True).astype(np.int8)
    ref = {}
    for o, f in (("tors", lambda v: v | np.int8(90)), ("tands", lambda v: v & np.int8(90)),
                 ("txors", lambda v: v ^ np.int8(90))):
        want = np.zeros((R, C), np.int8)
        want[:rows] = f(x[:rows])
        ref["o_" + o] = want
    want = np.zeros((R, C), np.int8)
    want[:, :31] = (x | y)[:, :31]
    ref["o_tor31"] = want
    return k, {"a": x, "b": y}, {"r": rows}, ref


def case_pad8(target, rng, dts):
    dt = DT[dts]
    R, C = 4, 64
    k = Kernel(target)
    a = k.gm("a", dts, R, C)
    o2, o3 = k.gm("o_max", dts, R, C), k.gm("o_min", dts, R, C)
    TS = tb(dts, R, C, 3, 40)
    s = k.load(k.part("a", dts, 3, 40), TS)
    for pad, g in ((2, o2), (3, o3)):
        T = tb(dts, R, C, pad=pad)
        d = k.tile(T)
        k.op("pto.tfillpad ins(%s : %s) outs(%s : %s)" % (s, TS, d, T))
        k.store(d, T, g)
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, (R, C), endpoint=True).astype(dt)
    ref = {}
    for name, v in (("o_max", info.max), ("o_min", info.min)):
        want = np.full((R, C), v, dt)
        want[:3, :40] = x[:3, :40]
        ref[name] = want
    return k, {"a": x}, {}, ref


def cases(target):
    rng = np.random.default_rng(25)
    out = []
    for v in (16, 5):
        out.append(("colred_dyn f32 v=%d" % v, case_colred_dyn(target, rng, v)))
    out.append(("colred_dyn f16 v=11", case_colred_dyn(target, rng, 11, "f16")))
    for dts, R, C in (("f32", 2, 16), ("f32", 16, 200), ("f16", 8, 160)):
        out.append(("rowexp_blk %s %dx%d" % (dts, R, C), case_rowexp_blk(target, rng, dts, R, C)))
    out.append(("rowexp_blk f32 16x72 wide", case_rowexp_blk(target, rng, "f32", 16, 72, wide=2)))
    out.append(("rowexp_blk f16 8x64 r=5", case_rowexp_blk(target, rng, "f16", 8, 64, rows=5)))
    for dts, R, C in (("f32", 16, 72), ("f16", 5, 48)):
        out.append(("rowexp_nd %s %dx%d" % (dts, R, C), case_rowexp_nd(target, rng, dts, R, C)))
    out.append(("nan_const", case_nan_const(target, rng)))
    for R, C in ((16, 64), (7, 40), (3, 2100)):
        out.append(("colsum_notmp %dx%d" % (R, C), case_colsum_notmp(target, rng, R, C)))
    for dts in ("i8", "ui8"):
        out.append(("shift8 %s" % dts, case_shift8(target, rng, dts)))
    for rows in (8, 3):
        out.append(("bits8_dyn r=%d" % rows, case_bits8_dyn(target, rng, rows)))
    for dts in ("i8", "ui8"):
        out.append(("pad8 %s" % dts, case_pad8(target, rng, dts)))
    return out


def run(ptoc, target, work, tag, case):
    k, ins, args, ref = case
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "forms_%s_%s.pto" % (target, tag))
    with open(src, "w") as fh:
        fh.write(k.text())
    cmd = [ptoc, "run", src, "--target", target]
    for name, x in ins.items():
        p = os.path.join(work, "forms_%s_%s_%s.bin" % (target, tag, name))
        x.tofile(p)
        cmd += ["--in", "%s=%s" % (name, p)]
    for name, val in args.items():
        cmd += ["--arg", "%s=%d" % (name, val)]
    files = {}
    for name in ref:
        files[name] = os.path.join(work, "forms_%s_%s_%s.out" % (target, tag, name))
        cmd += ["--out", "%s=%s" % (name, files[name])]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return ["ptoc run failed (%d): %s" % (r.returncode, r.stderr.strip().splitlines()[:1])]
    bad = []
    for name, want in ref.items():
        got = np.fromfile(files[name], dtype=want.dtype).reshape(want.shape)
        wb, gb = bits(want), bits(got)
        diff = np.nonzero(wb != gb)
        if len(diff[0]):
            i = tuple(d[0] for d in diff)
            bad.append("%s: %d elements differ, first at %s: got 0x%x want 0x%x"
                       % (name, len(diff[0]), i, int(gb[i]), int(wb[i])))
    return bad


def main():
    np.seterr(all="ignore")  # NaN and inf inputs are the point
    ptoc, target, work = sys.argv[1:4]
    failed, n = 0, 0
    for name, case in cases(target):
        n += 1
        tag = name.replace(" ", "_").replace("=", "")
        bad = run(ptoc, target, work, tag, case)
        if bad:
            failed += 1
            for b in bad:
                print("FAIL %s %s: %s" % (target, name, b))
        else:
            print("ok %s %s" % (target, name))
    print("vec_check_forms: %s: %d cases, %d failed" % (target, n, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
