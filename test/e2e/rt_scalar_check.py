#!/usr/bin/python3
"""rt_scalar_check.py: the tile-scalar ops with a run-time scalar (a kernel argument)
through `ptoc run`, against test/e2e/pto_ref.py (docs/semantics.md §7.3).

  rt_scalar_check.py PTOC TARGET WORKDIR

For every op of the kinds that take a scalar (tadds ... tlrelu, texpands, tcmps, tsels,
taddsc, tsubsc, taxpy, tci; ttri's diagonal) and every element type the target's row of
target/vec_types.def lists: one case whose scalar is an argument of the kernel, of the
element type itself and of another type (converted as a tcvt with RINT, saturation off:
an f32 scalar on f16/bf16 tiles, f16 on f32, i32/ui16/index on integer tiles, i16 on
float tiles), on a ragged valid region (5 x 27 of 8 x 32). Scalar values include a
NaN with a payload, values that round, and values beyond a narrower integer type.
Every GM output is compared byte for byte with the reference interpreting the same
kernel. Prints one line per case and `rt_scalar_check: TARGET: N cases, K failed`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_kernels as fk  # noqa: E402
import kernel_gen as kg  # noqa: E402
import pto_ref  # noqa: E402

KINDS = ("BINS", "DUP", "CMPS", "SELS", "TERS", "AXPY", "SEQ", "TRI")
R, C, VR, VC = 8, 32, 5, 27

# scalar values per scalar type: (value as the argument takes it, label)
F32 = [0x3FC00000, 0xC2F6E979, 0x7FC01234, 0x3DCCCCCD, 0x477FF000]  # 1.5, -123.456, NaN, 0.1, 65520
F16 = [0x3E00, 0xD5E6, 0x7E12, 0x0001]                          # 1.5, -94.4, NaN, subnormal
BF16 = [0x3FC0, 0xC2F7]
INTS = {"i32": [7, -3, 70000, -2 ** 31], "i16": [5, -2, 32767], "ui16": [3, 65535, 40000],
        "index": [6, -1, 2 ** 33 + 9], "i8": [3, -128], "ui8": [9, 255], "ui32": [11, 2 ** 32 - 2]}


def values(st):
    return {"f32": F32, "f16": F16, "bf16": BF16}.get(st) or INTS[st]


def scalar_types(t, kind):
    """the scalar's own type, then another one (§7.3)"""
    if kind == "SEQ":
        return [t if not t.startswith("ui") else t[1:], "index"]
    if kind == "TRI":
        return ["i32", "index"]
    if t in kg.FLOATS:
        return [t, "f16" if t == "f32" else "f32", "i16"]
    return [t, "i32" if t != "i32" else "ui16", "index"]


