#!/usr/bin/python3
"""arith_check.py: every arith op ptoc compiles, against Python (docs/semantics.md §8.4).

  arith_check.py PTOC CC RTINC RTLIB WORKDIR

Writes a module with one function per op and type (`@addi_i32(%a: i32, %b: i32) ->
i32`, ...), compiles it with ptoc to C, and a C driver that calls each function on
every pair (or every value) of a list of edge cases of its type: 0, +-1, the
extremes, shift amounts around the width, NaN (canonical and with payload), +-0,
+-inf, subnormals, rounding ties, values beyond the narrower formats' range. The
driver prints every result's bits; each is compared with this file's model, written
from MLIR's arith semantics with ptoc's decisions where MLIR leaves poison or
undefined behaviour: integers wrap modulo 2^N; a shift by N or more gives 0 (shrsi:
the sign); x / 0 gives all ones and x % 0 gives x, MIN / -1 gives MIN; float ops
round once to nearest even (exact rational arithmetic here), every NaN result is the
type's canonical NaN except negf (sign flipped), maxnumf/minnumf (the other operand)
and bitcast; fptosi/fptoui truncate and saturate, NaN gives 0.
Prints one line per op with the number of cases and mismatches (the first ones in
hex); exit 1 on any mismatch.
"""
import os
import subprocess
import sys
from fractions import Fraction

# ---- float formats ------------------------------------------------------------------

FMT = {"f32": (8, 23), "f16": (5, 10), "bf16": (8, 7)}
QNAN = {"f32": 0x7FC00000, "f16": 0x7E00, "bf16": 0x7FC0}


def fbits(t):
    e, m = FMT[t]
    return 1 + e + m


def decode(t, x):
    """('nan',) | ('inf', s) | ('num', s, Fraction) (zero included, s its sign)."""
    e, m = FMT[t]
    s = (x >> (e + m)) & 1
    ex = (x >> m) & ((1 << e) - 1)
    man = x & ((1 << m) - 1)
    bias = (1 << (e - 1)) - 1
    if ex == (1 << e) - 1:
        return ("nan",) if man else ("inf", s)
    if ex == 0:
        v = Fraction(man, 1 << m) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(man, 1 << m)) * Fraction(2) ** (ex - bias)
    return ("num", s, -v if s else v)


def is_nan(t, x):
    return decode(t, x)[0] == "nan"


def encode(t, v, s=None):
    """Rounds the rational v once to nearest even; s is the sign for a zero result."""
    e, m = FMT[t]
    bias = (1 << (e - 1)) - 1
    if v == 0:
        return (1 << (e + m)) if s else 0
    sign = 1 if v < 0 else 0
    a = -v if v < 0 else v
    # exponent with 2^ex <= a < 2^(ex+1)
    ex = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** ex > a:
        ex -= 1
    ex = max(ex, 1 - bias)  # subnormal range: fixed quantum
    q = Fraction(2) ** (ex - m)
    n = a / q
    f = n.numerator // n.denominator
    r = n - f
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and f % 2 == 1):
        f += 1
    if f == 0:
        return sign << (e + m)
    if f >= (2 << m):  # carried into the next binade
        f //= 2
        ex += 1
    if ex > bias:
        return (sign << (e + m)) | (((1 << e) - 1) << m)  # inf
    if f < (1 << m):  # subnormal
        return (sign << (e + m)) | f
    return (sign << (e + m)) | ((ex + bias) << m) | (f - (1 << m))


def inf_bits(t, s):
    e, m = FMT[t]
    return (s << (e + m)) | (((1 << e) - 1) << m)


def f_arith(op, t, a, b):
    A, B = decode(t, a), decode(t, b)
    q = QNAN[t]
    if A[0] == "nan" or B[0] == "nan":
        return q
    if op in ("add", "sub"):
        if op == "sub":
            B = (B[0], 1 - B[1]) if B[0] == "inf" else ("num", 1 - B[1], -B[2])
        if A[0] == "inf" and B[0] == "inf":
            return q if A[1] != B[1] else inf_bits(t, A[1])
        if A[0] == "inf":
            return inf_bits(t, A[1])
        if B[0] == "inf":
            return inf_bits(t, B[1])
        v = A[2] + B[2]
        if v == 0:
            return encode(t, v, A[1] and B[1])  # -0 only for -0 + -0
        return encode(t, v)
    s = A[1] ^ B[1]
    if op == "mul":
        if A[0] == "inf" or B[0] == "inf":
            if (A[0] == "num" and A[2] == 0) or (B[0] == "num" and B[2] == 0):
                return q
            return inf_bits(t, s)
        return encode(t, A[2] * B[2], s)
    if op == "div":
        if A[0] == "inf":
            return q if B[0] == "inf" else inf_bits(t, s)
        if B[0] == "inf":
            return encode(t, Fraction(0), s)
        if B[2] == 0:
            return q if A[2] == 0 else inf_bits(t, s)
        return encode(t, A[2] / B[2], s)
    raise ValueError(op)


