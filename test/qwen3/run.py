#!/usr/bin/python3
"""run.py: PTOAS's Qwen3 decode layer end to end through `ptoc run`, checked twice.

  run.py PTOC SHARED WORKDIR [--pending FILE] [--times FILE] [--keep] [--refs] [KERNEL...]

KERNEL: a name from the table below (e.g. A3/9, A5/12); default: all of them.
For each kernel of `SHARED/corpus/ptoas/samples/Qwen3DecodeA3|A5/`:
  1. case.json from the kernel's signature (GM buffers v1..vN with their element types
     and sizes from the constant shapes and strides of their make_tensor_views; the
     scalar arguments from the table below), then PTOAS's golden for the kernel, run in
     place from the corpus with this folder's validation_runtime.py on PYTHONPATH: it
     writes the input buffers vK.bin and the expected outputs golden_vK.bin;
  2. `ptoc run --target T` with every buffer as --in and the golden's outputs as --out;
  3. the outputs against the golden within the golden's own tolerance (PTOAS's board
     comparison: f32 atol = rtol = 1e-4 as numpy.allclose, f16 1e-2, bf16 one ulp in
     the ordered bit patterns, equal zeros and NaNs always match; other types exact);
  4. the outputs against exact.py's reference bit for bit (every byte of the buffer).
A kernel listed in the pending file (one `A3/N reason` a line) must still be refused by
`ptoc` with a located error; it is reported XFAIL, and the run fails when it compiles
(remove its line then). Prints one line per kernel and a summary; exit 0 when every
kernel passes or is pending, 1 otherwise, 77 when SHARED has no corpus (SKIP).
--refs checks exact.py instead of ptoc: each kernel's reference against its golden
within the golden's tolerance (for a reference written before ptoc compiles the kernel).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import exact  # noqa: E402

# Scalar arguments of each kernel, in argument order: chosen inside the kernel's views
# (PTOAS's board defaults, where they are, else the largest block the views allow, so
# the far edges of the big buffers are read). The goldens take them as the `ints`.
SCALARS = {
    0: [0],
    1: [0, 31],
    2: [0, 3],
    3: [],
    4: [15, 0, 4095],
    5: [15, 3, 7, 0],
    6: [3, 150, 0],
    7: [15, 3, 7, 0],
    8: [64, 56],
    9: [0, 8128],
    10: [0, 8128],
    11: [],
    12: [25344],
    13: [256],
    14: [],
    15: [8064],
    16: [0, 128],
}
A5_KERNELS = (1, 2, 5, 7, 9, 12, 13, 15)
QWEN3 = [k for i in range(17) for k in ["A3/%d" % i] + (["A5/%d" % i] if i in A5_KERNELS else [])]

# Other runnable samples of the corpus, which come without a golden: inputs from our
# own generator (seed 19; uniform in the given range), checked bit for bit against
# exact.py only. name: (file under samples/, {arg: (lo, hi)} inputs, [output args]).
SAMPLES = {
    "vadd": ("VectorAddition/vadd.pto", {"arg0": (-3.0, 3.0), "arg1": (-3.0, 3.0)}, ["arg2"]),
    # scores beyond +-22.6 reach the clamp at +-4.0001 after the scale 0.1767767
    "fa_softmax": ("FlashAttention/flash_attention_softmax.pto", {"scores": (-40.0, 40.0)},
                   ["softmax"]),
}
KERNELS = QWEN3 + ["%s/%s" % (n, t) for n in SAMPLES for t in ("a2a3", "a5")]

# PTOAS golden defects: the golden of qwen3_decode_incore_4 reads the RoPE tables with
# hi and lo swapped against the kernel's arguments (the kernel takes cos_hi, cos_lo as
# v2, v3 and sin_hi, sin_lo as v7, v8; the golden uses v2 as cos_lo, v3 as cos_hi, v7
# as sin_lo, v8 as sin_hi), so no correct run of the kernel matches it. For such a
# kernel the golden is checked (same tolerance) against exact.py's reference run on
# inputs with those buffers exchanged, which shows that the exchange is the only
# difference; ptoc's output is checked bit for bit against the reference on the real
# inputs as for every kernel.
GOLDEN_SWAPS = {"qwen3_decode_incore_4": [("v2", "v3"), ("v7", "v8")]}

PTR_RE = re.compile(r"%(\w+)\s*:\s*!pto\.ptr<(\w+)>")


def parse_kernel(path):
    """(args, elems): args = [(name, 'ptr'|'scalar', elem type)], elems = {arg: count}
    from the constant shapes and strides of the arg's make_tensor_views."""
    text = open(path, encoding="utf-8").read()
    sig = re.search(r"func\.func\s+@\w+\(([^)]*)\)", text)
    args = []
    for a in sig.group(1).split(","):
        a = a.strip()
        m = PTR_RE.match(a)
        if m:
            args.append((m.group(1), "ptr", m.group(2)))
        else:
            name, ty = a.split(":", 1)
            args.append((name.strip().lstrip("%"), "scalar", ty.strip()))
    consts = {m.group(1): int(m.group(2))
              for m in re.finditer(r"%(\w+)\s*=\s*arith\.constant\s+(-?\d+)\s*:", text)}
    elems = {}
    for m in re.finditer(r"make_tensor_view\s+%(\w+),\s*shape\s*=\s*\[([^\]]*)\],\s*"
                         r"strides\s*=\s*\[([^\]]*)\]", text):
        shape = [consts[v.strip().lstrip("%")] for v in m.group(2).split(",")]
        strides = [consts[v.strip().lstrip("%")] for v in m.group(3).split(",")]
        last = sum((d - 1) * s for d, s in zip(shape, strides)) + 1
        elems[m.group(1)] = max(elems.get(m.group(1), 0), last)
    return args, elems


