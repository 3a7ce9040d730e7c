"""kernel_gen.py: a seeded generator of valid PTO kernels for random differential testing
(test/e2e/fuzz_kernels.py runs them with `ptoc run` and compares every GM byte with
test/e2e/pto_ref.py; docs/testing.md "Random differential testing").

A *case* is one small self-contained kernel fragment: it loads tiles from its own GM
buffers, runs a few ops, and stores every tile it produced to its own output buffers.
Several cases go into one function (`module_text`), so that one `ptoc run` (one C
compile) checks many of them; a disagreement is replayed as a module of its one case.

What a case can be (`gen_case`):
  * vec: 2-3 input tiles of one element type, shape R x C (R <= 8 rows of 32-256
    bytes), a valid region that is static or given at run time (index arguments or
    constants through `alloc_tile valid_row/valid_col`), placed automatically or by
    hand (`alloc_tile addr =` / `pto.tassign`, disjoint UB windows), then 3-8 ops drawn
    from the target's row of target/vec_types.def (element ops tile-tile, tile-scalar
    with scalars of any type, constants or run-time arguments, unary ops, texpands,
    compare + select, taddc-like ternary ops, row/column reductions into their
    documented destination forms, row/column expands and broadcasts, tpart*, taxpy,
    tfillpad(_expand), ttrans, tci, ttri (start and diagonal constants or arguments),
    in-place ops) and tcvt with the pairs, round modes and
    saturation settings that `ptoc legality --target T` lists, all optionally inside
    scf.for (iterating an in-place op) or scf.if (on a run-time flag);
  * cube: tload A (m x k) and B (k x n) to mat, tmov to left / right, tmatmul or
    tmatmul.bias (then optionally tmatmul.acc on a second pair), tstore from acc (f32,
    i32, or f16/bf16 through the fixpipe conversion).

Inputs (`gen_input`) mix random values with NaN (payloads, both signs), +-inf, +-0,
subnormals, the extremes of the type and rounding ties.

EXCLUDED below is the one list of forms left out: forms the verifier refuses on
purpose, each named with the limit it is; an entry for a bug being fixed names its
issue item and is deleted once the fix is merged.
"""
import json
import os
import re
import subprocess

import numpy as np

# ---- known bugs kept out of the generated forms ----------------------------------------

EXCLUDED = {
    # Forms the verifier refuses (with the reason, at the op): the lowering takes no
    # run-time valid shape there (docs/semantics.md §7). Issue 25's seven items were
    # fixed and their entries deleted; so were A2A3's 8-bit tfillpad and bitwise ops.
    # A2A3 trowsum/trowmax/trowmin ("a row reduction with a valid shape known only at run
    # time is not supported by the repeat form (A2A3)")
    "a2a3_rowred_dynamic": "limit: lower_vec.c row reduction, A2A3, run-time valid shape",
    # tcolsum/tcolmax/tcolmin/tcolprod with run-time valid rows, both targets ("a column
    # reduction with a dynamic number of rows is not supported yet")
    "colred_dynamic_rows": "limit: lower_vec.c column reduction, run-time valid rows",
    # taddc/tsubc/taddsc/tsubsc with any run-time valid dimension ("a valid shape known
    # only at run time is not supported by this op yet")
    "ter_dynamic": "limit: lower_vec.c lower_ter, run-time valid shape",
    # trowprod with any run-time valid dimension (semantics.md §7.6 documents the refusal;
    # it comes from split-repeats, not the verifier)
    "trowprod_dynamic": "limit: lower_vec.c lower_rowprod, run-time valid shape",
    # A2A3 tcvt i32 -> f16 (the deq path) with a run-time valid shape ("a dynamic valid
    # shape with deq_scale is not supported")
    "a2a3_deq_dynamic": "limit: lower_vec.c deq path, A2A3, run-time valid shape",
    # taxpy with a run-time valid shape ("not supported by taxpy yet")
    "taxpy_dynamic": "limit: lower_vec.c lower_axpy, run-time valid shape",
    # tci / ttri with a run-time valid shape ("tci with a valid shape known only at run
    # time is not supported"; ttri likewise)
    "tci_ttri_dynamic": "limit: lower_vec.c tci/ttri, run-time valid shape",
}


def excluded(name):
    return name in EXCLUDED


# ---- types and the targets' tables -----------------------------------------------------

ESZ = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "ui8": 1, "i16": 2, "ui16": 2, "i32": 4,
       "ui32": 4, "i64": 8}