def f_key(t, x):
    """An order key with -0 < +0 (not for NaN)."""
    d = decode(t, x)
    if d[0] == "inf":
        return (Fraction(-1 if d[1] else 1) * 10 ** 60, 0)
    return (d[2], d[1] == 0)


def f_max(t, a, b, num, want_max):
    na, nb = is_nan(t, a), is_nan(t, b)
    if num:
        if na:
            return b
        if nb:
            return a
    elif na or nb:
        return QNAN[t]
    ka, kb = f_key(t, a), f_key(t, b)
    if want_max:
        return a if ka >= kb else b
    return a if ka <= kb else b


def f_cmp(pred, t, a, b):
    uno = is_nan(t, a) or is_nan(t, b)
    if pred == "false":
        return 0
    if pred == "true":
        return 1
    if pred == "ord":
        return int(not uno)
    if pred == "uno":
        return int(uno)
    if uno:
        return int(pred[0] == "u")
    A, B = decode(t, a), decode(t, b)
    va = Fraction(-1 if A[1] else 1) * 10 ** 60 if A[0] == "inf" else A[2]
    vb = Fraction(-1 if B[1] else 1) * 10 ** 60 if B[0] == "inf" else B[2]
    rel = pred[1:]
    return int({"eq": va == vb, "ne": va != vb, "gt": va > vb, "ge": va >= vb,
                "lt": va < vb, "le": va <= vb}[rel])


def f_to_int(t, x, n, signed):
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
    d = decode(t, x)
    if d[0] == "nan":
        v = 0
    elif d[0] == "inf":
        v = lo if d[1] else hi
    else:
        v = int(d[2])  # toward zero
        v = min(max(v, lo), hi)
    return wrap(v, n)


def f_convert(tf, tt, x):
    d = decode(tf, x)
    if d[0] == "nan":
        return QNAN[tt]
    if d[0] == "inf":
        return inf_bits(tt, d[1])
    return encode(tt, d[2], d[1])


# ---- integers -----------------------------------------------------------------------


def width(t):
    return 64 if t == "index" else int(t[1:])


def wrap(v, n):
    """The canonical value of an n-bit integer: sign-extended (i1: 0 or 1)."""
    v &= (1 << n) - 1
    if n == 1:
        return v
    return v - (1 << n) if v >> (n - 1) else v


def sgn(v, n):
    """Signed reading of canonical v (i1: 1 is -1)."""
    return -v if n == 1 else v


def uns(v, n):
    return v & ((1 << n) - 1)