def case_for(path, scalars):
    args, elems = parse_kernel(path)
    bufs, k = [], 0
    for name, kind, ty in args:
        if kind == "ptr":
            k += 1
            if name not in elems:
                raise ValueError("argument %%%s has no constant make_tensor_view" % name)
            bufs.append({"name": "v%d" % k, "arg": name, "dtype": ty, "elems": elems[name]})
    nscal = sum(1 for a in args if a[1] == "scalar")
    if nscal != len(scalars):
        raise ValueError("%d scalar arguments, the table gives %d" % (nscal, len(scalars)))
    return {"seed": 19, "buffers": bufs, "scalars": scalars,
            "scalar_args": [a[0] for a in args if a[1] == "scalar"]}


NP_RAW = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "i32": np.int32,
          "i16": np.int16, "i8": np.int8, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32}


def bf16_ordered(bits):
    bits = bits.astype(np.int32)
    return np.where(bits & 0x8000, 0xFFFF - bits, bits | 0x8000)


UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
CHUNK = 1 << 22


def differing(a, b):
    """Indices of the elements of a and b (same size and type) whose bits differ, found
    in chunks: the buffers are up to 400 MiB, and a kernel writes a block of them."""
    ua, ub = a.view(UINT_OF_SIZE[a.dtype.itemsize]), b.view(UINT_OF_SIZE[b.dtype.itemsize])
    parts = [i + np.flatnonzero(ua[i:i + CHUNK] != ub[i:i + CHUNK]) for i in range(0, ua.size, CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.intp)


def same_bytes(a, b):
    """Whether two arrays hold the same bytes (in chunks, without copying them)."""
    a, b = a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)
    if a.size != b.size:
        return False
    n8 = a.size // 8 * 8
    for i in range(0, n8, 8 * CHUNK):
        j = min(n8, i + 8 * CHUNK)
        if not np.array_equal(a[i:j].view(np.uint64), b[i:j].view(np.uint64)):
            return False
    return np.array_equal(a[n8:], b[n8:])


def golden_close(ty, gold, out):
    """(ok, worst) under the golden's own tolerance for element type ty. Elements with
    the same bits pass under every rule below (0 ulp, a zero difference, equal NaNs),
    so the rules are applied to the differing elements only."""
    if gold.size != out.size:
        return False, "%d elements, the golden has %d" % (out.size, gold.size)
    idx = differing(gold, out)
    gold, out = gold[idx], out[idx]
    if ty == "bf16":
        gf = (gold.astype(np.uint32) << 16).view(np.float32)
        of = (out.astype(np.uint32) << 16).view(np.float32)
        ulp = np.abs(bf16_ordered(gold) - bf16_ordered(out))
        ok = (ulp <= 1) | (gold == out) | ((gf == 0) & (of == 0)) | (np.isnan(gf) & np.isnan(of))
        return bool(ok.all()), "max %d ulp" % (int(ulp.max()) if ulp.size else 0)
    if ty in ("f32", "f16"):
        eps = 1e-4 if ty == "f32" else 1e-2
        ok = np.isclose(gold, out, atol=eps, rtol=eps, equal_nan=True)
        g, o = gold.astype(np.float64), out.astype(np.float64)
        with np.errstate(invalid="ignore"):
            d = np.abs(g - o)
        d = d[~np.isnan(d)]
        return bool(ok.all()), "max |diff| %.3g" % (float(d.max()) if d.size else 0.0)
    return bool((gold == out).all()), "exact"


