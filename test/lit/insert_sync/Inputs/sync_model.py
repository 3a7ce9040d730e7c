#!/usr/bin/env python3
"""An independent model of pipes and flags, written from docs/sync.md and
docs/semantics.md sections 8.7-8.8 (it shares no code with ptoc): it reads the IR ptoc
prints (`ptoc FILE --insert-sync --emit=ir`), executes the structured program
symbolically (scf.for with 0, 1, 2 or 3 iterations for a run-time trip count and
min(count, 3) for a constant one, each arm of every scf.if), and checks each trace:

* happens-before from vector clocks: a pipe that executes in order orders its own
  instructions; set_flag(P, Q, e) fires once every earlier P instruction is done and the
  k-th wait_flag of (P, Q, e) is matched with its k-th set; pto.barrier <P> orders the
  earlier P instructions before the later ones, <PIPE_ALL> everything;
* every two instructions touching overlapping bytes (one writing) are ordered;
* flags are balanced: no wait without its set, no second set before the wait, none left
  set at the end; the wait of a set happens before the next set of its flag (the
  wait is an event of its pipe Q, known to the set's pipe P through a set on Q issued
  after it, or a barrier <PIPE_ALL>), else that set may find the flag still set.

usage: sync_model.py check FILE.ir [--target a2a3|a5] [--trips 0,1,2,3]
       sync_model.py count FILE     (the sync ops of a .pto, comments ignored)
       sync_model.py strip FILE OUT (FILE without its sync ops)
Prints `clean: N traces, S sync ops` or the findings (exit 1)."""
import itertools
import re
import sys

PIPES = ["S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"]
INORDER = {"a2a3": {"S"}, "a5": {"S", "V", "M", "MTE1", "FIX"}}
SYNC_RE = re.compile(r"^\s*(pto\.(set_flag|wait_flag|barrier|record_event|wait_event|barrier_sync)\b)")


def strip_comment(line):
    i = line.find("//")
    return line if i < 0 else line[:i]


def count_syncs(text):
    return sum(1 for l in text.splitlines() if SYNC_RE.match(strip_comment(l)))


def count_points(text):
    """Synchronisation points: a barrier, or a flag (its set and its wait count once)."""
    n = 0
    for l in text.splitlines():
        m = SYNC_RE.match(strip_comment(l))
        if m and m.group(2) in ("barrier", "barrier_sync", "wait_flag", "wait_event"):
            n += 1
    return n


# ---- parsing the printed IR ------------------------------------------------------

TYPE_RE = re.compile(r"!pto\.tile_buf<([^>]*)>")
ELEM_BITS = {"f32": 32, "i32": 32, "ui32": 32, "si32": 32, "f16": 16, "bf16": 16, "i16": 16,
             "ui16": 16, "si16": 16, "i8": 8, "ui8": 8, "si8": 8, "f64": 64, "i64": 64,
             "ui64": 64, "si64": 64, "f8E4M3FN": 8, "f8E5M2": 8, "hif8": 8, "f8E8M0FNU": 8,
             "i4": 4, "f4E2M1FN": 4, "f4E1M2": 4, "i1": 8}


def tile_info(t):
    kv = dict(p.split("=", 1) for p in (x.strip() for x in t.split(",")) if "=" in p)
    bits = ELEM_BITS.get(kv.get("dtype"), 32)
    size = (int(kv.get("rows", 1)) * int(kv.get("cols", 1)) * bits + 7) // 8
    return kv.get("loc"), size


class Op:
    def __init__(self, kind, line, text):
        self.kind, self.line, self.text = kind, line, text
        self.body, self.orelse = [], []
        self.trips = None


def split_operands(s):
    return [x.strip() for x in s.split(",") if x.strip()]


