#!/usr/bin/python3
"""fuzz_kernels.py: random differential testing of ptoc (docs/testing.md).

  fuzz_kernels.py --ptoc PTOC [--seed S] [--kernels N | --seconds T] [--per-run K]
                  [--targets a2a3,a5] [--out DIR] [--work DIR] [--quiet]

Generates kernels with test/e2e/kernel_gen.py (seeded: kernel i of seed S is the same
on every run), packs K of them into one function per target (fewer when their
arguments would not fit one C call: see MAX_C_ARGS), runs it once with `ptoc run`
(one C compile for K kernels) and compares every byte of every GM output buffer with
test/e2e/pto_ref.py, the numpy interpreter of `ptoc --emit=generic` written from
docs/semantics.md. A run that fails (compile or runtime error) is replayed kernel by
kernel to find the one at fault.

Every disagreement (different bytes, or ptoc refusing a kernel the generator writes
as valid) is saved as a minimal reproducer in DIR/<target>-<seed>/: kernel.pto (that
kernel alone), in_*.bin, expected_*.bin (the reference), got_*.bin (ptoc), replay.sh
(the `ptoc run` command) and report.txt (the first differing elements). A kernel the
reference cannot model is counted as unsupported, never as agreeing.

Prints per target the kernels run, agreeing, disagreeing and unsupported, and the
kernels per second; exit 1 when a kernel disagreed (or none was checked).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_gen as kg  # noqa: E402
import pto_ref  # noqa: E402

UB_BASE = 65536       # kernels place tiles by hand in [UB_BASE, UB_TOP), a window each
UB_TOP = 180224       # below A2A3's reserved top (192 KiB - 8 KiB), with room to spare
# The most arguments the harness's call of one packed function may have: tcc 0.9.27
# (the suite's compiler, lit.cfg.py) fails with "memory full (vstack)" on a call of
# 254 or more, and 25 kernels take about 300 (a GM buffer is a pointer and an element
# count, a scalar one argument, plus the context). A batch is split into runs below it.
MAX_C_ARGS = 250


def c_args(case):
    """the arguments a case adds to the harness's C call of the packed function"""
    return 2 * len(case.gm) + len(case.idx)


def pack(cases):
    """cases split, in order, into runs whose C call fits MAX_C_ARGS"""
    runs, n = [[]], 1  # 1: the context
    for c in cases:
        if runs[-1] and n + c_args(c) > MAX_C_ARGS:
            runs.append([])
            n = 1
        runs[-1].append(c)
        n += c_args(c)
    return runs