def load(path, dtype):
    """A buffer file as a copy-on-write mapping: a reference that writes into it writes
    its own pages, and the pages nobody reads are never read."""
    if os.path.getsize(path) == 0:
        return np.zeros(0, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="c").view(np.ndarray)


def run(cmd, cwd=None, env=None):
    t = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p, time.monotonic() - t


def main():
    argv = sys.argv[1:]
    opts = {"--pending": None, "--times": None}
    keep = refs_only = False
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = argv[i + 1]
            i += 2
        elif argv[i] in ("--keep", "--refs"):
            keep = keep or argv[i] == "--keep"
            refs_only = refs_only or argv[i] == "--refs"
            i += 1
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) < 3:
        sys.stderr.write(__doc__)
        return 2
    ptoc, shared, work = [os.path.abspath(p) for p in pos[:3]]
    wanted = pos[3:] or KERNELS
    for k in wanted:
        if k not in KERNELS:
            sys.stderr.write("run.py: unknown kernel %s\n" % k)
            return 2
    samples = os.path.join(shared, "corpus", "ptoas", "samples")
    a3dir = os.path.join(samples, "Qwen3DecodeA3")
    if not os.path.isfile(os.path.join(a3dir, "qwen3_decode_golden_lib.py")):
        print("SKIP: no PTOAS corpus with the Qwen3 goldens under %s" % shared)
        return 77
    pending = {}
    if opts["--pending"]:
        for line in open(opts["--pending"], encoding="utf-8"):
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, why = line.partition(" ")
                pending[name] = why.strip()
        unknown = sorted(set(pending) - set(KERNELS))
        if unknown:
            print("FAIL: the pending list names unknown kernels: %s" % " ".join(unknown))
            return 1
    os.makedirs(work, exist_ok=True)
    bad = exact.selfcheck()
    if bad:
        print("FAIL: the exact reference's own numerics: %s" % bad)
        return 1
    env = golden_env()
    counts = {"PASS": 0, "FAIL": 0, "XFAIL": 0}
    times = []
    generated = {}  # kernel number -> case dir with the golden's files
    for k in wanted:
        arch, num = k.split("/")
        if arch in SAMPLES:
            name, target, num = arch, num, None
            pto = os.path.join(samples, SAMPLES[arch][0])
        else:
            num = int(num)
            name = "qwen3_decode_incore_%d" % num
            pto = os.path.join(samples, "Qwen3Decode" + arch, name + ".pto")
            target = "a2a3" if arch == "A3" else "a5"
        if k in pending and not refs_only:
            p, _ = run([ptoc, pto, "--target", target, "-o", os.devnull])
            err = p.stderr.decode(errors="replace")
            located = re.search(r"^%s:\d+:\d+: error: " % re.escape(pto), err, re.M)
            if p.returncode == 0:
                print("FAIL %s: compiles now: remove it from the pending list" % k)
                counts["FAIL"] += 1
            elif p.returncode != 1 or not located:
                print("FAIL %s: refused without a located error (exit %d): %s"
                      % (k, p.returncode, err.strip()[:300]))
                counts["FAIL"] += 1
            else:
                first = located.group(0) + err[located.end():].split("\n", 1)[0]
                print("XFAIL %s (%s): %s" % (k, pending[k], first[len(pto) + 1:]))
                counts["XFAIL"] += 1
            continue
        if num is None:
            ok, note, t_gold, t_run = check_sample(ptoc, pto, work, name, target, keep, refs_only)
        else:
            ok, note, t_gold, t_run = check_kernel(ptoc, pto, a3dir, work, num, name, target,
                                                   env, generated, keep, refs_only)
        counts["PASS" if ok else "FAIL"] += 1
        print("%s %s %s: %s (golden %.2f s, ptoc run %.2f s)"
              % ("PASS" if ok else "FAIL", k, target, note, t_gold, t_run))
        times.append({"kernel": k, "golden_s": round(t_gold, 3), "ptoc_run_s": round(t_run, 3),
                      "ok": ok})
        sys.stdout.flush()
        later = [w for w in wanted[wanted.index(k) + 1:] if w.split("/")[1] == str(num)]
        if not keep and not later and num in generated:
            shutil.rmtree(generated.pop(num), ignore_errors=True)
    if opts["--times"]:
        with open(opts["--times"], "w", encoding="utf-8") as f:
            json.dump(times, f, indent=1)
    print("%d passed (golden tolerance and bit-exact), %d failed, %d pending"
          % (counts["PASS"], counts["FAIL"], counts["XFAIL"]))
    return 1 if counts["FAIL"] else 0


