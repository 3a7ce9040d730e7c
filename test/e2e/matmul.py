#!/usr/bin/python3
"""matmul.py: matrix multiplies end to end through `ptoc run`, checked bit for bit.

  matmul.py PTOC MM_CHECK TARGET WORKDIR [CASE...]

For each case (type triple, m x k x n, variant) it writes a kernel shaped like the
corpus's FFN/GQA kernels: tload A and B from GM (dense row-major) into `mat` tiles,
tmov to left/right, tmatmul (plain, .bias through a bias tile loaded via mat, split-K
as tmatmul + tmatmul.acc over two halves of K, or MX with e8m0 scales; the gemv_mx
variants are tgemv.mx, tgemv.mx + tgemv.mx.acc over two halves of K, and tgemv.mx.bias,
with m = 1), tstore the
accumulator to GM (optionally converting f32 -> f16/bf16 on the way). Inputs come from
`mm_check gen`; the result is compared by `mm_check check` with the slow exact
reference of test/unit/mmad (integer arithmetic only). Tile shapes are padded to whole
fractals of the target's cube layouts. Prints one line per case and a summary; exit 1
on any failure.
"""
import math
import os
import subprocess
import sys

BITS = {"i8": 8, "f16": 16, "bf16": 16, "f32": 32, "f8E4M3FN": 8, "f8E5M2": 8, "hif8": 8,
        "f4E2M1FN": 4, "f4E1M2": 4}

# (a/b type, m, k, n, variant, out type); "A/B" when the two differ; variant: plain,
# bias, splitk, mx, gemv_mx, gemv_mx_acc (split K), gemv_mx_bias
COMMON = [
    ("f16", 1, 1, 1, "plain", "f32"),
    ("f16", 16, 16, 16, "plain", "f32"),
    ("f16", 31, 120, 58, "plain", "f32"),
    ("f16", 65, 90, 89, "plain", "f32"),
    ("f16", 5, 75, 11, "plain", "f32"),
    ("f16", 1, 256, 64, "plain", "f32"),
    ("bf16", 31, 120, 58, "plain", "f32"),
    ("bf16", 5, 75, 11, "bias", "f32"),
    ("f32", 16, 16, 16, "plain", "f32"),
    ("f32", 65, 90, 89, "plain", "f32"),
    ("f32", 5, 75, 11, "splitk", "f32"),
    ("i8", 16, 16, 16, "plain", "i32"),
    ("i8", 31, 120, 58, "plain", "i32"),
    ("i8", 1, 4095, 16, "plain", "i32"),
    ("i8", 5, 75, 11, "splitk", "i32"),
    ("f16", 16, 64, 32, "bias", "f32"),
    ("f16", 31, 120, 58, "splitk", "f32"),
    ("f16", 16, 64, 32, "plain", "f16"),
    ("bf16", 16, 64, 32, "plain", "bf16"),
]
A5_ONLY = [
    ("f8E4M3FN", 31, 120, 58, "plain", "f32"),
    ("f8E5M2", 16, 64, 32, "bias", "f32"),
    ("hif8", 5, 75, 11, "plain", "f32"),
    ("f8E4M3FN", 16, 64, 32, "mx", "f32"),
    ("f8E5M2", 31, 128, 58, "mx", "f32"),
    ("f8E4M3FN/f8E5M2", 31, 120, 58, "plain", "f32"),
    ("f8E5M2/f8E4M3FN", 16, 64, 32, "mx", "f32"),
    ("f8E4M3FN", 1, 128, 16, "gemv_mx", "f32"),
    ("f8E5M2/f8E4M3FN", 1, 256, 58, "gemv_mx_acc", "f32"),
    ("f8E4M3FN/f8E5M2", 1, 192, 33, "gemv_mx_bias", "f32"),
]


def up(x, m):
    return (x + m - 1) // m * m


def tb(loc, t, rows, cols, vr, vc, bl, sl, fractal=512):
    return ("!pto.tile_buf<loc=%s, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=%s, slayout=%s, fractal=%d, pad=0>" % (loc, t, rows, cols, vr, vc, bl, sl, fractal))