FLOATS = ("f32", "f16", "bf16")
PTORT_NAME = {"F32": "f32", "F16": "f16", "BF16": "bf16", "I8": "i8", "U8": "ui8",
              "I16": "i16", "U16": "ui16", "I32": "i32", "U32": "ui32"}
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def vec_table(path=None):
    """{op: (kind, {target: set of element types})} from target/vec_types.def: the ops and
    types ptoc claims to take"""
    path = path or os.path.join(SRC, "target", "vec_types.def")
    text = open(path).read()
    macros = {}
    for m in re.finditer(r"^#define (VT_\w+) \((.*)\)$", text, re.M):
        macros[m.group(1)] = m.group(2)

    def types(expr):
        out = set()
        for tok in [t.strip() for t in expr.split("|")]:
            if tok in macros:
                out |= types(macros[tok])
            else:
                m = re.fullmatch(r"VT\((\w+)\)", tok)
                if m and m.group(1) in PTORT_NAME:
                    out.add(PTORT_NAME[m.group(1)])
        return out

    table = {}
    for line in text.splitlines():
        if not line.startswith("VEC_OP("):
            continue
        body = line[len("VEC_OP("):line.rindex(")")]
        parts = [p.strip() for p in re.split(r",(?![^(]*\))", body)]
        name, kind, _vop, a2, a5 = parts[:5]
        table[name] = (kind, {"a2a3": types(a2), "a5": types(a5)})
    return table


def legality(ptoc, target):
    """the target's tcvt table: [(src, dst, rmodes, sat_explicit)] for native and
    decomposed pairs between types the generator makes"""
    out = subprocess.run([ptoc, "legality", "--target", target, "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for c in json.loads(out)["conversions"]:
        if c["verdict"] not in ("native", "decomposed"):
            continue
        if c["src"] not in ESZ or c["dst"] not in ESZ:
            continue
        rows.append((c["src"], c["dst"], [m for m in c["rmodes"] if m != "HYBRID"],
                     c["sat_explicit"]))
    return rows


# ---- input values ----------------------------------------------------------------------

def float_specials(t):
    if t == "f32":
        return [0x7FC00000, 0xFFC00000, 0x7FC00123, 0x7F800001, 0xFFA00000, 0x7F800000,
                0xFF800000, 0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000,
                0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F000000, 0x3FC00000,
                0x477FF000, 0x477FEFFF, 0x33800000, 0x387FC000, 0x4B000001]
    if t == "f16":
        return [0x7E00, 0xFE00, 0x7E01, 0x7C01, 0xFD00, 0x7C00, 0xFC00, 0x0000, 0x8000,
                0x0001, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3800, 0x3E00,
                0x5BFF, 0x6800]
    return [0x7FC0, 0xFFC0, 0x7FC1, 0x7F81, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x0001,
            0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3F00, 0x4B00]


INT_DTYPE = {"i8": np.int8, "ui8": np.uint8, "i16": np.int16, "ui16": np.uint16,
             "i32": np.int32, "ui32": np.uint32, "i64": np.int64}
UNS = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}


def gen_input(rng, t, n, special=0.25, finite=False):
    """n values of type t (as a numpy array of its storage type)"""
    if t in FLOATS:
        dt = UNS[t]
        scale = rng.choice([1, 4, 64, 1 << 10]) if t != "f16" else rng.choice([1, 2, 8])
        x = rng.standard_normal(n) * scale
        if t == "f32":
            b = x.astype(np.float32).view(np.uint32)
        elif t == "f16":
            b = x.astype(np.float16).view(np.uint16)
        else:
            b = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        b = b.astype(dt)
        sp = float_specials(t)
        if finite:
            sp = [s for s in sp if not _is_nonfinite(s, t)]
        pick = rng.random(n) < special
        b[pick] = np.array(sp, dtype=dt)[rng.integers(0, len(sp), int(pick.sum()))]
        return b
    info = np.iinfo(INT_DTYPE[t])
    dt = info.dtype
    x = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64 if info.bits < 64 else dt)
    small = rng.random(n) < 0.4
    x[small] = rng.integers(max(info.min, -40), 41, int(small.sum()))
    pick = rng.random(n) < special * 0.6
    sp = [0, 1, info.max, info.min, info.max - 1, info.min + 1] + ([-1, -2] if info.min else [2])
    x[pick] = np.array(sp, dtype=np.int64)[rng.integers(0, len(sp), int(pick.sum()))]
    return x.astype(dt)


def _is_nonfinite(bits, t):
    if t == "f32":
        return (bits >> 23) & 0xFF == 0xFF
    if t == "f16":
        return (bits >> 10) & 0x1F == 0x1F
    return (bits >> 7) & 0xFF == 0xFF


def scalar_literal(rng, t):
    """an arith.constant literal of type t (decimal or hex bits), never a NaN (item 3)"""
    if t in FLOATS:
        while True:
            if rng.random() < 0.5:
                b = int(rng.choice(float_specials(t)))
            else:
                b = int(gen_input(rng, t, 1, special=0.0)[0])
            nan = _is_nonfinite(b, t) and (b & (0x7FFFFF if t == "f32" else 0x3FF if t == "f16" else 0x7F))
            if not (nan and excluded("nan_hex_constant")):
                break
        if b & ((1 << (ESZ[t] * 8)) - 1) == b and not _is_nonfinite(b, t) and rng.random() < 0.3:
            # a short decimal: the value exactly (printer reads it back)
            v = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}[t](b)
            if t == "f32":
                f = float(v.view(np.float32))
            elif t == "f16":
                f = float(v.view(np.float16))
            else:
                f = float(np.uint32(int(b) << 16).view(np.float32))
            if f == int(f) and abs(f) < 1e6:
                return "%d.0" % f if f != 0 or not np.signbit(f) else "-0.0"
        return "0x%0*X" % (ESZ[t] * 2, b)
    lo, hi = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767), "ui16": (0, 65535),
              "i32": (-2 ** 31, 2 ** 31 - 1), "ui32": (0, 2 ** 32 - 1), "i64": (-2 ** 63, 2 ** 63 - 1)}[t]
    if rng.random() < 0.5:
        return str(int(rng.integers(-9, 10)) if lo < 0 else int(rng.integers(0, 10)))
    vals = [v for v in (lo, hi, lo + 1, hi - 1, 0, -1, 1, 127, 255, 256, -129) if lo <= v <= hi]
    return str(int(rng.choice(vals)))


