#!/usr/bin/env python3
"""check-insn-calls.py ROOT: the runtime's instruction calls in runtime/include/ptort.h
against the instruction table ir/insns.def (docs/lowered.md). Every row's call must be
declared in the header with the parameters the table's fields give, in order and by
name: ctx, then `gm, view` for a row with a GM view (fixed 1), then one parameter per
field. The header is written by hand for its readers; this keeps it the table's."""
import re
import sys


def strip_comments(s):
    return re.sub(r"/\*.*?\*/", "", s, flags=re.S)


def main(argv):
    root = argv[1]
    table = strip_comments(open(root + "/ir/insns.def").read())
    # INSN(id, "pto.i.name", "ptort_call", fixed, PIPE, FIELDS)
    rows = re.findall(r'INSN\((\w+),\s*"([\w.]+)",\s*"(\w+)",\s*(\d+),\s*\w+,(.*?)\)\s*(?=INSN|\Z)',
                      table, flags=re.S)
    header = strip_comments(open(root + "/runtime/include/ptort.h").read())
    protos = {}
    for m in re.finditer(r"\b(\w+)\s*\(([^()]*)\)\s*;", header):
        names = []
        for p in m.group(2).split(","):
            w = re.findall(r"(\w+)\s*(?:\[\s*\])?\s*$", p.strip())
            names.append(w[0] if w else p.strip())
        protos[m.group(1)] = names
    bad = 0
    for _, name, call, fixed, fields in rows:
        want = ["ctx"] + (["gm", "view"] if int(fixed) else []) + \
            [n for _, n in re.findall(r"\b([FT])\((\w+)", fields)]
        got = protos.get(call)
        if got is None:
            print("%s: %s is not declared in ptort.h" % (name, call))
            bad += 1
        elif got != want:
            print("%s: %s(%s) in ptort.h, the table's fields give (%s)" % (
                name, call, ", ".join(got), ", ".join(want)))
            bad += 1
    print("check-insn-calls: %d instructions, %d differ" % (len(rows), bad))
    return 1 if bad or len(rows) < 30 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