class K:
    """Builds one kernel's text."""

    def __init__(self):
        self.lines = []
        self.consts = {}
        self.n = 0

    def c(self, v):
        if v not in self.consts:
            self.consts[v] = "%%c%d" % v
        return self.consts[v]

    def name(self, base):
        self.n += 1
        return "%%%s%d" % (base, self.n)

    def emit(self, s):
        self.lines.append("    " + s)

    def view(self, ptr, t, rows, cols):
        v = self.name("tv")
        self.emit("%s = pto.make_tensor_view %s, shape = [%s, %s], strides = [%s, %s] : "
                  "!pto.tensor_view<?x?x%s>" % (v, ptr, self.c(rows), self.c(cols), self.c(cols),
                                                self.c(1), t))
        return v

    def part(self, tv, t, r0, c0, rows, cols):
        p = self.name("pv")
        self.emit("%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
                  "!pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                  % (p, tv, self.c(r0), self.c(c0), self.c(rows), self.c(cols), t, rows, cols, t))
        return p, "!pto.partition_tensor_view<%dx%dx%s>" % (rows, cols, t)

    def alloc(self, ty):
        x = self.name("t")
        self.emit("%s = pto.alloc_tile : %s" % (x, ty))
        return x

    def load(self, pv, pty, tile, ty):
        self.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (pv, pty, tile, ty))

    def tmov(self, s, sty, d, dty):
        self.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (s, sty, d, dty))


def layouts(target):
    left = ("row_major", "row_major") if target == "a2a3" else ("col_major", "row_major")
    return left, ("row_major", "col_major")