def literal_value(lit, t):
    """the value of a scalar_literal as a run-time argument takes it: an integer, or a
    float's bit pattern"""
    if t not in FLOATS:
        return int(lit)
    if lit.startswith("0x"):
        return int(lit, 16)
    f = np.array([float(lit)], dtype=np.float32)
    if t == "f32":
        return int(f.view(np.uint32)[0])
    if t == "f16":
        return int(f.astype(np.float16).view(np.uint16)[0])
    return int(f.view(np.uint32)[0]) >> 16  # exact in bf16 (a short integer)


# ---- text of a case --------------------------------------------------------------------

def tb(loc, t, rows, cols, vr, vc, bl="row_major", sl="none_box", fractal=512, pad=0):
    return ("!pto.tile_buf<loc=%s, dtype=%s, rows=%d, cols=%d, v_row=%s, v_col=%s, "
            "blayout=%s, slayout=%s, fractal=%d, pad=%d>"
            % (loc, t, rows, cols, vr, vc, bl, sl, fractal, pad))


class Tile:
    """a tile of a case: name, type text, element type, valid (vr, vc as ints), shape"""

    def __init__(self, name, ty, t, rows, cols, vr, vc):
        self.name, self.ty, self.t = name, ty, t
        self.rows, self.cols, self.vr, self.vc = rows, cols, vr, vc


class Case:
    """one kernel fragment: its GM buffers, index arguments, and lines"""

    def __init__(self, cid, target, seed):
        self.cid, self.target, self.seed = cid, target, seed
        self.lines = []
        self.gm = []        # (arg name, type, rows, cols, role 'in'|'out')
        self.idx = []       # (arg name, value) index or i1 arguments: (name, value, type)
        self.n = 0
        self.ops = []       # op names, for statistics
        self.ub = None      # (base, size) of the UB window of manual tiles
        self.ub_next = 0
        self.indent = "    "

    def name(self, base):
        self.n += 1
        return "%%k%d_%s%d" % (self.cid, base, self.n)

    def emit(self, s):
        self.lines.append(self.indent + s)

    def const(self, v, ty="index"):
        x = self.name("c")
        self.emit("%s = arith.constant %s : %s" % (x, v, ty))
        return x

    def arg(self, base, ty, value):
        a = "%%k%d_%s%d" % (self.cid, base, len(self.idx))
        self.idx.append((a, value, ty))
        return a

    def gm_buf(self, t, rows, cols, role):
        a = "%%k%d_g%d" % (self.cid, len(self.gm))
        self.gm.append((a, t, rows, cols, role))
        return a


def layout_tile(c, rng, t, rows, cols, vr, vc, dyn, loc="vec", bl="row_major", sl="none_box",
                fractal=512, pad=0, manual=False, vr_val=None, vc_val=None):
    """alloc_tile of one tile; dyn: (vr operand or None, vc operand or None)"""
    vrs = "?" if dyn[0] else str(vr)
    vcs = "?" if dyn[1] else str(vc)
    ty = tb(loc, t, rows, cols, vrs, vcs, bl, sl, fractal, pad)
    x = c.name("t")
    kw = ""
    addr = None
    if manual:
        size = rows * cols * ESZ[t]
        base, cap = c.ub
        off = c.ub_next
        if off + size <= cap:
            addr = base + off
            c.ub_next = off + (size + 63) // 64 * 64
    tassign = addr is not None and rng.random() < 0.4
    if addr is not None and not tassign:
        kw += " addr = %s" % c.const(addr, "i64")
    if dyn[0]:
        kw += " valid_row = %s" % dyn[0]
    if dyn[1]:
        kw += " valid_col = %s" % dyn[1]
    c.emit("%s = pto.alloc_tile%s : %s" % (x, kw, ty))
    if tassign:
        c.emit("pto.tassign %s, %s : %s, i64" % (x, c.const(addr, "i64"), ty))
    tile = Tile(x, ty, t, rows, cols, vr, vc)
    if getattr(c, "new_tiles", None) is not None:
        c.new_tiles.append(tile)
    return tile


