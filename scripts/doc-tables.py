#!/usr/bin/python3
"""doc-tables.py: the tables in README.md and docs/*.md that come from the code.

A block is the text between the lines `<!-- BEGIN name -->` and `<!-- END name -->`.
Two kinds:

  generated  the block is the output of the code (ptoc legality, ptoc-doc-types):
             --write rewrites it, --check fails on any difference
  checked    the block is written by hand and every row is a claim the code must
             confirm (spellings resolve to their type, worked examples give their
             result through `ptoc cvt`); --check fails on a row the code contradicts

Usage: doc-tables.py --ptoc BIN --doc-types BIN [--root DIR] (--check | --write)
  --root DIR   the source tree (default: this script's parent folder)
The lit test test/lit/docs/sync.test runs --check; after changing a table run
  python3 scripts/doc-tables.py --ptoc build/bin/ptoc \\
      --doc-types build/bin/ptoc-doc-types --write
Every block name must be known, and every generated table must appear somewhere,
so a block cannot drift by being renamed or deleted."""
import argparse
import csv
import difflib
import io
import json
import os
import re
import subprocess
import sys

TARGETS = ("a2a3", "a5")
LABEL = {"a2a3": "A2A3", "a5": "A5"}
FIVE = ["RINT", "ROUND", "FLOOR", "CEIL", "TRUNC"]