def parse(text):
    consts, tiles, views, roots = {}, {}, {}, {}
    root = Op("block", 0, "")
    stack = [root]
    cur = [root.body]
    lines = text.splitlines()
    for no, raw in enumerate(lines, 1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        m = re.match(r"(%[\w.]+) = arith\.constant (-?\d+)", line)
        if m:
            consts[m.group(1)] = int(m.group(2))
        m = re.match(r"(%[\w.]+) = pto\.alloc_tile(?: addr = (%[\w.]+))?.*?: (!pto\.tile_buf<[^>]*>)", line)
        if m:
            loc, size = tile_info(TYPE_RE.match(m.group(3)).group(1))
            addr = consts.get(m.group(2)) if m.group(2) else None
            tiles[m.group(1)] = (loc, addr, size)
            continue
        m = re.match(r"(%[\w.]+) = pto\.make_tensor_view (%[\w.]+), shape = \[([^\]]*)\], strides = \[([^\]]*)\]", line)
        if m:
            views[m.group(1)] = ("tv", m.group(2), split_operands(m.group(4)))
            continue
        m = re.match(r"(%[\w.]+) = pto\.partition_view (%[\w.]+), offsets = \[([^\]]*)\], sizes = \[([^\]]*)\].*partition_tensor_view<([^>]*)>", line)
        if m:
            views[m.group(1)] = ("pv", m.group(2), split_operands(m.group(3)), split_operands(m.group(4)), m.group(5))
            continue
        m = re.match(r"(?:[%\w.:, #]+ = )?scf\.for %[\w.]+ = (%[\w.]+) to (%[\w.]+) step (%[\w.]+)", line)
        if m:
            op = Op("for", no, line)
            lb, ub, st = (consts.get(x) for x in m.groups())
            op.trips = None if None in (lb, ub, st) or st <= 0 else max(0, -(-(ub - lb) // st))
            cur[-1].append(op)
            stack.append(op)
            cur.append(op.body)
            continue
        m = re.match(r"(?:[%\w.:, #]+ = )?scf\.if ", line)
        if m:
            op = Op("if", no, line)
            cur[-1].append(op)
            stack.append(op)
            cur.append(op.body)
            continue
        if line.startswith("} else {"):
            cur[-1] = stack[-1].orelse
            continue
        if line.startswith("}") and len(stack) > 1 and not line.startswith("})"):
            stack.pop()
            cur.pop()
            continue
        m = re.match(r"func\.func (?:\w+ )?@(\w+)", line)
        if m:
            op = Op("func", no, line)
            root.body.append(op)
            stack[:] = [root, op]
            cur[:] = [root.body, op.body]
            continue
        if "scf.while" in line:
            raise SystemExit("sync_model: scf.while is not modelled (line %d)" % no)
        m = re.match(r"pto\.(set_flag|wait_flag)\[<PIPE_(\w+)>, <PIPE_(\w+)>, <EVENT_ID(\d)>\]", line)
        if m:
            op = Op(m.group(1), no, line)
            op.key = (m.group(2), m.group(3), int(m.group(4)))
            cur[-1].append(op)
            continue
        m = re.match(r"pto\.barrier <PIPE_(\w+)>", line)
        if m:
            op = Op("barrier", no, line)
            op.pipe = m.group(1)
            cur[-1].append(op)
            continue
        m = re.match(r"(?:%[\w.]+ = )?pto\.(t\w+(?:\.\w+)*)\b(.*)", line)
        if m:
            op = Op("access", no, line)
            op.name = m.group(1)
            op.rest = m.group(2)
            cur[-1].append(op)
    return root, consts, tiles, views


# ---- footprints and pipes --------------------------------------------------------

def gm_range(v, consts, views, elem_bytes=4):
    """(root, lo, hi) in bytes of a partition view; the whole root when not constant."""
    pv = views.get(v)
    if not pv or pv[0] != "pv":
        return ("?", 0, 1 << 62)
    tv = views.get(pv[1])
    if not tv:
        return ("?", 0, 1 << 62)
    root = tv[1]
    m = re.search(r"x(\w+)$", pv[4])
    eb = max(1, ELEM_BITS.get(m.group(1), 32) // 8) if m else 4
    try:
        offs = [consts[o] for o in pv[2]]
        sizes = [consts[s] for s in pv[3]]
        strides = [consts[s] for s in tv[2]]
    except KeyError:
        return (root, 0, 1 << 62)
    lo = sum(o * s for o, s in zip(offs, strides))
    ext = 1 + sum((z - 1) * s for z, s in zip(sizes, strides))
    return (root, lo * eb, (lo + ext) * eb)


def footprint(op, tiles, consts, views):
    """[(space, lo, hi, write)], the op's pipe inputs (locs of its tiles)."""
    m = re.search(r"ins\(([^:)]*)", op.rest)
    ins = split_operands(m.group(1)) if m else []
    m = re.search(r"outs\(([^:)]*)", op.rest)
    outs = split_operands(m.group(1)) if m else []
    fp, locs = [], []
    for names, w in ((ins, False), (outs, True)):
        for n in names:
            n = n.split()[0]
            if n in tiles:
                loc, addr, size = tiles[n]
                locs.append((loc, w))
                lo, hi = (0, 1 << 62) if addr is None else (addr, addr + size)
                fp.append((loc, lo, hi, w))
            elif n in views:
                root, lo, hi = gm_range(n, consts, views)
                fp.append(("gm:" + root, lo, hi, w))
    if op.name in ("taxpy",):
        fp = [(s, lo, hi, True) for (s, lo, hi, w) in fp]
    return fp, locs


def pipe_of(op, locs, target):
    name = op.name
    src = [l for l, w in locs if not w]
    dst = [l for l, w in locs if w]
    if name in ("tload", "tprefetch"):
        return "MTE2"
    if name == "tstore":
        return "FIX" if src and src[0] == "acc" else "MTE3"
    if name.startswith("tmatmul") or name.startswith("tgemv"):
        return "M"
    if name in ("tgetval", "tsetval"):
        return "S"
    if name in ("tmov", "textract", "tinsert"):
        s, d = (src[0] if src else None), (dst[0] if dst else None)
        if s == "mat" and d in ("left", "right", "bias"):
            return "MTE1"
        if s == "mat" and d == "scaling":
            return "FIX" if target == "a2a3" else "MTE1"
        if s == "mat" and d == "mat":
            return "MTE1"
        if s == "acc":
            return "FIX"
        if s == "vec" and d == "mat":
            return "FIX"
        return "V"
    if dst and dst[0] == "mat":
        return "MTE2"
    return "V"


# ---- traces ------------------------------------------------------------------------

def choices_of(block, acc):
    for op in block:
        if op.kind in ("for", "if"):
            acc.append(op)
            choices_of(op.body, acc)
            choices_of(op.orelse, acc)


def trace(block, choice, out, depth=0):
    for op in block:
        if op.kind == "for":
            n = choice.get(op, 0)
            for _ in range(n):
                trace(op.body, choice, out, depth + 1)
        elif op.kind == "if":
            trace(op.body if choice.get(op, True) else op.orelse, choice, out, depth + 1)
        else:
            out.append(op)


def check_trace(tr, target, tiles, consts, views):
    inorder = INORDER[target]
    n = 0
    F = {p: {q: 0 for q in PIPES} for p in PIPES}
    pending = {}
    waited, waited_line = {}, {}
    accesses = []
    errors = []
    for op in tr:
        n += 1
        if op.kind == "set_flag":
            P, Q, e = op.key
            c = dict(F[P])
            c[P] = n
            q = pending.setdefault(op.key, [])
            if q:
                errors.append("line %d: set_flag %s while the previous set is pending" % (op.line, op.key))
            elif op.key in waited and F[P][Q] < waited[op.key]:
                errors.append("line %d: set_flag %s may fire before the wait of the previous set "
                              "(line %d) has run" % (op.line, op.key, waited_line[op.key]))
            q.append(c)
        elif op.kind == "wait_flag":
            P, Q, e = op.key
            q = pending.get(op.key)
            if not q:
                errors.append("line %d: wait_flag %s has no set (deadlock)" % (op.line, op.key))
                continue
            c = q.pop(0)
            for r in PIPES:
                F[Q][r] = max(F[Q][r], c[r])
            waited[op.key] = n  # the wait, an event of Q: the next set must follow it
            waited_line[op.key] = op.line
        elif op.kind == "barrier":
            if op.pipe == "ALL":
                for p in PIPES:
                    for r in PIPES:
                        F[p][r] = n
            else:
                F[op.pipe][op.pipe] = n
        else:
            fp, locs = footprint(op, tiles, consts, views)
            p = pipe_of(op, locs, target)
            clock = dict(F[p])
            accesses.append((n, p, clock, fp, op))
            if p in inorder:
                F[p][p] = n
    for k, q in pending.items():
        if q:
            errors.append("flag %s left set at the end" % (k,))
    for i, (na, pa, ca, fa, oa) in enumerate(accesses):
        for (nb, pb, cb, fb, ob) in accesses[i + 1:]:
            if cb[pa] >= na:
                continue
            hit = [(x, y) for x in fa for y in fb if x[0] == y[0] and (x[3] or y[3])
                   and x[1] < y[2] and y[1] < x[2]]
            if hit:
                x, y = hit[0]
                kind = "WAW" if x[3] and y[3] else "RAW" if x[3] else "WAR"
                errors.append("line %d: race (%s) on %s [%d, %d): PIPE_%s 'pto.%s' (line %d) is not ordered "
                              "after PIPE_%s 'pto.%s' (line %d)" % (ob.line, kind, x[0], max(x[1], y[1]),
                                                                   min(x[2], y[2]), pb, ob.name, ob.line,
                                                                   pa, oa.name, oa.line))
    return errors


def check(path, target, trips):
    text = open(path).read()
    top, consts, tiles, views = parse(text)
    funcs = [f for f in top.body if f.kind == "func"] or [top]
    total = 0
    bad = 0
    for f in funcs:
        r, n = check_func(path, f, target, trips, consts, tiles, views)
        bad |= r
        total += n
    if not bad:
        print("clean: %d traces, %d sync ops" % (total, count_syncs(text)))
    return bad


def check_func(path, root, target, trips, consts, tiles, views):
    ch = []
    choices_of(root.body, ch)
    fors = [c for c in ch if c.kind == "for"]
    ifs = [c for c in ch if c.kind == "if"]
    options = []
    for f in fors:
        options.append([min(f.trips, 3)] if f.trips is not None else trips)
    options += [[True, False]] * len(ifs)
    combos = list(itertools.product(*options))
    if len(combos) > 4096:
        import random
        rnd = random.Random(1)
        combos = [tuple(rnd.choice(o) for o in options) for _ in range(4096)]
    findings = {}
    for combo in combos:
        choice = dict(zip(fors + ifs, combo))
        tr = []
        trace(root.body, choice, tr)
        for e in check_trace(tr, target, tiles, consts, views):
            findings.setdefault(e, combo)
    if findings:
        for e, combo in sorted(findings.items()):
            print("%s: %s (choices %s)" % (path, e, combo))
        return 1, len(combos)
    return 0, len(combos)


def main(argv):
    if len(argv) >= 3 and argv[1] == "count":
        print(count_syncs(open(argv[2]).read()))
        return 0
    if len(argv) >= 4 and argv[1] == "strip":
        text = open(argv[2]).read()
        with open(argv[3], "w") as f:
            f.write("".join(l for l in text.splitlines(True) if not SYNC_RE.match(strip_comment(l))))
        return 0
    if len(argv) >= 3 and argv[1] == "check":
        target, trips = None, [0, 1, 2, 3]
        i = 3
        while i < len(argv):
            if argv[i] == "--target":
                target = {"a3": "a2a3", "a2": "a2a3"}.get(argv[i + 1].lower(), argv[i + 1].lower())
                i += 2
            elif argv[i] == "--trips":
                trips = [int(x) for x in argv[i + 1].split(",")]
                i += 2
            else:
                raise SystemExit("sync_model: unknown argument " + argv[i])
        if target is None:  # as ptoc chooses (docs/targets.md, "Which target")
            text = open(argv[2]).read()
            m = re.search(r'pto\.target_arch"? = "(\w+)"', text)
            spec = re.search(r'pto\.device-spec" = "(Ascend950|Ascend910_95)', text)
            target = "a5" if (m.group(1).lower() == "a5" if m else spec) else "a2a3"
        return check(argv[2], target, trips)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
