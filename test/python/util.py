"""Shared by the tests of the Python package: where ptoc and the corpus are, and the
C references the tests compare with (`ptoc cvt`, the runtime's ptort_cvt1)."""
import ctypes
import os
import subprocess

import numpy as np

import ptoc
from ptoc import _lib

PTOC = os.environ.get("PTOC_PY_EXE") or os.path.join(_lib.BINDIR, "ptoc")
SRC_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("PTOC_SHARED_DIR") or os.path.join(os.path.dirname(SRC_ROOT), "shared")
CORPUS = os.path.join(SHARED, "corpus", "ptoas")


def carrier(t):
    """The unsigned dtype of type t's bit patterns in arrays (4-bit: uint8)."""
    return np.dtype("u%d" % ptoc.dtype(t).itemsize)


def bits_of(t):
    return _lib.type_bits(ptoc._type(t)[0])


def ptoc_cvt(src, dst, values, rmode=None, sat=None, target=None):
    """`ptoc cvt` (one ptort_cvt1 per value, the generic reference path) of the bit
    patterns `values` (ints); a list of ints, or the error text (exit 1)."""
    cmd = [PTOC, "cvt", "--from", src, "--to", dst]
    if rmode is not None:
        cmd += ["--rmode", rmode]
    if sat is not None:
        cmd += ["--sat", sat]
    if target is not None:
        cmd += ["--target", target]
    p = subprocess.run(cmd, input="".join("0x%x\n" % v for v in values), capture_output=True,
                       text=True)
    if p.returncode:
        return p.stderr
    return [int(x, 16) for x in p.stdout.split()]


_cvt1 = _lib._proto(_lib.ptort, "ptort_cvt1", ctypes.c_uint64, ctypes.c_int, ctypes.c_int,
                    ctypes.c_uint64, ctypes.c_int, ctypes.c_int)
_check = _lib._proto(_lib.ptort, "ptort_cvt_check", ctypes.c_int, ctypes.c_int, ctypes.c_int,
                     ctypes.c_int)
_default_sat = _lib._proto(_lib.ptort, "ptort_cvt_default_sat", ctypes.c_int, ctypes.c_int,
                           ctypes.c_int)


def cvt1(src, dst, values, rmode, sat):
    """ptort_cvt1 (the runtime's slow generic reference) of each pattern; sat None:
    the pair's default."""
    s, d, m = ptoc._type(src)[0], ptoc._type(dst)[0], ptoc._rmode(rmode)
    if sat is None:
        sat = _default_sat(s, d)
    return [_cvt1(s, d, int(v), m, sat) for v in values]


def cvt_defined(src, dst, rmode):
    return _check(ptoc._type(src)[0], ptoc._type(dst)[0], ptoc._rmode(rmode)) == 0


def patterns(t, n, seed):
    """Bit patterns of type t as a carrier array: all of them up to 8 bits, else the
    special values of each width and n seeded random ones."""
    b = bits_of(t)
    if b <= 8:
        return np.arange(1 << b, dtype=np.uint8)
    rng = np.random.default_rng(seed)
    c = carrier(t)
    rand = rng.integers(0, 1 << min(b, 63), size=n, dtype=np.uint64)
    if b == 64:
        rand |= rng.integers(0, 2, size=n, dtype=np.uint64) << np.uint64(63)
    special = []
    if b == 16:
        special = [0, 0x8000, 1, 0x8001, 0x3FF, 0x400, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01,
                   0x3C00, 0xBC00, 0x7F7F, 0x7F80, 0xFF80, 0x7FC0, 0x0080, 0x007F, 0x3F80,
                   0x4B80, 0x4780, 0x5BF8, 0x5C00, 0x7FFF, 0xFFFF]
    elif b == 32:
        special = [0, 0x80000000, 1, 0x80000001, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
                   0x7FC00000, 0x7F800001, 0x3F800000, 0xBF800000, 0x477FE000, 0x477FF000,
                   0x477FEFFF, 0x47800000, 0x33800000, 0x33000000, 0x387FC000, 0x38800000,
                   0x3F808000, 0x3F818000, 0x3F800001, 0x43E00000, 0x43F00000, 0x47000000,
                   0x4F000000, 0x4F800000, 0xCF000000, 0x7FFFFFFF, 0xFFFFFFFF, 0x0000FFFF,
                   0x00008000, 0xFFFF8000, 0x00007FFF]
        # f32 values on f16 ties and just around them
        ties = rng.integers(0, 1 << 18, size=n // 4, dtype=np.uint64)
        rand = np.concatenate([rand, (np.uint64(0x38000000) + (ties << np.uint64(12)))
                               | np.uint64(0x1000)])
    elif b == 64:
        special = [0, 1, (1 << 64) - 1, 1 << 63, (1 << 63) - 1, 0x7FFFFFFF, 0x80000000,
                   0xFFFFFFFF80000000, 0x1000001, 0x20000001]
    out = np.concatenate([np.array(special, dtype=np.uint64), rand]).astype(c)
    return out
