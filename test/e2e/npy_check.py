#!/usr/bin/python3
"""npy_check.py: .npy files for `ptoc run`'s tests, written and read by numpy itself.

  npy_check.py gen TYPE SHAPE ORDER SEED OUT.npy OUT.bin
      random elements of TYPE (bit patterns; 4-bit types 0..15 one per byte) as an
      array of SHAPE ("16x32") in C or F order saved by numpy.save, and the same
      buffer in the GM layout ptoc run reads from a raw file (C order, little-endian,
      4-bit elements packed two per byte, element 2k in the low nibble)
  npy_check.py same TYPE SHAPE FILE.npy RAW.bin
      FILE.npy (numpy.load) has TYPE's dtype and SHAPE, and its elements in the GM
      layout are RAW.bin's bytes; prints "same"
  npy_check.py bad KIND BASE.npy OUT.npy
      a broken copy of BASE.npy: magic, version, header-cut, malformed, structured,
      data-cut, long, big (a huge shape), nibble (element 5 is 0x1F)
  npy_check.py save DTYPE SHAPE OUT.npy [fortran]
      a zero array of a numpy DTYPE ("float64", ">f4")

The dtype of each ptoc type is docs/runtime.md's "NumPy files" table, restated here.
"""
import sys

import numpy as np

DTYPE = {"f32": "<f4", "f16": "<f2", "bf16": "<u2", "f8E4M3FN": "u1", "f8E5M2": "u1",
         "hif8": "u1", "f4E2M1FN": "u1", "f4E1M2": "u1", "f8E8M0FNU": "u1", "i4": "u1",
         "i8": "i1", "i16": "<i2", "i32": "<i4", "i64": "<i8", "ui8": "u1", "ui16": "<u2",
         "ui32": "<u4", "ui64": "<u8"}
FOUR = ("f4E2M1FN", "f4E1M2", "i4")


def shape_of(s):
    return tuple(int(x) for x in s.split("x")) if s else ()


def gm_bytes(t, a):
    flat = np.ascontiguousarray(a).reshape(-1)
    if t in FOUR:
        if flat.size % 2:
            flat = np.concatenate([flat, np.zeros(1, np.uint8)])
        return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8).tobytes()
    return flat.tobytes()


def gen(t, shape, order, seed, npy, raw):
    rng = np.random.default_rng(int(seed))
    dt = np.dtype(DTYPE[t])
    n = int(np.prod(shape))
    hi = 16 if t in FOUR else 1 << (8 * dt.itemsize)
    bits = rng.integers(0, hi, size=n, dtype=np.uint64).astype("<u%d" % dt.itemsize)
    a = bits.view(dt).reshape(shape)
    np.save(npy, np.asfortranarray(a) if order == "F" else a)
    with open(raw, "wb") as f:
        f.write(gm_bytes(t, a))


def same(t, shape, npy, raw):
    a = np.load(npy)
    if a.dtype != np.dtype(DTYPE[t]) or a.shape != shape:
        print("npy_check: %s is %s %s, expected %s %s" % (npy, a.dtype.str, a.shape,
                                                          np.dtype(DTYPE[t]).str, shape))
        return 1
    with open(raw, "rb") as f:
        want = f.read()
    got = gm_bytes(t, a)
    if got != want:
        k = next(i for i in range(min(len(got), len(want))) if got[i] != want[i]) \
            if len(got) == len(want) else -1
        print("npy_check: %s differs from %s (byte %d; %d and %d bytes)" % (npy, raw, k,
                                                                          len(got), len(want)))
        return 1
    print("same")
    return 0


def bad(kind, base, out):
    b = open(base, "rb").read()
    hlen = b[8] | b[9] << 8
    head, data = b[:10 + hlen], b[10 + hlen:]
    if kind == "magic":
        b = b"\x93NUMPZ" + b[6:]
    elif kind == "version":
        b = b[:6] + b"\x04\x00" + b[8:]
    elif kind == "header-cut":
        b = b[:20]
    elif kind == "malformed":
        b = head.replace(b"'shape'", b"'shapf'") + data
    elif kind == "structured":
        txt = "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (16, 32), }"
        b = header(txt) + data
    elif kind == "data-cut":
        b = b[:-3]
    elif kind == "long":
        b = b + b"\0"
    elif kind == "nibble":  # element 5 of a 4-bit array out of 0..15
        b = head + data[:5] + b"\x1f" + data[6:]
    elif kind == "big":
        txt = "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 1000000000), }"
        b = header(txt) + data
    else:
        raise SystemExit("npy_check: unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(b)


def header(txt):
    pad = (64 - (10 + len(txt) + 1) % 64) % 64
    h = (txt + " " * pad + "\n").encode()
    return b"\x93NUMPY\x01\x00" + bytes([len(h) & 0xFF, len(h) >> 8]) + h


def main(a=None):
    """a: the command line's arguments (default sys.argv[1:], as test/e2e/each.py runs it)"""
    a = sys.argv[1:] if a is None else a
    if len(a) >= 7 and a[0] == "gen":
        gen(a[1], shape_of(a[2]), a[3], a[4], a[5], a[6])
        return 0
    if len(a) == 5 and a[0] == "same":
        return same(a[1], shape_of(a[2]), a[3], a[4])
    if len(a) == 4 and a[0] == "bad":
        bad(a[1], a[2], a[3])
        return 0
    if len(a) >= 4 and a[0] == "save":
        z = np.zeros(shape_of(a[2]), np.dtype(a[1]))
        np.save(a[3], np.asfortranarray(z) if a[4:] == ["fortran"] else z)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
