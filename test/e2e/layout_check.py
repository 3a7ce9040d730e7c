#!/usr/bin/python3
"""layout_check.py: ttrans, textract and the tgemv family end to end through `ptoc run`.

  layout_check.py PTOC MM_CHECK TARGET WORKDIR

Kernels (docs/semantics.md §6.3, §7.8), each output compared bit for bit:
  * ttrans: every element type the target's ttrans takes on a whole 32x64 tile, and
    f32, bf16, i8 ragged (source valid 20x40 of 32x64 into a 64x32 destination whose
    valid region is 40x20, loaded with other data first so that stray writes show),
    against numpy's transpose of the loaded data;
  * textract: a window at (r0, c0) of a mat tile into left (and into right), then
    multiplied by an identity of the other side, so that the accumulator holds the
    window exactly; against numpy's slice (f16, bf16, f32, i8; origins (0, 0),
    (16, 0) and (5, 7)); on A5 also vec -> mat,
    the mat tile stored straight back;
  * treshape: a 16x16 f32 vec tile seen as 8x32, written through that alias (tadds in
    place) and stored through it after a tile allocated later was loaded (the source
    is not used again: placement must keep its bytes for the alias), then reshaped
    back to 16x16 and stored; against numpy's reshape and sum;
  * tgemv (A from a 1xK GM row through textract mat -> left), tgemv.bias, and
    tgemv then tgemv.acc over the two halves of K, against mm_check's exact reference
    with m = 1 (test/unit/mmad); K x N of 256x32, 75x11 and 1x1 for f16, bf16, f32,
    i8.
The cases of a group share one kernel (one `ptoc run` each: the ttrans cases, the
textract cases, treshape, the tgemv cases), each with its own GM arguments. Prints
one line per case and `layout_check: TARGET: N cases, K failed`; exit 1 when one
differs.
"""
import os
import subprocess
import sys

import numpy as np

NP = {"f32": np.float32, "f16": np.float16, "i16": np.int16, "i32": np.int32,
      "ui16": np.uint16, "ui32": np.uint32, "i8": np.int8, "ui8": np.uint8, "bf16": np.uint16}
BITS = {"f32": 32, "f16": 16, "bf16": 16, "i8": 8, "ui8": 8, "i16": 16, "ui16": 16,
        "i32": 32, "ui32": 32}


def up(x, m):
    return (x + m - 1) // m * m


def tb(loc, t, rows, cols, vr, vc, bl="row_major", sl="none_box", fractal=512):
    return ("!pto.tile_buf<loc=%s, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=%s, slayout=%s, fractal=%d, pad=0>" % (loc, t, rows, cols, vr, vc, bl, sl,
                                                            fractal))


class K:
    """One kernel's text."""

    def __init__(self, target):
        self.target = target
        self.args = []
        self.lines = []
        self.consts = set()
        self.n = 0

    def c(self, v):
        self.consts.add(v)
        return "%%c%d" % v

    def name(self, base):
        self.n += 1
        return "%%%s%d" % (base, self.n)

    def emit(self, s):
        self.lines.append("    " + s)

    def arg(self, name, t):
        self.args.append("%%%s: !pto.ptr<%s>" % (name, t))
        return "%" + name

    def part(self, ptr, t, rows, cols):
        v, p = self.name("tv"), self.name("pv")
        self.emit("%s = pto.make_tensor_view %s, shape = [%s, %s], strides = [%s, %s] : "
                  "!pto.tensor_view<?x?x%s>" % (v, ptr, self.c(rows), self.c(cols), self.c(cols),
                                                self.c(1), t))
        pty = "!pto.partition_tensor_view<%dx%dx%s>" % (rows, cols, t)
        self.emit("%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
                  "!pto.tensor_view<?x?x%s> -> %s" % (p, v, self.c(0), self.c(0), self.c(rows),
                                                     self.c(cols), t, pty))
        return p, pty

    def alloc(self, ty):
        x = self.name("t")
        self.emit("%s = pto.alloc_tile : %s" % (x, ty))
        return x

    def load(self, ptr, t, rows, cols, ty):
        p, pty = self.part(ptr, t, rows, cols)
        x = self.alloc(ty)
        self.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (p, pty, x, ty))
        return x

    def store(self, x, ty, ptr, t, rows, cols):
        p, pty = self.part(ptr, t, rows, cols)
        self.emit("pto.tstore ins(%s : %s) outs(%s : %s)" % (x, ty, p, pty))

    def text(self):
        head = ['module attributes {pto.target_arch = "%s"} {' % self.target,
                "  func.func @k(%s) attributes {pto.entry} {" % ", ".join(self.args)]
        consts = ["    %%c%d = arith.constant %d : index" % (v, v) for v in sorted(self.consts)]
        return "\n".join(head + consts + self.lines + ["    return", "  }", "}", ""])


