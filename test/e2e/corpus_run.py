#!/usr/bin/python3
"""corpus_run.py: every kernel of PTOAS's corpus that has GM arguments, run through
`ptoc run` and compared bit for bit with an independent numpy reference.

  corpus_run.py PTOC CORPUS WORKDIR [--pending FILE] [--rejected FILE] [--times] [--schedule S] [FILE...]

CORPUS is the corpus folder (…/corpus/ptoas); FILE... limits the run to those paths
under it. For each .pto file, in order:

  1. Files not run, each listed with its reason and never counted as passing: the
     Qwen3 decode kernels (Qwen3DecodeA3/A5: checked by the CTest test `qwen3`,
     test/qwen3/run.py, against PTOAS's goldens and bit for bit against exact.py, on
     their 128 and 400 MiB weights), the files of the pending list (not accepted yet; run_all.test adds corpus-mixed.txt,
     the mixed cube/vector kernels, run as clusters by corpus/mixed_run.test),
     and the files the corpus means to be rejected (EXPECTED_ERRORS, and the lines of
     --rejected FILE, test/lit/Inputs/corpus-rejected.txt: their diagnostic must match
     on every target listed); the files PTOAS accepts that break a rule of pto-isa's
     own library (VENDOR_RULES) are refused the same way and counted apart (REFUSED).
  2. The targets: the module's pto.target_arch, else the directory name (…A3 / …A5),
     else every target ptoc compiles the file for (`ptoc FILE --target T`), at least one.
  3. Each func.func with !pto.ptr arguments, on each target, for each set of scalar
     arguments (SCALARS; i1 arguments take 0 and 1): every GM buffer is filled with
     seeded random data (also the outputs, so that a store outside its region shows),
     given to `ptoc run` as --in and read back as --out, and compared byte for byte with
     the buffers after pto_ref.py (a numpy interpreter of the ops from
     docs/semantics.md, reading `ptoc --emit=generic`) ran the function on the same data.
     Functions without GM arguments are listed (compiled, nothing to compare).

--times adds each file's wall seconds to its line. --schedule S runs every kernel with
`ptoc run --sync-schedule=S` (adversarial: each pipe's latest work first, test/lit/sync/). Prints one line per file (PASS with its kernel runs, SKIP/EXCLUDED/REJECTED/REFUSED with the
reason, FAIL with the first difference) and a summary; exit 1 on any failure.
"""
import os
import re
import subprocess
import sys
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pto_ref  # noqa: E402

TARGETS = ("a2a3", "a5")
SCHEDULE = []  # --schedule S: ptoc run's --sync-schedule

EXCLUDED_DIRS = {
    "samples/Qwen3DecodeA3": "Qwen3 decode layer: run by the CTest test qwen3 (test/qwen3/run.py: "
                             "PTOAS's goldens and exact.py bit for bit, 128/400 MiB weights)",
    "samples/Qwen3DecodeA5": "Qwen3 decode layer (A5): run by the CTest test qwen3 (test/qwen3/run.py)",
}

# Files the corpus means to be rejected: per target, the first error ptoc must report
# (on the targets listed).
# tmatmul_mx_emitc.pto's MX matmuls have K = 32: A5 requires a multiple of 64
# (semantics.md §6.3), A2A3 has no MX at all.
# Files ptoc accepts (they parse and verify) but cannot run yet, each with the error its
# compile must still give (a located error, on every target): when one compiles, the
# test fails until its line goes. Not counted as passing.
NOT_YET = {
}

# Kernels ptoc runs whose tiles, placed by hand, overlap on purpose: the reference has no
# layouts to model the aliasing, so their runs are compared with nothing. Not counted as
# passing.
UNMODELLED = ("tiles placed by hand overlap",)

# Files PTOAS accepts that break a rule of pto-isa's own library (docs/semantics.md §6.3,
# "Rules of the vendor's library"): refused with their EXPECTED_ERRORS, and counted apart
# from the files the corpus itself means to be rejected.
VENDOR_RULES = {"basic/tmatmul_mx_emitc.pto", "ptobc/recent_ops_v0_roundtrip.pto"}

