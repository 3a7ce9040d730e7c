#!/usr/bin/env python3
"""gen-insn-entry.py ROOT [--check]: writes runtime/src/insn_entry.c, insn_entry_cube.c
and insn_entry.h,
the runtime's entry of each instruction the adversarial schedule queues (docs/sync-check.md
"The adversarial schedule"), from the instruction table ir/insns.def and the prototypes
of runtime/include/ptort.h (their parameter types; scripts/check-insn-calls.py keeps the
names the table's).

For each such instruction K, insn_entry.c (insn_entry_cube.c for the cube's) holds its record (the call's arguments by
value: a tile descriptor or GM view copied, with a flag for a null pointer), the
function the queue calls to run it, and the public ptort_K: it calls ptort_K_now (the
instruction's executor, in its own file; declared in insn_entry.h) at once, or, while
the context runs the adversarial schedule, fills the record and hands it to
ptort_sync_defer. Which instructions: those of a pipe other than S, apart from tprint
(it prints in program order) and the FIFO calls tpush and tpop (cross-core; schedule.c
runs them at issue). S instructions (getval, setval, scvt) always run at issue.

    python3 scripts/gen-insn-entry.py .            # rewrite the three files
    python3 scripts/gen-insn-entry.py . --check    # exit 1 when one differs
test/lit/docs/insn_calls.test runs --check."""
import re
import sys

NOT_QUEUED = {"TPRINT", "TPUSH", "TPOP"}


def strip_comments(s):
    return re.sub(r"/\*.*?\*/", "", s, flags=re.S)


def rows(root):
    table = strip_comments(open(root + "/ir/insns.def").read())
    # INSN(id, "pto.i.name", "ptort_call", fixed, PIPE, FIELDS)
    return re.findall(r'INSN\((\w+),\s*"[\w.]+",\s*"(\w+)",\s*\d+,\s*(\w+),', table)


def prototypes(root):
    header = strip_comments(open(root + "/runtime/include/ptort.h").read())
    protos = {}
    for m in re.finditer(r"PTORT_API\s+(\w+)\s+(ptort_\w+)\s*\(([^()]*)\)\s*;", header):
        params = []
        for p in m.group(3).split(",")[1:]:  # after ptort_ctx *ctx
            p = " ".join(p.split())
            name = (re.findall(r"(\w+)$", p) or [""])[0]
            params.append((p[: len(p) - len(name)].strip(), name))
        protos[m.group(2)] = (m.group(1), params)
    return protos


def wrap(head, items, tail, indent):
    """head + items joined by ', ' + tail, broken before 96 columns (tabs as 8)."""
    out, line = [], head
    for i, it in enumerate(items):
        piece = it + (", " if i + 1 < len(items) else tail)
        if len(line.expandtabs(8)) + len(piece.rstrip()) > 96 and line.strip():
            out.append(line.rstrip())
            line = indent
        line += piece
    if not items:
        line += tail
    out.append(line)
    return "\n".join(out)


def is_copied(ty):
    """A pointer to a descriptor the record keeps by value (a tile, a GM view)."""
    return ty.startswith("const ") and ty.endswith("*") and "void" not in ty


def pointee(ty):
    return ty[len("const "):-1].strip()


def copier(ty):
    """The helper that copies a descriptor (ptort_entry_copy_tile for ptort_tile, ...)."""
    return "copy_" + pointee(ty)[len("ptort_"):]


def members(params):
    """The record's members, consecutive ones of one type on one line."""
    mem = [(pointee(ty) if is_copied(ty) else ty, name) for ty, name in params]
    mem += [("int", "has_" + name) for ty, name in params if is_copied(ty)]
    lines = []
    for ty, name in mem:
        star = ty.endswith("*")
        base = ty.rstrip("*").rstrip() if star else ty
        decl = ("*" if star else "") + name
        if lines and lines[-1][0] == base:
            lines[-1][1].append(decl)
        else:
            lines.append((base, [decl]))
    return "\n".join(wrap("\t%s " % ty, ds, ";", "\t\t") for ty, ds in lines)


def entry(call, ret, params):
    k = call[len("ptort_"):]
    unpack = ["r->has_%s ? &r->%s : NULL" % (n, n) if is_copied(t) else "r->" + n
              for t, n in params]
    init = ["ptort_entry_%s(%s)" % (copier(t), n) if is_copied(t) else n for t, n in params]
    init += [n + " != NULL" for t, n in params if is_copied(t)]
    decl = ["%s%s%s" % (t, "" if t.endswith("*") else " ", n) for t, n in params]
    return "\n".join([
        "",
        "/* ---- %s ---- */" % call,
        "",
        "typedef struct %s_args {" % k,
        members(params),
        "} %s_args;" % k,
        "",
        "static void %s_run(ptort_ctx *ctx, const void *p)" % k,
        "{",
        "\tconst %s_args *r = p;" % k,
        wrap("\t(void)%s_now(ctx, " % call, unpack, ");", "\t\t"),
        "}",
        "",
        wrap("%s %s(ptort_ctx *ctx, " % (ret, call), decl, ")", "\t"),
        "{",
        "\tif (ctx && ctx->sched && ptort_sched_defers(ctx)) {",
        wrap("\t\tconst %s_args rec = {" % k, init, "};", "\t\t\t"),
        "\t\treturn ptort_entry_defer(ctx, %s_run, &rec, sizeof rec);" % k,
        "\t}",
        wrap("\treturn %s_now(ctx, " % call, [n for _, n in params], ");", "\t\t"),
        "}",
    ])


