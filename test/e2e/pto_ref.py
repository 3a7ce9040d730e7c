"""pto_ref.py: a numpy interpreter of PTO kernels, the independent reference of the
corpus run test (test/e2e/corpus_run.py).

It reads a module in MLIR's generic op form (what `ptoc --emit=generic` prints: one op a
line, regions between `({` and `})`), so that no .pto spelling has to be parsed twice;
the parser is not what is under test, the numbers are. Every op is executed from
docs/semantics.md alone, never from ptoc's passes, lowering or runtime:

  * tiles are arrays indexed by (row, column), one per alloc_tile: layouts, placement
    and instruction splitting do not exist here (§6.1 makes every movement a copy of
    (r, c) to (r, c)); a tile written by hand at an address (alloc_tile addr, tassign)
    is refused, unless Interp(target, manual=True) (below);
  * tload / tstore copy the valid region between a tile and a partition of a GM view
    (rank 2 to 5, outer dims flattened into rows (ND) or columns (DN), §6.2); tstore
    and tmov from an f32 acc tile to f16/bf16 convert with RINT and saturation ON;
  * tmatmul (.acc, .bias) in increasing k from +0, the bias row or the destination, one
    f32 rounding per step with the exact product (§6.3): the product of two f32/f16/bf16
    values is exact in float64, and acc + product is rounded to odd in float64 (TwoSum)
    before the one rounding to f32, which makes the result the correctly rounded sum
    (53 >= 24 + 2), also when the product has 48 significant bits;
  * vector element ops (§7.1): the exact result rounded once to the element type; +, -,
    * and / of two values of at most 24 bits are computed in float64 and rounded once
    (innocuous double rounding, 53 >= 2 * 24 + 2); NaN results canonical; max/min with
    NaN -> NaN and -0 < +0; scalar operands converted to the element type first (§7.3);
  * tcvt (§3): round_float below rounds a float64 value onto any binary float format
    with each round mode, then §3's overflow, infinity, NaN and saturation rules, and
    the per-target saturation defaults of §3.2;
  * the other vector ops (for test/e2e/fuzz_kernels.py): and/or/xor/shifts/fmod/rem/prelu
    and their scalar forms, tdivs either way, neg/abs (the sign bit), relu, exp/ln/sqrt/
    rsqrt/recip (float64, rounded once), not; texpands; row/column expands (expdif: the
    difference rounded, then exp) and broadcasts; taddc/tsubc/taddsc/tsubsc left to
    right; tcmp/tcmps into predicate bits (only the valid columns' bits written) and
    tsel/tsels; trowsum/trowprod/tcolsum/tcolprod in each target's order (§7.6), the
    max/min reductions in any; integer element ops by §7.2 (wrapping, x / 0 all ones,
    shifts of N or more); integer-source tcvt; a pair that cannot overflow (f32
    destination, exact pairs) ignores saturation (§2);
  * tiles placed by hand, with Interp(target, manual=True): an unboxed one (row-major
    ND, column-major DN) as a numpy view of its memory's bytes at its address, so that
    tiles whose bytes overlap alias as on the device; a boxed one as its own array when
    no other placed tile overlaps it;
  * scf.for / scf.if / scf.while, arith on 64-bit wrapping integers (§8.1);
  * pto.addptr (§8.6) as the buffer from element k on (a numpy view);
  * pto.subset (§7.8) as a numpy view of its source's array; a kernel's tile argument
    as a fresh (zero) tile; a strided GM memref argument as the dense buffer of its shape.

Anything outside this list raises Unsupported with the op's name, so a kernel using an
op the reference does not model is reported, never passed.
"""
import re

import numpy as np


class Unsupported(Exception):
    pass


# ---- element types ---------------------------------------------------------------------

# name: (storage dtype, float format (mantissa bits incl. the implicit one, emin, max
# finite) or None for integers)
FLOATS = {
    "f32": (24, -126, float.fromhex("0x1.fffffep127")),
    "f16": (11, -14, 65504.0),
    "bf16": (8, -126, float.fromhex("0x1.fep127")),
}
STORAGE = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16, "i8": np.int8,
           "i16": np.int16, "i32": np.int32, "i64": np.int64, "ui8": np.uint8,
           "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}
CANON_NAN = {"f32": 0x7FC00000, "f16": 0x7E00, "bf16": 0x7FC0}


def storage(t):
    if t not in STORAGE:
        raise Unsupported("element type %s" % t)
    return STORAGE[t]


def decode(bits, t):
    """stored values of type t -> float64 (floats: exact) or int64/uint64 (integers)"""
    bits = np.asarray(bits)
    if t == "f32":
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if t == "bf16":
        return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    return bits.astype(np.uint64 if t.startswith("ui") else np.int64)


def round_float(x, t, mode="RINT"):
    """float64 values rounded once onto the grid of float type t with round mode
    (RINT ROUND FLOOR CEIL TRUNC ODD), gradual underflow, exponent unbounded above (the
    caller applies overflow). Returns float64 values (exactly representable in t, or
    beyond its largest finite value). Zeros, infinities and NaN pass."""
    p, emin, _ = FLOATS[t]
    x = np.asarray(x, dtype=np.float64)
    out = x.copy()
    fin = np.isfinite(x) & (x != 0)
    xf = x[fin]
    _, e = np.frexp(xf)                           # |x| = m 2^e, 0.5 <= m < 1
    q = np.maximum(e - 1, emin) - (p - 1)          # exponent of the last kept bit
    y = np.ldexp(xf, -q)                           # exact: a power-of-two scaling
    a = np.abs(y)
    if mode in ("RINT", "NONE"):
        r = np.rint(a)
    elif mode == "ROUND":
        r = np.floor(a + 0.5)
    elif mode == "TRUNC":
        r = np.floor(a)
    elif mode == "FLOOR":
        r = np.where(y < 0, np.ceil(a), np.floor(a))
    elif mode == "CEIL":
        r = np.where(y < 0, np.floor(a), np.ceil(a))
    elif mode == "ODD":
        r = np.floor(a)
        r = np.where((r != a) & (np.fmod(r, 2) == 0), r + 1, r)
    else:
        raise Unsupported("round mode %s" % mode)
    res = np.ldexp(np.copysign(r, y), q)
    res = np.where(res == 0, np.copysign(0.0, xf), res)   # a zero keeps the sign
    out[fin] = res
    return out


