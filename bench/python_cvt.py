#!/usr/bin/python3
"""python_cvt.py: throughput of ptoc.cvt (the Python package) beside numpy in the same
process (docs/performance.md).

  PYTHONPATH=build/python /usr/bin/python3 bench/python_cvt.py [--n N] [--runs R]

Converts N f32 elements (default 16 Mi, 64 MiB: beyond the caches) of seeded normal
values to f16 with RINT: ptoc.cvt(x, 'f16'), which also saturates (the pair's default),
and numpy's x.astype(np.float16), alternately, best of R runs each; then f32 -> bf16
(no numpy baseline: numpy has no bf16) and f32 -> hif8. Prints M elements/s and the
ratio; both f16 results are compared bit for bit first (no value overflows)."""
import argparse
import time

import numpy as np

import ptoc


def best(fn, runs):
    t = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=16 << 20)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    x = (np.random.default_rng(0).standard_normal(a.n) * 100).astype(np.float32)
    if not np.array_equal(ptoc.cvt(x, "f16").view(np.uint16), x.astype(np.float16).view(np.uint16)):
        raise SystemExit("python_cvt: ptoc.cvt and numpy differ on f32 -> f16")
    tp, tn = float("inf"), float("inf")
    for _ in range(a.runs):  # interleaved, so both see the same machine
        tp = min(tp, best(lambda: ptoc.cvt(x, "f16"), 1))
        tn = min(tn, best(lambda: x.astype(np.float16), 1))
    mp, mn = a.n / tp / 1e6, a.n / tn / 1e6
    print("f32 -> f16 RINT, %d elements, best of %d:" % (a.n, a.runs))
    print("  ptoc.cvt            %8.1f M elements/s  (%.2f GB/s of f32)" % (mp, mp * 4e-3))
    print("  numpy astype(f16)   %8.1f M elements/s  (%.2f GB/s of f32)" % (mn, mn * 4e-3))
    print("  ptoc.cvt / numpy    %8.2fx" % (mp / mn))
    for to, rm in (("bf16", "RINT"), ("hif8", "ROUND")):
        t = best(lambda: ptoc.cvt(x, to, rmode=rm), a.runs)
        print("f32 -> %-4s %-5s ptoc.cvt %8.1f M elements/s" % (to, rm, a.n / t / 1e6))


if __name__ == "__main__":
    main()