HEAD_C = """/* %s: generated by scripts/gen-insn-entry.py from ir/insns.def and the
 * prototypes of ptort.h. Do not edit; test/lit/docs/insn_calls.test checks it is current.
 *
 * The entry of each instruction of a pipe other than S (apart from tprint, tpush and
 * tpop)%s: ptort_K executes at once through ptort_K_now (insn_entry.h), or, while
 * the context runs the adversarial schedule (schedule.c, docs/sync-check.md), copies
 * its arguments into a record and hands it to ptort_sync_defer; the ptort_sync_op that
 * follows the call names the pipe whose queue it joins, and K_run makes the call
 * when that pipe runs it. Off the schedule the entry costs one test of ctx. */
#include <stddef.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"
#include "ptort_sync.h"
"""

HELPERS = """
int ptort_entry_defer(ptort_ctx *ctx, void (*run)(ptort_ctx *ctx, const void *args),
		      const void *rec, size_t size)
{
	ptort_sync_defer(ctx, run, rec, size);
	return 0;
}
"""

HEAD_H = """/* insn_entry.h: generated by scripts/gen-insn-entry.py from ir/insns.def and the
 * prototypes of ptort.h. Do not edit; test/lit/docs/insn_calls.test checks it is current.
 *
 * The executors of the instructions whose ptort.h call may be queued by the
 * adversarial schedule (insn_entry.c, insn_entry_cube.c): ptort_K_now(ctx, ...) takes
 * ptort_K's arguments and executes the instruction at once. Each is defined in its
 * instruction's file. */
#ifndef PTORT_INSN_ENTRY_H
#define PTORT_INSN_ENTRY_H

#include <stddef.h>

#include "ptort.h"

/* The entries' helpers (insn_entry.c): queuing a record for run (a copy; the call's
 * result is 0); a copy of a descriptor, zeros for a null pointer (the record's has_
 * flag says which). An entry queues while ctx runs the adversarial schedule and is
 * not running its queued work (ptort_sched_defers: a queued instruction that calls
 * another runs it at once). */
int ptort_entry_defer(ptort_ctx *ctx, void (*run)(ptort_ctx *ctx, const void *args),
		      const void *rec, size_t size);
"""


def copy_helper(ty):
    return "\n".join([
        "",
        "%s ptort_entry_%s(const %s *p)" % (ty, copier("const %s *" % ty), ty),
        "{",
        "\t%s v;" % ty,
        "\tif (p)",
        "\t\treturn *p;",
        "\tmemset(&v, 0, sizeof v);",
        "\treturn v;",
        "}",
    ])


def generate(root):
    """The texts of insn_entry.c, insn_entry_cube.c and insn_entry.h. The cube's
    entries have a file of their own so that a kernel without a cube instruction
    links no cube code from the static library, as when it called the executors
    (mmad.c's thread-local buffers are more than tcc links)."""
    protos = prototypes(root)
    h, body, cube, copied = [HEAD_H], [], [], set()
    for ident, call, pipe in rows(root):
        if pipe == "S" or ident in NOT_QUEUED:
            continue
        if call not in protos:
            raise SystemExit("gen-insn-entry: %s is not declared in ptort.h" % call)
        ret, params = protos[call]
        if any(nm in ("ctx", "rec") for _, nm in params):
            raise SystemExit("gen-insn-entry: %s has a parameter named ctx or rec" % call)
        decl = ["%s%s%s" % (t, "" if t.endswith("*") else " ", nm) for t, nm in params]
        h.append(wrap("%s %s_now(ptort_ctx *ctx, " % (ret, call), decl, ");", "\t"))
        (cube if pipe == "M" else body).append(entry(call, ret, params))
        copied |= {pointee(t) for t, _ in params if is_copied(t)}
    if len(body) + len(cube) < 30:
        raise SystemExit("gen-insn-entry: only %d instructions read from ir/insns.def"
                         % (len(body) + len(cube)))
    for t in sorted(copied):
        h.insert(1, "%s ptort_entry_%s(const %s *p);" % (t, copier("const %s *" % t), t))
    h.append("\n#endif")
    c = [HEAD_C % ("insn_entry.c", "") + HELPERS] + [copy_helper(t) for t in sorted(copied)] + body
    k = [HEAD_C % ("insn_entry_cube.c", " on the cube (M)")] + cube
    return "\n".join(c) + "\n", "\n".join(k) + "\n", "\n".join(h) + "\n"


def main(argv):
    root = argv[1]
    check = "--check" in argv[2:]
    bad = 0
    for path, text in zip(("runtime/src/insn_entry.c", "runtime/src/insn_entry_cube.c",
                           "runtime/src/insn_entry.h"), generate(root)):
        full = root + "/" + path
        try:
            old = open(full).read()
        except OSError:
            old = None
        if old == text:
            continue
        if check:
            print("gen-insn-entry: %s is not what ir/insns.def and ptort.h give; run "
                  "python3 scripts/gen-insn-entry.py ." % path)
            bad += 1
        else:
            open(full, "w").write(text)
    if check:
        print("gen-insn-entry: %d files differ" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