def view(c, buf, t, rows, cols, r0, c0, pr, pc):
    """make_tensor_view of a rows x cols GM buffer and its partition pr x pc at (r0, c0)"""
    v = c.name("tv")
    c.emit("%s = pto.make_tensor_view %s, shape = [%s, %s], strides = [%s, %s] : "
           "!pto.tensor_view<?x?x%s>" % (v, buf, c.const(rows), c.const(cols), c.const(cols),
                                         c.const(1), t))
    p = c.name("pv")
    pt = "!pto.partition_tensor_view<%dx%dx%s>" % (pr, pc, t)
    c.emit("%s = pto.partition_view %s, offsets = [%s, %s], sizes = [%s, %s] : "
           "!pto.tensor_view<?x?x%s> -> %s" % (p, v, c.const(r0), c.const(c0), c.const(pr),
                                               c.const(pc), t, pt))
    return p, pt


def load(c, rng, tile):
    """a GM input for tile's valid region (the buffer a little larger, the partition at an
    offset) and the tload"""
    gr, gc = tile.vr + int(rng.integers(0, 3)), tile.vc + int(rng.integers(0, 3))
    r0, c0 = int(rng.integers(0, gr - tile.vr + 1)), int(rng.integers(0, gc - tile.vc + 1))
    buf = c.gm_buf(tile.t, gr, gc, "in")
    p, pt = view(c, buf, tile.t, gr, gc, r0, c0, tile.vr, tile.vc)
    c.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (p, pt, tile.name, tile.ty))


def store(c, rng, tile):
    gr, gc = tile.vr + int(rng.integers(0, 2)), tile.vc + int(rng.integers(0, 2))
    r0, c0 = int(rng.integers(0, gr - tile.vr + 1)), int(rng.integers(0, gc - tile.vc + 1))
    buf = c.gm_buf(tile.t, gr, gc, "out")
    p, pt = view(c, buf, tile.t, gr, gc, r0, c0, tile.vr, tile.vc)
    c.emit("pto.tstore ins(%s : %s) outs(%s : %s)" % (tile.name, tile.ty, p, pt))


# ---- vec cases -------------------------------------------------------------------------

GEN_KINDS = ("BIN", "BINS", "UN", "DUP", "ROWRED", "COLRED", "ROWEXP", "COLEXP", "ROWBC",
             "COLBC", "CMP", "CMPS", "TER", "TERS", "PART", "AXPY", "PAD", "TRANS", "SEQ", "TRI")
CMP_MODES = ("eq", "ne", "lt", "le", "gt", "ge")