def layouts(target):
    left = ("row_major", "row_major") if target == "a2a3" else ("col_major", "row_major")
    return left, ("row_major", "col_major")


def rand_bits(rng, t, shape):
    if t == "bf16":
        f = rng.standard_normal(shape).astype(np.float32)
        return (f.view(np.uint32) >> 16).astype(np.uint16)
    if t in ("f32", "f16"):
        return (rng.standard_normal(shape) * 100).astype(NP[t])
    info = np.iinfo(NP[t])
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(NP[t])


def ptoc_run(ptoc, target, d, text, ins, outs, extra=()):
    """Writes text to d/k.pto and runs it with `ptoc run` (extra: more of its
    arguments); returns (ok, stderr)."""
    src = os.path.join(d, "k.pto")
    with open(src, "w") as f:
        f.write(text)
    cmd = [ptoc, "run", src, "--target", target] + list(extra)
    for a, path in ins:
        cmd += ["--in", "%s=%s" % (a, path)]
    for a, path in outs:
        cmd += ["--out", "%s=%s" % (a, path)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, r.stderr.strip()[:2000]


class Case:
    """One case's part of a group kernel: its GM inputs and outputs (argument name,
    file) and the check of its outputs, which returns (ok, message)."""

    def __init__(self, label):
        self.label = label
        self.ins = []
        self.outs = []
        self.check = None

    def arg(self, k, d, name, t):
        a = "%s_%s" % (self.tag, name)
        k.arg(a, t)
        return "%" + a, a, os.path.join(d, a + ".bin")


def run_cases(ptoc, target, d, cases, edit=None, extra=()):
    """Builds the cases (label, fn(c, k, d)) into one kernel in folder d, runs it with
    `ptoc run` and checks each case's outputs, printing `ok  LABEL: ...` or `FAIL ...`
    a line. edit(text), when given, changes the kernel's text before it runs; extra:
    more arguments of `ptoc run`. Returns (cases, failed)."""
    os.makedirs(d, exist_ok=True)
    k = K(target)
    built = []
    for i, (label, fn) in enumerate(cases):
        c = Case(label)
        c.tag = "c%d" % i
        fn(c, k, d)
        built.append(c)
    text = edit(k.text()) if edit else k.text()
    ok, err = ptoc_run(ptoc, target, d, text, [x for c in built for x in c.ins],
                       [x for c in built for x in c.outs], extra)
    failed = 0
    for c in built:
        good, msg = c.check() if ok else (False, "ptoc run failed: " + err)
        print("%s %s: %s" % ("ok  " if good else "FAIL", c.label, msg))
        failed += not good
    return len(built), failed


def run_groups(ptoc, target, work, name, cases, size, edit=None, extra=()):
    """run_cases over the cases in groups of `size`, each group one kernel in the folder
    work/NAME<index of its first case>. Returns (cases, failed)."""
    n = failed = 0
    for part in range(0, len(cases), size):
        k, f = run_cases(ptoc, target, os.path.join(work, "%s%d" % (name, part)),
                         cases[part:part + size], edit, extra)
        n += k
        failed += f
    return n, failed


def same_bits(got, want):
    bad = int(np.count_nonzero(got.view(np.uint8) != np.ascontiguousarray(want).view(np.uint8)))
    return bad == 0, "%d bytes differ" % bad


def trans_types(target):
    return ["f32", "f16", "bf16", "i8", "ui8", "i16", "ui16", "i32", "ui32"]


def case_ttrans(c, k, d, t, ragged):
    rng = np.random.default_rng(7 + ragged)
    R, C = 32, 64
    vr, vc = (20, 40) if ragged else (R, C)
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    sty = tb("vec", t, R, C, vr, vc)
    dty = tb("vec", t, C, R, vc, vr)
    # the destination first holds b's data: only its valid region may change
    src = k.load(a, t, vr, vc, sty)
    dst = k.load(b, t, vc, vr, dty)
    tmp = k.alloc(sty)
    k.emit("pto.ttrans ins(%s, %s : %s, %s) outs(%s : %s)" % (src, tmp, sty, sty, dst, dty))
    k.store(dst, dty, b, t, vc, vr)
    A = rand_bits(rng, t, (vr, vc))
    B = rand_bits(rng, t, (vc, vr))
    A.tofile(af)
    B.tofile(bf)
    c.ins += [(an, af), (bn, bf)]
    c.outs.append((bn, bf + ".out"))
    c.check = lambda: same_bits(np.fromfile(bf + ".out", dtype=A.dtype).reshape(vc, vr), A.T)


def acc_of(t):
    return "i32" if t == "i8" else "f32"


def case_textract(c, k, d, target, t, side, r0, c0):
    """window m x kk of a mat tile at (r0, c0) into left (side 'left') or right; the
    other operand an identity, so the product is the window (exact)"""
    rng = np.random.default_rng(11 + r0 + c0)
    g = 256 // BITS[t]
    left, right = layouts(target)
    m, kk = (16, 2 * g) if side == "left" else (2 * g, 16)
    lay = left if side == "left" else right
    br, bc = (16, g) if lay[1] == "row_major" else (g, 16)   # the fractal box
    SR, SC = up(m + r0 + 1, br), up(kk + c0 + 1, bc)         # the source, whole boxes
    a, an, af = c.arg(k, d, "a", t)
    e, en, ef = c.arg(k, d, "e", t)
    cc, cn, cf = c.arg(k, d, "c", acc_of(t))
    sty = tb("mat", t, SR, SC, SR, SC, *lay)
    wty = tb(side, t, m, kk, m, kk, *lay)
    src = k.load(a, t, SR, SC, sty)
    win = k.alloc(wty)
    k.emit("pto.textract ins(%s, %s, %s : %s, index, index) outs(%s : %s)"
           % (src, k.c(r0), k.c(c0), sty, win, wty))
    # the identity on the other side: A(m x kk) x I(kk x kk), or I(m x m) x B(m x kk)
    n_id = kk if side == "left" else m
    olay = right if side == "left" else left
    oside = "right" if side == "left" else "left"
    imt = tb("mat", t, n_id, n_id, n_id, n_id, *olay)
    iot = tb(oside, t, n_id, n_id, n_id, n_id, *olay)
    im = k.load(e, t, n_id, n_id, imt)
    io = k.alloc(iot)
    k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (im, imt, io, iot))
    accty = tb("acc", acc_of(t), m, kk, m, kk, "col_major", "row_major", 1024)
    acc = k.alloc(accty)
    lhs, lty, rhs, rty = (win, wty, io, iot) if side == "left" else (io, iot, win, wty)
    k.emit("pto.tmatmul ins(%s, %s : %s, %s) outs(%s : %s)" % (lhs, rhs, lty, rty, acc, accty))
    k.store(acc, accty, cc, acc_of(t), m, kk)
    A = rand_bits(rng, t, (SR, SC))
    one = {"i8": np.int8(1), "bf16": np.uint16(0x3F80)}.get(t)
    if one is None:
        one = NP[t](1)
    I = np.zeros((n_id, n_id), dtype=A.dtype)
    np.fill_diagonal(I, one)
    A.tofile(af)
    I.tofile(ef)
    W = A[r0:r0 + m, c0:c0 + kk]
    if t == "bf16":
        want = (W.astype(np.uint32) << 16).view(np.float32)
    elif t == "i8":
        want = W.astype(np.int32)
    else:
        want = W.astype(np.float32)
    c.ins += [(an, af), (en, ef)]
    c.outs.append((cn, cf))
    c.check = lambda: same_bits(np.fromfile(cf, dtype=want.dtype).reshape(m, kk), want)