def kernel(target, case):
    t, m, k, n, variant, out = case
    ta, tb_ = (t.split("/") + [t])[:2]
    b = BITS[ta]
    acc_t = "i32" if ta == "i8" else "f32"
    g = 256 // b                       # elements of one fractal row (32 bytes)
    left, right = layouts(target)
    kk = K()
    args = ["%a: !pto.ptr<" + ta + ">", "%b: !pto.ptr<" + tb_ + ">"]
    mx = "mx" in variant
    if variant.endswith("bias"):
        args.append("%bias: !pto.ptr<f32>")
    if mx:
        args += ["%as: !pto.ptr<f8E8M0FNU>", "%bs: !pto.ptr<f8E8M0FNU>"]
    args.append("%c: !pto.ptr<" + out + ">")
    av = kk.view("%a", ta, m, k)
    bv = kk.view("%b", tb_, k, n)
    cv = kk.view("%c", out, m, n)
    np_ = up(n, 16)
    # a one-row A and C (a boxed tile of one row: pto-isa's GEMV vector, semantics.md §6.1)
    mp = 1 if variant in ("gemv_mx_acc", "gemv_mx_bias") else up(m, 16)
    acc_ty = tb("acc", acc_t, mp, np_, m, n, "col_major", "row_major", 1024)
    acc = kk.alloc(acc_ty)
    split = variant in ("splitk", "gemv_mx_acc")
    halves = [(0, k)] if not split else [(0, k // 2), (k // 2, k - k // 2)]
    if mx:
        ks = (k + 31) // 32
        sv = [kk.view("%as", "f8E8M0FNU", m, ks), kk.view("%bs", "f8E8M0FNU", ks, n)]
    ops = []
    for (k0, kl) in halves:
        kp = up(kl, g)
        aty_m = tb("mat", ta, mp, kp, m, kl, *left)
        aty_l = tb("left", ta, mp, kp, m, kl, *left)
        bty_m = tb("mat", tb_, kp, np_, kl, n, *right)
        bty_r = tb("right", tb_, kp, np_, kl, n, *right)
        pa, pat = kk.part(av, ta, 0, k0, m, kl)
        pb, pbt = kk.part(bv, tb_, k0, 0, kl, n)
        am, al, bm, br = kk.alloc(aty_m), kk.alloc(aty_l), kk.alloc(bty_m), kk.alloc(bty_r)
        kk.load(pa, pat, am, aty_m)
        kk.load(pb, pbt, bm, bty_m)
        kk.tmov(am, aty_m, al, aty_l)
        kk.tmov(bm, bty_m, br, bty_r)
        sc = []
        if mx:  # the scales of this K range: SA[:, k0/32 ...], SB[k0/32 ..., :]
            q0, qn = k0 // 32, (kl + 31) // 32
            for v, (r0, c0, r, cc) in zip(sv, ((0, q0, m, qn), (q0, 0, qn, n))):
                p, pt = kk.part(v, "f8E8M0FNU", r0, c0, r, cc)
                mt = tb("mat", "f8E8M0FNU", r, up(cc, 32), r, cc, "row_major", "none_box")
                st = tb("scaling", "f8E8M0FNU", r, up(cc, 32), r, cc, "row_major", "none_box")
                x, y = kk.alloc(mt), kk.alloc(st)
                kk.load(p, pt, x, mt)
                kk.tmov(x, mt, y, st)
                sc.append((y, st))
        ops.append((al, aty_l, br, bty_r, sc))
    al, aty_l, br, bty_r, sc = ops[0]
    if variant.endswith("bias"):
        bv2 = kk.view("%bias", "f32", 1, n)
        pbias, pbiast = kk.part(bv2, "f32", 0, 0, 1, n)
        bmt = tb("mat", "f32", 1, np_, 1, n, "row_major", "none_box")
        btt = tb("bias", "f32", 1, np_, 1, n, "row_major", "none_box")
        bm, bt = kk.alloc(bmt), kk.alloc(btt)
        kk.load(pbias, pbiast, bm, bmt)
        kk.tmov(bm, bmt, bt, btt)
        if variant == "bias":
            kk.emit("pto.tmatmul.bias ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
                    % (al, br, bt, aty_l, bty_r, btt, acc, acc_ty))
        else:
            kk.emit("pto.tgemv.mx.bias ins(%s, %s, %s, %s, %s : %s, %s, %s, %s, %s) outs(%s : %s)"
                    % (al, sc[0][0], br, sc[1][0], bt, aty_l, sc[0][1], bty_r, sc[1][1], btt,
                       acc, acc_ty))
    elif mx:
        name = "pto.tmatmul.mx" if variant == "mx" else "pto.tgemv.mx"
        kk.emit("%s ins(%s, %s, %s, %s : %s, %s, %s, %s) outs(%s : %s)"
                % (name, al, sc[0][0], br, sc[1][0], aty_l, sc[0][1], bty_r, sc[1][1], acc, acc_ty))
    else:
        kk.emit("pto.tmatmul ins(%s, %s : %s, %s) outs(%s : %s)" % (al, br, aty_l, bty_r, acc, acc_ty))
    if variant == "splitk":
        al2, aty2, br2, bty2, _ = ops[1]
        kk.emit("pto.tmatmul.acc ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
                % (acc, al2, br2, acc_ty, aty2, bty2, acc, acc_ty))
    if variant == "gemv_mx_acc":
        al2, aty2, br2, bty2, sc2 = ops[1]
        kk.emit("pto.tgemv.mx.acc ins(%s, %s, %s, %s, %s : %s, %s, %s, %s, %s) outs(%s : %s)"
                % (acc, al2, sc2[0][0], br2, sc2[1][0], acc_ty, aty2, sc2[0][1], bty2, sc2[1][1],
                   acc, acc_ty))
    pc, pct = kk.part(cv, out, 0, 0, m, n)
    kk.emit("pto.tstore ins(%s : %s) outs(%s : %s)" % (acc, acc_ty, pc, pct))
    head = ["module {", "  func.func @mm(%s) attributes {pto.entry} {" % ", ".join(args)]
    consts = ["    %s = arith.constant %d : index" % (v, x) for x, v in sorted(kk.consts.items())]
    return "\n".join(head + consts + kk.lines + ["    return", "  }", "}", ""])


def run_case(ptoc, mmc, target, work, idx, case):
    t, m, k, n, variant, out = case
    ta, tb_ = (t.split("/") + [t])[:2]
    d = os.path.join(work, "%s_%d" % (target, idx))
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "mm.pto")
    with open(src, "w") as f:
        f.write(kernel(target, case))
    p = lambda x: os.path.join(d, x)  # noqa: E731
    gens = [("a", ta, m * k), ("b", tb_, k * n)]
    if variant.endswith("bias"):
        gens.append(("bias", "f32", n))
    if "mx" in variant:
        ks = (k + 31) // 32
        gens += [("as", "f8E8M0FNU", m * ks), ("bs", "f8E8M0FNU", ks * n)]
    for i, (a, ty, cnt) in enumerate(gens):
        subprocess.run([mmc, "gen", ty, str(cnt), str(idx * 10 + i + 1), p(a + ".bin")], check=True)
    cmd = [ptoc, "run", src, "--target", target, "--out", "c=" + p("c.bin")]
    for a, _, _ in gens:
        cmd += ["--in", "%s=%s" % (a, p(a + ".bin"))]
    r = subprocess.run(cmd, capture_output=True, text=True)
    label = "%s %s %dx%dx%d %s -> %s" % (target, t, m, k, n, variant, out)
    if r.returncode:
        return False, "%s: ptoc run failed: %s" % (label, r.stderr.strip()[:2000])
    init = "bias" if variant.endswith("bias") else "zero"
    ck = [mmc, "check", ta, tb_, out, str(m), str(k), str(n), init, p("a.bin"), p("b.bin"),
          p("bias.bin") if init == "bias" else "-", p("c.bin")]
    if "mx" in variant:
        ck += [p("as.bin"), p("bs.bin")]
    r = subprocess.run(ck, capture_output=True, text=True)
    return r.returncode == 0, "%s: %s%s" % (label, r.stdout.strip(), r.stderr.strip())


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 2
    ptoc, mmc, target, work = argv[1:5]
    cases = COMMON + (A5_ONLY if target == "a5" else [])
    failed = 0
    for i, c in enumerate(cases):
        ok, msg = run_case(ptoc, mmc, target, work, i, c)
        print(("ok   " if ok else "FAIL ") + msg)
        failed += not ok
    print("matmul: %s: %d cases, %d failed" % (target, len(cases), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