class VecGen:
    def __init__(self, c, rng, target, table, cvts):
        self.c, self.rng, self.target, self.table, self.cvts = c, rng, target, table, cvts

    def shape(self, t):
        rng = self.rng
        rows = int(rng.integers(1, 9))
        row_bytes = int(rng.choice([32, 64, 128, 256]))
        cols = row_bytes // ESZ[t]
        vr = rows if rng.random() < 0.5 else int(rng.integers(1, rows + 1))
        vc = cols if rng.random() < 0.5 else int(rng.integers(1, cols + 1))
        return rows, cols, vr, vc

    def setup(self, t):
        """the chain's shape, valid region (static or run time) and placement"""
        c, rng = self.c, self.rng
        self.rows, self.cols, self.vr, self.vc = self.shape(t)
        self.dyn = (None, None)
        if rng.random() < 0.35:
            def operand(v):
                return c.arg("v", "index", v) if rng.random() < 0.6 else c.const(v)
            dr = operand(self.vr) if rng.random() < 0.7 else None
            dc = operand(self.vc) if rng.random() < 0.7 else None
            self.dyn = (dr, dc)
        self.manual = c.ub is not None and rng.random() < 0.5

    def full(self, t):
        """a destination tile of the chain's shape (inside scf: one of the pool)"""
        return self.fresh(t)

    def fresh(self, t):
        """a new tile of the chain's shape (tmp tiles: never an operand's buffer)"""
        return layout_tile(self.c, self.rng, t, self.rows, self.cols, self.vr, self.vc, self.dyn,
                           manual=self.manual)

    def row_tile(self, t, for_expand=None):
        """a tile of per-row values: DN rows x 1, or ND rows x (32 / size) with one valid
        column; for_expand "ROWEXP": the operand of trowexpand<op> (DN, or the vendor's
        mode 2: ND with 32 / size valid columns), "ROWBC": trowexpand's source"""
        nd = self.rng.random() < 0.5
        ncols = 1
        if for_expand == "ROWEXP":
            if nd and excluded("rowexp_mode2_operand"):
                nd = False
            ncols = 32 // ESZ[t]
        if (for_expand == "ROWBC" and self.target == "a2a3"
                and excluded("a2a3_trowexpand_nd_source")):
            nd = False
        if nd:
            return layout_tile(self.c, self.rng, t, self.rows, 32 // ESZ[t], self.vr, ncols,
                               (self.dyn[0], None), manual=self.manual)
        rows = (self.rows * ESZ[t] + 31) // 32 * 32 // ESZ[t]
        return layout_tile(self.c, self.rng, t, rows, 1, self.vr, 1, (self.dyn[0], None),
                           bl="col_major", manual=self.manual)

    def col_tile(self, t):
        rows = int(self.rng.integers(1, 3))
        return layout_tile(self.c, self.rng, t, rows, self.cols, 1, self.vc, (None, self.dyn[1]),
                           manual=self.manual)

    def types_of(self, op):
        return self.table[op][1][self.target]

    def ops_for(self, t):
        out = []
        for op, (kind, _) in self.table.items():
            if kind not in GEN_KINDS or t not in self.types_of(op):
                continue
            dyn = self.dyn[0] or self.dyn[1]
            if op == "trowprod" and dyn and excluded("trowprod_dynamic"):
                continue
            if (kind == "ROWRED" and dyn and self.target == "a2a3"
                    and excluded("a2a3_rowred_dynamic")):
                continue
            if kind == "COLRED" and self.dyn[0] and excluded("colred_dynamic_rows"):
                continue
            if kind in ("TER", "TERS") and dyn and excluded("ter_dynamic"):
                continue
            if kind == "PART" and dyn:
                continue  # the verifier asks for static valid shapes (semantics.md §7.3)
            if kind == "AXPY" and dyn and excluded("taxpy_dynamic"):
                continue
            if kind in ("SEQ", "TRI") and dyn and excluded("tci_ttri_dynamic"):
                continue
            if kind == "TRANS" and dyn:
                continue  # the generator writes static transposes only
            if (self.target == "a2a3" and kind == "PAD" and ESZ[t] == 1
                    and excluded("a2a3_8bit_tfillpad")):
                continue
            if op == "tfillpad_inplace":
                continue  # not generated (needs one buffer seen as two tiles)
            if kind == "COLRED" and self.dyn[1] and excluded("colred_dynamic_cols"):
                continue
            if (self.target == "a2a3" and op in ("tshl", "tshr", "tshls", "tshrs")
                    and ESZ[t] == 1 and excluded("a2a3_8bit_shifts")):
                continue
            if (self.target == "a2a3" and op in ("tand", "tor", "txor", "tands", "tors", "txors")
                    and ESZ[t] == 1 and self.dyn[0] and excluded("a2a3_8bit_bitwise_dynamic_rows")):
                continue
            if (self.target == "a2a3" and op in ("tand", "tor", "txor", "tands", "tors", "txors")
                    and ESZ[t] == 1 and (self.vc % 2 or self.dyn[1])
                    and excluded("a2a3_8bit_bitwise_odd_cols")):
                continue
            out.append((op, kind))
        return out

    def scalar(self, t, same=False):
        """a scalar operand: usually of t, sometimes of another type (§7.3)"""
        rng = self.rng
        st = t
        if not same and rng.random() < 0.25:
            st = str(rng.choice(["f32", "f16", "i32", "i16"] + (["bf16"] if rng.random() < 0.2 else [])))
            if t in FLOATS and st == "bf16":
                st = "f32"
        lit = scalar_literal(rng, st)
        if rng.random() < 0.3:  # a run-time scalar: an argument of the kernel
            return self.c.arg("s", st, literal_value(lit, st)), st
        return self.c.const(lit, st), st

    def op(self, t, pool, outs):
        """one op on tiles of pool (element type t), appending its result(s) to pool/outs"""
        c, rng = self.c, self.rng
        cands = self.ops_for(t)
        if not cands:
            return
        op, kind = cands[int(rng.integers(0, len(cands)))]
        pick = lambda: pool[int(rng.integers(0, len(pool)))]  # noqa: E731
        inplace = rng.random() < 0.2

        def dst():
            return pick() if inplace else self.full(t)

        def ins(*xs):
            return ", ".join(x[0] for x in xs), ", ".join(x[1] for x in xs)

        def line(opname, operands, d, attrs="", ins_attrs=False):
            a, b = ins(*operands)
            if ins_attrs:
                c.emit("pto.%s ins(%s %s : %s) outs(%s : %s)" % (opname, a, attrs, b, d.name, d.ty))
            else:
                c.emit("pto.%s ins(%s : %s) outs(%s : %s)%s" % (opname, a, b, d.name, d.ty,
                                                                 " " + attrs if attrs else ""))
            c.ops.append(opname)

        T = lambda x: (x.name, x.ty)  # noqa: E731
        if kind == "BIN":
            d = dst()
            line(op, [T(pick()), T(pick())], d)
        elif kind == "BINS":
            s = self.scalar(t)
            d = dst()
            if op == "tdivs" and rng.random() < 0.3:
                line(op, [s, T(pick())], d)
            else:
                line(op, [T(pick()), s], d)
        elif kind == "UN":
            d = dst()
            src = [T(pick())]
            if op == "trsqrt" and rng.random() < 0.3:
                src.append(T(self.fresh(t)))
            line(op, src, d)
        elif kind == "DUP":
            d = dst()
            line(op, [self.scalar(t)], d)
        elif kind == "TER":
            d = dst()
            line(op, [T(pick()), T(pick()), T(pick())], d)
        elif kind == "TERS":
            d = dst()
            line(op, [T(pick()), self.scalar(t), T(pick())], d)
        elif kind == "ROWRED":
            d = self.row_tile(t)
            tmp = self.fresh(t)
            if self.rows * self.cols * ESZ[t] < 96:   # trowprod's f16 tmp: 96 bytes (§7.6)
                tmp = layout_tile(c, rng, t, 96 // (self.cols * ESZ[t]) + 1, self.cols, self.vr,
                                  self.vc, self.dyn, manual=self.manual)
            line(op, [T(pick()), T(tmp)], d)
            outs.append(d)
            return
        elif kind == "COLRED":
            d = self.col_tile(t)
            operands = [T(pick())]
            attrs = ""
            if op == "tcolsum" and (rng.random() < 0.6 or (self.target == "a5" and excluded("a5_tcolsum_without_tmp"))):
                operands.append(T(self.fresh(t)))
                if rng.random() < 0.5:
                    attrs = "{isBinary = true}"
            line(op, operands, d, attrs)
            outs.append(d)
            return
        elif kind == "ROWEXP":
            r = self.row_tile(t, for_expand="ROWEXP")
            load(c, rng, r)
            d = dst()
            operands = [T(pick()), T(r)]
            if op != "trowexpandadd" and rng.random() < 0.3:
                operands.append(T(self.fresh(t)))
            line(op, operands, d)
        elif kind == "COLEXP":
            r = self.col_tile(t)
            load(c, rng, r)
            d = dst()
            line(op, [T(pick()), T(r)], d)
        elif kind == "ROWBC":
            r = self.row_tile(t, for_expand="ROWBC")
            load(c, rng, r)
            d = dst()
            line(op, [T(r)], d)
        elif kind == "COLBC":
            r = self.col_tile(t)
            load(c, rng, r)
            d = dst()
            line(op, [T(r)], d)
        elif kind == "PART":
            svr, svc = int(rng.integers(1, self.vr + 1)), int(rng.integers(1, self.vc + 1))
            small = layout_tile(c, rng, t, self.rows, self.cols, svr, svc, (None, None),
                                manual=self.manual)
            load(c, rng, small)
            pair = [T(pick()), T(small)]
            if rng.random() < 0.5:
                pair.reverse()
            d = self.fresh(t)
            line(op, pair, d)
        elif kind == "AXPY":
            d = pick()
            line(op, [T(pick()), self.scalar(t, same=True)], d)
        elif kind == "PAD":
            pad = int(rng.integers(0, 4))
            rows, cols = self.rows, self.cols
            if op == "tfillpad_expand":
                rows = min(16, rows * int(rng.integers(1, 3)) + int(rng.integers(0, 2)))
            d = layout_tile(c, rng, t, rows, cols, rows, cols, (None, None), pad=pad,
                            manual=self.manual)
            line(op, [T(pick())], d)
            outs.append(d)
            return
        elif kind == "TRANS":
            src = pick()
            g = 32 // ESZ[t]
            d = layout_tile(c, rng, t, self.cols, (self.rows + g - 1) // g * g, self.vc, self.vr,
                            (None, None), manual=self.manual)
            operands = [T(src)]
            if rng.random() < 0.5:
                operands.append(T(self.fresh(t)))
            line(op, operands, d)
            outs.append(d)
            return
        elif kind == "SEQ":
            st = {"ui16": "i16", "ui32": "i32"}.get(t, t)
            lit = scalar_literal(rng, st)
            start = c.arg("s", st, literal_value(lit, st)) if rng.random() < 0.3 else c.const(lit, st)
            d = pick()
            line(op, [(start, st)], d, "{descending = %s}" % ("true" if rng.random() < 0.5 else "false"),
                 ins_attrs=True)
        elif kind == "TRI":
            dv = int(rng.integers(-4, 9))
            diag = c.arg("s", "i32", dv) if rng.random() < 0.3 else c.const(str(dv), "i32")
            d = pick()
            line(op, [(diag, "i32")], d, "{upperOrLower = %d : i32}" % int(rng.integers(0, 2)),
                 ins_attrs=True)
        elif kind in ("CMP", "CMPS"):
            mode = str(rng.choice(CMP_MODES))
            if self.target == "a2a3" and t == "i32" and kind == "CMP":
                mode = str(rng.choice(["eq", "ne"]))
            pcols = max(32, (self.cols + 7) // 8 + 31) // 32 * 32
            m = layout_tile(c, rng, "ui8", self.rows, pcols, self.vr, (self.vc + 7) // 8,
                            (self.dyn[0], None), manual=self.manual)
            load(c, rng, m)     # the bits beyond the valid columns keep these values
            attr = "{cmpMode = #pto<cmp %s>}" % mode
            if kind == "CMP":
                line(op, [T(pick()), T(pick())], m, attr, ins_attrs=True)
            else:
                line(op, [T(pick()), self.scalar(t)], m, attr, ins_attrs=True)
            outs.append(m)
            sel = "tsel" if rng.random() < 0.6 else "tsels"
            if t in self.types_of(sel):
                d = self.full(t)
                if sel == "tsel":
                    line(sel, [T(m), T(pick()), T(pick()), T(self.fresh(t))], d)
                else:
                    line(sel, [T(m), T(pick()), T(self.fresh(t)), self.scalar(t)], d)
                pool.append(d)
            return
        else:
            return
        if d not in pool:
            pool.append(d)

    def cvt(self, t, pool):
        """a tcvt of a pool tile to another type; returns (new type, tile) or None"""
        rng = self.rng
        have = {x for _, (k, ts) in self.table.items() for x in ts[self.target]}
        pairs = [p for p in self.cvts if p[0] == t and p[1] in have]
        if self.target == "a2a3" and (self.dyn[0] or self.dyn[1]) and excluded("a2a3_deq_dynamic"):
            pairs = [p for p in pairs if (p[0], p[1]) != ("i32", "f16")]
        if not pairs:
            return None
        src, dstt, modes, satx = pairs[int(rng.integers(0, len(pairs)))]
        d = self.full(dstt)
        attrs = []
        if rng.random() < 0.7:
            attrs.append("rmode = #pto<round_mode %s>" % rng.choice(modes))
        if satx not in ("na",) and rng.random() < 0.4:
            attrs.append("sat_mode = #pto<saturation_mode %s>" % rng.choice(["ON", "OFF"]))
        s = pool[int(rng.integers(0, len(pool)))]
        a = (" {" + ", ".join(attrs) + "}") if attrs else ""
        self.c.emit("pto.tcvt ins(%s%s : %s) outs(%s : %s)" % (s.name, a, s.ty, d.name, d.ty))
        self.c.ops.append("tcvt")
        return dstt, d


def gen_vec(c, rng, target, table, cvts):
    g = VecGen(c, rng, target, table, cvts)
    types = sorted({t for _, (k, ts) in table.items() for t in ts[target]})
    floats = [x for x in types if x in FLOATS]
    t = str(rng.choice(floats if rng.random() < 0.5 else types))   # floats half the time
    g.setup(t)
    pool, outs = [], []
    for _ in range(int(rng.integers(1, 3))):
        x = g.full(t)
        load(c, rng, x)
        pool.append(x)
    produced = list(pool)
    nops = int(rng.integers(3, 9))
    structure = rng.random()
    for i in range(nops):
        if rng.random() < 0.12:
            r = g.cvt(t, pool)
            if r:
                t, d = r
                pool = [d]
                produced.append(d)
                x = g.full(t)
                load(c, rng, x)
                pool.append(x)
                continue
        if structure < 0.15 and i == nops // 2:
            scf_block(c, rng, g, t, pool, outs)
            continue
        before = len(pool)
        g.op(t, pool, outs)
        produced += pool[before:]
    for x in produced[len(produced) - 6:] + outs:
        store(c, rng, x)


def scf_block(c, rng, g, t, pool, outs):
    """an scf.for repeating an in-place op, or an scf.if choosing between two ops on a
    run-time flag; tiles and constants the body makes are hoisted before the op (a tile
    allocated in a region does not exist after it)"""
    start = len(c.lines)
    c.new_tiles = []
    _scf_body(c, rng, g, t, pool, outs)
    body = c.lines[start:]
    hoist = [ln for ln in body[1:] if re.search(r"= arith\.constant|= pto\.alloc_tile|pto\.tassign", ln)]
    rest = [ln for ln in body if ln not in hoist]
    # a tile the body makes may not be written (the other branch, no trip): it starts
    # with GM contents, as the reference's zeros would not match stale UB bytes
    del c.lines[start:]
    for x in c.new_tiles:
        load(c, rng, x)
    init = c.lines[start:]
    del c.lines[start:]
    c.new_tiles = None
    pad = c.indent
    c.lines[start:] = [pad + ln.strip() for ln in hoist] + init + rest


def _scf_body(c, rng, g, t, pool, outs):
    if rng.random() < 0.5:
        n = int(rng.integers(0, 4))
        lb, ub, st = c.const(0), c.const(n), c.const(1)
        iv = c.name("i")
        c.emit("scf.for %s = %s to %s step %s {" % (iv, lb, ub, st))
        c.indent += "  "
        save = g.full
        inner = []
        g.full = lambda tt: pool[int(rng.integers(0, len(pool)))] if tt == t else save(tt)
        g.op(t, pool, inner)
        g.full = save
        c.indent = c.indent[:-2]
        c.emit("}")
        outs += inner
    else:
        flag = c.arg("f", "i1", int(rng.integers(0, 2)))
        c.emit("scf.if %s {" % flag)
        c.indent += "  "
        save = g.full
        g.full = lambda tt: pool[int(rng.integers(0, len(pool)))] if tt == t else save(tt)
        inner = []
        g.op(t, pool, inner)
        c.indent = c.indent[:-2]
        c.emit("} else {")
        c.indent += "  "
        g.op(t, pool, inner)
        g.full = save
        c.indent = c.indent[:-2]
        c.emit("}")
        outs += inner


# ---- cube cases ------------------------------------------------------------------------

def up(x, m):
    return (x + m - 1) // m * m


def gen_cube(c, rng, target):
    ta = str(rng.choice(["f16", "bf16", "f32", "i8"]))
    acc_t = "i32" if ta == "i8" else "f32"
    g = 32 // ESZ[ta]
    m, n = int(rng.integers(1, 33)), int(rng.integers(1, 33))
    left = ("row_major", "row_major") if target == "a2a3" else ("col_major", "row_major")
    right = ("row_major", "col_major")
    mp, np_ = up(m, 16), up(n, 16)
    acc_ty = tb("acc", acc_t, mp, np_, m, n, "col_major", "row_major", 1024)
    acc = c.name("t")
    c.emit("%s = pto.alloc_tile : %s" % (acc, acc_ty))
    parts = int(rng.integers(1, 3))
    first = True
    for _ in range(parts):
        k = int(rng.integers(1, 3 * g + 1))
        kp = up(k, g)
        ta_m = tb("mat", ta, mp, kp, m, k, *left)
        ta_l = tb("left", ta, mp, kp, m, k, *left)
        tb_m = tb("mat", ta, kp, np_, k, n, *right)
        tb_r = tb("right", ta, kp, np_, k, n, *right)
        names = []
        for ty in (ta_m, ta_l, tb_m, tb_r):
            x = c.name("t")
            c.emit("%s = pto.alloc_tile : %s" % (x, ty))
            names.append(x)
        am, al, bm, br = names
        for tile, ty, rr, cc in ((am, ta_m, m, k), (bm, tb_m, k, n)):
            buf = c.gm_buf(ta, rr, cc, "in")
            p, pt = view(c, buf, ta, rr, cc, 0, 0, rr, cc)
            c.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (p, pt, tile, ty))
        c.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (am, ta_m, al, ta_l))
        c.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (bm, tb_m, br, tb_r))
        if first and acc_t == "f32" and rng.random() < 0.3:
            bm_ty = tb("mat", "f32", 1, np_, 1, n, "row_major", "none_box")
            bb_ty = tb("bias", "f32", 1, np_, 1, n, "row_major", "none_box")
            bmat, bias = c.name("t"), c.name("t")
            c.emit("%s = pto.alloc_tile : %s" % (bmat, bm_ty))
            c.emit("%s = pto.alloc_tile : %s" % (bias, bb_ty))
            buf = c.gm_buf("f32", 1, n, "in")
            p, pt = view(c, buf, "f32", 1, n, 0, 0, 1, n)
            c.emit("pto.tload ins(%s : %s) outs(%s : %s)" % (p, pt, bmat, bm_ty))
            c.emit("pto.tmov ins(%s : %s) outs(%s : %s)" % (bmat, bm_ty, bias, bb_ty))
            c.emit("pto.tmatmul.bias ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
                   % (al, br, bias, ta_l, tb_r, bb_ty, acc, acc_ty))
            c.ops.append("tmatmul.bias")
        elif first:
            c.emit("pto.tmatmul ins(%s, %s : %s, %s) outs(%s : %s)" % (al, br, ta_l, tb_r, acc, acc_ty))
            c.ops.append("tmatmul")
        else:
            c.emit("pto.tmatmul.acc ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)"
                   % (acc, al, br, acc_ty, ta_l, tb_r, acc, acc_ty))
            c.ops.append("tmatmul.acc")
        first = False
    out = acc_t if acc_t == "i32" or rng.random() < 0.6 else str(rng.choice(["f16", "bf16"]))
    buf = c.gm_buf(out, m, n, "out")
    p, pt = view(c, buf, out, m, n, 0, 0, m, n)
    c.emit("pto.tstore ins(%s : %s) outs(%s : %s)" % (acc, acc_ty, p, pt))
    c.cube = True