def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def i_arith(op, n, a, b):
    sa, sb, ua, ub = sgn(a, n), sgn(b, n), uns(a, n), uns(b, n)
    if op == "addi":
        return wrap(a + b, n)
    if op == "subi":
        return wrap(a - b, n)
    if op == "muli":
        return wrap(a * b, n)
    if op in ("divsi", "remsi", "ceildivsi", "floordivsi"):
        if sb == 0:
            return wrap(-1, n) if op != "remsi" else a
        q = tdiv(sa, sb)
        r = sa - q * sb
        if op == "remsi":
            return wrap(r, n)
        if op == "floordivsi" and r != 0 and (r < 0) != (sb < 0):
            q -= 1
        if op == "ceildivsi" and r != 0 and (r < 0) == (sb < 0):
            q += 1
        return wrap(q, n)
    if op in ("divui", "remui", "ceildivui"):
        if ub == 0:
            return wrap(-1, n) if op != "remui" else a
        if op == "divui":
            return wrap(ua // ub, n)
        if op == "remui":
            return wrap(ua % ub, n)
        return wrap(-(-ua // ub), n)
    if op == "minsi":
        return a if sa <= sb else b
    if op == "maxsi":
        return a if sa >= sb else b
    if op == "minui":
        return a if ua <= ub else b
    if op == "maxui":
        return a if ua >= ub else b
    if op == "andi":
        return wrap(ua & ub, n)
    if op == "ori":
        return wrap(ua | ub, n)
    if op == "xori":
        return wrap(ua ^ ub, n)
    if op == "shli":
        return 0 if ub >= n else wrap(ua << ub, n)
    if op == "shrui":
        return 0 if ub >= n else wrap(ua >> ub, n)
    if op == "shrsi":
        return wrap(sa >> min(ub, n - 1), n)
    raise ValueError(op)


CMPI = {"eq": lambda a, b, n: a == b, "ne": lambda a, b, n: a != b,
        "slt": lambda a, b, n: sgn(a, n) < sgn(b, n), "sle": lambda a, b, n: sgn(a, n) <= sgn(b, n),
        "sgt": lambda a, b, n: sgn(a, n) > sgn(b, n), "sge": lambda a, b, n: sgn(a, n) >= sgn(b, n),
        "ult": lambda a, b, n: uns(a, n) < uns(b, n), "ule": lambda a, b, n: uns(a, n) <= uns(b, n),
        "ugt": lambda a, b, n: uns(a, n) > uns(b, n), "uge": lambda a, b, n: uns(a, n) >= uns(b, n)}
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true"]


def int_cases(t):
    n = width(t)
    if n == 1:
        return [0, 1]
    mn, mx = -(1 << (n - 1)), (1 << (n - 1)) - 1
    vals = [0, 1, -1, 2, -2, 3, -3, 5, 7, -7, n - 1, n, n + 1, 2 * n, mn, mn + 1, mx, mx - 1,
            mx // 3, mn // 3 + 1, 0x5A5A5A5A5A5A5A5A, 100, -100]
    out = []
    for v in vals:
        w = wrap(v, n)
        if w not in out:
            out.append(w)
    return out


def float_cases(t):
    e, m = FMT[t]
    top = 1 << (e + m)
    one = encode(t, Fraction(1))
    vals = [0, top, one, one | top, encode(t, Fraction(1, 2)), encode(t, Fraction(3, 2)),
            encode(t, Fraction(-3)), encode(t, Fraction(1, 3)), encode(t, Fraction(-7, 5)),
            inf_bits(t, 0) - 1, (inf_bits(t, 0) - 1) | top, 1, 1 | top, 1 << m, (1 << m) - 1,
            inf_bits(t, 0), inf_bits(t, 1), QNAN[t], QNAN[t] | top | 1, inf_bits(t, 0) | 1,
            encode(t, Fraction(1) + Fraction(1, 1 << m)), encode(t, Fraction(100)),
            encode(t, Fraction(-65504)), encode(t, Fraction(3, 1 << 20)),
            encode(t, Fraction(2) ** 31), encode(t, Fraction(-(2 ** 63))),
            encode(t, Fraction(255)), encode(t, Fraction(256)), encode(t, Fraction(-129))]
    out = []
    for v in vals:
        if v not in out:
            out.append(v)
    return out


# ---- the module, the driver, the comparison -----------------------------------------

INT_TYPES = ["i1", "i8", "i16", "i32", "i64", "index"]
INT_BIN = ["addi", "subi", "muli", "divsi", "remsi", "ceildivsi", "floordivsi", "divui",
           "remui", "ceildivui", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori",
           "shli", "shrsi", "shrui"]
FLT_TYPES = ["f32", "f16", "bf16"]
FLT_BIN = ["addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf"]


def ctype(t):
    if t in FLT_TYPES:
        return "uint64_t"
    return "int" if t == "i1" else "int64_t"


class Gen:
    def __init__(self):
        self.funcs = []  # (name, [arg types], result type, reference fn, arity)
        self.pto = []

    def add(self, name, args, res, body, ref):
        params = ", ".join("%%%s: %s" % ("ab"[i], t) for i, t in enumerate(args))
        self.pto.append("  func.func @%s(%s) -> %s {\n    %%r = %s\n    return %%r : %s\n  }"
                        % (name, params, res, body, res))
        self.funcs.append((name, args, res, ref))


def build(g):
    for t in INT_TYPES:
        n = width(t)
        for op in INT_BIN:
            g.add("%s_%s" % (op, t), [t, t], t, "arith.%s %%a, %%b : %s" % (op, t),
                  lambda a, b, op=op, n=n: i_arith(op, n, a, b))
        for p, f in CMPI.items():
            g.add("cmpi_%s_%s" % (p, t), [t, t], "i1", "arith.cmpi %s, %%a, %%b : %s" % (p, t),
                  lambda a, b, f=f, n=n: int(f(a, b, n)))
    ints = ["i1", "i8", "i16", "i32", "i64"]
    for s in ints:
        for d in ints:
            ns, nd = width(s), width(d)
            if nd > ns:
                g.add("extsi_%s_%s" % (s, d), [s], d, "arith.extsi %%a : %s to %s" % (s, d),
                      lambda a, ns=ns, nd=nd: wrap(sgn(a, ns), nd))
                g.add("extui_%s_%s" % (s, d), [s], d, "arith.extui %%a : %s to %s" % (s, d),
                      lambda a, ns=ns, nd=nd: wrap(uns(a, ns), nd))
            if nd < ns:
                g.add("trunci_%s_%s" % (s, d), [s], d, "arith.trunci %%a : %s to %s" % (s, d),
                      lambda a, nd=nd: wrap(a, nd))
    for d in ints:
        nd = width(d)
        g.add("index_cast_to_%s" % d, ["index"], d, "arith.index_cast %%a : index to %s" % d,
              lambda a, nd=nd: wrap(a, nd))
        g.add("index_castui_to_%s" % d, ["index"], d, "arith.index_castui %%a : index to %s" % d,
              lambda a, nd=nd: wrap(a, nd))
        g.add("index_cast_from_%s" % d, [d], "index", "arith.index_cast %%a : %s to index" % d,
              lambda a, nd=nd: sgn(a, nd))
        g.add("index_castui_from_%s" % d, [d], "index", "arith.index_castui %%a : %s to index" % d,
              lambda a, nd=nd: uns(a, nd))
    for t in FLT_TYPES:
        for op in FLT_BIN:
            if op in ("addf", "subf", "mulf", "divf"):
                ref = lambda a, b, op=op[:-1], t=t: f_arith(op, t, a, b)
            else:
                ref = lambda a, b, op=op, t=t: f_max(t, a, b, "num" in op, "max" in op)
            g.add("%s_%s" % (op, t), [t, t], t, "arith.%s %%a, %%b : %s" % (op, t), ref)
        g.add("negf_%s" % t, [t], t, "arith.negf %%a : %s" % t,
              lambda a, t=t: a ^ (1 << (fbits(t) - 1)))
        for k, p in enumerate(CMPF):
            g.add("cmpf_%s_%s" % (p, t), [t, t], "i1", "arith.cmpf %s, %%a, %%b : %s" % (p, t),
                  lambda a, b, p=p, t=t: f_cmp(p, t, a, b))
        for d in ["i8", "i16", "i32", "i64", "i1"]:
            nd = width(d)
            if d != "i1":
                g.add("fptosi_%s_%s" % (t, d), [t], d, "arith.fptosi %%a : %s to %s" % (t, d),
                      lambda a, t=t, nd=nd: f_to_int(t, a, nd, True))
                g.add("fptoui_%s_%s" % (t, d), [t], d, "arith.fptoui %%a : %s to %s" % (t, d),
                      lambda a, t=t, nd=nd: f_to_int(t, a, nd, False))
            g.add("sitofp_%s_%s" % (d, t), [d], t, "arith.sitofp %%a : %s to %s" % (d, t),
                  lambda a, t=t, nd=nd: encode(t, Fraction(sgn(a, nd))))
            g.add("uitofp_%s_%s" % (d, t), [d], t, "arith.uitofp %%a : %s to %s" % (d, t),
                  lambda a, t=t, nd=nd: encode(t, Fraction(uns(a, nd))))
        it = "i%d" % fbits(t)
        g.add("bitcast_%s_%s" % (t, it), [t], it, "arith.bitcast %%a : %s to %s" % (t, it),
              lambda a, n=fbits(t): wrap(a, n))
        g.add("bitcast_%s_%s" % (it, t), [it], t, "arith.bitcast %%a : %s to %s" % (it, t),
              lambda a, n=fbits(t): uns(a, n))
    for s, d in [("f16", "f32"), ("bf16", "f32")]:
        g.add("extf_%s_%s" % (s, d), [s], d, "arith.extf %%a : %s to %s" % (s, d),
              lambda a, s=s, d=d: f_convert(s, d, a))
        g.add("truncf_%s_%s" % (d, s), [d], s, "arith.truncf %%a : %s to %s" % (d, s),
              lambda a, s=s, d=d: f_convert(d, s, a))
    g.add("bitcast_f16_bf16", ["f16"], "bf16", "arith.bitcast %a : f16 to bf16", lambda a: a)


def cases(t):
    return float_cases(t) if t in FLT_TYPES else int_cases(t)


def clit(t, v):
    if t in FLT_TYPES:
        return "0x%xull" % v
    if t == "i1":
        return str(v)
    if v == -(1 << 63):
        return "(-9223372036854775807LL - 1)"
    return "%dLL" % v


def driver(g):
    c = ["#include <stdint.h>", "#include <stdio.h>", '#include "ptort.h"', ""]
    tys = sorted({t for f in g.funcs for t in f[1]})
    for t in tys:
        vals = cases(t)
        c.append("static const %s V_%s[%d] = {%s};" % (ctype(t), t, len(vals),
                                                     ", ".join(clit(t, v) for v in vals)))
    for name, args, res, ref in g.funcs:
        c.append("%s %s(ptort_ctx *ctx, %s);" % (ctype(res), name,
                                                ", ".join(ctype(a) for a in args)))
    c.append("int main(void)\n{\n\tunsigned i, j;")
    for name, args, res, ref in g.funcs:
        if len(args) == 2:
            c.append("\tfor (i = 0; i < sizeof V_%s / sizeof V_%s[0]; i++)\n"
                     "\t\tfor (j = 0; j < sizeof V_%s / sizeof V_%s[0]; j++)\n"
                     "\t\t\tprintf(\"%%llx\\n\", (unsigned long long)(uint64_t)%s(0, V_%s[i], V_%s[j]));"
                     % (args[0], args[0], args[1], args[1], name, args[0], args[1]))
        else:
            c.append("\tfor (i = 0; i < sizeof V_%s / sizeof V_%s[0]; i++)\n"
                     "\t\tprintf(\"%%llx\\n\", (unsigned long long)(uint64_t)%s(0, V_%s[i]));"
                     % (args[0], args[0], name, args[0]))
    c.append("\t(void)j;\n\treturn 0;\n}")
    return "\n".join(c) + "\n"


def main():
    ptoc, cc, rtinc, rtlib, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    g = Gen()
    build(g)
    pto = os.path.join(work, "arith_ops.pto")
    with open(pto, "w") as f:
        f.write("module {\n" + "\n".join(g.pto) + "\n}\n")
    kc = os.path.join(work, "arith_ops.c")
    dc = os.path.join(work, "arith_driver.c")
    exe = os.path.join(work, "arith_ops.out")
    if subprocess.run([ptoc, pto, "-o", kc]).returncode:
        print("arith_check: ptoc failed")
        return 1
    with open(dc, "w") as f:
        f.write(driver(g))
    cmd = [cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", rtinc, kc, dc]
    cmd += rtlib.split() + ["-lm", "-o", exe]
    if subprocess.run(cmd).returncode:
        print("arith_check: cc failed")
        return 1
    r = subprocess.run([exe], capture_output=True, text=True)
    if r.returncode:
        print("arith_check: the driver failed")
        return 1
    got = iter(r.stdout.split())
    bad = 0
    for name, args, res, ref in g.funcs:
        n = nb = 0
        first = []
        if len(args) == 2:
            pairs = [(a, b) for a in cases(args[0]) for b in cases(args[1])]
        else:
            pairs = [(a,) for a in cases(args[0])]
        rbits = fbits(res) if res in FLT_TYPES else width(res)
        for p in pairs:
            g_ = int(next(got), 16)
            want = ref(*p)
            w = want & ((1 << 64) - 1) if res not in FLT_TYPES else want
            if res not in FLT_TYPES and rbits == 1:
                w = want & 1
            n += 1
            if g_ != w:
                nb += 1
                if len(first) < 3:
                    first.append("(%s) -> 0x%x, want 0x%x" % (", ".join("0x%x" % (x & ((1 << 64) - 1)) for x in p), g_, w))
        print("arith_check: %s: %d cases, %d differ%s" % (name, n, nb, ("; " + "; ".join(first)) if first else ""))
        bad += nb
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
