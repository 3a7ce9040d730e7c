#!/usr/bin/python3
"""test_cvt_numpy.py: cross-checks f32 -> f16 (RINT, sat OFF) and f16 -> f32 against
numpy's float16 casts, for the runtime and the reference (through cvt_pipe).
Inputs: every f16 value, every midpoint between neighbours and +-2 f32 ulp around both,
every f32 power of two, and COUNT random f32 patterns (half biased to the f16 range).
NaNs compare as "is a NaN" (numpy keeps payloads, the spec gives the canonical NaN).
Usage: test_cvt_numpy.py <cvt_pipe> [count]. Without numpy it exits 77, which the
test's SKIP_RETURN_CODE makes CTest report as skipped."""
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("cvt_numpy: SKIP: numpy not available")
    sys.exit(77)


def pipe(tool, args, data):
    r = subprocess.run([tool] + args, input=data.tobytes(), stdout=subprocess.PIPE, check=True)
    return r.stdout


def main():
    tool = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    fails = 0
    # f16 -> f32: all patterns
    h = np.arange(0x10000, dtype=np.uint32).astype(np.uint16)
    want = h.view(np.float16).astype(np.float32)
    for who, extra in (("runtime", []), ("reference", ["ref"])):
        got = np.frombuffer(pipe(tool, ["f16", "f32", "RINT", "off"] + extra, h), dtype=np.float32)
        bad = ~((got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want)))
        for i in np.nonzero(bad)[0][:8]:
            print("FAIL f16->f32 %s 0x%04X: got 0x%08X numpy 0x%08X"
                  % (who, h[i], got.view(np.uint32)[i], want.view(np.uint32)[i]))
        fails += int(bad.sum())
    # f32 -> f16 RINT
    fin = h[(h & 0x7C00) != 0x7C00].view(np.float16).astype(np.float64)
    fin = np.unique(np.abs(fin))
    mids = (fin[:-1] + fin[1:]) / 2
    pts = np.concatenate([fin, mids, [65520.0, 65536.0]]).astype(np.float32).view(np.uint32)
    near = np.concatenate([pts + d for d in (-2, -1, 0, 1, 2)] +
                          [np.arange(255, dtype=np.uint32) << 23])
    near = np.concatenate([near, near | np.uint32(0x80000000)])
    rng = np.random.default_rng(1234)
    r = rng.integers(0, 1 << 32, size=count, dtype=np.uint64).astype(np.uint32)
    biased = (r & np.uint32(0x807FFFFF)) | ((np.uint32(99) + (r >> np.uint32(8)) % np.uint32(46)) << np.uint32(23))
    r[1::2] = biased[1::2]
    x = np.concatenate([near, r, np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001], dtype=np.uint32)])
    with np.errstate(over="ignore", invalid="ignore"):
        want = x.view(np.float32).astype(np.float16)
    for who, extra in (("runtime", []), ("reference", ["ref"])):
        got = np.frombuffer(pipe(tool, ["f32", "f16", "RINT", "off"] + extra, x), dtype=np.float16)
        bad = ~((got.view(np.uint16) == want.view(np.uint16)) | (np.isnan(got) & np.isnan(want)))
        for i in np.nonzero(bad)[0][:8]:
            print("FAIL f32->f16 RINT %s 0x%08X: got 0x%04X numpy 0x%04X"
                  % (who, x[i], got.view(np.uint16)[i], want.view(np.uint16)[i]))
        fails += int(bad.sum())
    print("cvt_numpy: %d f16->f32 and %d f32->f16 inputs, each for runtime and reference; %d failures"
          % (len(h), len(x), fails))
    return 1 if fails else 0


sys.exit(main())