def case(c, rng, target, op, kind, t, st, val):
    """one op with the run-time scalar `val` of type st on tiles of t"""
    def tile(tt, rows=R, cols=C, vr=VR, vc=VC):
        return kg.layout_tile(c, rng, tt, rows, cols, vr, vc, (None, None))

    def ld(tt):
        x = tile(tt)
        kg.load(c, rng, x)
        return x

    s = c.arg("s", st, val)
    if kind == "AXPY":
        d = ld(t)
        src = ld(t)
        c.emit("pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (op, src.name, s, src.ty, st, d.name, d.ty))
        kg.store(c, rng, d)
        return
    if kind == "SEQ":
        d = ld(t)
        c.emit("pto.%s ins(%s {descending = %s} : %s) outs(%s : %s)" % (
            op, s, "true" if val % 2 else "false", st, d.name, d.ty))
        kg.store(c, rng, d)
        return
    if kind == "TRI":
        d = ld(t)
        c.emit("pto.%s ins(%s {upperOrLower = %d : i32} : %s) outs(%s : %s)" % (
            op, s, val % 2, st, d.name, d.ty))
        kg.store(c, rng, d)
        return
    if kind == "DUP":
        d = ld(t)
        c.emit("pto.%s ins(%s : %s) outs(%s : %s)" % (op, s, st, d.name, d.ty))
        kg.store(c, rng, d)
        return
    if kind == "CMPS":
        src = ld(t)
        m = tile("ui8", R, 32, VR, (VC + 7) // 8)
        kg.load(c, rng, m)
        mode = ("eq", "ne", "lt", "le", "gt", "ge")[val % 6]
        c.emit("pto.%s ins(%s, %s {cmpMode = #pto<cmp %s>} : %s, %s) outs(%s : %s)" % (
            op, src.name, s, mode, src.ty, st, m.name, m.ty))
        kg.store(c, rng, m)
        return
    if kind == "SELS":
        m = tile("ui8", R, 32, VR, (VC + 7) // 8)
        kg.load(c, rng, m)
        src, tmp, d = ld(t), tile(t), tile(t)
        c.emit("pto.%s ins(%s, %s, %s, %s : %s, %s, %s, %s) outs(%s : %s)" % (
            op, m.name, src.name, tmp.name, s, m.ty, src.ty, tmp.ty, st, d.name, d.ty))
        kg.store(c, rng, d)
        return
    if kind == "TERS":
        a, b, d = ld(t), ld(t), tile(t)
        c.emit("pto.%s ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)" % (
            op, a.name, s, b.name, a.ty, st, b.ty, d.name, d.ty))
        kg.store(c, rng, d)
        return
    src, d = ld(t), tile(t)
    if op == "tdivs" and val % 2:  # scalar first: s / tile
        c.emit("pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (op, s, src.name, st, src.ty, d.name, d.ty))
    else:
        c.emit("pto.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (op, src.name, s, src.ty, st, d.name, d.ty))
    kg.store(c, rng, d)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1:4]
    d = os.path.join(work, "%s_rt_scalar" % target)
    os.makedirs(d, exist_ok=True)
    table = kg.vec_table()
    cases = []
    seed = 0
    for op, (kind, types) in sorted(table.items()):
        if kind not in KINDS:
            continue
        for t in sorted(types[target]):
            if kind == "AXPY" and t not in kg.FLOATS:
                continue
            for st in scalar_types(t, kind):
                if kind == "TRI":
                    vals = [-3, 0, 5, 40, -40, 2, 1]  # diagonals inside and beyond the region
                elif op in ("tshls", "tshrs") and st != "index":
                    vals = [1, 3]  # a shift count within the element's width
                else:
                    vals = values(st)
                seed += 1
                val = vals[seed % len(vals)]
                c = kg.Case(len(cases), target, seed)
                rng = np.random.default_rng(seed)
                case(c, rng, target, op, kind, t, st, val)
                c.inputs = [kg.gen_input(np.random.default_rng(seed ^ 0x5A5A), tt, r * cc)
                            for (_, tt, r, cc, _) in c.gm]
                c.label = "%s %s, %s scalar %s" % (op, t, st, hex(val) if st in kg.FLOATS else val)
                cases.append(c)
    failed = 0
    refs = fk.generics(ptoc, target, cases, d)
    for c in cases:
        if isinstance(refs[c.cid], RuntimeError):
            raise refs[c.cid]
        try:
            refs[c.cid] = fk.reference(target, refs[c.cid], c)
        except pto_ref.Unsupported as e:
            refs[c.cid] = "the reference does not model it: %s" % e
    per = 40
    for i in range(0, len(cases), per):
        grp = cases[i:i + per]
        ok, msg, got = fk.run_ptoc(ptoc, target, grp, d)
        for c in grp:
            ref = refs[c.cid]
            if isinstance(ref, str):
                good, why = False, ref
            elif not ok:
                good, why = False, "ptoc run failed: " + msg.splitlines()[0][:300]
            else:
                bad = [a for (a, _, _, _, role) in c.gm if role == "out" and ref[a] != got[a]]
                good, why = not bad, "outputs equal" if not bad else "differs: " + ", ".join(bad)
            print("%s %s: %s" % ("ok  " if good else "FAIL", c.label, why))
            failed += not good
    print("rt_scalar_check: %s: %d cases, %d failed" % (target, len(cases), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