EXPECTED_ERRORS = {
    "basic/textract_verify_a5_vec_vec_invalid_layout.pto": {
        "a2a3": r":8:5: error: 'pto\.textract' op expects a supported textract address-space pair for "
                r"A2/A3 \(got vec -> vec\)",
        "a5": r":8:5: error: 'pto\.textract' op expects A5 vec->vec textract src/dst to use ND layout "
              r"\(blayout=row_major, slayout=none_box\)"},
    "basic/tstore_verify_shape_valid_mismatch_invalid.pto": {
        t: r":9:5: error: 'pto\.tstore' op expects dst static element count \(4096\) to match src "
           r"valid_shape static element count \(1024\)" for t in TARGETS},
    "basic/tcvt_verify_invalid.pto": {
        t: r":24:3: error: 'pto\.tcvt' op expects src and dst to have compatible shapes" for t in TARGETS},
    "basic/tmatmul_mx_emitc.pto": {
        "a2a3": r":18:5: error: 'pto\.tmatmul\.mx' op: a2a3 has no MX matmul",
        "a5": r":18:5: error: 'pto\.tmatmul\.mx' op: on a5 the K of an MX matmul must be a multiple "
              r"of 64 \(got 32\)"},
    # PTOAS's bytecode test data breaks rules of pto-isa's library (semantics.md §6.3, "Rules
    # of the vendor's library"): its first, a 16x8 Zn tile that is not whole boxes
    "ptobc/recent_ops_v0_roundtrip.pto": {
        t: r":47:10: error: 'pto\.alloc_tile' op: a 16x8 Zn tile of f16 with fractal=512 is not "
           r"addressable" for t in TARGETS},
    # the async transfers take flat 1-D GM views (semantics.md §8.10)
    "basic/async_put_invalid_non_1d.pto": {
        t: r":9:14: error: 'pto\.tput_async' op expects dst to be a static flat contiguous logical "
           r"1D GM memref" for t in TARGETS},
    # written for one target each (their module's pto.target_arch; semantics.md §7.8)
    "basic/tinsert_verify_a2a3_invalid_dtype.pto": {
        "a2a3": r":10:5: error: 'pto\.tinsert' op expects A2/A3 tinsert element types to be src=f32, "
                r"dst=f16/bf16"},
    # thistogram is an A5 op (semantics.md §7.8c): the file's RUN line is a3
    "basic/thistogram_verify_invalid_a3.pto": {
        "a2a3": r":8:3: error: 'pto\.thistogram' op thistogram is only supported on A5"},
    "basic/tget_scale_addr_verify_invalid.pto": {
        "a5": r":7:3: error: 'pto\.tget_scale_addr' op expects dst to be in the scaling address space"},
    "basic/tinsert_verify_a5_invalid_loc.pto": {
        "a5": r":10:5: error: 'pto\.tinsert' op expects A5 tinsert to use a supported src/dst loc pair"},
    # PTOAS's tquant messages (semantics.md §7.8g); the file's RUN line is a3
    "basic/tquant_verify_invalid.pto": {
        t: r":15:3: error: 'pto\.tquant' op INT8_ASYM quantization requires an offset operand"
        for t in TARGETS},
}