def encode_float(v, t):
    """float64 values already on t's grid (or +-inf, NaN) -> bits of t; NaN canonical"""
    v = np.asarray(v, dtype=np.float64)
    if t == "f32":
        with np.errstate(over="ignore"):
            b = v.astype(np.float32).view(np.uint32)
    elif t == "f16":
        with np.errstate(over="ignore"):
            b = v.astype(np.float16).view(np.uint16)
    else:  # bf16: the value is an f32 whose low 16 bits are zero
        with np.errstate(over="ignore"):
            b = (v.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    return np.where(np.isnan(v), storage(t)(CANON_NAN[t]), b).astype(storage(t))


def arith_round(v, t):
    """the result of one element op (float64, exact or double-rounding safe) rounded to
    t with RINT, overflow to +-inf (§7.1)"""
    if t in FLOATS:
        r = round_float(v, t, "RINT")
        with np.errstate(invalid="ignore"):
            r = np.where(np.isfinite(r) & (np.abs(r) > FLOATS[t][2]), np.copysign(np.inf, r), r)
        return encode_float(r, t)
    raise Unsupported("float op on %s" % t)


def to_float_dst(x, t, mode, sat):
    """§3 float destination: x float64 (exact source values, NaN, inf) -> bits of t"""
    _, _, mx = FLOATS[t]
    r = round_float(x, t, mode)
    with np.errstate(invalid="ignore"):
        over = np.isfinite(r) & (np.abs(r) > mx)
        neg = r < 0
    if sat:
        r = np.where(over | np.isinf(r), np.copysign(mx, r), r)
        r = np.where(np.isnan(x), 0.0, r)
    else:
        inf = np.copysign(np.inf, r)
        big = np.copysign(mx, r)
        if mode in ("RINT", "NONE", "ROUND"):
            ov = inf
        elif mode in ("TRUNC", "ODD"):
            ov = big
        elif mode == "FLOOR":
            ov = np.where(neg, inf, big)
        else:  # CEIL
            ov = np.where(neg, big, inf)
        r = np.where(over, ov, r)
    return encode_float(r, t)


def int_range(t):
    bits = np.iinfo(storage(t)).bits
    if t.startswith("ui"):
        return 0, 2 ** bits - 1, bits
    return -2 ** (bits - 1), 2 ** (bits - 1) - 1, bits


def to_int_dst(x, t, mode, sat):
    """§3 integer destination from float64 values"""
    lo, hi, bits = int_range(t)
    x = np.asarray(x, dtype=np.float64)
    if mode in ("RINT", "NONE"):
        r = np.rint(x)
    elif mode == "ROUND":
        r = np.copysign(np.floor(np.abs(x) + 0.5), x)
    elif mode == "FLOOR":
        r = np.floor(x)
    elif mode == "CEIL":
        r = np.ceil(x)
    elif mode == "TRUNC":
        r = np.trunc(x)
    else:
        raise Unsupported("round mode %s toward an integer" % mode)
    out = []
    for v, src in zip(r.reshape(-1), x.reshape(-1)):
        if np.isnan(src):
            i = 0
        elif np.isinf(src):
            i = hi if src > 0 else lo
        else:
            i = int(v)
            if sat:
                i = min(max(i, lo), hi)
            else:
                i &= (1 << bits) - 1
                if lo < 0 and i > hi:
                    i -= 1 << bits
        out.append(i)
    return np.array(out, dtype=storage(t)).reshape(x.shape)


# §3.2: pairs whose default saturation is OFF (and the only ones A2A3 lets turn it off)
SAT_OFF_PAIRS = {("f32", "i16"), ("f16", "i16"), ("f16", "i8"), ("f16", "ui8"),
                 ("i32", "i16"), ("i64", "i32")}


def convert(bits, src, dst, mode, sat):
    """tcvt of stored values (§3): mode RINT..ODD, sat True/False"""
    if cannot_overflow(src, dst):
        sat = False      # §2: an f32 destination or an exact pair ignores saturation
    if src not in FLOATS:
        return int_convert(bits, src, dst, mode, sat)
    x = decode(bits, src)
    if dst == "f32" and src == "f32":  # f32 -> f32 rounds to an integral value
        r = np.where(np.isfinite(x), to_int_float(x, mode), x)
        return encode_float(r, "f32")
    if dst in FLOATS:
        return to_float_dst(x, dst, mode, sat)
    return to_int_dst(x, dst, mode, sat)


def cannot_overflow(src, dst):
    """§2: an f32 destination, or an exact pair (every source value is one of dst)"""
    if dst == "f32":
        return True
    if src in FLOATS and dst in FLOATS:
        return FLOATS[src][0] <= FLOATS[dst][0] and FLOATS[src][1] >= FLOATS[dst][1]
    if src not in FLOATS and dst in FLOATS:
        return int_range(src)[2] - (int_range(src)[0] < 0) <= FLOATS[dst][0]
    if src not in FLOATS and dst not in FLOATS:
        (a, b, _), (c, d, _) = int_range(src), int_range(dst)
        return c <= a and b <= d
    return False


# §4's native pairs of A2A3 (types the reference models), in the table's order
A2A3_NATIVE = {"f32": ["f16", "f32", "bf16", "i16", "i32", "i64"],
               "f16": ["f32", "i32", "i16", "i8", "ui8"], "bf16": ["f32", "i32"],
               "i16": ["f16", "f32"], "i32": ["f32", "i16", "i64", "f16"],
               "i64": ["f32", "i32"], "ui8": ["f16"], "i8": ["f16"]}


def exact_pair(a, b):
    """every value of a (range, precision, -0, inf, NaN) is one of b"""
    if a == b:
        return False
    if a in FLOATS and b in FLOATS:
        return (FLOATS[a][0] <= FLOATS[b][0] and FLOATS[a][1] >= FLOATS[b][1]
                and FLOATS[a][2] <= FLOATS[b][2])
    if a in FLOATS:
        return False
    lo, hi, bits = int_range(a)
    if b in FLOATS:
        return bits - (lo < 0) <= FLOATS[b][0]
    lo2, hi2, _ = int_range(b)
    return lo2 <= lo and hi <= hi2


def a2a3_rule_pair(src, dst):
    """the pair whose saturation rule applies on A2A3: the pair itself when native, else
    the last step of its shortest chain of exact steps (§4 "Exact decompositions")"""
    if dst in A2A3_NATIVE.get(src, []):
        return (src, dst)
    frontier = [[src]]
    for _ in range(8):
        nxt = []
        for chain in frontier:
            a = chain[-1]
            for b in A2A3_NATIVE.get(a, []):
                if b == dst and len(chain) > 1:
                    return (a, b)
                if b not in chain and b != dst and exact_pair(a, b):
                    nxt.append(chain + [b])
        frontier = nxt
    return (src, dst)


def int_convert(bits, src, dst, mode, sat):
    """§3 integer source: toward a float, the value rounded once (exactly: Python
    integers through round_float on float64 only when exact, else by Fraction-free
    integer rounding); toward an integer, exact, clamped or wrapped"""
    vals = [int(v) for v in decode(bits, src).reshape(-1).tolist()]
    shape = np.asarray(bits).shape
    if dst in FLOATS:
        if any(abs(v) >= 1 << 53 for v in vals):
            raise Unsupported("tcvt %s -> %s of values beyond 2^53" % (src, dst))
        return to_float_dst(np.array(vals, dtype=np.float64).reshape(shape), dst, mode, sat)
    lo, hi, nb = int_range(dst)
    slo, shi, sb = int_range(src)
    if slo < 0 and lo == 0 and nb > sb:
        sat = True                       # signed toward a wider unsigned: saturation only
    out = []
    for v in vals:
        if lo <= v <= hi:
            out.append(v)
        elif sat:
            out.append(min(max(v, lo), hi))
        else:
            v &= (1 << nb) - 1
            out.append(v - (1 << nb) if lo < 0 and v > hi else v)
    return np.array(out, dtype=object).astype(storage(dst)).reshape(shape)


def to_int_float(x, mode):
    return {"RINT": np.rint, "NONE": np.rint, "FLOOR": np.floor, "CEIL": np.ceil,
            "TRUNC": np.trunc, "ROUND": lambda v: np.copysign(np.floor(np.abs(v) + 0.5), v)}[mode](x)


def scalar_to(value, t):
    """a scalar operand converted to the element type t (§7.3: RINT, saturation off); value
    a Python int or float"""
    if t in FLOATS:
        return to_float_dst(np.array([float(value)]), t, "RINT", False)[0]
    if isinstance(value, float) or isinstance(value, np.floating):
        return to_int_dst(np.array([float(value)]), t, "RINT", False)[0]
    lo, hi, bits = int_range(t)
    v = int(value) & ((1 << bits) - 1)
    if lo < 0 and v > hi:
        v -= 1 << bits
    return storage(t)(v)


# ---- element operations (§7.1, §7.2) ---------------------------------------------------

def fmax(a, b, is_max):
    """max/min of float64 values: NaN if either is NaN, -0 < +0"""
    with np.errstate(invalid="ignore"):
        gt = (a > b) | ((a == b) & (np.signbit(b) & ~np.signbit(a)))
        r = np.where(gt, a, b) if is_max else np.where(gt, b, a)
    return np.where(np.isnan(a) | np.isnan(b), np.nan, r)


def float_op(op, a, b):
    with np.errstate(all="ignore"):
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b
        if op == "div":
            return a / b
        if op == "max":
            return fmax(a, b, True)
        if op == "min":
            return fmax(a, b, False)
    raise Unsupported("float op %s" % op)


def int_op(op, a, b, t):
    lo, hi, bits = int_range(t)
    a = a.astype(object)
    b = b.astype(object)
    if op == "add":
        r = a + b
    elif op == "sub":
        r = a - b
    elif op == "mul":
        r = a * b
    elif op == "max":
        r = np.maximum(a, b)
    elif op == "min":
        r = np.minimum(a, b)
    else:
        raise Unsupported("integer op %s" % op)
    r = np.array([int(v) & ((1 << bits) - 1) for v in r.reshape(-1)], dtype=object)
    r = np.array([v - (1 << bits) if lo < 0 and v > hi else v for v in r], dtype=object)
    return r.astype(storage(t)).reshape(a.shape)


def elementwise(op, x, y, t):
    """one element op on stored values of type t"""
    return elem_op(op, x, y, t)


def round_to_odd_sum(acc, p):
    """acc + p (float64 arrays) rounded to odd in float64: exact sum s + e by TwoSum; when
    e != 0 and s is even, s moves one ulp toward e. Rounding the result once to f32 is
    then the correctly rounded acc + p."""
    with np.errstate(all="ignore"):
        s = acc + p
        bp = s - acc
        e = (acc - (s - bp)) + (p - bp)
        odd = (s.view(np.uint64) & np.uint64(1)).astype(bool)
        fix = np.isfinite(s) & np.isfinite(e) & (e != 0) & ~odd
        s = np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s


def mmad(a, b, acc):
    """§6.3: a (m x k), b (k x n) float64 exact values, acc f32 values (float64) or integers"""
    m, k = a.shape
    if a.dtype.kind in "iu":
        c = acc.astype(np.int64)
        for q in range(k):
            c = (c + a[:, q:q + 1].astype(np.int64) * b[q:q + 1, :].astype(np.int64))
            c = ((c + 2 ** 31) % 2 ** 32) - 2 ** 31
        return c
    c = acc.astype(np.float64)
    for q in range(k):
        with np.errstate(all="ignore"):
            prod = a[:, q:q + 1] * b[q:q + 1, :]
        c = round_to_odd_sum(c, prod)
        with np.errstate(over="ignore"):
            c = c.astype(np.float32).astype(np.float64)
    return c


# ---- the module --------------------------------------------------------------------------

# the characters the depth of a bracket nesting changes at: quotes and brackets (not
# the '>' of an arrow '->'); with the comma split_top splits at
GROUP_RE = re.compile(r'["<(\[{)\]}]|(?<!-)>')
SPLIT_RE = re.compile(r'["<(\[{)\]},]|(?<!-)>')


def split_top(s, sep=","):
    """split at top-level separators (outside brackets <> () [] {} and quotes; the
    arrow '->' is no bracket)"""
    assert sep == ","  # the one separator SPLIT_RE stops at
    out, start, depth, q = [], 0, 0, False
    for m in SPLIT_RE.finditer(s):
        ch = m.group()
        if ch == ",":
            if depth == 0 and not q:
                i = m.start()
                out.append(s[start:i].strip())
                start = i + 1
        elif ch == '"':
            q = not q
        elif not q:
            depth += 1 if ch in "<([{" else -1
    if s[start:].strip():
        out.append(s[start:].strip())
    return out


def group_end(s):
    """index of the bracket closing the group s starts with (0 when s starts with
    neither a bracket nor a quote)"""
    if s and s[0] not in '"<([{)]}>':
        return 0
    depth, q = 0, False
    for m in GROUP_RE.finditer(s):
        ch = m.group()
        if ch == '"':
            q = not q
        elif not q:
            depth += 1 if ch in "<([{" else -1
        if depth == 0:
            return m.start()
    raise Unsupported("unbalanced: %s" % s)


class Op:
    def __init__(self, name, results, operands, attrs, types, line):
        self.name, self.results, self.operands = name, results, operands
        self.attrs, self.types, self.line = attrs, types, line
        self.regions = []      # [(block arg names, [Op])]


OP_RE = re.compile(r'^(?:(%[\w.$-]+(?:, %[\w.$-]+)*) = )?"([\w.]+)"\(([^)]*)\)(.*)$')


def parse_attrs(s):
    s = s.strip()
    if not (s.startswith("{") and s.endswith("}")):
        raise Unsupported("cannot read attributes: %s" % s)
    attrs = {}
    for item in split_top(s[1:-1]):
        if " = " in item:
            k, v = item.split(" = ", 1)
            attrs[k.strip()] = v.strip()
        else:
            attrs[item.strip()] = True
    return attrs


def parse_tail(tail):
    """' {attrs} : (T, T) -> R' -> (attrs, operand types, result types)"""
    tail = tail.strip()
    attrs = {}
    if tail.startswith("<{"):  # properties: treated as attributes
        i = group_end(tail)
        attrs.update(parse_attrs(tail[1:i]))
        tail = tail[i + 1:].strip()
    if tail.startswith("{"):
        i = group_end(tail)
        attrs.update(parse_attrs(tail[:i + 1]))
        tail = tail[i + 1:].strip()
    if not tail.startswith(":"):
        raise Unsupported("cannot read op tail: %s" % tail)
    ft = tail[1:].strip()
    i = group_end(ft)
    ins = split_top(ft[1:i])
    rest = ft[i + 1:].strip()
    if not rest.startswith("->"):
        raise Unsupported("cannot read function type: %s" % ft)
    rest = rest[2:].strip()
    outs = split_top(rest[1:-1]) if rest.startswith("(") else [rest]
    return attrs, ins, outs


def parse_module(text):
    """the generic form -> list of func ops (each with one region)"""
    lines = text.splitlines()
    pos = [0]

    def parse_block(stop_prefixes):
        ops, args = [], []
        while pos[0] < len(lines):
            ln = lines[pos[0]].strip()
            if not ln:
                pos[0] += 1
                continue
            if any(ln.startswith(p) for p in stop_prefixes):
                return args, ops
            pos[0] += 1
            if ln.startswith("^bb"):
                inner = ln[ln.index("(") + 1:ln.rindex(")")]
                args = [a.split(":")[0].strip() for a in split_top(inner)]
                continue
            m = OP_RE.match(ln)
            if not m:
                raise Unsupported("cannot read line: %s" % ln)
            res = [r.strip() for r in m.group(1).split(",")] if m.group(1) else []
            operands = [o.strip() for o in m.group(3).split(",") if o.strip()]
            tail = m.group(4).strip()
            op = Op(m.group(2), res, operands, {}, None, pos[0])
            if tail == "({":
                while True:
                    bargs, bops = parse_block(["}, {", "})"])
                    op.regions.append((bargs, bops))
                    closing = lines[pos[0]].strip()
                    pos[0] += 1
                    if closing.startswith("}, {"):
                        continue
                    tail = closing[2:]
                    break
            op.attrs, op.types, op.rtypes = parse_tail(tail)
            ops.append(op)
        return args, ops

    _, top = parse_block([])
    funcs = []
    for op in top:
        if op.name == "builtin.module":
            funcs += [f for f in op.regions[0][1] if f.name == "func.func"]
        elif op.name == "func.func":
            funcs.append(op)
    return funcs


def func_name(f):
    return f.attrs["sym_name"].strip('"')


def func_arg_types(f):
    ft = f.attrs["function_type"]
    return split_top(ft[ft.index("(") + 1:ft.index(") ->")])


TB_RE = re.compile(r"(\w+)=([\w?]+)")


def tile_type(t):
    if not t.startswith("!pto.tile_buf<"):
        raise Unsupported("type %s" % t)
    return dict(TB_RE.findall(t[len("!pto.tile_buf<"):-1]))



# vector ops of two tiles and of a tile and a scalar: the element op of each (§7.1)
BINARY = {"tadd": "add", "tsub": "sub", "tmul": "mul", "tdiv": "div", "tmax": "max", "tmin": "min"}
WITH_SCALAR = {"tadds": "add", "tsubs": "sub", "tmuls": "mul", "tdivs": "div", "tmaxs": "max",
               "tmins": "min"}


class Tile:
    def __init__(self, ty, vr=None, vc=None):
        d = tile_type(ty)
        self.loc, self.t = d["loc"], d["dtype"]
        self.rows, self.cols = int(d["rows"]), int(d["cols"])
        self.vr = int(d["v_row"]) if d["v_row"] != "?" else vr
        self.vc = int(d["v_col"]) if d["v_col"] != "?" else vc
        if self.vr is None or self.vc is None:
            raise Unsupported("dynamic valid shape without operands")
        self.data = np.zeros((self.rows, self.cols), dtype=storage(self.t))
        self.nd = d.get("blayout", "row_major") == "row_major" and d.get("slayout", "none_box") == "none_box"


class View:
    """a tensor view (offsets zero, sizes = shape) or a partition of one"""

    def __init__(self, buf, t, shape, strides, offsets=None, sizes=None):
        self.buf, self.t, self.shape, self.strides = buf, t, shape, strides
        self.offsets = offsets or [0] * len(shape)
        self.sizes = sizes or list(shape)


# The bytes of each memory for the tiles placed by hand (Interp.place): more than any
# target's largest memory.
MANUAL_MEM_BYTES = 4 << 20


class Interp:
    """run(func, gm, scalars): gm {arg index: uint8 array}, changed in place"""

    def __init__(self, target, manual=False):
        """manual: model tiles placed by hand (alloc_tile addr, tassign) as their own
        arrays when no two of them overlap; otherwise they are refused"""
        self.target, self.manual = target, manual

    def run(self, func, gm, scalars):
        args, body = func.regions[0]
        types = func_arg_types(func)
        env = {}
        for i, (a, t) in enumerate(zip(args, types)):
            if t.startswith("!pto.ptr<"):
                if i in gm:  # a pointer the caller passes no buffer for is never used
                    env[a] = ("ptr", gm[i], t[len("!pto.ptr<"):-1])
            elif t.startswith("!pto.partition_tensor_view<"):
                # a strided GM memref argument (docs/ops.md): `ptoc run` passes the dense
                # row-major buffer of its shape
                if i in gm:
                    dims = t[len("!pto.partition_tensor_view<"):-1].split("x")
                    shape = [int(x) for x in dims[:-1]]
                    strides = [int(np.prod(shape[k + 1:])) for k in range(len(shape))]
                    env[a] = View(gm[i], dims[-1], shape, strides)
            elif t.startswith("!pto.tile_buf<"):
                # a kernel's tile argument: its own fresh tile (§8.3)
                tl, d = Tile(t), tile_type(t)
                tl.blayout, tl.slayout = d.get("blayout", "row_major"), d.get("slayout", "none_box")
                tl.pad = int(d.get("pad", 0))
                env[a] = tl
            elif t in ("f32", "f16", "bf16"):
                env[a] = ("fbits", t, scalars[i])  # a float argument: its bits
            else:
                env[a] = scalars[i]
        self.block(body, env)

    def block(self, ops, env):
        for op in ops:
            r = self.op(op, env)
            if op.name in ("scf.yield", "scf.condition", "func.return"):
                return r
        return None

    def val(self, env, name):
        if name not in env:
            raise Unsupported("value %s used before definition" % name)
        return env[name]

    def op(self, op, env):
        n = op.name
        ins = [self.val(env, o) for o in op.operands]
        if n in ("scf.yield", "func.return"):
            return ins
        if n == "scf.condition":
            return ins
        if n in ("pto.set_flag", "pto.wait_flag", "pto.tprint", "pto.barrier", "pto.pipe_barrier",
                 "pto.record_event", "pto.wait_event", "pto.barrier_sync"):
            return None  # ordering only: the reference runs in program order
        short = n[len("pto."):] if n.startswith("pto.") else None
        if short in BINARY:
            h = lambda o, i, e: self.binary(BINARY[short], i)  # noqa: E731
        elif short in WITH_SCALAR:
            h = lambda o, i, e: self.with_scalar(WITH_SCALAR[short], o, i)  # noqa: E731
        else:
            h = getattr(self, "op_" + n.replace(".", "_"), None)
        if h is None:
            raise Unsupported("op %s" % n)
        res = h(op, ins, env)
        if op.results:
            res = res if isinstance(res, list) else [res]
            for r, v in zip(op.results, res):
                env[r] = v
        return None

    # -- arith (§8.1: 64-bit wrapping integers) --
    @staticmethod
    def wrap(v):
        v &= (1 << 64) - 1
        return v - (1 << 64) if v >= 1 << 63 else v

    def op_arith_constant(self, op, ins, env):
        v = op.attrs["value"]
        if v in ("true", "false"):
            return int(v == "true")
        lit, ty = [x.strip() for x in v.rsplit(":", 1)]
        if ty in ("index",) or re.fullmatch(r"u?i\d+", ty):
            return int(lit, 0)
        if ty in FLOATS:  # §8.2: a hex literal is the bit pattern, a decimal one rounded once
            if lit.lower().lstrip("-").startswith("0x"):
                return ("fbits", ty, int(lit, 16))
            # float() rounds the decimal to float64 first: exact for what the printer
            # writes (the shortest decimal of a value of the type), refused otherwise
            x = float(lit)
            b = int(to_float_dst(np.array([x]), ty, "RINT", False)[0])
            if decode(np.array([b], dtype=storage(ty)), ty)[0] != x:
                raise Unsupported("float constant %s : %s is not exactly a value of its type" % (lit, ty))
            return ("fbits", ty, b)
        raise Unsupported("constant of type %s" % ty)

    def ints(self, ins):
        for x in ins:
            if not isinstance(x, int):
                raise Unsupported("integer op on %r" % (x,))
        return ins

    def op_arith_addi(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a + b)

    def op_arith_subi(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a - b)

    def op_arith_muli(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a * b)

    def op_arith_andi(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a & b)

    def op_arith_ori(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a | b)

    def op_arith_xori(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a ^ b)

    def op_arith_minsi(self, op, ins, env):
        return min(self.ints(ins))

    def op_arith_maxsi(self, op, ins, env):
        return max(self.ints(ins))

    def op_arith_divsi(self, op, ins, env):
        a, b = self.ints(ins)
        q = abs(a) // abs(b)
        return self.wrap(q if (a < 0) == (b < 0) else -q)

    def op_arith_remsi(self, op, ins, env):
        a, b = self.ints(ins)
        return self.wrap(a - b * self.op_arith_divsi(op, ins, env))

    def op_arith_index_cast(self, op, ins, env):
        return self.ints(ins)[0]

    def op_arith_select(self, op, ins, env):
        return ins[1] if ins[0] else ins[2]

    def op_arith_cmpi(self, op, ins, env):
        a, b = self.ints(ins)
        pred = int(op.attrs["predicate"].split(":")[0])
        ua, ub = a & ((1 << 64) - 1), b & ((1 << 64) - 1)
        return int([a == b, a != b, a < b, a <= b, a > b, a >= b,
                    ua < ub, ua <= ub, ua > ub, ua >= ub][pred])

    # -- scf --
    def op_scf_for(self, op, ins, env):
        lb, ub, st = self.ints(ins[:3])
        carried = list(ins[3:])
        bargs, body = op.regions[0]
        i = lb
        while i < ub:
            local = dict(env)
            local[bargs[0]] = i
            for a, v in zip(bargs[1:], carried):
                local[a] = v
            carried = self.block(body, local) or []
            i += st
        return carried

    def op_pto_textract(self, op, ins, env):
        """dst's valid region = the window of src at (indexRow, indexCol) (§7.8); the tile
        types may differ in layout only"""
        src, r, c, dst = ins[0], self.ints([ins[1]])[0], self.ints([ins[2]])[0], ins[-1]
        if src.t != dst.t:
            raise Unsupported("textract %s -> %s" % (src.t, dst.t))
        vr, vc = dst.vr, dst.vc
        if r < 0 or c < 0 or r + vr > src.data.shape[0] or c + vc > src.data.shape[1]:
            raise Unsupported("textract window outside the source")
        dst.data[:vr, :vc] = src.data[r:r + vr, c:c + vc]

    def fixpipe_words(self, fp, n):
        """§6.2a: n 64-bit quantization words from the fp tile's bytes (an ND tile: the
        reference has no layouts, and words beyond the tile are not modelled)"""
        raw = np.ascontiguousarray(fp.data).view(np.uint8).reshape(-1)
        if not fp.nd or raw.size < 8 * n:
            raise Unsupported("fp tile of %d bytes for %d words" % (raw.size, n))
        return raw[:8 * n].view(np.uint64)

    def fixpipe_q(self, a, st, dt, q):
        """§6.2a: the fixpipe's quantization of stored values a (rows x n) with words q"""
        m1 = (q & np.uint64(0xFFFFE000)).astype(np.uint32)
        p = a if st == "f32" else convert(a, st, "f32", "RINT", True)
        p = elem_op("mul", p, m1[None, :], "f32")
        if dt in ("f16", "bf16"):
            return convert(p, "f32", dt, "RINT", True)
        i = convert(p, "f32", "i32", "RINT", True).astype(np.int64)
        off = ((q >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
        off = np.where(off >= 256, off - 512, off)
        i = np.clip(i, -256, 255) + off[None, :]
        sign = ((q >> np.uint64(46)) & np.uint64(1)).astype(bool)[None, :]
        i = np.where(sign, np.clip(i, -128, 127), np.clip(i, 0, 255))
        return (i & 0xFF).astype(np.uint8).view(storage(dt))

    @staticmethod
    def relu_bits(a, t):
        """§6.2 ReLU on stored values: a negative (not NaN) float becomes +0, a negative
        integer 0"""
        if t in FLOATS:
            x = decode(a, t)
            return np.where(np.signbit(x) & ~np.isnan(x), 0, a).astype(storage(t))
        return np.maximum(a, 0).astype(storage(t))

    def fix_move(self, op, val, st, dt, q, relu, nc):
        """§6.2b: the stored acc values val (rows x nc) of type st as dt through the
        fixpipe; q the pre-quant operand (None, an int word, or the fp Tile)"""
        if q is None:
            if relu:
                val = self.relu_bits(val, st)
            if st == dt:
                return val
            if st == "i32" and dt == "f16":   # [decision] a word of scale 1.0
                return self.fixpipe_q(val, st, dt, np.full(nc, 0x3F800000, dtype=np.uint64))
            if st == "f32" and dt in ("f16", "bf16"):
                return convert(val, "f32", dt, "RINT", True)
            raise Unsupported("fixpipe move %s -> %s" % (st, dt))
        if isinstance(q, Tile):
            words = self.fixpipe_words(q, nc)
        else:
            words = np.full(nc, int(q) & (2 ** 64 - 1), dtype=np.uint64)
        r = self.fixpipe_q(val, st, dt, words)
        if relu and dt in ("i8", "ui8"):
            neg = ((words >> np.uint64(46)) & np.uint64(1)).astype(bool)[None, :] & \
                (r.view(np.uint8) >= 0x80)
            return np.where(neg, 0, r).astype(r.dtype)
        return self.relu_bits(r, dt) if relu else r

    @staticmethod
    def fix_attr(op, name):
        """the value of a fixpipe attribute (#pto<relu_pre_mode normal_relu> ->
        normal_relu), None when absent"""
        v = op.attrs.get(name)
        m = re.search(r"([a-z_0-9]+)\s*>\s*$", v) if isinstance(v, str) else None
        return m.group(1) if m else None

    def op_pto_textract_fp(self, op, ins, env):
        """§6.2a: dst's valid region = Q_j(the window of src at (r, c))"""
        src, fp, dst = ins[0], ins[1], ins[-1]
        r, c = self.ints(ins[2:4])
        vr, vc = dst.vr, dst.vc
        if r < 0 or c < 0 or r + vr > src.rows or c + vc > src.cols:
            raise Unsupported("textract_fp window outside the source")
        q = self.fixpipe_words(fp, vc)
        dst.data[:vr, :vc] = self.fixpipe_q(src.data[r:r + vr, c:c + vc], src.t, dst.t, q)

    def op_pto_tinsert_fp(self, op, ins, env):
        """§6.2a: Q_j(src's valid region) into dst at (r, c)"""
        src, fp, dst = ins[0], ins[1], ins[-1]
        r, c = self.ints(ins[2:4])
        vr, vc = src.vr, src.vc
        if r < 0 or c < 0 or r + vr > dst.rows or c + vc > dst.cols:
            raise Unsupported("tinsert_fp region outside the destination")
        q = self.fixpipe_words(fp, vc)
        dst.data[r:r + vr, c:c + vc] = self.fixpipe_q(src.data[:vr, :vc], src.t, dst.t, q)

    def op_func_call(self, op, ins, env):
        """a call runs the callee's body on the call's operands (the module's functions,
        given to the interpreter as .funcs by its caller)"""
        name = op.attrs.get("callee", "").strip().lstrip("@").strip('"')
        callee = getattr(self, "funcs", {}).get(name)
        if callee is None:
            raise Unsupported("func.call of %s (no body given to the reference)" % name)
        args, body = callee.regions[0]
        return self.block(body, dict(zip(args, ins))) or []

    def op_scf_if(self, op, ins, env):
        region = op.regions[0] if ins[0] else (op.regions[1] if len(op.regions) > 1 else None)
        if region is None or not region[1]:
            return []
        return self.block(region[1], env) or []

    def op_scf_while(self, op, ins, env):
        vals = list(ins)
        (bargs, before), (aargs, after) = op.regions
        while True:
            local = dict(env)
            local.update(zip(bargs, vals))
            cond = self.block(before, local)
            if not cond[0]:
                return cond[1:]
            local = dict(env)
            local.update(zip(aargs, cond[1:]))
            vals = self.block(after, local)

    # -- views --
    def op_pto_make_tensor_view(self, op, ins, env):
        seg = [int(x) for x in re.findall(r"\d+", op.attrs["operandSegmentSizes"].split(":")[1])]
        ptr = ins[0]
        shape = self.ints(ins[1:1 + seg[1]])
        strides = self.ints(ins[1 + seg[1]:1 + seg[1] + seg[2]])
        if ptr[0] != "ptr":
            raise Unsupported("make_tensor_view of %r" % (ptr,))
        return View(ptr[1], ptr[2], shape, strides)

    def op_pto_addptr(self, op, ins, env):
        """§8.6: the pointer advanced by k elements (not bytes): the buffer from element k
        on, a numpy view, so stores through either pointer are seen through both"""
        ptr, k = ins[0], self.ints(ins[1:2])[0]
        if ptr[0] != "ptr":
            raise Unsupported("addptr of %r" % (ptr,))
        w = np.dtype(storage(ptr[2])).itemsize
        if k < 0 or k * w > ptr[1].size:
            raise Unsupported("addptr offset %d outside its buffer" % k)
        return ("ptr", ptr[1][k * w:], ptr[2])

    def op_pto_partition_view(self, op, ins, env):
        v = ins[0]
        r = len(v.shape)
        offs = self.ints(ins[1:1 + r])
        sizes = self.ints(ins[1 + r:1 + 2 * r])
        return View(v.buf, v.t, v.shape, v.strides,
                    [a + b for a, b in zip(v.offsets, offs)], sizes)

    def gm_index(self, v, tile):
        """GM element index of every (r, c) of the view's 2-D region (§6.2), as a grid"""
        r = len(v.sizes)
        if r < 2 or r > 5:
            raise Unsupported("view of rank %d" % r)
        n = [1] * (5 - r) + list(v.sizes)
        off = [0] * (5 - r) + list(v.offsets)
        st = [0] * (5 - r) + list(v.strides)
        grids = np.meshgrid(*[np.arange(k) for k in n], indexing="ij")
        idx = sum((g + o) * s for g, o, s in zip(grids, off, st))
        col_major = tile.loc is not None and self.col_major(tile)
        if col_major:  # DN: rows i3, columns ((i0 n1 + i1) n2 + i2) n4 + i4
            return idx.transpose(3, 0, 1, 2, 4).reshape(n[3], n[0] * n[1] * n[2] * n[4])
        return idx.reshape(n[0] * n[1] * n[2] * n[3], n[4])

    @staticmethod
    def col_major(tile):
        return tile.blayout == "col_major" and tile.slayout == "none_box"

    def gm_array(self, v):
        return v.buf.view(storage(v.t))

    def region(self, v, tile, what):
        """(GM elements of v's type, index grid of the tile's valid region in them)"""
        idx = self.gm_index(v, tile)
        g = self.gm_array(v)
        vr, vc = tile.vr, tile.vc
        if vr > idx.shape[0] or vc > idx.shape[1]:
            raise Unsupported("%s: valid region beyond the partition" % what)
        sub = idx[:vr, :vc]
        if sub.size and (sub.min() < 0 or sub.max() >= g.size):
            raise Unsupported("%s: partition outside its buffer" % what)
        return g, sub

    def op_pto_tload(self, op, ins, env):
        v, tile = ins
        g, sub = self.region(v, tile, "tload")
        if np.dtype(storage(v.t)).itemsize != np.dtype(storage(tile.t)).itemsize:
            raise Unsupported("tload between %s and %s" % (v.t, tile.t))
        tile.data[:tile.vr, :tile.vc] = g[sub].view(storage(tile.t)) if v.t != tile.t else g[sub]

    def op_pto_tprefetch(self, op, ins, env):
        """§6.2: as tload"""
        self.op_pto_tload(op, ins, env)

    # -- the async GM session ops (§8.10) --
    @staticmethod
    def flat_index(v):
        """GM element index of every element of v's partition, in row-major order"""
        grids = np.meshgrid(*[np.arange(k) for k in v.sizes], indexing="ij")
        return sum((g + o) * s for g, o, s in zip(grids, v.offsets, v.strides)).reshape(-1)

    def op_pto_build_async_session(self, op, ins, env):
        return 1

    def op_pto_tput_async(self, op, ins, env):
        """the copy is done at issue: dst's elements = src's, in row-major order"""
        d, s = ins[0], ins[1]
        if np.dtype(storage(d.t)).itemsize != np.dtype(storage(s.t)).itemsize:
            raise Unsupported("async copy between %s and %s" % (d.t, s.t))
        val = self.gm_array(s)[self.flat_index(s)].copy()
        self.gm_array(d)[self.flat_index(d)] = val
        return 1

    op_pto_tget_async = op_pto_tput_async

    def op_pto_wait_async_event(self, op, ins, env):
        return int(ins[0] != 0 and ins[1] != 0)

    op_pto_test_async_event = op_pto_wait_async_event

    def op_pto_tstore(self, op, ins, env):
        tile, v = ins[0], ins[-1]
        q = ins[1] if len(ins) == 3 else None
        g, sub = self.region(v, tile, "tstore")
        vr, vc = tile.vr, tile.vc
        val = tile.data[:vr, :vc]
        relu = self.fix_attr(op, "reluPreMode") == "normal_relu" or "relu" in op.attrs
        if tile.t != v.t or q is not None or relu:
            if tile.loc != "acc":
                raise Unsupported("tstore %s -> %s" % (tile.t, v.t))
            val = self.fix_move(op, val, tile.t, v.t, q, relu, vc)
        if self.fix_attr(op, "atomicType") == "atomic_add":   # §6.2b
            old = g[sub]
            if v.t in FLOATS:
                val = elem_op("add", old, val, v.t)
            else:
                bits = 8 * np.dtype(storage(v.t)).itemsize
                val = ((old.astype(np.int64) + val.astype(np.int64)) % (1 << bits)).astype(np.uint64)
                val = val.astype(np.dtype("u%d" % (bits // 8))).view(storage(v.t))
        g[sub] = val

    # -- tiles --
    def op_pto_alloc_tile(self, op, ins, env):
        seg = [int(x) for x in re.findall(r"\d+", op.attrs["operandSegmentSizes"].split(":")[1])]
        vals = self.ints(ins)
        vr = vals[seg[0]] if seg[1] else None
        vc = vals[seg[0] + seg[1]] if seg[2] else None
        t = Tile(op.rtypes[0], vr, vc)
        d = tile_type(op.rtypes[0])
        t.blayout, t.slayout = d.get("blayout", "row_major"), d.get("slayout", "none_box")
        t.pad = int(d.get("pad", 0))
        if seg[0]:
            self.place(t, vals[0], op)
        return t

    def op_pto_subset(self, op, ins, env):
        """§7.8: a window of the source, element (i, j) is the source's (o0 + i, o1 + j):
        a numpy view of the source's array, so writes through either are seen by both"""
        src, o0, o1 = ins[0], *self.ints(ins[1:3])
        d = tile_type(op.rtypes[0])
        r, c = int(d["rows"]), int(d["cols"])
        if o0 < 0 or o1 < 0 or o0 + r > src.rows or o1 + c > src.cols:
            raise Unsupported("subset outside its source")
        t = Tile.__new__(Tile)
        t.__dict__.update(src.__dict__)
        t.rows, t.cols = r, c
        t.vr, t.vc = int(d["v_row"]), int(d["v_col"])
        t.data = src.data[o0:o0 + r, o1:o1 + c]
        return t

    def place(self, tile, addr, who):
        """a tile written at an address by hand. A tile of an unboxed layout becomes a
        view of its memory's bytes at that address (row-major ND: element (r, c) at addr
        + (r * cols + c) * its size; column-major DN: at addr + (c * rows + r) * its
        size; docs/semantics.md §5), so tiles whose bytes overlap see each other's
        writes, as on the device; its content is what those bytes hold (the memories
        start zeroed, as in the runtime). A boxed tile is modelled as its own array as
        long as no other placed tile overlaps its bytes, since the boxes' aliasing is
        not modelled"""
        if not self.manual:
            raise Unsupported("tiles placed by hand (aliasing needs layouts)")
        size = tile.rows * tile.cols * np.dtype(storage(tile.t)).itemsize
        placed = self.__dict__.setdefault("placed", [])
        mem = self.__dict__.setdefault("mem", {})
        blayout, slayout = getattr(tile, "blayout", "row_major"), getattr(tile, "slayout", "none_box")
        linear = slayout == "none_box" and blayout in ("row_major", "col_major")
        for (loc, a, b, w, lin) in placed:
            if (loc == tile.loc and a < addr + size and addr < b and w is not who
                    and not (lin and linear)):
                raise Unsupported("tiles placed by hand overlap (aliasing needs layouts)")
        placed.append((tile.loc, addr, addr + size, who, linear))
        if linear:
            if addr < 0 or addr + size > MANUAL_MEM_BYTES:
                raise Unsupported("a tile placed by hand past %d bytes" % MANUAL_MEM_BYTES)
            buf = mem.setdefault(tile.loc, np.zeros(MANUAL_MEM_BYTES, np.uint8))
            flat = buf[addr:addr + size].view(storage(tile.t))
            tile.data = (flat.reshape(tile.rows, tile.cols) if blayout == "row_major"
                         else flat.reshape(tile.cols, tile.rows).T)

    def op_pto_tassign(self, op, ins, env):
        tile, addr = ins
        self.place(tile, self.ints([addr])[0], op)
        return tile if op.results else None

    def op_pto_tmov(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        vr, vc = dst.vr, dst.vc
        val = src.data[:vr, :vc].copy()
        if src.t != dst.t:
            if src.loc == "acc" and src.t == "f32" and dst.t in ("f16", "bf16"):
                val = convert(val, "f32", dst.t, "RINT", True)
            else:
                raise Unsupported("tmov %s -> %s" % (src.t, dst.t))
        if len(op.operands) != 2 or op.attrs:
            return self.tmov_fixpipe(op, ins)
        dst.data[:vr, :vc] = val

    def tmov_fixpipe(self, op, ins):
        """§6.2b: tmov out of acc through the fixpipe, run as vector core 0 (a kernel
        outside a cluster): vec1 writes nothing here, the dual modes this core's half"""
        src, dst = ins[0], ins[-1]
        q = ins[1] if len(ins) == 3 else None
        if src.loc != "acc" or set(op.attrs) - {"reluPreMode", "accToVecMode", "relu"}:
            raise Unsupported("tmov with attributes %s" % sorted(op.attrs))
        mode = self.fix_attr(op, "accToVecMode") or "single_mode_vec0"
        relu = self.fix_attr(op, "reluPreMode") == "normal_relu" or "relu" in op.attrs
        vr, vc = src.vr, src.vc
        if mode == "single_mode_vec1":
            return
        if mode == "dual_mode_split_m":
            vr //= 2
        elif mode == "dual_mode_split_n":
            vc //= 2
        dst.data[:vr, :vc] = self.fix_move(op, src.data[:vr, :vc], src.t, dst.t, q, relu, vc)

    def op_pto_tconcat(self, op, ins, env):
        """§7.8d: src0's valid columns, then src1's, row by row into dst"""
        a, b, dst = ins
        r, c0, c1 = dst.vr, a.vc, b.vc
        if a.vr != r or b.vr != r or c0 + c1 > dst.cols or not (a.t == b.t == dst.t):
            raise Unsupported("tconcat of %dx%d and %dx%d into %s" % (a.vr, c0, b.vr, c1, dst.t))
        dst.data[:r, :c0] = a.data[:r, :c0]
        dst.data[:r, c0:c0 + c1] = b.data[:r, :c1]

    def op_pto_tquant(self, op, ins, env):
        """§7.8e: f32 -> i8 (INT8_SYM) / ui8 (INT8_ASYM): x * scale (+ offset), each
        rounded to f32, then f32 -> i32 -> f16 -> i8/ui8 (RINT, saturating)"""
        src, fp, dst = ins[0], ins[1], ins[-1]
        off = ins[2] if len(ins) == 4 else None
        r, c = src.vr, src.vc
        if src.t != "f32" or dst.t != ("ui8" if off else "i8") or (dst.vr, dst.vc) != (r, c):
            raise Unsupported("tquant %s -> %s" % (src.t, dst.t))
        v = elem_op("mul", src.data[:r, :c], fp.data[:r, :1], "f32")
        if off is not None:
            v = elem_op("add", v, off.data[:r, :1], "f32")
        v = convert(v, "f32", "i32", "RINT", True)
        v = convert(v, "i32", "f16", "RINT", True)
        dst.data[:r, :c] = convert(v, "f16", dst.t, "RINT", True)

    def op_pto_tdequant(self, op, ins, env):
        """§7.8e: i8/i16 -> f32: (f32(x) - offset) * scale, each step rounded to f32"""
        src, scale, off, dst = ins
        r, c = src.vr, src.vc
        if src.t not in ("i8", "i16") or dst.t != "f32" or (dst.vr, dst.vc) != (r, c):
            raise Unsupported("tdequant %s -> %s" % (src.t, dst.t))
        v = convert(src.data[:r, :c], src.t, "f32", "RINT", True)
        v = elem_op("sub", v, off.data[:r, :1], "f32")
        dst.data[:r, :c] = elem_op("mul", v, scale.data[:r, :1], "f32")

    def op_pto_tinsert(self, op, ins, env):
        """§7.8: src's valid region into dst at (r, c); acc f32 -> f16/bf16 as tmov"""
        src, r, c, dst = ins
        r, c = int(r), int(c)
        vr, vc = src.vr, src.vc
        if r + vr > dst.rows or c + vc > dst.cols:
            raise Unsupported("tinsert region leaves the destination")
        val = src.data[:vr, :vc].copy()
        if src.t != dst.t:
            if src.loc == "acc" and src.t == "f32" and dst.t in ("f16", "bf16"):
                val = convert(val, "f32", dst.t, "RINT", True)
            else:
                raise Unsupported("tinsert %s -> %s" % (src.t, dst.t))
        dst.data[r:r + vr, c:c + vc] = val

    def op_pto_tgather(self, op, ins, env):
        """§7.8a: dst(i, j) = src(k / cols, k % cols), k = indices(i, j); 0 outside src"""
        pats = ("P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111")
        mp = op.attrs.get("maskPattern") if isinstance(op.attrs, dict) else None
        if mp is not None:  # the selected columns, row by row, packed into dst
            src, dst = ins[0], ins[-1]
            pat = str(mp).split("<")[-1].rstrip(">")
            if pat not in pats or len(ins) != 2:
                raise Unsupported("tgather mask pattern %s" % mp)
            i = pats.index(pat)
            cols = np.arange(src.vc)
            sel = cols % 2 == i if i < 2 else (cols % 4 == i - 2 if i < 6 else np.ones(src.vc, bool))
            picked = src.data[:src.vr, :src.vc][:, sel].reshape(-1)
            flat = dst.data.reshape(-1)
            flat[:picked.size] = picked
            return
        if len(ins) == 5 and not isinstance(ins[1], Tile):
            return self.tgather_compare(op, ins)
        src, idx, dst = ins[0], ins[1], ins[-1]
        if len(ins) not in (3, 4) or op.attrs:
            raise Unsupported("tgather other than the index and mask forms")
        vr, vc = dst.vr, dst.vc
        i = decode(idx.data[:vr, :vc], idx.t).astype(np.int64)
        inside = (i >= 0) & (i < src.rows * src.cols)
        k = np.where(inside, i, 0)
        val = src.data[k // src.cols, k % src.cols]
        dst.data[:vr, :vc] = np.where(inside, val, 0).astype(dst.data.dtype)

    def tgather_compare(self, op, ins):
        """§7.8a compare form: per valid row, the flat indices (offset + r * cols + c)
        whose element is == k (cmpMode eq, the default) or > k (gt), packed from column 0
        of dst's row; the count into cdst's storage element r"""
        src, k, _tmp, dst, cdst = ins
        attrs = op.attrs if isinstance(op.attrs, dict) else {}
        mode = str(attrs.get("cmpMode", "eq")).split()[-1].strip("<>").split("<")[-1]
        off = int(str(attrs.get("offset", "0")).split(":")[0])
        if mode not in ("eq", "gt"):
            raise Unsupported("tgather cmpMode %s" % mode)
        x = decode(src.data[:src.vr, :src.vc], src.t)
        kv = decode(np.array([self.scalar(k, src.t)], dtype=storage(src.t)), src.t)[0]
        hit = (x == kv) if mode == "eq" else (x > kv)
        counts = cdst.data.reshape(-1)
        for r in range(src.vr):
            cols = np.nonzero(hit[r])[0]
            dst.data[r, :cols.size] = (off + r * src.cols + cols).astype(np.int64).astype(dst.data.dtype)
            counts[r] = cols.size

    def op_pto_trandom(self, op, ins, env):
        """§7.8e: Philox-style 4x32 rounds per lane of each 256-column block"""
        words = [int(v) & 0xFFFFFFFF for v in ins[:6]]
        dst = ins[6]
        attrs = op.attrs if isinstance(op.attrs, dict) else {}
        rounds = int(str(attrs.get("rounds", "10")).split(":")[0])
        if rounds not in (7, 10) or dst.t not in ("i32", "ui32"):
            raise Unsupported("trandom rounds %d on %s" % (rounds, dst.t))
        ctr = words[2] | words[3] << 32 | words[4] << 64 | words[5] << 96
        mask = (1 << 128) - 1
        out = dst.data.view(np.uint32)
        for r in range(dst.vr):
            for b in range(0, dst.vc, 256):
                for lane in range(64):
                    c = (ctr + lane) & mask
                    x = [(c >> (32 * i)) & 0xFFFFFFFF for i in range(4)]
                    k0, k1 = words[0], words[1]
                    for _ in range(rounds):
                        p0, p1 = x[0] * 0xD2511F53, x[2] * 0xCD9E8D57
                        x = [(p1 >> 32) ^ x[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ x[3] ^ k1, p0 & 0xFFFFFFFF]
                        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
                    for w in range(4):
                        if b + 64 * w + lane < dst.vc:
                            out[r, b + 64 * w + lane] = x[w]
                ctr = (ctr + dst.cols // 4) & mask

    def op_pto_tpack(self, op, ins, env):
        """§7.8f: each element of src's valid region, its low bits, into dst at (r, c)"""
        src, dst = ins
        bits = 8 * np.dtype(dst.data.dtype).itemsize
        x = src.data[:src.vr, :src.vc].astype(np.uint64) & np.uint64((1 << bits) - 1)
        dst.data[:src.vr, :src.vc] = x.astype(dst.data.dtype)

    def op_pto_tsync(self, op, ins, env):
        """§8.7a: nothing to wait for"""

    def argred(self, op, ins, col, is_min):
        """§7.6a: index of the first max/min of each valid row (column)"""
        src, dst = ins[0], ins[-1]
        v = decode(src.data[:src.vr, :src.vc], src.t)
        if np.isnan(np.asarray(v, dtype=np.float64)).any():
            raise Unsupported("arg reduction of NaN")
        idx = (np.argmin if is_min else np.argmax)(v, axis=0 if col else 1)
        idx = idx.astype(np.int64).astype(storage(dst.t))
        if col:
            dst.data[0, :src.vc] = idx
        else:
            dst.data[:src.vr, 0] = idx

    def op_pto_trowargmax(self, op, ins, env):
        self.argred(op, ins, False, False)

    def op_pto_trowargmin(self, op, ins, env):
        self.argred(op, ins, False, True)

    def op_pto_tcolargmax(self, op, ins, env):
        self.argred(op, ins, True, False)

    def op_pto_tcolargmin(self, op, ins, env):
        self.argred(op, ins, True, True)

    def mm(self, a, b, acc0, dst):
        m, k, n = a.vr, a.vc, b.vc
        if b.vr != k:
            raise Unsupported("matmul k mismatch")
        av = decode(a.data[:m, :k], a.t)
        bv = decode(b.data[:k, :n], b.t)
        if dst.t == "i32":
            c = mmad(av, bv, acc0)
            dst.data[:m, :n] = c.astype(np.int64).astype(np.int32)
        else:
            c = mmad(av, bv, acc0)
            dst.data[:m, :n] = encode_float(c, "f32")

    def op_pto_tmatmul(self, op, ins, env):
        a, b, dst = ins
        z = np.zeros((a.vr, b.vc), np.int64 if dst.t == "i32" else np.float64)
        self.mm(a, b, z, dst)

    def op_pto_tmatmul_acc(self, op, ins, env):
        cin, a, b, dst = ins
        acc = decode(cin.data[:a.vr, :b.vc], cin.t)
        self.mm(a, b, acc, dst)

    def op_pto_tmatmul_bias(self, op, ins, env):
        a, b, bias, dst = ins
        acc = np.broadcast_to(decode(bias.data[0:1, :b.vc], bias.t), (a.vr, b.vc))
        self.mm(a, b, acc, dst)

    # -- vector ops (§7) --
    def binary(self, opname, ins):
        x, y, dst = ins[0], ins[1], ins[-1]  # trem's optional tmp (ins[2]) is not read
        vr, vc = dst.vr, dst.vc
        for s in (x, y):
            if s.vr < vr or s.vc < vc or s.t != dst.t:
                raise Unsupported("t%s operands" % opname)
        dst.data[:vr, :vc] = elementwise(opname, x.data[:vr, :vc], y.data[:vr, :vc], dst.t)

    def scalar(self, v, t):
        """a scalar operand as a stored value of the element type t (§7.3)"""
        if isinstance(v, tuple) and v[0] == "fbits":
            if v[1] == t:
                return storage(t)(v[2])
            return scalar_to(decode(np.array([v[2]], dtype=storage(v[1])), v[1])[0], t)
        if isinstance(v, int):
            return scalar_to(v, t)
        raise Unsupported("scalar operand %r" % (v,))

    def with_scalar(self, opname, op, ins):
        tiles = [i for i in ins if isinstance(i, Tile)]
        dst = ins[-1]
        src = ins[0] if isinstance(ins[0], Tile) else ins[1]
        s = ins[1] if isinstance(ins[0], Tile) else ins[0]
        if len(tiles) != 2 or len(ins) != 3:
            raise Unsupported("t%ss operands" % opname)
        vr, vc = dst.vr, dst.vc
        sv = np.full((vr, vc), self.scalar(s, dst.t), dtype=storage(dst.t))
        x = src.data[:vr, :vc]
        first = (x, sv) if isinstance(ins[0], Tile) else (sv, x)
        dst.data[:vr, :vc] = elementwise(opname, first[0], first[1], dst.t)

    def op_pto_tcvt(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        mode = "RINT"
        if "rmode" in op.attrs:
            mode = re.search(r"(\w+)>$", op.attrs["rmode"]).group(1).replace("CAST_", "")
        pair = (src.t, dst.t)
        sat = pair not in SAT_OFF_PAIRS
        if "sat_mode" in op.attrs:
            asked = op.attrs["sat_mode"].endswith("ON>")
            # §3.2: A2A3 honours an explicit setting only on the six pairs (for a pair
            # decomposed into a chain, §4: the rule of its last step); A5 everywhere
            if self.target == "a5" or a2a3_rule_pair(*pair) in SAT_OFF_PAIRS:
                sat = asked
        if self.target == "a2a3" and pair == ("i32", "f16"):
            mode, sat = "RINT", True     # §3.4: the deq path, scale 1.0
        vr, vc = dst.vr, dst.vc
        dst.data[:vr, :vc] = convert(src.data[:vr, :vc], src.t, dst.t, mode, sat)

    # -- the rest of the vector ops (§7.1-7.6), in the forms kernel_gen.py writes --
    def region_of(self, tile):
        return tile.data[:tile.vr, :tile.vc]

    def op_pto_tdivs(self, op, ins, env):
        if isinstance(ins[0], Tile):
            return self.with_scalar("div", op, ins)
        s, src, dst = ins   # scalar / tile
        sv = np.full((dst.vr, dst.vc), self.scalar(s, dst.t), dtype=storage(dst.t))
        dst.data[:dst.vr, :dst.vc] = elem_op("div", sv, src.data[:dst.vr, :dst.vc], dst.t)

    def unary(self, name, op, ins):
        src, dst = ins[0], ins[-1]
        dst.data[:dst.vr, :dst.vc] = unary_op(name, src.data[:dst.vr, :dst.vc], dst.t)

    def op_pto_texpands(self, op, ins, env):
        s, dst = ins
        dst.data[:dst.vr, :dst.vc] = self.scalar(s, dst.t)

    def op_pto_trowexpand(self, op, ins, env):
        src, dst = ins
        dst.data[:dst.vr, :dst.vc] = src.data[:dst.vr, 0:1]

    def op_pto_tcolexpand(self, op, ins, env):
        src, dst = ins
        dst.data[:dst.vr, :dst.vc] = src.data[0:1, :dst.vc]

    def expand(self, name, ins, rows):
        src0, src1, dst = ins[0], ins[1], ins[-1]
        vr, vc = dst.vr, dst.vc
        if rows and src1.vc > 1:
            # the vendor's mode 2 (issue 25 item 2, TROWEXPANDSUB.md): an ND operand of
            # one 32-byte block per row gives src1(r, c mod block)
            e = src1.vc
            b = src1.data[:vr, [c % e for c in range(vc)]]
        else:
            b = src1.data[:vr, 0:1] if rows else src1.data[0:1, :vc]
        b = np.broadcast_to(b, (vr, vc))
        a = src0.data[:vr, :vc]
        if name == "expdif":
            d = elem_op("sub", a, b, dst.t)
            dst.data[:vr, :vc] = unary_op("exp", d, dst.t)
        else:
            dst.data[:vr, :vc] = elem_op(name, a, b, dst.t)

    def ternary(self, first, ins, scalar):
        if scalar:
            src0, s, src2, dst = ins
            vr, vc = dst.vr, dst.vc
            b = np.full((vr, vc), self.scalar(s, dst.t), dtype=storage(dst.t))
        else:
            src0, src1, src2, dst = ins
            vr, vc = dst.vr, dst.vc
            b = src1.data[:vr, :vc]
        step = elem_op(first, src0.data[:vr, :vc], b, dst.t)
        dst.data[:vr, :vc] = elem_op("add", step, src2.data[:vr, :vc], dst.t)

    def op_pto_tcmp(self, op, ins, env):
        self.compare(op, ins[0], ins[1].data, ins[2])

    def op_pto_tcmps(self, op, ins, env):
        src, s, dst = ins
        self.compare(op, src, np.full(src.data.shape, self.scalar(s, src.t), dtype=storage(src.t)), dst)

    def compare(self, op, src, other, dst):
        mode = re.search(r"cmp (\w+)>", op.attrs.get("cmpMode", "#pto<cmp eq>")).group(1)
        vr, vc = src.vr, src.vc
        a, b = decode(src.data[:vr, :vc], src.t), decode(other[:vr, :vc], src.t)
        with np.errstate(invalid="ignore"):
            r = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                 "ge": a >= b}[mode]
        if src.t in FLOATS and mode == "ne":
            r = r | np.isnan(a) | np.isnan(b)
        for i in range(vr):
            for j in range(vc):
                byte = int(dst.data[i, j // 8])
                byte = (byte | (1 << (j % 8))) if r[i, j] else (byte & ~(1 << (j % 8)))
                dst.data[i, j // 8] = byte & 0xFF

    def select(self, mask, a, b, dst):
        vr, vc = dst.vr, dst.vc
        for i in range(vr):
            for j in range(vc):
                bit = (int(mask.data[i, j // 8]) >> (j % 8)) & 1
                dst.data[i, j] = a[i, j] if bit else b[i, j]

    def op_pto_tsel(self, op, ins, env):
        mask, s0, s1, _tmp, dst = ins
        self.select(mask, s0.data, s1.data, dst)

    def op_pto_tsels(self, op, ins, env):
        mask, s0, _tmp, s, dst = ins
        self.select(mask, s0.data, np.full(s0.data.shape, self.scalar(s, dst.t), dtype=storage(dst.t)), dst)

    def op_pto_trowsum(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        for i in range(dst.vr):
            dst.data[i, 0] = row_sum(src.data[i, :src.vc], src.t, self.target)

    def op_pto_trowmax(self, op, ins, env):
        self.row_fold(ins, "max")

    def op_pto_trowmin(self, op, ins, env):
        self.row_fold(ins, "min")

    def row_fold(self, ins, name):
        src, dst = ins[0], ins[-1]
        for i in range(dst.vr):
            acc = src.data[i, 0:1]
            for j in range(1, src.vc):
                acc = elem_op(name, acc, src.data[i, j:j + 1], src.t)
            dst.data[i, 0] = acc[0]

    def op_pto_trowprod(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        for i in range(dst.vr):
            dst.data[i, 0] = row_prod(src.data[i, :src.vc], src.t, self.target)

    def col_rows(self, src):
        return [src.data[i:i + 1, :src.vc] for i in range(src.vr)]

    def op_pto_tcolsum(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        binary = "isBinary" in op.attrs and str(op.attrs["isBinary"]).startswith("true")
        dst.data[0:1, :dst.vc] = col_reduce(self.col_rows(src), "add", src.t, self.target, binary)

    def op_pto_tcolprod(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        dst.data[0:1, :dst.vc] = col_reduce(self.col_rows(src), "mul", src.t, self.target, False)

    def op_pto_tcolmax(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        dst.data[0:1, :dst.vc] = col_reduce(self.col_rows(src), "max", src.t, "a2a3", False)

    def op_pto_tcolmin(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        dst.data[0:1, :dst.vc] = col_reduce(self.col_rows(src), "min", src.t, "a2a3", False)

    def part(self, name, ins):
        s0, s1, dst = ins
        vr, vc = dst.vr, dst.vc
        full = s0 if (s0.vr, s0.vc) == (vr, vc) else s1
        res = full.data[:vr, :vc].copy()
        r, c = min(s0.vr, s1.vr), min(s0.vc, s1.vc)
        res[:r, :c] = elem_op(name, s0.data[:r, :c], s1.data[:r, :c], dst.t)
        dst.data[:vr, :vc] = res

    def op_pto_taxpy(self, op, ins, env):
        src, s, dst = ins
        if src.t != dst.t:
            raise Unsupported("taxpy %s -> %s" % (src.t, dst.t))
        vr, vc = dst.vr, dst.vc
        prod = elem_op("mul", src.data[:vr, :vc], self.scalar(s, src.t), dst.t)
        dst.data[:vr, :vc] = elem_op("add", dst.data[:vr, :vc], prod, dst.t)

    def op_pto_tfillpad(self, op, ins, env):
        src, dst = ins
        t = dst.t
        if t in FLOATS:
            v = {0: 0.0, 1: 0.0, 2: np.inf, 3: -np.inf}[dst.pad]
            pv = encode_float(np.array([v]), t)[0]
        else:
            lo, hi, _ = int_range(t)
            pv = storage(t)({0: 0, 1: 0, 2: hi, 3: lo}[dst.pad])
        dst.data[:dst.vr, :dst.vc] = pv
        dst.data[:src.vr, :src.vc] = src.data[:src.vr, :src.vc]

    op_pto_tfillpad_expand = op_pto_tfillpad

    def op_pto_ttrans(self, op, ins, env):
        src, dst = ins[0], ins[-1]
        dst.data[:dst.vr, :dst.vc] = src.data[:dst.vc, :dst.vr].T

    def op_pto_tci(self, op, ins, env):
        s, dst = ins
        if not isinstance(s, int):
            raise Unsupported("tci start %r" % (s,))
        desc = str(op.attrs.get("descending", "false")).startswith("true")
        k = np.arange(dst.vc, dtype=object)
        vals = [s - int(x) if desc else s + int(x) for x in k]
        dst.data[0, :dst.vc] = [scalar_to(v, dst.t) for v in vals]

    def op_pto_ttri(self, op, ins, env):
        d, dst = ins
        upper = int(re.match(r"\s*(-?\d+)", str(op.attrs.get("upperOrLower", "0"))).group(1))
        i = np.arange(dst.vr)[:, None]
        j = np.arange(dst.vc)[None, :]
        m = (j >= i + d) if upper else (j <= i + d)
        one = scalar_to(1, dst.t)
        zero = scalar_to(0, dst.t)
        dst.data[:dst.vr, :dst.vc] = np.where(m, one, zero)


for _name in ("add", "mul", "max", "min"):
    setattr(Interp, "op_pto_tpart" + _name,
            (lambda n: lambda self, op, ins, env: self.part(n, ins))(_name))
for _name, _el in (("tand", "and"), ("tor", "or"), ("txor", "xor"), ("tshl", "shl"),
                   ("tshr", "shr"), ("tfmod", "fmod"), ("trem", "rem"), ("tprelu", "prelu")):
    BINARY[_name] = _el
for _name, _el in (("tands", "and"), ("tors", "or"), ("txors", "xor"), ("tshls", "shl"),
                   ("tshrs", "shr"), ("tfmods", "fmod"), ("trems", "rem"), ("tlrelu", "prelu")):
    WITH_SCALAR[_name] = _el
del WITH_SCALAR["tdivs"]  # op_pto_tdivs: either order
for _name in ("neg", "abs", "relu", "exp", "log", "sqrt", "rsqrt", "recip", "not"):
    setattr(Interp, "op_pto_t" + _name,
            (lambda n: lambda self, op, ins, env: self.unary(n, op, ins))(_name))
for _name in ("add", "sub", "mul", "div", "max", "min", "expdif"):
    setattr(Interp, "op_pto_trowexpand" + _name,
            (lambda n: lambda self, op, ins, env: self.expand(n, ins, True))(_name))
    setattr(Interp, "op_pto_tcolexpand" + _name,
            (lambda n: lambda self, op, ins, env: self.expand(n, ins, False))(_name))
Interp.op_pto_taddc = lambda self, op, ins, env: self.ternary("add", ins, False)
Interp.op_pto_tsubc = lambda self, op, ins, env: self.ternary("sub", ins, False)
Interp.op_pto_taddsc = lambda self, op, ins, env: self.ternary("add", ins, True)
Interp.op_pto_tsubsc = lambda self, op, ins, env: self.ternary("sub", ins, True)


# ---- element operations beyond + - * / max min (§7.1, §7.2) -----------------------------

def elem_op(op, x, y, t):
    """one binary element op on stored values of type t (arrays of one shape)"""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=storage(t)), np.asarray(y, dtype=storage(t)))
    if t in FLOATS:
        a, b = decode(x, t), decode(y, t)
        if op in ("add", "sub", "mul", "div", "max", "min"):
            return arith_round(float_op(op, a, b), t)
        with np.errstate(all="ignore"):
            if op == "fmod":
                r = np.fmod(a, b)           # exact; x's sign; NaN for y = 0 or x = inf
                return arith_round(r, t)
            if op == "rem":
                r = np.fmod(a, b)
                fix = (r != 0) & (np.signbit(r) != np.signbit(b)) & np.isfinite(r)
                out = arith_round(r, t)
                out = np.where(fix, arith_round(r + b, t), out)
                zero = (r == 0)
                out = np.where(zero, encode_float(np.copysign(0.0, b), t), out)
                return out.astype(storage(t))
            if op == "prelu":
                prod = arith_round(a * b, t)
                return np.where(a > 0, x, prod).astype(storage(t))
        raise Unsupported("float element op %s" % op)
    return int_elem(op, x, y, t)


def int_elem(op, x, y, t):
    lo, hi, bits = int_range(t)
    mask = (1 << bits) - 1
    out = []
    for a, b in zip(decode(x, t).reshape(-1).tolist(), decode(y, t).reshape(-1).tolist()):
        a, b = int(a), int(b)
        if op == "add":
            r = a + b
        elif op == "sub":
            r = a - b
        elif op == "mul":
            r = a * b
        elif op == "max":
            r = max(a, b)
        elif op == "min":
            r = min(a, b)
        elif op == "and":
            r = a & b
        elif op == "or":
            r = a | b
        elif op == "xor":
            r = a ^ b
        elif op in ("shl", "shr"):
            n = b & mask
            if op == "shl":
                r = a << n if n < bits else 0
            else:
                r = a >> min(n, bits)       # Python: arithmetic on signed, logical on >= 0
        elif op == "div":
            if b == 0:
                r = -1 if lo < 0 else hi
            else:
                q = abs(a) // abs(b)
                r = q if (a < 0) == (b < 0) else -q
        elif op in ("fmod", "rem"):
            if b == 0:
                r = a
            else:
                q = abs(a) // abs(b)
                q = q if (a < 0) == (b < 0) else -q
                r = a - b * q
                if op == "rem" and r != 0 and (r < 0) != (b < 0):
                    r += b
        else:
            raise Unsupported("integer element op %s" % op)
        r &= mask
        if lo < 0 and r > hi:
            r -= 1 << bits
        out.append(r)
    return np.array(out, dtype=object).astype(storage(t)).reshape(x.shape)


def unary_op(op, x, t):
    x = np.asarray(x, dtype=storage(t))
    if t in FLOATS:
        sign = {"f32": 0x80000000, "f16": 0x8000, "bf16": 0x8000}[t]
        u = x.view(storage(t))
        if op == "neg":
            return (u ^ storage(t)(sign)).astype(storage(t))
        if op == "abs":
            return (u & storage(t)(sign - 1)).astype(storage(t))
        a = decode(x, t)
        if op == "relu":
            return np.where(np.isnan(a), u, np.where(np.signbit(a), storage(t)(0), u)).astype(storage(t))
        with np.errstate(all="ignore"):
            r = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "rsqrt": lambda v: 1.0 / np.sqrt(v),
                 "recip": lambda v: 1.0 / v}[op](a)
        return arith_round(r, t)
    lo, hi, bits = int_range(t)
    if op == "neg":
        return int_elem("sub", np.zeros_like(x), x, t)
    if op == "abs":
        return np.where(decode(x, t) < 0, int_elem("sub", np.zeros_like(x), x, t), x).astype(storage(t))
    if op == "relu":
        return int_elem("max", x, np.zeros_like(x), t)
    if op == "not":
        return int_elem("xor", x, np.full_like(x, -1 if lo < 0 else hi), t)
    raise Unsupported("integer unary op %s" % op)


# ---- reductions in each target's order (§7.6) --------------------------------------------

def tree_sum(v, t):
    """pairwise tree over a power-of-two list of stored values (one-element arrays), one
    rounding per step: elements 2i and 2i+1 of a level add into element i of the next,
    every pair of a level in one elementwise op. Returns a one-element array."""
    v = np.concatenate([np.asarray(x, dtype=storage(t)).reshape(-1) for x in v])
    while v.size > 1:
        v = elem_op("add", v[0::2], v[1::2], t)
    return v[:1]


def row_sum(row, t, target):
    """trowsum of one row's valid elements (stored values of t)"""
    esz = np.dtype(storage(t)).itemsize
    zero = np.zeros(1, dtype=storage(t))
    row = [row[j:j + 1] for j in range(len(row))]
    if t not in FLOATS:
        acc = zero
        for x in row:
            acc = elem_op("add", acc, x, t)
        return acc[0]
    if target == "a5":
        L = 256 // esz
        acc = zero
        for k in range(0, len(row), L):
            chunk = row[k:k + L]
            acc = elem_op("add", acc, tree_sum(chunk + [zero] * (L - len(chunk)), t), t)
        return acc[0]
    L = 256 // esz                      # lanes of one repeat (2048 / W)
    C = len(row)
    if C <= L:
        return tree_sum(row + [zero] * (L - C), t)[0]
    n, tail = C // L, row[(C // L) * L:]
    chunks = [np.concatenate(row[i * L:(i + 1) * L]) for i in range(n)]
    if n == 1:                          # L < C < 2L
        p0 = chunks[0].copy()
        p0[:len(tail)] = elem_op("add", p0[:len(tail)], np.concatenate(tail), t)
        return tree_sum([p0[j:j + 1] for j in range(L)], t)[0]
    p = [elem_op("add", chunks[2 * i], chunks[2 * i + 1], t) for i in range(n // 2)]
    if n % 2:
        p[0] = elem_op("add", p[0], chunks[n - 1], t)
    if tail:
        p[0] = p[0].copy()
        p[0][:len(tail)] = elem_op("add", p[0][:len(tail)], np.concatenate(tail), t)
    m = n // 2
    while m > 1:
        q = [elem_op("add", p[2 * i], p[2 * i + 1], t) for i in range(m // 2)]
        if m % 2:
            q[m // 2 - 1] = elem_op("add", q[m // 2 - 1], p[m - 1], t)
        p, m = q, m // 2
    return tree_sum([p[0][j:j + 1] for j in range(L)], t)[0]


def row_prod(row, t, target):
    """trowprod of one row's valid elements (§7.6)"""
    esz = np.dtype(storage(t)).itemsize
    one = scalar_to(1, t)
    if t not in FLOATS:
        acc = np.array([one], dtype=storage(t))
        for j in range(len(row)):
            acc = elem_op("mul", acc, row[j:j + 1], t)
        return acc[0]
    if target == "a2a3":
        E = 32 // esz
        lanes = np.full(E, one, dtype=storage(t))
        for b in range(0, len(row), E):
            blk = row[b:b + E]
            lanes[:len(blk)] = elem_op("mul", lanes[:len(blk)], blk, t)
        if t == "f16":                  # the final chain in f32, rounded once to f16
            acc = convert(lanes[0:1], "f16", "f32", "RINT", False)
            for k in range(1, E):
                acc = elem_op("mul", acc, convert(lanes[k:k + 1], "f16", "f32", "RINT", False), "f32")
            return to_float_dst(decode(acc, "f32"), "f16", "RINT", False)[0]
        acc = lanes[0:1]
        for k in range(1, E):
            acc = elem_op("mul", acc, lanes[k:k + 1], t)
        return acc[0]
    L = 256 // esz
    lanes = np.full(L, one, dtype=storage(t))
    for j in range(0, len(row), L):
        reg = row[j:j + L]
        lanes[:len(reg)] = elem_op("mul", lanes[:len(reg)], reg, t)
    h = L // 2
    while h >= 1:
        lanes[:h] = elem_op("mul", lanes[:h], lanes[h:2 * h], t)
        h //= 2
    return lanes[0]


def col_reduce(rows, op, t, target, binary):
    """tcolsum / tcolprod / tcolmax / tcolmin over the valid rows (each a 1 x C array)"""
    R = len(rows)
    f = lambda a, b: elem_op(op, a, b, t)  # noqa: E731
    if target == "a2a3" or t not in FLOATS or op in ("max", "min"):
        if not binary or R == 1:
            acc = rows[0]
            for r in rows[1:]:
                acc = f(acc, r)
            return acc
        p = [f(rows[2 * i], rows[2 * i + 1]) for i in range(R // 2)]
        if R % 2:
            p[0] = f(p[0], rows[R - 1])
        m = R // 2
        while m > 1:
            q = [f(p[2 * i], p[2 * i + 1]) for i in range(m // 2)]
            if m % 2:
                q[0] = f(q[0], p[m - 1])
            p, m = q, m // 2
        return p[0]
    # A5
    if not binary:
        acc = rows[0]
        i = 1
        while i + 1 < R:
            acc = f(acc, f(rows[i], rows[i + 1]))
            i += 2
        if i < R:
            acc = f(acc, rows[i])
        return acc
    if R == 1:
        return f(np.zeros_like(rows[0]), rows[0])
    p = [f(rows[2 * i], rows[2 * i + 1]) for i in range(R // 2)]
    if R % 2:
        p[R // 2 - 1] = f(rows[R - 1], p[R // 2 - 1])
    m = R // 2
    while m > 1:
        q = [f(p[2 * i], p[2 * i + 1]) for i in range(m // 2)]
        if m % 2:
            q[m // 2 - 1] = f(p[m - 1], q[m // 2 - 1])
        p, m = q, m // 2
    return p[0]
