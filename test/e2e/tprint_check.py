#!/usr/bin/python3
"""tprint_check.py: run/Inputs/tprint.pto with `ptoc run`; its standard output must be
the documented pto.tprint text (ptort.h section 3.1a) of each tile, rendered here
independently with Python's own formatting, and every float printed must read back
(through numpy) to the bits that were loaded (NaN: any NaN).

  tprint_check.py PTOC KERNEL TARGET WORKDIR
"""
import os
import subprocess
import sys

import numpy as np

TILES = [("a", "f32", 4, 8, 9), ("b", "f16", 4, 16, 5), ("c", "bf16", 4, 16, 4),
         ("d", "i16", 4, 16, 0), ("e", "ui8", 4, 32, 0)]


def bf16_to_f64(u16):
    return (u16.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def values(rng, name, n):
    """n bit patterns of the type, specials first."""
    if name == "f32":
        sp = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-45, -1.4e-45, 3.4028235e38,
                       1.17549435e-38, 0.1, 1 / 3], dtype=np.float32).view(np.uint32)
        r = rng.standard_normal(n).astype(np.float32).view(np.uint32)
        r[:len(sp)] = sp
        return r
    if name == "f16":
        sp = np.array([np.nan, np.inf, -np.inf, -0.0, 6e-8, 65504, -65504, 0.1, 6.1e-5],
                      dtype=np.float16).view(np.uint16)
        r = (rng.standard_normal(n) * 100).astype(np.float16).view(np.uint16)
        r[:len(sp)] = sp
        return r
    if name == "bf16":
        r = rng.integers(0, 1 << 16, n, dtype=np.uint32).astype(np.uint16)
        r[:6] = [0x7FC0, 0x7F80, 0xFF80, 0x8000, 0x0001, 0x7F7F]
        return r
    if name == "i16":
        r = rng.integers(-(1 << 15), 1 << 15, n).astype(np.int16)
        r[:3] = [-32768, 32767, 0]
        return r
    r = rng.integers(0, 256, n).astype(np.uint8)
    r[:2] = [0, 255]
    return r


def text(name, bits, digits):
    if name in ("i16", "ui8"):
        return [str(int(x)) for x in bits]
    if name == "f32":
        f = bits.view(np.float32).astype(np.float64)
    elif name == "f16":
        f = bits.view(np.float16).astype(np.float64)
    else:
        f = bf16_to_f64(bits)
    out = []
    for x in f:
        if np.isnan(x):
            out.append("nan")
        elif np.isinf(x):
            out.append("-inf" if x < 0 else "inf")
        elif x == 0:
            out.append("-0" if np.signbit(x) else "0")
        else:
            out.append("%.*g" % (digits, x))
    return out


def readback(name, s):
    x = float(s)
    if name == "f32":
        return np.array([x], dtype=np.float32).view(np.uint32)[0]
    if name == "f16":
        return np.array([x], dtype=np.float16).view(np.uint16)[0]
    # bf16: nearest, ties to even, from the f64 value (exact through f32 here: the
    # printed value has at most 4 digits, far from a bf16 tie)
    u = np.array([x], dtype=np.float32).view(np.uint32)[0]
    return np.uint16((int(u) + 0x7FFF + ((int(u) >> 16) & 1)) >> 16)


def main():
    ptoc, kernel, target, work = sys.argv[1:5]
    rng = np.random.default_rng(2)
    os.makedirs(work, exist_ok=True)
    cmd = [ptoc, "run", kernel, "--target", target]
    want, data = [], {}
    for arg, name, r, c, digits in TILES:
        bits = values(rng, name, r * c)
        data[arg] = (name, bits)
        path = os.path.join(work, arg + ".bin")
        bits.tofile(path)
        cmd += ["--in", "%s=%s" % (arg, path)]
        want.append("tile %s %dx%d" % (name, r, c))
        t = text(name, bits, digits)
        want += [" ".join(t[i * c:(i + 1) * c]) for i in range(r)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE)
    if p.returncode:
        print("tprint_check: ptoc run failed (%d)" % p.returncode)
        return 1
    got = p.stdout.decode().split("\n")
    if got[-1] == "":
        got.pop()
    bad = sum(1 for i in range(max(len(got), len(want)))
              if i >= len(got) or i >= len(want) or got[i] != want[i])
    # read back: every printed float names the bits loaded
    rb = 0
    line = 0
    for arg, name, r, c, digits in TILES:
        line += 1
        _, bits = data[arg]
        if name in ("f32", "f16", "bf16"):
            for i in range(r):
                for j, s in enumerate(got[line + i].split(" ") if line + i < len(got) else []):
                    if s == "nan":
                        continue
                    rb += readback(name, s) != bits[i * c + j]
        line += r
    print("tprint_check: %s: %d of %d lines differ, %d values do not read back"
          % (target, bad, len(want), rb))
    return 1 if bad or rb else 0


if __name__ == "__main__":
    sys.exit(main())