def case_textract_vec_mat(c, k, d, t, r0, c0):
    """A5: a window of a vec tile into an ND mat tile, stored back to GM"""
    rng = np.random.default_rng(5)
    R, C, m, n = 32, 64, 16, 32
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    sty = tb("vec", t, R, C, R, C)
    dty = tb("mat", t, m, n, m, n)
    src = k.load(a, t, R, C, sty)
    dst = k.alloc(dty)
    k.emit("pto.textract ins(%s, %s, %s : %s, index, index) outs(%s : %s)"
           % (src, k.c(r0), k.c(c0), sty, dst, dty))
    k.store(dst, dty, b, t, m, n)
    A = rand_bits(rng, t, (R, C))
    A.tofile(af)
    c.ins.append((an, af))
    c.outs.append((bn, bf))
    c.check = lambda: same_bits(np.fromfile(bf, dtype=A.dtype).reshape(m, n), A[r0:r0 + m, c0:c0 + n])


def case_treshape(c, k, d):
    rng = np.random.default_rng(3)
    a, an, af = c.arg(k, d, "a", "f32")
    b, bn, bf = c.arg(k, d, "b", "f32")
    o1, o1n, o1f = c.arg(k, d, "o1", "f32")
    o2, o2n, o2f = c.arg(k, d, "o2", "f32")
    o3, o3n, o3f = c.arg(k, d, "o3", "f32")
    sty, rty = tb("vec", "f32", 16, 16, 16, 16), tb("vec", "f32", 8, 32, 8, 32)
    src = k.load(a, "f32", 16, 16, sty)
    r = k.name("r")
    k.emit("%s = pto.treshape %s : %s -> %s" % (r, src, sty, rty))
    k.emit("%one = arith.constant 1.0 : f32")
    k.emit("pto.tadds ins(%s, %%one : %s, f32) outs(%s : %s)" % (r, rty, r, rty))
    other = k.load(b, "f32", 16, 16, sty)
    k.store(r, rty, o1, "f32", 8, 32)
    k.store(other, sty, o2, "f32", 16, 16)
    r2 = k.name("r")
    k.emit("%s = pto.treshape %s : %s -> %s" % (r2, r, rty, sty))
    k.store(r2, sty, o3, "f32", 16, 16)
    A = rand_bits(rng, "f32", (16, 16))
    B = rand_bits(rng, "f32", (16, 16))
    A.tofile(af)
    B.tofile(bf)
    c.ins += [(an, af), (bn, bf)]
    c.outs += [(o1n, o1f), (o2n, o2f), (o3n, o3f)]

    def check():
        bad = 0
        for f, want in ((o1f, (A + np.float32(1)).reshape(8, 32)), (o2f, B),
                        (o3f, A + np.float32(1))):
            got = np.fromfile(f, dtype=np.float32)
            bad += int(np.count_nonzero(got.view(np.uint32) != want.reshape(-1).view(np.uint32)))
        return bad == 0, "%d elements differ" % bad
    c.check = check