# Scalar arguments per (file, function): a list of argument sets, each {position: value}.
# Chosen inside the kernels' tiles and views: full and ragged valid regions, each branch.
SCALARS = {
    ("samples/ControlFlow/control_flow_dynamic_branch.pto", "control_flow_dynamic_branch_block"):
        [{2: 32, 3: 32, 4: 0}, {2: 32, 3: 32, 4: 1}, {2: 17, 3: 9, 4: 0}, {2: 5, 3: 31, 4: 2}],
    ("samples/FlashAttention/flash_attention_qk_boundary.pto", "flash_attention_qk_boundary_block"):
        [{3: 32, 4: 32, 5: 32}, {3: 17, 4: 9, 5: 23}, {3: 1, 4: 32, 5: 5}],
    # 64 MiB buffers: one set here (a 7 x 24 x 16 block at offsets 9, 1000, 1008 of
    # 16 x 1024 x 1024); run/partition5d_corpus.test runs five more shapes
    ("samples/Partition5D/partition5d_dynamic.pto", "run_partition"):
        [dict(zip(range(2, 12), (0, 0, 9, 1000, 1008, 1, 1, 7, 24, 16)))],
    # a 1 x 1 x 2 x 8 x 16 block of two 64 MiB buffers (valid rows 16 of the 256-row tile)
    ("basic/insert_sync_level3_enable.pto", "run_partition"): [{2: 1, 3: 1, 4: 2, 5: 8, 6: 16}],
    ("basic/pto_entry_multifunc.pto", "kernel"): [{1: 5}],
    ("samples/FFN/ffn-pto-new.pto", "ffn_swiglu_block"): [{8: 32, 9: 32}, {8: 17, 9: 9}],
    ("samples/FFN/ffn_act.pto", "ffn_act_block"): [{3: 32, 4: 32}, {3: 17, 4: 9}],
    ("samples/FFN/ffn_act_dynamic.pto", "ffn_act_dynamic_block"): [{3: 32, 4: 32}, {3: 17, 4: 9}],
    ("samples/GQA/gqa_softmax_dynamic.pto", "gqa_softmax_dynamic_block"):
        [{3: 32, 4: 32}, {3: 17, 4: 9}, {3: 1, 4: 32}],
    # the row offset of a 16-row block in a 16-row view: 0 is the one in range
    ("samples/Sync/decode_projection_incore_0.pto", "decode_projection_incore_0"): [{3: 0}],
    ("samples/Sync/rmsnorm_incore_0.pto", "rmsnorm_incore_0"): [{3: 0}],
    ("samples/Sync/test_if_else_tile_result.pto", "test_if_else_tile_result"): [{2: 1}, {2: 0}, {2: 7}],
    # run-time f32 scalars (tadds, tmuls), given as bit patterns: 1.5, -0.088388346
    # (-1/sqrt(128)) and a NaN with a payload
    ("samples/PyPTOIRParser/orchestration_example_kernel_add_scalar.pto", "kernel_add_scalar"):
        [{1: 0x3FC00000}, {1: 0xBDB504F3}],
    ("samples/PyPTOIRParser/vector_example_dag_kernel_add_scalar.pto", "kernel_add_scalar"):
        [{1: 0x3FC00000}, {1: 0x7FC01234}],
    ("samples/PyPTOIRParser/paged_attention_example_kernel_softmax_prepare.pto", "kernel_softmax_prepare"):
        [{1: 0xBDB504F3}],
}


def sh(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def targets_of(ptoc, path, rel, text, work):
    """(targets, why) as the docstring says; ([], errors) when none compiles"""
    m = re.search(r'pto\.target_arch\s*=\s*"(\w+)"', text)
    if m:
        t = {"a3": "a2a3", "a2": "a2a3", "a2a3": "a2a3", "a5": "a5"}.get(m.group(1).lower())
        return ([t] if t else []), "module attribute"
    d = os.path.basename(os.path.dirname(rel))
    if d.endswith("A3"):
        return ["a2a3"], "directory"
    if d.endswith("A5"):
        return ["a5"], "directory"
    ok, errs = [], []
    for t in TARGETS:
        rc, _, err = sh([ptoc, path, "--target", t, "-o", os.path.join(work, "compiled_%s.c" % t)])
        if rc == 0:
            ok.append(t)
        else:
            errs.append(err.strip().splitlines()[0] if err.strip() else "exit %d" % rc)
    return ok, ("legality" if ok else errs)


def gm_sizes(ptoc, path, target, func):
    """elements of each GM argument, from the harness table `ptoc --emit=main` writes
    (sizes are not what is under test; the reference checks every access against them)"""
    rc, out, err = sh([ptoc, path, "--target", target, "--entry", func, "--emit=main"])
    if rc:
        raise RuntimeError("--emit=main: " + err.strip())
    rows = re.findall(r'\{\.name = "([^"]*)", \.bits = (\d+), \.elems = (\d+)u', out)
    return [(n, int(b), int(e)) for n, b, e in rows]


def fill(rng, t, n):
    """seeded data of element type t. Floats: normal draws (full mantissas, both signs);
    in f32 data a sixteenth each is moved onto the ties of an f32 -> bf16 and an
    f32 -> f16 rounding (low 16 bits 0x8000, low 13 bits 0x1000), beyond f16's range
    (x 2^13 .. 2^17) and into f16's subnormals (x 2^-20), so conversions show their
    round mode and saturation. Integers over their whole range."""
    if t in ("f32", "f16", "bf16"):
        x = rng.standard_normal(n, dtype=np.float32)
        x *= np.float32(2.0)
        if t == "f32":
            u = x.view(np.uint32)
            k = rng.integers(0, 16, n, dtype=np.uint8)
            m = k == 0
            u[m] = (u[m] & np.uint32(0xFFFF0000)) | np.uint32(0x8000)
            m = k == 1
            u[m] = (u[m] & np.uint32(0xFFFFE000)) | np.uint32(0x1000)
            m = k == 2
            x[m] *= np.exp2(rng.integers(13, 18, int(m.sum()))).astype(np.float32)
            x[k == 3] *= np.float32(2.0 ** -20)
            return x.view(np.uint8)
        if t == "f16":
            return x.astype(np.float16).view(np.uint8)
        return (x.view(np.uint32) >> np.uint32(16)).astype(np.uint16).view(np.uint8)
    dt = pto_ref.storage(t)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True).view(np.uint8)


