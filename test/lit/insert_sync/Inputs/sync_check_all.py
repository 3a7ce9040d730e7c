#!/usr/bin/env python3
"""The proof of insert-sync's output with the sanitizer (test/lit/insert_sync/sync_check.test):
every kernel given (files, or every .pto under a directory) is compiled with
`--insert-sync --emit=ir` and each of its functions is run by `ptoc run --sync-check`
with its integer arguments set to 0, 1, 2 and 3 (the trip counts of run-time loops;
i1 arguments 0/1), so that zero-trip, one-trip, even and odd counts are executed.
A run must report no sync finding (race, deadlock, bad event); a run that stops on
another runtime error (an argument value the kernel cannot take) counts as not
runnable.

usage: sync_check_all.py PTOC TMP_DIR PATH..."""
import os
import re
import subprocess
import sys

FINDING = re.compile(r"error: sync (race|deadlock|event)")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def funcs_of(ir):
    """[(name, [(arg, type)])] of the functions of the printed IR."""
    out = []
    for m in re.finditer(r"func\.func (?:private )?@(\w+)\(([^)]*)\)", ir):
        args = re.findall(r"%(\w+): (index|i1|i8|i16|i32|i64|ui\d+|si\d+)\b", m.group(2))
        out.append((m.group(1), args))
    return out


def main(argv):
    ptoc, tmp = argv[1], argv[2]
    os.makedirs(tmp, exist_ok=True)
    files = []
    for p in argv[3:]:
        if os.path.isdir(p):
            files += sorted(os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs if f.endswith(".pto"))
        else:
            files.append(p)
    stats = {"clean": 0, "unrunnable": 0, "finding": 0, "kernels": 0}
    for src in files:
        name = re.sub(r"[^\w.]", "_", os.path.relpath(src))
        out = os.path.join(tmp, name + ".ir")
        rc, msg = run([ptoc, src, "--insert-sync", "--emit=ir", "-Rpass=insert-sync", "-o", out])
        if rc or "left as written" in msg or "internal error" in msg:
            if "internal error" in msg:
                print("FAIL %s: %s" % (src, msg.strip().splitlines()[0]))
                stats["finding"] += 1
            continue
        ir = open(out).read()
        if "pto.section" in ir:
            continue  # mixed kernels are not lowered to C yet (semantics.md §8.9)
        stats["kernels"] += 1
        for fname, args in funcs_of(ir):
            for k in ([0, 1, 2, 3] if args else [None]):
                cmd = [ptoc, "run", out, "--sync-check", "--entry", fname]
                for a, t in args:
                    cmd += ["--arg", "%s=%d" % (a, k % 2 if t == "i1" else k)]
                rc, msg = run(cmd)
                if FINDING.search(msg):
                    stats["finding"] += 1
                    print("FAIL %s @%s k=%s:\n%s" % (src, fname, k, msg.strip()))
                elif rc:
                    stats["unrunnable"] += 1
                else:
                    stats["clean"] += 1
    print("sync-check: %(kernels)d kernels, %(clean)d runs clean, %(unrunnable)d not runnable "
          "with those arguments, %(finding)d with sync findings" % stats)
    return 1 if stats["finding"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
