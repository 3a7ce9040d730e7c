#!/usr/bin/python3
"""sweep.py: every legal tcvt of a target, end to end through `ptoc run`.

  sweep.py PTOC TARGET WORKDIR [--limit N]

Reads `ptoc legality --target TARGET --format csv`; for every legal pair (native or
decomposed), every round mode the target allows and, where the target honours an
explicit saturation, both sat_mode ON and OFF (else the pair's default), writes one
tload/tcvt/tstore kernel on a 16x32 tile with the full valid region and one with a
16x20 valid region, all in ONE function (so one C build and one run), with automatic
placement. Inputs: deterministic bytes per source type (cvt_check.py gen). Each
result must equal `ptoc cvt --target TARGET` of the input element (the target's tcvt
rules on ptort_cvt1, whose exhaustive tests are elsewhere) inside the valid region
and stay zero outside it. Prints a summary; exit 1 on any mismatch or failure.

The expected values come from the build's Python package when it loads (ptoc.cvt with
target=, ptoc_cvt_array: the same target rules in-process, one call per case, where
`ptoc cvt` would start about 700 processes per target), else from `ptoc cvt --target`.
"""
import csv
import io
import os
import subprocess
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cvt_check  # noqa: E402

ROWS, COLS, PCOLS = 16, 32, 20


def tile(t, vc):
    return ("!pto.tile_buf<loc=vec, dtype=%s, rows=%d, cols=%d, v_row=%d, v_col=%d, "
            "blayout=row_major, slayout=none_box, fractal=512, pad=0>" % (t, ROWS, COLS, ROWS, vc))


def cases(ptoc, target, limit):
    out = subprocess.run([ptoc, "legality", "--target", target, "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    res = []
    for row in csv.DictReader(io.StringIO(out)):
        if row["verdict"] not in ("native", "decomposed"):
            continue
        sats = ["on", "off"] if row["sat_explicit"] == "honoured" else [None]
        for rm in row["rmodes"].split():
            for sat in sats:
                for vc in (COLS, PCOLS):
                    res.append((row["src"], row["dst"], rm, sat, vc))
    return res[:limit] if limit else res


def python_api(ptoc):
    """The build's Python package (BUILD/python beside BUILD/bin/ptoc), or None when it
    does not load (a sanitizer build: its libraries need the sanitizer runtime first)."""
    pkg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(ptoc))), "python")
    if not os.path.isfile(os.path.join(pkg, "ptoc", "__init__.py")):
        return None
    sys.path.insert(0, pkg)
    try:
        import ptoc as api
        api.cvt(np.zeros(1, np.float32), "f16")
        return api
    except Exception:  # noqa: BLE001 (any failure to load means: use the driver)
        return None