def is_buffer(t):
    """a GM argument: a pointer, or a view (a strided memref: `ptoc run` passes it the
    dense buffer of its shape)"""
    return t.startswith("!pto.ptr<") or t.startswith("!pto.partition_tensor_view<")


def buffer_elem(t):
    return t[len("!pto.ptr<"):-1] if t.startswith("!pto.ptr<") else t[:-1].split("x")[-1]


def scalar_sets(rel, fname, types):
    scal = [i for i, t in enumerate(types) if not is_buffer(t) and not t.startswith("!pto.tile_buf<")]
    if not scal:
        return [{}]
    if (rel, fname) in SCALARS:
        return SCALARS[(rel, fname)]
    if all(types[i] == "i1" for i in scal):
        sets = [{}]
        for i in scal:
            sets = [{**s, i: v} for s in sets for v in (0, 1)]
        return sets
    return None


def pointer_used(func, i):
    """whether the function's argument i is an operand of any op in its body"""
    args, ops = func.regions[0]
    name = args[i]

    def walk(ops):
        for o in ops:
            if name in o.operands or any(walk(r[1]) for r in o.regions):
                return True
        return False
    return walk(ops)


def first_diff(a, b, t):
    w = np.dtype(pto_ref.storage(t)).itemsize
    x, y = a.view(pto_ref.storage(t)), b.view(pto_ref.storage(t))
    bad = np.flatnonzero(x != y)
    i = bad[0]
    return "%d of %d elements differ, first [%d]: ptoc 0x%0*x, reference 0x%0*x" % (
        bad.size, x.size, i, 2 * w, int(x[i]) & ((1 << 8 * w) - 1), 2 * w,
        int(y[i]) & ((1 << 8 * w) - 1))


# The input files written, by the draws that made them: (seed, (arg, type, elements)...)
# -> (file, the generator's state after it). A function's data does not depend on the
# target, so the second target reads the first one's files instead of drawing again
# (partition5d's 64 MiB buffers took seconds to draw).
FILLED = {}


def run_func(ptoc, path, rel, target, func, work, stats, funcs=None):
    """runs one function on every scalar set; returns (runs, error or None)"""
    fname = pto_ref.func_name(func)
    types = pto_ref.func_arg_types(func)
    sets = scalar_sets(rel, fname, types)
    if sets is None:
        return 0, "%s: no scalar argument values in corpus_run.py's SCALARS" % fname
    sizes = gm_sizes(ptoc, path, target, fname)
    # a kernel's tile arguments leave its signature (place-tiles: docs/semantics.md §8.3);
    # the others keep their order: pos[i] is argument i's number in `ptoc run`
    pos, k = {}, 0
    for i, t in enumerate(types):
        if not t.startswith("!pto.tile_buf<"):
            pos[i], k = k, k + 1
    sizes = [sizes[pos[i]] if i in pos else None for i in range(len(types))] if len(sizes) == k else sizes
    if len(sizes) != len(types):
        return 0, "%s: %d arguments in --emit=main, %d in the function" % (fname, len(sizes), len(types))
    runs = 0
    for k, scal in enumerate(sets):
        seed = zlib.crc32(("%s:%s:%d" % (rel, fname, k)).encode())
        rng = np.random.default_rng(seed)
        d = os.path.join(work, "%s_%s_%d" % (target, fname, k))
        os.makedirs(d, exist_ok=True)
        cmd = [ptoc, "run", path, "--target", target, "--entry", fname] + SCHEDULE
        gm, outs = {}, []
        draws = (seed,)
        for i, t in enumerate(types):
            if t.startswith("!pto.tile_buf<"):
                continue
            if is_buffer(t):
                et = buffer_elem(t)
                n = sizes[i][2]
                if n == 0 and not pointer_used(func, i):
                    continue  # a pointer the function never reads or writes: nothing to pass
                if n == 0:
                    return runs, "%s: argument %d has no static size" % (fname, i)
                draws += ((i, et, n),)
                if draws in FILLED:  # the same data, drawn on another target: read back
                    fin, state = FILLED[draws]
                    gm[i] = np.fromfile(fin, dtype=np.uint8)
                    rng.bit_generator.state = state
                else:
                    gm[i] = fill(rng, et, n)
                    fin = os.path.join(d, "in%d.bin" % i)
                    gm[i].tofile(fin)
                    FILLED[draws] = (fin, rng.bit_generator.state)
                fout = os.path.join(d, "out%d.bin" % i)
                cmd += ["--in", "%d=%s" % (pos[i], fin), "--out", "%d=%s" % (pos[i], fout)]
                outs.append((i, et, fout))
            else:
                if i not in scal:
                    return runs, "%s: no value for scalar argument %d" % (fname, i)
                # a float argument's value is its bit pattern (`0x...`)
                cmd += ["--arg", ("%d=0x%x" if t in ("f32", "f16", "bf16") else "%d=%d") % (pos[i], scal[i])]
        rc, out, err = sh(cmd)
        label = "%s %s%s" % (target, fname, (" " + ",".join("%d=%d" % kv for kv in sorted(scal.items())))
                              if scal else "")
        if rc:
            return runs, "%s: ptoc run failed: %s" % (label, err.strip()[:800])
        try:
            interp = pto_ref.Interp(target, manual=True)
            interp.funcs = funcs or {}
            interp.run(func, gm, scal)
        except pto_ref.Unsupported as e:
            return runs, "%s: the reference does not model %s" % (label, e)
        for i, et, fout in outs:
            got = np.fromfile(fout, dtype=np.uint8)
            if got.size != gm[i].size or not np.array_equal(got, gm[i]):
                why = first_diff(got, gm[i], et) if got.size == gm[i].size else "size %d, want %d" % (
                    got.size, gm[i].size)
                return runs, "%s: argument %d: %s" % (label, i, why)
        runs += 1
        stats["bytes"] += sum(g.size for g in gm.values())
    return runs, None