def golden_env():
    """The environment of a golden: this folder (validation_runtime) on PYTHONPATH."""
    env = dict(os.environ)
    env["PYTHONPATH"] = HERE + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_golden(case, case_dir, a3dir, name, env):
    """Writes case.json into a fresh case_dir and runs the kernel's golden there.
    Returns (error or None, seconds)."""
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    with open(os.path.join(case_dir, "case.json"), "w", encoding="utf-8") as f:
        json.dump(case, f, indent=1)
    p, t = run([sys.executable, os.path.join(a3dir, name + "_golden.py")], cwd=case_dir, env=env)
    if p.returncode:
        return "golden failed: " + p.stderr.decode(errors="replace")[-500:], t
    return None, t


def io_args(case, case_dir, outs, target):
    """The harness options: every buffer --in, the outputs --out TARGET_vK.out, scalars."""
    a = []
    for b in case["buffers"]:
        a += ["--in", "%s=%s" % (b["arg"], os.path.join(case_dir, b["name"] + ".bin"))]
    for b in outs:
        a += ["--out", "%s=%s" % (b["arg"], os.path.join(case_dir, "%s_%s.out" % (target, b["name"])))]
    for n, v in zip(case["scalar_args"], case["scalars"]):
        a += ["--arg", "%s=%d" % (n, v)]
    return a


def check_kernel(ptoc, pto, a3dir, work, num, name, target, env, generated, keep, refs_only):
    """Returns (ok, note, golden seconds, ptoc run seconds)."""
    case_dir = generated.get(num)
    t_gold = 0.0
    try:
        case = case_for(pto, SCALARS[num])
    except (ValueError, KeyError) as e:
        return False, "cannot build the case: %s" % e, 0.0, 0.0
    if case_dir is None:
        case_dir = os.path.join(work, name)
        err, t_gold = run_golden(case, case_dir, a3dir, name, env)
        if err:
            return False, err, t_gold, 0.0
        generated[num] = case_dir
    else:
        with open(os.path.join(case_dir, "case.json"), encoding="utf-8") as f:
            old = json.load(f)
        if old["buffers"] != case["buffers"]:
            return False, "the A5 kernel's buffers differ from the A3 kernel's", 0.0, 0.0
    bufs = case["buffers"]
    outs = [b for b in bufs if os.path.isfile(os.path.join(case_dir, "golden_%s.bin" % b["name"]))]
    if not outs:
        return False, "the golden wrote no output", t_gold, 0.0
    if refs_only:
        return check_refs(case_dir, bufs, outs, name, case["scalars"]) + (t_gold, 0.0)
    p, t_run = run([ptoc, "run", pto, "--target", target] + io_args(case, case_dir, outs, target))
    if p.returncode:
        return False, "ptoc run failed (exit %d): %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[-600:]), t_gold, t_run
    raw = {b["name"]: load(os.path.join(case_dir, b["name"] + ".bin"), NP_RAW[b["dtype"]])
           for b in bufs}
    ref = exact.REFS.get(name)
    if ref is None:
        return False, "no exact reference in exact.py", t_gold, t_run
    want = ref(raw, case["scalars"])
    swaps = GOLDEN_SWAPS.get(name)
    if swaps:
        sw = dict(raw)
        for a, b in swaps:
            sw[a], sw[b] = raw[b], raw[a]
        want_sw = ref(sw, case["scalars"])
    notes, ok = [], True
    for b in outs:
        ty, nm = b["dtype"], b["name"]
        got = load(os.path.join(case_dir, "%s_%s.out" % (target, nm)), NP_RAW[ty])
        gold = load(os.path.join(case_dir, "golden_%s.bin" % nm), NP_RAW[ty])
        if got.size != gold.size:
            ok = False
            notes.append("%s: %d elements, the golden has %d" % (nm, got.size, gold.size))
            continue
        exp = want.get(nm)
        if swaps:
            g_ok, g_note = golden_close(ty, gold, np.asarray(want_sw[nm]).astype(NP_RAW[ty], copy=False))
            g_note += ", against the reference with %s exchanged (the golden's defect)" % (
                " ".join("%s/%s" % p for p in swaps))
        else:
            g_ok, g_note = golden_close(ty, gold, got)
        if exp is None:
            ok = False
            notes.append("%s: the reference does not compute it" % nm)
            continue
        exp = np.asarray(exp).astype(NP_RAW[ty], copy=False)
        same = same_bytes(got, exp)
        ndiff = int(np.count_nonzero(got.view(np.uint8).reshape(got.size, -1)
                                     != exp.view(np.uint8).reshape(exp.size, -1))) if not same else 0
        ok = ok and g_ok and same
        notes.append("%s %s golden %s (%s), exact %s" % (
            nm, ty, "ok" if g_ok else "MISMATCH", g_note,
            "bit-identical" if same else "DIFFERS in %d bytes" % ndiff))
        if not keep:
            os.remove(os.path.join(case_dir, "%s_%s.out" % (target, nm)))
    return ok, "; ".join(notes), t_gold, t_run