def case_gemv(c, k, d, target, mmc, t, kk, n, variant, seed):
    """variant: plain (tgemv), bias (tgemv.bias), acc (tgemv then tgemv.acc over the
    two halves of K)"""
    g = 256 // BITS[t]
    left, right = layouts(target)
    at = acc_of(t)
    a, an, af = c.arg(k, d, "a", t)
    b, bn, bf = c.arg(k, d, "b", t)
    if variant == "bias":
        bias, biasn, biasf = c.arg(k, d, "bias", at)
    cc, cn, cf = c.arg(k, d, "c", at)
    npad = up(n, 16)
    accty = tb("acc", at, 16, npad, 1, n, "col_major", "row_major", 1024)
    acc = k.alloc(accty)
    halves = [(0, kk)] if variant != "acc" else [(0, kk // 2), (kk // 2, kk - kk // 2)]
    first = True
    for k0, kl in halves:
        kp = up(kl, g)
        amt = tb("mat", t, 16, kp, 1, kl, *left)
        alt = tb("left", t, 16, kp, 1, kl, *left)
        bmt = tb("mat", t, kp, npad, kl, n, *right)
        brt = tb("right", t, kp, npad, kl, n, *right)
        # A's row from column k0 and B's rows from row k0: partitions of the full views
        pa, _ = k.part(a, t, 1, kk)
        k.lines.pop()
        tva = k.lines[-1].split(" = ")[0].strip()
        pat = "!pto.partition_tensor_view<1x%dx%s>" % (kl, t)
        k.emit("%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
               "!pto.tensor_view<?x?x%s> -> %s" % (pa, tva, k.c(0), k.c(k0), k.c(1), k.c(kl),
                                                  t, pat))
        am = k.alloc(amt)
        k.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (pa, pat, am, amt))
        al = k.alloc(alt)
        k.emit("pto.textract ins(%s, %s, %s : %s, index, index) outs(%s : %s)"
               % (am, k.c(0), k.c(0), amt, al, alt))
        pb, _ = k.part(b, t, kk, n)
        k.lines.pop()
        tvb = k.lines[-1].split(" = ")[0].strip()
        pbt = "!pto.partition_tensor_view<%dx%dx%s>" % (kl, n, t)
        k.emit("%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
               "!pto.tensor_view<?x?x%s> -> %s" % (pb, tvb, k.c(k0), k.c(0), k.c(kl), k.c(n),
                                                  t, pbt))
        bm = k.alloc(bmt)
        k.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (pb, pbt, bm, bmt))
        br = k.alloc(brt)
        k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (bm, bmt, br, brt))
        if variant == "bias":
            bmt2 = tb("mat", at, 1, npad, 1, n)
            btt = tb("bias", at, 1, npad, 1, n)
            bmm = k.load(bias, at, 1, n, bmt2)
            bt = k.alloc(btt)
            k.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (bmm, bmt2, bt, btt))
            k.emit("pto.tgemv.bias ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
                   % (al, br, bt, alt, brt, btt, acc, accty))
        elif first:
            k.emit("pto.tgemv ins(%s, %s : %s, %s) outs(%s : %s)" % (al, br, alt, brt, acc, accty))
        else:
            k.emit("pto.tgemv.acc ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
                   % (acc, al, br, accty, alt, brt, acc, accty))
        first = False
    k.store(acc, accty, cc, at, 1, n)
    gens = [(an, af, t, kk), (bn, bf, t, kk * n)]
    if variant == "bias":
        gens.append((biasn, biasf, at, n))
    for i, (_, f, ty, cnt) in enumerate(gens):
        subprocess.run([mmc, "gen", ty, str(cnt), str(seed * 10 + i + 1), f], check=True)
    c.ins += [(x, f) for x, f, _, _ in gens]
    c.outs.append((cn, cf))

    def check():
        init = "bias" if variant == "bias" else "zero"
        r = subprocess.run([mmc, "check", t, t, at, "1", str(kk), str(n), init, af, bf,
                            biasf if variant == "bias" else "-", cf],
                           capture_output=True, text=True)
        return r.returncode == 0, (r.stdout + r.stderr).strip()
    c.check = check


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    ptoc, mmc, target, work = argv[1:5]
    groups = {"ttrans": [], "textract": [], "treshape": [], "tgemv": []}
    for t in trans_types(target):
        for ragged in (0, 1):
            if ragged and t not in ("f32", "bf16", "i8"):
                continue
            groups["ttrans"].append(("ttrans %s %s" % (t, "20x40 of 32x64" if ragged else "32x64"),
                                     lambda c, k, d, t=t, ragged=ragged: case_ttrans(c, k, d, t, ragged)))
    for t in ("f16", "bf16", "f32", "i8"):
        for side in ("left", "right"):
            for r0, c0 in ((0, 0), (16, 0), (5, 7)):
                groups["textract"].append(
                    ("textract %s mat->%s at (%d, %d)" % (t, side, r0, c0),
                     lambda c, k, d, t=t, side=side, r0=r0, c0=c0:
                     case_textract(c, k, d, target, t, side, r0, c0)))
    if target == "a5":
        for t in ("f32", "f16", "i8"):
            groups["textract"].append(("textract %s vec->mat at (9, 13)" % t,
                                       lambda c, k, d, t=t: case_textract_vec_mat(c, k, d, t, 9, 13)))
    groups["treshape"].append(("treshape f32 16x16 -> 8x32", case_treshape))
    seed = 0
    for t in ("f16", "bf16", "f32", "i8"):
        for kk, n in ((256, 32), (75, 11), (1, 1)):
            for variant in ("plain", "bias", "acc"):
                if variant == "acc" and kk < 2:
                    continue
                seed += 1
                groups["tgemv"].append(("tgemv %s %s 1x%dx%d" % (variant, t, kk, n),
                                        lambda c, k, d, t=t, kk=kk, n=n, variant=variant, seed=seed:
                                        case_gemv(c, k, d, target, mmc, t, kk, n, variant, seed)))
    total = failed = 0
    for gname, cases in groups.items():
        n, f = run_cases(ptoc, target, os.path.join(work, "%s_%s" % (target, gname)), cases)
        total += n
        failed += f
    print("layout_check: %s: %d cases, %d failed" % (target, total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