def generic(ptoc, target, text, work, opts=()):
    """`ptoc --emit=generic` of text, or raises RuntimeError"""
    src = os.path.join(work, "ref.pto")
    with open(src, "w") as f:
        f.write(text)
    r = subprocess.run([ptoc, src, "--emit=generic", "--target", target] + list(opts),
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("ptoc --emit=generic failed: " + r.stderr.strip()[:2000])
    return r.stdout


def generics(ptoc, target, cases, work):
    """{case id: the generic form of the case's module alone, or its RuntimeError}: one
    ptoc call with each module a chunk of --split-input-file (each processed on its
    own, printed in turn between '// -----' lines), or one call per case when that
    call fails"""
    texts = [kg.module_text(target, [c]) for c in cases]
    try:
        parts = generic(ptoc, target, "// -----\n".join(texts), work,
                        ["--split-input-file"]).split("// -----\n")
        if len(parts) == len(cases):
            return {c.cid: g for c, g in zip(cases, parts)}
    except RuntimeError:
        pass
    out = {}
    for c, text in zip(cases, texts):
        try:
            out[c.cid] = generic(ptoc, target, text, work)
        except RuntimeError as e:
            out[c.cid] = e
    return out


def reference(target, gen, case):
    """the reference's output buffers for one kernel ({arg name: bytes}) from the
    generic form of its module, or raises pto_ref.Unsupported"""
    func = pto_ref.parse_module(gen)[0]
    gm, scal = {}, {}
    i = 0
    for (a, t, rows, cols, role), x in zip(case.gm, case.inputs):
        gm[i] = np.frombuffer(x.tobytes(), dtype=np.uint8).copy()
        i += 1
    for (a, v, ty) in case.idx:
        scal[i] = v
        i += 1
    pto_ref.Interp(target, manual=True).run(func, gm, scal)
    return {case.gm[k][0]: gm[k].tobytes() for k in range(len(case.gm)) if case.gm[k][4] == "out"}


def run_cmd(ptoc, target, src, cases, d, write=True):
    """the `ptoc run` command line (write: also write the input files into d)"""
    cmd = [ptoc, "run", src, "--target", target]
    for c in cases:
        for (a, t, rows, cols, role), x in zip(c.gm, c.inputs):
            p = os.path.join(d, "in_%s.bin" % a[1:])
            if write:
                x.tofile(p)
            cmd += ["--in", "%s=%s" % (a[1:], p)]
            if role == "out":
                cmd += ["--out", "%s=%s" % (a[1:], os.path.join(d, "got_%s.bin" % a[1:]))]
        for (a, v, ty) in c.idx:  # a float argument's value is its bit pattern
            cmd += ["--arg", ("%s=0x%x" if ty in kg.FLOATS else "%s=%d") % (a[1:], v)]
    return cmd


def run_ptoc(ptoc, target, cases, d):
    """one `ptoc run` of cases in one function: (ok, message, {arg: bytes})"""
    src = os.path.join(d, "kernel.pto")
    with open(src, "w") as f:
        f.write(kg.module_text(target, cases))
    cmd = run_cmd(ptoc, target, src, cases, d)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        errs = [ln for ln in r.stderr.splitlines() if "error" in ln]
        return False, "\n".join(errs[:3] + [r.stderr.strip()[-2000:]]), {}
    got = {}
    for c in cases:
        for (a, t, rows, cols, role) in c.gm:
            if role == "out":
                with open(os.path.join(d, "got_%s.bin" % a[1:]), "rb") as f:
                    got[a] = f.read()
    return True, "", got


def first_diffs(want, got, t, limit=4):
    st = pto_ref.storage(t)
    w, g = np.frombuffer(want, dtype=st), np.frombuffer(got, dtype=st)
    if w.size != g.size:
        return "sizes differ: %d vs %d" % (w.size, g.size)
    idx = np.nonzero(w != g)[0]
    hx = lambda v: "0x%0*x" % (np.dtype(st).itemsize * 2, int(v) & ((1 << (8 * np.dtype(st).itemsize)) - 1))  # noqa: E731
    return "%d of %d elements differ: " % (len(idx), w.size) + ", ".join(
        "[%d] want %s got %s" % (i, hx(w[i]), hx(g[i])) for i in idx[:limit])


def save(outdir, target, case, what, expected, got, ptoc):
    d = os.path.join(outdir, "%s-%d" % (target, case.seed))
    os.makedirs(d, exist_ok=True)
    text = kg.module_text(target, [case])
    with open(os.path.join(d, "kernel.pto"), "w") as f:
        f.write(text)
    cmd = run_cmd("${PTOC:-%s}" % os.path.abspath(ptoc), target, "kernel.pto", [case], ".", write=False)
    for (a, t, rows, cols, role), x in zip(case.gm, case.inputs):
        x.tofile(os.path.join(d, "in_%s.bin" % a[1:]))
    for a, b in (expected or {}).items():
        with open(os.path.join(d, "expected_%s.bin" % a[1:]), "wb") as f:
            f.write(b)
    for a, b in (got or {}).items():
        with open(os.path.join(d, "got_%s.bin" % a[1:]), "wb") as f:
            f.write(b)
    with open(os.path.join(d, "replay.sh"), "w") as f:
        f.write("#!/bin/sh\n# replays the kernel; compare got_*.bin with expected_*.bin (cmp)\ncd \"$(dirname \"$0\")\"\n"
                + " ".join(cmd) + "\nfor e in expected_*.bin; do cmp \"$e\" \"got_${e#expected_}\" || exit 1; done\n")
    with open(os.path.join(d, "report.txt"), "w") as f:
        f.write("target %s, kernel seed %d, ops %s\n%s\n" % (target, case.seed, " ".join(case.ops), what))
    return d


class Stats:
    def __init__(self):
        self.run = self.ok = self.bad = self.unsup = 0
        self.unsup_why = {}
        self.ops = {}


def check_batch(args, target, table, cvts, seeds, work, stats):
    win = min(8192, (UB_TOP - UB_BASE) // len(seeds) // 64 * 64)
    cases = [kg.gen_case(i, s, target, table, cvts, (UB_BASE + i * win, win))
             for i, s in enumerate(seeds)]
    refs = generics(args.ptoc, target, cases, work)
    for c in cases:
        if isinstance(refs[c.cid], RuntimeError):
            continue
        try:
            refs[c.cid] = reference(target, refs[c.cid], c)
        except pto_ref.Unsupported as e:
            refs[c.cid] = None
            stats.unsup_why[str(e)] = stats.unsup_why.get(str(e), 0) + 1
        except RuntimeError as e:
            refs[c.cid] = RuntimeError(str(e))
    groups = []
    for run in pack(cases):
        ok, msg, got = run_ptoc(args.ptoc, target, run, work)
        groups += [(run, True, got)] if ok else [([c], False, None) for c in run]
    for grp, ok, got in groups:
        if not ok:
            ok1, msg1, got1 = run_ptoc(args.ptoc, target, grp, work)
        else:
            ok1, msg1, got1 = True, "", got
        for c in grp:
            stats.run += 1
            for o in c.ops:
                stats.ops[o] = stats.ops.get(o, 0) + 1
            ref = refs[c.cid]
            if not ok1 or isinstance(ref, RuntimeError):
                stats.bad += 1
                why = "ptoc refused or failed: " + (msg1 if not ok1 else str(ref))
                d = save(args.out, target, c, why, None if isinstance(ref, RuntimeError) else ref, {}, args.ptoc)
                print("DISAGREE %s seed %d: %s (%s)" % (target, c.seed, why.splitlines()[0][:300], d))
                sys.stdout.flush()
                continue
            if ref is None:
                stats.unsup += 1
                continue
            diffs = []
            for (a, t, rows, cols, role) in c.gm:
                if role == "out" and ref[a] != got1[a]:
                    diffs.append("%s (%s %dx%d): %s" % (a, t, rows, cols, first_diffs(ref[a], got1[a], t)))
            if diffs:
                stats.bad += 1
                d = save(args.out, target, c, "\n".join(diffs), ref,
                         {a: got1[a] for (a, _, _, _, r) in c.gm if r == "out"}, args.ptoc)
                print("DISAGREE %s seed %d: %s (%s)" % (target, c.seed, diffs[0][:300], d))
            else:
                stats.ok += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptoc", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernels", type=int, default=0, help="kernels per target (quick mode)")
    ap.add_argument("--seconds", type=float, default=0, help="run this long (long mode)")
    ap.add_argument("--per-run", type=int, default=10, help="kernels in one ptoc run")
    ap.add_argument("--targets", default="a2a3,a5")
    ap.add_argument("--out", default="fuzz-kernels-out", help="where reproducers go")
    ap.add_argument("--work", default=None)
    ap.add_argument("--stats", action="store_true", help="print how often each op ran")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    if not args.kernels and not args.seconds:
        args.kernels = 100
    targets = args.targets.split(",")
    table = kg.vec_table()
    cvts = {t: kg.legality(args.ptoc, t) for t in targets}
    stats = {t: Stats() for t in targets}
    work = args.work or tempfile.mkdtemp(prefix="fuzzk-")
    os.makedirs(work, exist_ok=True)
    print("fuzz_kernels: seed %d, targets %s, %d kernels per run" % (args.seed, ",".join(targets), args.per_run))
    sys.stdout.flush()
    t0 = time.time()
    batch = 0
    try:
        while True:
            for t in targets:
                base = args.seed * 1000003 + batch * args.per_run
                n = args.per_run
                if args.kernels:
                    n = min(n, args.kernels - stats[t].run)
                if n <= 0:
                    continue
                check_batch(args, t, table, cvts[t], [base + i for i in range(n)], work, stats[t])
            batch += 1
            if args.kernels and all(stats[t].run >= args.kernels for t in targets):
                break
            if args.seconds and time.time() - t0 >= args.seconds:
                break
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    dt = time.time() - t0
    total = sum(s.run for s in stats.values())
    bad = 0
    for t in targets:
        s = stats[t]
        bad += s.bad
        print("fuzz_kernels: %s: %d kernels, %d agree, %d disagree, %d unsupported by the reference"
              % (t, s.run, s.ok, s.bad, s.unsup))
        for why, n in sorted(s.unsup_why.items(), key=lambda x: -x[1])[:5]:
            print("  unsupported %dx: %s" % (n, why[:200]))
        if args.stats:
            print("  ops: " + ", ".join("%s %d" % kv for kv in sorted(s.ops.items())))
    print("fuzz_kernels: %d kernels in %.1f s, %.1f kernels/s, %d disagreements%s"
          % (total, dt, total / dt if dt else 0, bad, " (reproducers in %s)" % args.out if bad else ""))
    checked = sum(s.ok for s in stats.values())
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