# ---- cases and modules -----------------------------------------------------------------

def gen_case(cid, seed, target, table, cvts, manual_window=None):
    """one case from its seed (the same seed gives the same case)"""
    rng = np.random.default_rng(seed)
    c = Case(cid, target, seed)
    c.ub = manual_window
    c.cube = False
    if rng.random() < 0.12:
        gen_cube(c, rng, target)
    else:
        gen_vec(c, rng, target, table, cvts)
    # inputs: seeded from the case's seed, outputs pre-filled so a stray store shows
    c.inputs = []
    irng = np.random.default_rng(seed ^ 0x5A5A)
    for (a, t, r, cc, role) in c.gm:
        finite = c.cube
        c.inputs.append(gen_input(irng, t, r * cc, special=0.03 if c.cube else 0.25, finite=finite))
    return c


def module_text(target, cases):
    """one entry function running every case in turn"""
    args = []
    for c in cases:
        args += ["%s: !pto.ptr<%s>" % (a, t) for (a, t, _, _, _) in c.gm]
        args += ["%s: %s" % (a, ty) for (a, _, ty) in c.idx]
    lines = ['module attributes {pto.target_arch = "%s"} {' % target,
             "  func.func @fuzz(%s) attributes {pto.entry} {" % ", ".join(args)]
    for c in cases:
        lines.append("    // case %d (seed %d)" % (c.cid, c.seed))
        lines += c.lines
    lines += ["    return", "  }", "}", ""]
    return "\n".join(lines)