def expected(api, ptoc, target, s, d, rm, sat, x):
    """(True, hex strings of the results) or (False, the error): the source elements x
    (bit patterns) converted as `ptoc cvt --target` does."""
    if api is not None:
        src = np.array(x, dtype="u%d" % api.dtype(s).itemsize).view(api.dtype(s))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the target's warnings (forced saturation)
                out = api.cvt(src, d, rmode=rm, sat=sat, target=target, src=s)
        except ValueError as e:
            return False, "ptoc.cvt %s -> %s %s sat=%s: %s" % (s, d, rm, sat, e)
        return True, ["%x" % v for v in out.view("u%d" % out.dtype.itemsize).tolist()]
    cmd = [ptoc, "cvt", "--target", target, "--from", s, "--to", d, "--rmode", rm]
    if sat:
        cmd += ["--sat", sat]
    ref = subprocess.run(cmd, input="".join("0x%x\n" % v for v in x), capture_output=True, text=True)
    return (ref.returncode == 0, ref.stdout.split() if ref.returncode == 0
            else "%s: %s" % (" ".join(cmd[2:]), ref.stderr))


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    ptoc, target, work = argv[1], argv[2], argv[3]
    limit = int(argv[5]) if len(argv) > 5 and argv[4] == "--limit" else 0
    os.makedirs(work, exist_ok=True)
    cs = cases(ptoc, target, limit)
    srcs = sorted({c[0] for c in cs})
    dsts = sorted({c[1] for c in cs})
    slot = {}  # kernel index -> row block in its destination buffer
    count = {d: 0 for d in dsts}
    for k, c in enumerate(cs):
        slot[k] = count[c[1]]
        count[c[1]] += 1
    args = ["%%in_%d: !pto.ptr<%s>" % (i, s) for i, s in enumerate(srcs)]
    args += ["%%out_%d: !pto.ptr<%s>" % (i, d) for i, d in enumerate(dsts)]
    L = ['module attributes {pto.target_arch = "%s"} {' % target,
         "  func.func @sweep(%s) attributes {pto.entry} {" % ", ".join(args)]
    consts = {0, 1, ROWS, COLS, PCOLS} | {ROWS * slot[k] for k in slot} | {ROWS * n for n in count.values()}
    for v in sorted(consts):
        L.append("    %%c%d = arith.constant %d : index" % (v, v))
    for i, s in enumerate(srcs):
        L.append("    %%iv_%d = pto.make_tensor_view %%in_%d, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>"
                 % (i, i, ROWS, COLS, COLS, s))
        for vc in (COLS, PCOLS):
            L.append("    %%ip_%d_%d = pto.partition_view %%iv_%d, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                     % (i, vc, i, ROWS, vc, s, ROWS, vc, s))
    for i, d in enumerate(dsts):
        L.append("    %%ov_%d = pto.make_tensor_view %%out_%d, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : !pto.tensor_view<?x?x%s>"
                 % (i, i, ROWS * count[d], COLS, COLS, d))
    for k, (s, d, rm, sat, vc) in enumerate(cs):
        si, di = srcs.index(s), dsts.index(d)
        attrs = "rmode = #pto<round_mode %s>" % rm
        if sat:
            attrs += ", sat_mode = #pto<saturation_mode %s>" % sat.upper()
        L.append("    %%op%d = pto.partition_view %%ov_%d, offsets = [%%c%d, %%c0], sizes = [%%c%d, %%c%d] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                 % (k, di, ROWS * slot[k], ROWS, vc, d, ROWS, vc, d))
        L.append("    %%s%d = pto.alloc_tile : %s" % (k, tile(s, vc)))
        L.append("    %%d%d = pto.alloc_tile : %s" % (k, tile(d, vc)))
        L.append("    pto.tload ins(%%ip_%d_%d : !pto.partition_tensor_view<%dx%dx%s>) outs(%%s%d : %s)"
                 % (si, vc, ROWS, vc, s, k, tile(s, vc)))
        L.append("    pto.tcvt ins(%%s%d {%s} : %s) outs(%%d%d : %s)" % (k, attrs, tile(s, vc), k, tile(d, vc)))
        L.append("    pto.tstore ins(%%d%d : %s) outs(%%op%d : !pto.partition_tensor_view<%dx%dx%s>)"
                 % (k, tile(d, vc), k, ROWS, vc, d))
    L += ["    return", "  }", "}", ""]
    pto = os.path.join(work, "sweep_%s.pto" % target)
    with open(pto, "w") as f:
        f.write("\n".join(L))
    run = [ptoc, "run", pto, "--target", target]
    for i, s in enumerate(srcs):
        p = os.path.join(work, "in_%s_%s.bin" % (target, s))
        cvt_check.gen(ROWS * COLS * cvt_check.BITS[s] // 8, 17 + i, p)
        run += ["--in", "in_%d=%s" % (i, p)]
    for i, d in enumerate(dsts):
        run += ["--out", "out_%d=%s" % (i, os.path.join(work, "out_%s_%s.bin" % (target, d)))]
    r = subprocess.run(run, capture_output=True, text=True)
    if r.returncode != 0:
        print("sweep: ptoc run failed (%d):\n%s" % (r.returncode, r.stderr[-4000:]))
        return 1
    bad = 0
    api = python_api(ptoc)
    ins = {s: cvt_check.elems(open(os.path.join(work, "in_%s_%s.bin" % (target, s)), "rb").read(),
                              cvt_check.BITS[s], ROWS * COLS) for s in srcs}
    outs = {d: cvt_check.elems(open(os.path.join(work, "out_%s_%s.bin" % (target, d)), "rb").read(),
                               cvt_check.BITS[d], ROWS * COLS * count[d]) for d in dsts}
    refs = {}  # (s, d, rm, sat) -> `ptoc cvt` of every input element, or its error
    vals = {}  # (s, d, rm, sat) -> the first ROWS * COLS of them as integers
    for k, (s, d, rm, sat, vc) in enumerate(cs):
        x = ins[s]
        y = outs[d][ROWS * COLS * slot[k]:][:ROWS * COLS]
        if (s, d, rm, sat) not in refs:  # one call serves the full and the partial kernel
            refs[(s, d, rm, sat)] = expected(api, ptoc, target, s, d, rm, sat, x)
        ok, ref = refs[(s, d, rm, sat)]
        if not ok:
            print("sweep: ptoc cvt failed: %s" % ref)
            bad += 1
            continue
        if (s, d, rm, sat) not in vals:
            vals[(s, d, rm, sat)] = [int(v, 16) for v in ref[:ROWS * COLS]]
        val = vals[(s, d, rm, sat)]
        want = [0] * (ROWS * COLS)
        for r_ in range(ROWS):  # the valid region's elements; zero outside it
            want[r_ * COLS:r_ * COLS + vc] = val[r_ * COLS:r_ * COLS + vc]
        wrong = [] if want == y else [i for i in range(ROWS * COLS) if want[i] != y[i]]
        if wrong:
            bad += 1
            i = wrong[0]
            print("sweep: %s %s->%s %s sat=%s valid 16x%d: %d wrong, first (%d,%d): 0x%x -> 0x%x, expected 0x%x"
                  % (target, s, d, rm, sat, vc, len(wrong), i // COLS, i % COLS, x[i], y[i], want[i]))
    print("sweep: %s: %d kernels, %d failed" % (target, len(cs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
