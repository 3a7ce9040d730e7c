#!/usr/bin/env python3
"""all_pairs.py: the exhaustive legalize-cvt check of test/lit/legalize/all_pairs.test.

  all_pairs.py gen  ssa|dps TABLE.csv OUT.pto EXPECTED_WARNINGS
      one tcvt per legal pair of `ptoc legality --format csv` x accepted round mode
      (and absent) x sat request (absent, ON, OFF), in tile SSA or DPS form; writes
      the number of warnings the rules of docs/semantics.md §3.2/§4 predict (an explicit
      OFF on a forced-ON pair; a mode other than RINT/NONE on the deq path).
  all_pairs.py check TABLE.csv LEGALIZED.pto
      every tcvt of the pass output is a native pair of the table with an explicit
      rmode among that pair's modes and an explicit sat_mode; prints 'ok N'.
"""
import re
import sys


def rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split(",")
    return [dict(zip(head, l.split(","))) for l in lines[1:] if l]


def gen(form, table, out, expected):
    n = 0
    warnings = 0
    body = []
    for r in rows(table):
        src, dst = r["src"], r["dst"]
        modes = [None] + r["rmodes"].split()
        for m in modes:
            for sat in (None, "ON", "OFF"):
                attrs = []
                if m:
                    attrs.append("rmode = #pto<round_mode %s>" % m)
                if sat:
                    attrs.append("sat_mode = #pto<saturation_mode %s>" % sat)
                a = " {%s}" % ", ".join(attrs) if attrs else ""
                if m is None and "NONE" not in r["rmodes"].split():
                    continue  # absent = NONE, not accepted by this pair
                if sat == "OFF" and r["sat_explicit"] == "forced_on":
                    warnings += 1
                if r["kind"] == "deq" and m not in (None, "RINT", "NONE"):
                    warnings += 1
                if form == "ssa":
                    body.append("  %%r%d = pto.tcvt %%%s%s : !pto.tile<16x64x%s> -> "
                                "!pto.tile<16x64x%s>" % (n, src, a, src, dst))
                else:
                    body.append("  %%s%d = pto.alloc_tile : !pto.tile_buf<vec, 16x64x%s>" % (n, src))
                    body.append("  %%d%d = pto.alloc_tile : !pto.tile_buf<vec, 16x64x%s>" % (n, dst))
                    body.append("  pto.tcvt ins(%%s%d%s : !pto.tile_buf<vec, 16x64x%s>) "
                                "outs(%%d%d : !pto.tile_buf<vec, 16x64x%s>)" % (n, a, src, n, dst))
                n += 1
    srcs = sorted({r["src"] for r in rows(table)})
    with open(out, "w") as f:
        if form == "ssa":
            args = ", ".join("%%%s: !pto.tile<16x64x%s>" % (s, s) for s in srcs)
            f.write("func.func @all(%s) {\n" % args)
        else:
            f.write("func.func @all() {\n")
        f.write("\n".join(body) + "\n")
        f.write("  return\n}\n")
    with open(expected, "w") as f:
        f.write("%d\n" % warnings)


TCVT_SSA = re.compile(r"pto\.tcvt %\S+ \{([^}]*)\} : !pto\.tile<16x64x(\w+)> -> !pto\.tile<16x64x(\w+)>")
TCVT_DPS = re.compile(r"pto\.tcvt ins\(%\S+ \{([^}]*)\} : !pto\.tile_buf<loc=vec, dtype=(\w+),.*"
                      r"outs\(%\S+ : !pto\.tile_buf<loc=vec, dtype=(\w+),")


def check(table, path):
    native = {}
    for r in rows(table):
        if r["verdict"] == "native":
            native[(r["src"], r["dst"])] = set(r["rmodes"].split())
    n = 0
    bad = 0
    for line in open(path):
        if "pto.tcvt" not in line:
            continue
        m = TCVT_SSA.search(line) or TCVT_DPS.search(line)
        if not m:
            print("unparsed tcvt: " + line.strip())
            bad += 1
            continue
        attrs, src, dst = m.groups()
        rm = re.search(r"rmode = #pto<round_mode (\w+)>", attrs)
        sat = re.search(r"sat_mode = #pto<saturation_mode (ON|OFF)>", attrs)
        if (src, dst) not in native:
            print("not native: %s -> %s" % (src, dst))
            bad += 1
        elif not rm or rm.group(1) not in native[(src, dst)] or rm.group(1) == "NONE":
            print("bad rmode: " + line.strip())
            bad += 1
        elif not sat:
            print("no sat_mode: " + line.strip())
            bad += 1
        n += 1
    print("bad %d" % bad if bad else "ok %d" % n)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(*sys.argv[2:6])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