def check_file(ptoc, corpus, rel, work, pending, stats):
    """one summary line; updates stats"""
    path = os.path.join(corpus, rel)
    fwork = os.path.join(work, rel.replace("/", "_"))
    os.makedirs(fwork, exist_ok=True)
    with open(path) as f:
        text = f.read()
    for d, why in EXCLUDED_DIRS.items():
        if rel.startswith(d + "/"):
            stats["excluded"] += 1
            return "EXCLUDED %s: %s" % (rel, why)
    if rel in pending:
        stats["skipped"] += 1
        return ("SKIP %s: not accepted or not lowered yet (test/lit/Inputs/corpus-pending.txt, "
                "corpus-mixed.txt)" % rel)
    if rel in EXPECTED_ERRORS:
        msgs = []
        for t in EXPECTED_ERRORS[rel]:
            rc, _, err = sh([ptoc, path, "--target", t, "-o", os.path.join(fwork, "compiled_%s.c" % t)])
            first = next((ln for ln in err.splitlines() if "error:" in ln), "")
            if rc != 1 or not re.search(EXPECTED_ERRORS[rel][t], first):
                stats["failed"] += 1
                return "FAIL %s: expected an error matching /%s/ on %s, got exit %d: %s" % (
                    rel, EXPECTED_ERRORS[rel][t], t, rc, first or err.strip()[:300])
            msgs.append("%s: %s" % (t, first.split("error: ", 1)[1]))
        if rel in VENDOR_RULES:
            stats["vendor"] += 1
            return "REFUSED %s: by a rule of the vendor's library: %s" % (rel, "; ".join(msgs))
        stats["rejected"] += 1
        return "REJECTED %s: as the corpus means: %s" % (rel, "; ".join(msgs))
    if rel in NOT_YET:
        for t in TARGETS:
            rc, _, err = sh([ptoc, path, "--target", t, "-o", os.path.join(fwork, "k_%s.c" % t)])
            first = next((ln for ln in err.splitlines() if "error:" in ln), "")
            if rc != 1 or not re.search(r":\d+:\d+: error: " + NOT_YET[rel], first):
                stats["failed"] += 1
                return "FAIL %s: listed in NOT_YET, but on %s: exit %d: %s" % (rel, t, rc, first)
        stats["notyet"] += 1
        return "NOTYET %s: %s" % (rel, first.split("error: ", 1)[1])
    tg, why = targets_of(ptoc, path, rel, text, fwork)
    if not tg:
        stats["failed"] += 1
        return "FAIL %s: compiles for no target: %s" % (rel, "; ".join(why) if isinstance(why, list) else why)
    stats["compiled"] += 1
    total, nogm = 0, []
    for t in tg:
        rc, gen, err = sh([ptoc, path, "--target", t, "--emit=generic"])
        if rc:
            stats["failed"] += 1
            return "FAIL %s: --emit=generic on %s: %s" % (rel, t, err.strip()[:300])
        try:
            funcs = pto_ref.parse_module(gen)
        except pto_ref.Unsupported as e:
            stats["failed"] += 1
            return "FAIL %s: reading the generic form: %s" % (rel, e)
        for fn in funcs:
            if not any(is_buffer(a) for a in pto_ref.func_arg_types(fn)):
                if t == tg[0]:
                    nogm.append(pto_ref.func_name(fn))
                continue
            n, e = run_func(ptoc, path, rel, t, fn, fwork, stats,
                            {pto_ref.func_name(g): g for g in funcs})
            total += n
            if e and any(u in e for u in UNMODELLED):
                stats["unmodelled"] += 1
                return "UNMODELLED %s: ptoc ran it; %s" % (rel, e)
            if e:
                stats["failed"] += 1
                return "FAIL %s: %s" % (rel, e)
    note = " (without GM arguments, compiled only: %s)" % ", ".join(nogm) if nogm else ""
    if total == 0:
        stats["nogm"] += 1
        return "NOGM %s: compiled for %s (%s); no function has GM arguments, nothing to compare: %s" % (
            rel, ", ".join(tg), why, ", ".join(nogm))
    stats["passed"] += 1
    stats["runs"] += total
    return "PASS %s: compiled for %s (%s); %d kernel run%s bit-exact%s" % (
        rel, ", ".join(tg), why, total, "s" if total > 1 else "", note)