def run(args, check=True):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if check and r.returncode != 0:
        raise SystemExit("doc-tables: %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
    return r


class Code:
    """What the code says, asked once per run."""

    def __init__(self, ptoc, doc_types):
        self.ptoc = ptoc
        self.doc_types = doc_types
        self.csv = {}
        self.json = {}
        for t in TARGETS:
            out = run([ptoc, "legality", "--target", t, "--format", "csv"]).stdout
            self.csv[t] = list(csv.DictReader(io.StringIO(out)))
            self.json[t] = json.loads(run([ptoc, "legality", "--target", t, "--format", "json"]).stdout)

    def native(self, t):
        return [r for r in self.csv[t] if r["verdict"] == "native"]


def kib(n):
    return "%d KiB" % (n // 1024) if n % 1024 == 0 and n else "%d B" % n


def modes_cell(r):
    if r["kind"] == "exact":
        return "exact"
    if r["kind"] == "sat_only":
        return "sat"
    if r["kind"] == "deq":
        return "deq"
    m = [x for x in r["rmodes"].split() if x != "NONE"]
    if m[:5] == FIVE:
        return "5" + "".join("+" + x for x in m[5:])
    return " ".join(m)


def gen_native_pairs(code):
    srcs = []
    for t in TARGETS:
        for r in code.native(t):
            if r["src"] not in srcs:
                srcs.append(r["src"])
    out = ["| src | %s | %s |" % (LABEL["a2a3"], LABEL["a5"]), "|---|---|---|"]
    for s in srcs:
        cells = []
        for t in TARGETS:
            ds = ["%s (%s)" % (r["dst"], modes_cell(r)) for r in code.native(t) if r["src"] == s]
            cells.append(", ".join(ds) if ds else "-")
        out.append("| %s | %s | %s |" % (s, cells[0], cells[1]))
    return "\n".join(out) + "\n"


def gen_sat_defaults(code):
    pairs = []
    for t in TARGETS:
        for r in code.native(t):
            p = "%s -> %s" % (r["src"], r["dst"])
            if r["sat_default"] == "off" and p not in pairs:
                pairs.append(p)
    return "Default OFF: %s. Default ON: every other pair that can saturate.\n" % ", ".join(pairs)


def both(a, b):
    return a if a == b else "%s / %s" % (a, b)


def gen_memories(code):
    m = {t: code.json[t]["memory"] for t in TARGETS}
    out = ["| loc | memory | %s | %s | alignment | reserved |" % (LABEL["a2a3"], LABEL["a5"]),
           "|---|---|---|---|---|---|"]
    for a, b in zip(m["a2a3"], m["a5"]):
        if (a["loc"], a["memory"]) != (b["loc"], b["memory"]):
            raise SystemExit("doc-tables: the targets list different memories")
        res = both(("top " + kib(a["reserved_top"])) if a["reserved_top"] else "-",
                   ("top " + kib(b["reserved_top"])) if b["reserved_top"] else "-")
        out.append("| %s | %s | %s | %s | %s | %s |" % (a["loc"], a["memory"], kib(a["capacity"]),
                                                       kib(b["capacity"]),
                                                       both("%d B" % a["align"], "%d B" % b["align"]), res))
    return "\n".join(out) + "\n"


def gen_vector(code):
    v = {t: code.json[t]["vector"] for t in TARGETS}

    def form(x):
        if x["predicated"]:
            return "%d-byte registers, element-count predicate" % x["repeat_bytes"]
        return "%d-byte repeats of %d-byte blocks, lane masks" % (x["repeat_bytes"], x["block_bytes"])

    def lim(n, what):
        return "<= %d" % n if n else "no limit"

    rows = [("instruction", form), ("repeat count", lambda x: "[1, %d]" % x["repeat_max"] if x["repeat_max"] else "no limit"),
            ("block stride", lambda x: lim(x["block_stride_max"], "") + (" (blocks)" if x["block_stride_max"] else "")),
            ("repeat stride", lambda x: lim(x["repeat_stride_max"], "") + (" (32-byte units)" if x["repeat_stride_max"] else ""))]
    out = ["| | %s | %s |" % (LABEL["a2a3"], LABEL["a5"]), "|---|---|---|"]
    for name, f in rows:
        out.append("| %s | %s | %s |" % (name, f(v["a2a3"]), f(v["a5"])))
    return "\n".join(out) + "\n"


def gen_cube(code):
    c = {t: code.json[t]["cube"] for t in TARGETS}
    out = ["| | %s | %s |" % (LABEL["a2a3"], LABEL["a5"]), "|---|---|---|"]

    def row(name, f):
        out.append("| %s | %s | %s |" % (name, f(c["a2a3"]), f(c["a5"])))

    row("m, k, n", lambda x: "[%d, %d]" % (x["mnk_min"], x["mnk_max"]))
    row("A (`left`) layout, fractal", lambda x: "%s, %d B" % (x["left"], x["left_fractal"]))
    row("B (`right`) layout, fractal", lambda x: "%s, %d B" % (x["right"], x["right_fractal"]))
    row("C (`acc`) layout, fractal", lambda x: "%s, %d B" % (x["acc"], x["acc_fractal"]))
    row("MX: K a multiple of", lambda x: str(x["mx_k_multiple"]) if x["mx_k_multiple"] else "no MX")
    triples = []
    for t in TARGETS:
        for ty in c[t]["types"]:
            k = (ty["a"], ty["b"], ty["c"], ty["mx"])
            if k not in triples:
                triples.append(k)
    for k in triples:
        name = "%s%s x %s -> %s" % ("MX " if k[3] else "", k[0], k[1], k[2])
        row(name, lambda x: "yes" if any((ty["a"], ty["b"], ty["c"], ty["mx"]) == k for ty in x["types"]) else "-")
    return "\n".join(out) + "\n"


def gen_types(code):
    return run([code.doc_types, "table"]).stdout


def gen_insns(code):
    return run([code.doc_types, "insns"]).stdout


def gen_ops(code):
    return run([code.doc_types, "ops"]).stdout


def gen_target_table(t):
    return lambda code: run([code.ptoc, "legality", "--target", t]).stdout

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def vec_kinds():
    """The operand words of each vector kind: the "doc words" column of ir/vec_kinds.def
    (one row a kind: `X(KIND, FORM, "doc words", ...`)."""
    text = open(os.path.join(SRC, "ir", "vec_kinds.def"), encoding="utf-8").read()
    return dict(re.findall(r'^\s*X\((\w+), \w+, "([^"]*)"', text, re.M))


def split_top(s):
    """Splits s at the commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur.strip())
    return out


def gen_vector_types(code):
    """The element types per target of target/vec_types.def, in ptort type order."""
    hdr = open(os.path.join(SRC, "runtime", "include", "ptort.h"), encoding="utf-8").read()
    names = re.findall(r'^\s*X\((\w+),\s*"([^"]+)"', hdr, re.M)
    order = [i for i, _ in names]
    name = dict(names)
    text = open(os.path.join(SRC, "target", "vec_types.def"), encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    helpers = dict(re.findall(r"^#define (\w+) \((.*)\)$", text, re.M))

    def types(expr):
        for h, body in helpers.items():
            expr = re.sub(r"\b%s\b" % h, body, expr)
        ids = set(re.findall(r"VT\((\w+)\)", expr))
        return ", ".join(name[i] for i in order if i in ids)

    kinds = vec_kinds()
    out = ["| op | operands | per element | A2A3 | A5 |", "|---|---|---|---|---|"]
    for m in re.finditer(r"^VEC_OP\((.*)\)$", text, re.M):
        op, kind, vop, a2a3, a5 = split_top(m.group(1))
        elem = "compare / copy" if vop == "MOV" else vop.lower()
        out.append("| %s | %s | %s | %s | %s |" % (op, kinds[kind], elem, types(a2a3), types(a5)))
    return "\n".join(out) + "\n"


def target_source(t):
    text = open(os.path.join(SRC, "target", "target_%s.c" % t), encoding="utf-8").read()
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def pipe_set(text, field):
    """The pipes of a bit-mask field of struct target (`1u << PTORT_PIPE_X | ...`)."""
    expr = re.search(r"\.%s = (.*?),\n\t\." % field, text, re.S).group(1)
    return re.findall(r"PTORT_PIPE_(\w+)", expr)


def gen_moves(code):
    """The pipe of each move between on-chip memories per target (target/target_*.c,
    their `moves` rows), and the pipes of each core kind."""
    order = ["S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"]
    moves, cores = {}, {}
    for t in TARGETS:
        text = target_source(t)
        for src, dst, pipe in re.findall(r"\{PTOC_LOC_(\w+), PTOC_LOC_(\w+), PTORT_PIPE_(\w+)\}", text):
            moves.setdefault((src.lower(), dst.lower()), {})[t] = pipe
        cores[t] = {f: pipe_set(text, f) for f in ("vector_pipes", "cube_pipes", "inorder_pipes", "barrier_pipes")}
    out = ["| move (tmov, textract) | %s | %s |" % (LABEL["a2a3"], LABEL["a5"]), "|---|---|---|"]
    for (src, dst), by in moves.items():
        out.append("| %s -> %s | %s | %s |" % (src, dst, by.get("a2a3", "-"), by.get("a5", "-")))
    out += ["", "| pipes | %s | %s |" % (LABEL["a2a3"], LABEL["a5"]), "|---|---|---|"]
    for f, name in (("vector_pipes", "of a vector core"), ("cube_pipes", "of a cube core"),
                    ("inorder_pipes", "executing in program order"),
                    ("barrier_pipes", "whose barrier orders something")):
        out.append("| %s | %s | %s |" % (name, *(" ".join(p for p in order if p in cores[t][f]) for t in TARGETS)))
    return "\n".join(out) + "\n"


GENERATED = {
    "moves": gen_moves,
    "types": gen_types,
    "insns": gen_insns,
    "ops": gen_ops,
    "native pairs": gen_native_pairs,
    "sat defaults": gen_sat_defaults,
    "memories": gen_memories,
    "vector": gen_vector,
    "cube": gen_cube,
    "vector types": gen_vector_types,
    "a2a3 table": gen_target_table("a2a3"),
    "a5 table": gen_target_table("a5"),
}


def table_rows(text):
    """The cells of each body row of a markdown table (header and rule skipped)."""
    rows = [l for l in text.splitlines() if l.startswith("|")]
    return [[c.strip().strip("`") for c in l.strip().strip("|").split("|")] for l in rows[2:]]


def check_spellings(code, text):
    rows = table_rows(text)
    errors = []
    if not rows:
        return ["no spelling listed"]
    words = [w.strip("`") for r in rows for w in r[0].split(", ")]
    want = [r[1] for r in rows for _ in r[0].split(", ")]
    got = run([code.doc_types, "spell"] + words).stdout.split()
    for w, a, b in zip(words, want, got):
        if a != b:
            errors.append("spelling %s: the docs say %s, the code parses it as %s" % (w, a, b))
    return errors


def check_examples(code, text):
    rows = table_rows(text)
    errors = []
    if not rows:
        return ["no example listed"]
    for r in rows:
        src, dst, mode, sat, x, want = r[:6]
        args = [code.ptoc, "cvt", "--from", src, "--to", dst, "--rmode", mode]
        if sat != "-":
            args += ["--sat", sat]
        res = run(args + [x], check=False)
        got = res.stdout.strip()
        if res.returncode != 0 or int(got, 16) != int(want, 16):
            errors.append("example %s -> %s %s sat %s %s: the docs say %s, ptoc cvt gives %s%s"
                          % (src, dst, mode, sat, x, want, got, res.stderr.strip()))
    return errors


CHECKED = {"spellings": check_spellings, "examples": check_examples}

BLOCK = re.compile(r"^<!-- BEGIN (.+?) -->\n(.*?)^<!-- END \1 -->$", re.S | re.M)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptoc", required=True)
    ap.add_argument("--doc-types", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    a = ap.parse_args()
    code = Code(a.ptoc, a.doc_types)
    files = [os.path.join(a.root, "README.md")]
    docs = os.path.join(a.root, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    errors, seen, cache = [], set(), {}
    for path in files:
        text = open(path, encoding="utf-8").read()
        rel = os.path.relpath(path, a.root)
        begins = re.findall(r"^<!-- BEGIN (.+?) -->$", text, re.M)
        for name in begins:
            if name not in GENERATED and name not in CHECKED:
                errors.append("%s: unknown block '%s'" % (rel, name))
        if len(begins) != len(BLOCK.findall(text)):
            errors.append("%s: a BEGIN marker without its END" % rel)

        def replace(m):
            name, body = m.group(1), m.group(2)
            seen.add(name)
            if name in CHECKED:
                errors.extend("%s: %s" % (rel, e) for e in CHECKED[name](code, body))
                return m.group(0)
            if name not in GENERATED:
                return m.group(0)
            if name not in cache:
                cache[name] = GENERATED[name](code)
            if body != cache[name]:
                diff = "".join(difflib.unified_diff(body.splitlines(True), cache[name].splitlines(True),
                                                    "docs", "code"))
                errors.append("%s: block '%s' differs from the code\n%s" % (rel, name, diff))
            return "<!-- BEGIN %s -->\n%s<!-- END %s -->" % (name, cache[name], name)

        new = BLOCK.sub(replace, text)
        if a.write and new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("doc-tables: rewrote %s" % rel)
    for name in sorted(set(GENERATED) | set(CHECKED)):
        if name not in seen:
            errors.append("block '%s' appears in no doc" % name)
    if a.write:
        errors = [e for e in errors if "differs from the code" not in e]
    for e in errors:
        print("doc-tables: " + e)
    if not errors and a.check:
        print("doc-tables: %d blocks in %d files agree with the code" % (len(seen), len(files)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