def check_sample(ptoc, pto, work, name, target, keep, refs_only):
    """A sample without a golden: our inputs, ptoc run, exact.py bit for bit."""
    _, ins, outs = SAMPLES[name]
    args, elems = parse_kernel(pto)
    types = {a: ty for a, kind, ty in args if kind == "ptr"}
    d = os.path.join(work, "%s_%s" % (name, target))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    gen = np.random.default_rng(19)
    bufs = {}
    for a, (lo, hi) in ins.items():
        if types[a] != "f32":
            return False, "sample input %s: only f32 inputs are generated" % a, 0.0, 0.0
        bufs[a] = gen.uniform(lo, hi, size=elems[a]).astype(np.float32)
        bufs[a].tofile(os.path.join(d, a + ".in"))
    ref = exact.SAMPLE_REFS[name]
    if refs_only:
        ref(bufs)
        shutil.rmtree(d, ignore_errors=True)
        return True, "reference runs (no golden in the corpus to compare with)", 0.0, 0.0
    cmd = [ptoc, "run", pto, "--target", target]
    for a in ins:
        cmd += ["--in", "%s=%s" % (a, os.path.join(d, a + ".in"))]
    for a in outs:
        cmd += ["--out", "%s=%s" % (a, os.path.join(d, a + ".out"))]
    p, t_run = run(cmd)
    if p.returncode:
        return False, "ptoc run failed (exit %d): %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[-600:]), 0.0, t_run
    want = ref(bufs)
    notes, ok = [], True
    for a in outs:
        got = np.fromfile(os.path.join(d, a + ".out"), dtype=NP_RAW[types[a]])
        exp = np.asarray(want[a]).astype(NP_RAW[types[a]], copy=False)
        same = got.size == exp.size and got.tobytes() == exp.tobytes()
        ok = ok and same
        notes.append("%s %s exact %s" % (a, types[a], "bit-identical" if same else "DIFFERS in %d elements"
                                         % int(np.count_nonzero(got.view(np.uint8) != exp.view(np.uint8)))
                                         if got.size == exp.size else "has %d elements" % got.size))
    if not keep:
        shutil.rmtree(d, ignore_errors=True)
    return ok, "; ".join(notes) + " (no golden in the corpus)", 0.0, t_run


def check_refs(case_dir, bufs, outs, name, scalars):
    raw = {b["name"]: load(os.path.join(case_dir, b["name"] + ".bin"), NP_RAW[b["dtype"]])
           for b in bufs}
    if name not in exact.REFS:
        return False, "no exact reference in exact.py"
    for a, b in GOLDEN_SWAPS.get(name, []):
        raw[a], raw[b] = raw[b], raw[a]
    want = exact.REFS[name](raw, scalars)
    notes, ok = [], True
    for b in outs:
        gold = load(os.path.join(case_dir, "golden_%s.bin" % b["name"]), NP_RAW[b["dtype"]])
        exp = np.asarray(want[b["name"]]).astype(NP_RAW[b["dtype"]], copy=False)
        g_ok, g_note = golden_close(b["dtype"], gold, exp)
        ok = ok and g_ok
        notes.append("reference %s vs golden: %s (%s)" % (b["name"], "ok" if g_ok else "MISMATCH", g_note))
    return ok, "; ".join(notes)


if __name__ == "__main__":
    sys.exit(main())
