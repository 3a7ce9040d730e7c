#!/usr/bin/python3
"""splitk.py: split-K matmuls give the bits of the unsplit one (docs/semantics.md §6.3).

  splitk.py PTOC MM_CHECK TARGET WORKDIR [--corpus DIR] [--no-family]

mmad accumulates in increasing k, one f32 rounding per step, starting from the
destination's contents for tmatmul.acc; so C = A[:, 0:k1] B[0:k1, :], then
C += A[:, k1:k2] B[k1:k2, :], ... performs exactly the roundings of one tmatmul over
all of K. For each element type (f32, f16, bf16) this writes one kernel per number of
parts P in 1, 2, 4, 8, 16 (P = 1 is the unsplit kernel; P > 1 as straight-line
tmatmul then P - 1 in-place tmatmul.acc, and again as an scf.for over the parts with
scf.if choosing tmatmul on the first iteration, the corpus's form), runs each with
`ptoc run --target TARGET` on the same A and B (gen_values: finite values of both
signs over 2^-6 .. 2^6 times a normal draw, so that sums cancel and every step rounds,
with zeros, -0 and a few subnormals; no inf or NaN, which would make most outputs
NaN), and requires every output to be byte for byte the
unsplit one's, and the unsplit one to equal the slow exact reference (`mm_check
check`, integer arithmetic, independent of ptoc).

With --corpus (PTOAS's corpus folder), the corpus's *_splitk.pto kernels (4 K blocks
in an scf.for, A2A3 operand layouts) run on the same kind of inputs and must give the
bytes of this script's unsplit kernel of the same shape and the exact reference; and
each one's unsplit corpus counterpart (same kernel over one K block) must give the
split kernel's bytes when the other K blocks are zero. On a target the corpus kernel
is not legal for (A5 requires Nz left tiles) the pair is listed as skipped.

--no-family runs only the corpus pairs. Prints one line per comparison and `splitk: TARGET: N kernels, M comparisons, F
failed`; exit 1 on any failure.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matmul import BITS, K, layouts, tb, up  # noqa: E402

M, KDIM, N = 20, 256, 24          # ragged m and n: partial valid regions
PARTS = [1, 2, 4, 8, 16]

# corpus split-K kernel -> (its unsplit counterpart, entry inputs (A, B...), outputs
# as (name, A input, B input)); shapes: A 32x128, B 128x32, four K blocks of 32
CORPUS = [
    ("samples/FFN/ffn_fc1_splitk.pto", "samples/FFN/ffn_fc1.pto", ["x", "w1", "w3"],
     [("h1_s", "x", "w1"), ("h2_s", "x", "w3")]),
    ("samples/GQA/gqa_qk_splitk.pto", "samples/GQA/gqa_qk.pto", ["q", "kt"],
     [("scores", "q", "kt")]),
    ("samples/FlashAttention/flash_attention_qk_splitk.pto",
     "samples/FlashAttention/flash_attention_qk.pto", ["q", "kt"], [("scores", "q", "kt")]),
    ("samples/FlashAttention/flash_attention_sv_splitk.pto",
     "samples/FlashAttention/flash_attention_sv.pto", ["softmax", "v"], [("out", "softmax", "v")]),
]


def kernel(target, t, m, k, n, parts, loop, left=None):
    """C (f32, m x n) = A (m x k) . B (k x n) over `parts` equal K blocks; left: the
    left tile's (blayout, slayout), default the target's cube layout."""
    assert k % parts == 0
    kl = k // parts
    g = 256 // BITS[t]
    lft, rgt = layouts(target)
    lft = left or lft
    kk = K()
    av, bv, cv = kk.view("%a", t, m, k), kk.view("%b", t, k, n), kk.view("%c", "f32", m, n)
    mp, np_, kp = up(m, 16), up(n, 16), up(kl, g)
    acc_ty = tb("acc", "f32", mp, np_, m, n, "col_major", "row_major", 1024)
    aty_m = tb("mat", t, mp, kp, m, kl, *lft)
    aty_l = tb("left", t, mp, kp, m, kl, *lft)
    bty_m = tb("mat", t, kp, np_, kl, n, *rgt)
    bty_r = tb("right", t, kp, np_, kl, n, *rgt)
    acc, am, al, bm, br = (kk.alloc(x) for x in (acc_ty, aty_m, aty_l, bty_m, bty_r))

    def block(k0, first, ind):
        pa = kk.name("pv")
        pb = kk.name("pv")
        pat = "!pto.partition_tensor_view<%dx%dx%s>" % (m, kl, t)
        pbt = "!pto.partition_tensor_view<%dx%dx%s>" % (kl, n, t)
        kk.emit(ind + "%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
                "!pto.tensor_view<?x?x%s> -> %s" % (pa, av, kk.c(0), k0, kk.c(m), kk.c(kl), t, pat))
        kk.emit(ind + "%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
                "!pto.tensor_view<?x?x%s> -> %s" % (pb, bv, k0, kk.c(0), kk.c(kl), kk.c(n), t, pbt))
        kk.emit(ind + "pto.tload ins(%s : %s) outs(%s : %s)" % (pa, pat, am, aty_m))
        kk.emit(ind + "pto.tload ins(%s : %s) outs(%s : %s)" % (pb, pbt, bm, bty_m))
        kk.emit(ind + "pto.tmov ins(%s : %s) outs(%s : %s)" % (am, aty_m, al, aty_l))
        kk.emit(ind + "pto.tmov ins(%s : %s) outs(%s : %s)" % (bm, bty_m, br, bty_r))
        mm = "pto.tmatmul ins(%s, %s : %s, %s) outs(%s : %s)" % (al, br, aty_l, bty_r, acc, acc_ty)
        mma = ("pto.tmatmul.acc ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
               % (acc, al, br, acc_ty, aty_l, bty_r, acc, acc_ty))
        if first is True:
            kk.emit(ind + mm)
        elif first is False:
            kk.emit(ind + mma)
        else:  # an i1 value: the loop's first iteration
            kk.emit(ind + "scf.if %s {" % first)
            kk.emit(ind + "  " + mm)
            kk.emit(ind + "} else {")
            kk.emit(ind + "  " + mma)
            kk.emit(ind + "}")

    if loop:
        kk.emit("scf.for %%i = %s to %s step %s {" % (kk.c(0), kk.c(parts), kk.c(1)))
        kk.emit("  %%k0 = arith.muli %%i, %s : index" % kk.c(kl))
        kk.emit("  %%first = arith.cmpi eq, %%i, %s : index" % kk.c(0))
        block("%k0", "%first", "  ")
        kk.emit("}")
    else:
        for p in range(parts):
            block(kk.c(p * kl), p == 0, "")
    pc = kk.name("pv")
    pct = "!pto.partition_tensor_view<%dx%dxf32>" % (m, n)
    kk.emit("%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
            "!pto.tensor_view<?x?xf32> -> %s" % (pc, cv, kk.c(0), kk.c(0), kk.c(m), kk.c(n), pct))
    kk.emit("pto.tstore ins(%s : %s) outs(%s : %s)" % (acc, acc_ty, pc, pct))
    args = "%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%c: !pto.ptr<f32>" % (t, t)
    head = ["module {", "  func.func @mm(%s) attributes {pto.entry} {" % args]
    consts = ["    %s = arith.constant %d : index" % (v, x) for x, v in sorted(kk.consts.items())]
    return "\n".join(head + consts + kk.lines + ["    return", "  }", "}", ""])


def gen_values(t, count, seed, path):
    """`count` random elements of t (f32, f16, bf16) written to path; see the docstring."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(count) * np.exp2(rng.integers(-6, 7, count).astype(np.float64))
    pick = rng.random(count)
    x[pick < 0.02] = 0.0
    x[(pick >= 0.02) & (pick < 0.03)] = -0.0
    tiny = {"f32": 2.0 ** -140, "f16": 2.0 ** -20, "bf16": 2.0 ** -130}[t]
    sub = (pick >= 0.03) & (pick < 0.04)
    x[sub] = np.round(x[sub] * 16) * tiny
    if t == "f32":
        data = x.astype(np.float32)
    elif t == "f16":
        data = x.astype(np.float16)
    else:  # bf16: the f32 value's top half (the cut is how the input is drawn, not a check)
        data = (x.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    data.tofile(path)


def finite_share(path):
    a = np.fromfile(path, dtype=np.float32)
    return float(np.isfinite(a).mean()) if a.size else 0.0


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, (r.stdout + r.stderr).strip()


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Checker:
    def __init__(self, ptoc, mmc, target, work):
        self.ptoc, self.mmc, self.target, self.work = ptoc, mmc, target, work
        self.kernels = self.comparisons = self.failed = 0

    def result(self, ok, msg):
        self.comparisons += 1
        self.failed += not ok
        print(("ok   " if ok else "FAIL ") + msg)
        return ok

    def ptoc_run(self, src, ins, out, entry=None, target=None):
        cmd = [self.ptoc, "run", src, "--target", target or self.target]
        if entry:
            cmd += ["--entry", entry]
        for a, p in ins:
            cmd += ["--in", "%s=%s" % (a, p)]
        for a, p in out:
            cmd += ["--out", "%s=%s" % (a, p)]
        rc, txt = run(cmd)
        self.kernels += rc == 0
        return rc, txt

    def gen(self, t, count, seed, path):
        gen_values(t, count, seed, path)

    def reference(self, label, t, m, k, n, a, b, c):
        rc, txt = run([self.mmc, "check", t, t, "f32", str(m), str(k), str(n), "zero", a, b, "-", c])
        share = finite_share(c)
        if share < 0.99:  # the inputs are finite and moderate: so must the sums be
            return self.result(False, "%s: only %.0f %% of the outputs are finite" % (label, 100 * share))
        return self.result(rc == 0, "%s: exact reference: %s" % (label, txt))

    def family(self, t, seed):
        d = os.path.join(self.work, "%s_%s" % (self.target, t))
        os.makedirs(d, exist_ok=True)
        p = lambda x: os.path.join(d, x)  # noqa: E731
        self.gen(t, M * KDIM, seed, p("a.bin"))
        self.gen(t, KDIM * N, seed + 1, p("b.bin"))
        base = None
        for parts in PARTS:
            for loop in ([False] if parts == 1 else [False, True]):
                name = "p%d%s" % (parts, "_loop" if loop else "")
                label = "%s %s %dx%dx%d K in %d part%s%s" % (self.target, t, M, KDIM, N, parts,
                                                            "s" if parts > 1 else "",
                                                            " (scf.for)" if loop else "")
                src = p(name + ".pto")
                with open(src, "w") as f:
                    f.write(kernel(self.target, t, M, KDIM, N, parts, loop))
                out = p(name + ".c.bin")
                rc, txt = self.ptoc_run(src, [("a", p("a.bin")), ("b", p("b.bin"))], [("c", out)])
                if rc:
                    self.result(False, "%s: ptoc run failed: %s" % (label, txt[:2000]))
                    continue
                if base is None:
                    base = out
                    self.reference(label, t, M, KDIM, N, p("a.bin"), p("b.bin"), out)
                else:
                    same = read(out) == read(base)
                    self.result(same, "%s: %s the unsplit kernel's %d bytes" %
                                (label, "equals" if same else "DIFFERS from", len(read(base))))

    def corpus(self, corpus_dir, seed):
        for split, unsplit, ins, outs in CORPUS:
            src = os.path.join(corpus_dir, split)
            name = os.path.basename(split)[:-4]
            d = os.path.join(self.work, "%s_%s" % (self.target, name))
            os.makedirs(d, exist_ok=True)
            p = lambda x: os.path.join(d, x)  # noqa: E731
            rc, txt = run([self.ptoc, src, "--target", self.target, "-o", p("compiled.c")])
            if rc:
                first = txt.splitlines()[0] if txt else ""
                print("skip %s %s: not legal on this target: %s" % (self.target, name, first))
                continue
            shapes = {}
            for i, a in enumerate(ins):  # the first input is A (32x128), the others B (128x32)
                shapes[a] = (32, 128) if i == 0 else (128, 32)
                self.gen("f32", 32 * 128, seed + i, p(a + ".bin"))
            got = [(o, p(o + ".bin")) for o, _, _ in outs]
            rc, txt = self.ptoc_run(src, [(a, p(a + ".bin")) for a in ins], got)
            if rc:
                self.result(False, "%s %s: ptoc run failed: %s" % (self.target, name, txt[:2000]))
                continue
            for o, a, b in outs:
                label = "%s %s %s" % (self.target, name, o)
                self.reference(label, "f32", 32, 128, 32, p(a + ".bin"), p(b + ".bin"), p(o + ".bin"))
                # this script's unsplit kernel of the same shape, with the corpus's left layout
                k1 = p("unsplit_%s.pto" % o)
                with open(k1, "w") as f:
                    f.write(kernel(self.target, "f32", 32, 128, 32, 1, False, ("row_major", "row_major")))
                rc, txt = self.ptoc_run(k1, [("a", p(a + ".bin")), ("b", p(b + ".bin"))],
                                        [("c", p("unsplit_%s.bin" % o))])
                if rc:
                    self.result(False, "%s: unsplit kernel failed: %s" % (label, txt[:2000]))
                    continue
                same = read(p("unsplit_%s.bin" % o)) == read(p(o + ".bin"))
                self.result(same, "%s: %s the unsplit 32x128x32 kernel's bytes" %
                            (label, "equals" if same else "DIFFERS from"))
            # the corpus's unsplit counterpart over the first K block (A 32x32, B 32x32)
            # against the split kernel with the other K blocks zero
            small, zext = [], []
            for a in ins:
                data = read(p(a + ".bin"))
                r, c = shapes[a]
                if c == 128:  # A: keep columns 0..31 of each row
                    rows = [data[i * 512:i * 512 + 128] for i in range(32)]
                    small.append(b"".join(rows))
                    zext.append(b"".join(x + bytes(384) for x in rows))
                else:  # B: keep rows 0..31
                    small.append(data[:32 * 128])
                    zext.append(data[:32 * 128] + bytes(96 * 128))
            for a, s, z in zip(ins, small, zext):
                with open(p(a + ".small.bin"), "wb") as f:
                    f.write(s)
                with open(p(a + ".zext.bin"), "wb") as f:
                    f.write(z)
            usrc = os.path.join(corpus_dir, unsplit)
            rc1, t1 = self.ptoc_run(usrc, [(a, p(a + ".small.bin")) for a in ins],
                                    [(o, p(o + ".u.bin")) for o, _, _ in outs])
            rc2, t2 = self.ptoc_run(src, [(a, p(a + ".zext.bin")) for a in ins],
                                    [(o, p(o + ".z.bin")) for o, _, _ in outs])
            if rc1 or rc2:
                self.result(False, "%s %s vs %s: ptoc run failed: %s" %
                            (self.target, name, os.path.basename(unsplit), (t1 + t2)[:2000]))
                continue
            for o, _, _ in outs:
                same = read(p(o + ".u.bin")) == read(p(o + ".z.bin"))
                self.result(same, "%s %s %s: %s %s on one K block" %
                            (self.target, name, o, "equals" if same else "DIFFERS from",
                             os.path.basename(unsplit)))


def main(argv):
    args = argv[1:]
    corpus_dir = None
    family = "--no-family" not in args
    args = [a for a in args if a != "--no-family"]
    if "--corpus" in args:
        i = args.index("--corpus")
        corpus_dir = args[i + 1]
        del args[i:i + 2]
    if len(args) != 4:
        print(__doc__)
        return 2
    ptoc, mmc, target, work = args
    ck = Checker(ptoc, mmc, target, work)
    for i, t in enumerate(["f32", "f16", "bf16"] if family else []):
        ck.family(t, 100 + 10 * i)
    if corpus_dir:
        ck.corpus(corpus_dir, 200)
    print("splitk: %s: %d kernels, %d comparisons, %d failed" %
          (target, ck.kernels, ck.comparisons, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