def main(argv):
    args = argv[1:]
    pending = set()
    if "--pending" in args:
        i = args.index("--pending")
        with open(args[i + 1]) as f:
            pending = {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}
        del args[i:i + 2]
    if "--rejected" in args:  # PATH TARGET... | MESSAGE (a fixed string of the first error)
        i = args.index("--rejected")
        with open(args[i + 1]) as f:
            for ln in f:
                if ln.strip() and not ln.startswith("#"):
                    head, msg = ln.rstrip("\n").split(" | ", 1)
                    words = head.split()
                    EXPECTED_ERRORS[words[0]] = {
                        t: r":\d+:\d+: error: " + re.escape(msg) for t in words[1:]}
        del args[i:i + 2]
    if "--schedule" in args:
        i = args.index("--schedule")
        SCHEDULE.append("--sync-schedule=" + args[i + 1])
        del args[i:i + 2]
    times = "--times" in args
    args = [a for a in args if a != "--times"]
    if len(args) < 3:
        print(__doc__)
        return 2
    ptoc, corpus, work = args[:3]
    if not os.path.isdir(corpus):
        print("corpus_run: SKIP: no corpus at %s" % corpus)
        return 77
    files = args[3:] or sorted(os.path.relpath(os.path.join(dp, f), corpus)
                               for dp, _, fs in os.walk(corpus) for f in fs if f.endswith(".pto"))
    stats = dict(compiled=0, passed=0, runs=0, failed=0, excluded=0, skipped=0, rejected=0, nogm=0,
                 vendor=0, notyet=0, unmodelled=0, bytes=0)
    for rel in files:
        t0 = time.time()
        line = check_file(ptoc, corpus, rel, work, pending, stats)
        print(line + (" [%.1f s]" % (time.time() - t0) if times else ""), flush=True)
    accounted = sum(stats[k] for k in ("passed", "nogm", "rejected", "vendor", "excluded", "skipped", "failed",
                                        "notyet", "unmodelled"))
    if accounted != len(files):  # every file ends in exactly one class
        print("corpus_run: %d files but %d accounted for" % (len(files), accounted))
        stats["failed"] += 1
    print("corpus_run: %d files: %d compiled, %d passed with %d kernel runs bit-exact, %d without GM "
          "arguments, %d run but not modelled, %d not run yet, %d rejected as meant, %d refused by the vendor "
          "library's rules, %d excluded, %d skipped, %d failed" % (
              len(files), stats["compiled"], stats["passed"], stats["runs"], stats["nogm"],
              stats["unmodelled"], stats["notyet"], stats["rejected"], stats["vendor"], stats["excluded"],
              stats["skipped"], stats["failed"]))
    return 1 if stats["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
