"""validation_runtime.py: the helper module PTOAS's per-kernel numpy goldens import.

PTOAS's Qwen3 decode goldens (`*_golden.py` and `qwen3_decode_golden_lib.py` in the
corpus) build a kernel's GM input buffers and its expected outputs with a few helpers
from a module `validation_runtime` that PTOAS's board-validation tool provides and the
corpus does not ship. This is ptoc's own version of that interface, written from what
the goldens call. The goldens are run in place from the corpus with this folder on
PYTHONPATH (run.py does that); nothing of them is copied here.

Where PTOAS's tool reads the case from the host program it generates, this module reads
`case.json` in the current directory (written by run.py from the kernel's signature):

    {"seed": 19,
     "buffers": [{"name": "v1", "dtype": "bf16", "elems": 131072}, ...],
     "scalars": [0, 64],
     "outputs": ["v3"]}

`buffers` are the kernel's GM pointer arguments in order (v1 = the first), `scalars` the
values of its integer/index arguments in order, `outputs` the buffers the kernel writes.

**[decision]** `float32_to_bf16` rounds to nearest, ties to even (NaN stays a quiet
NaN); PTOAS's helper keeps the high half of the f32 bits (truncation). The goldens
use it for their inputs (any bf16 values will do) and for their expected outputs,
which the goldens' own comparison allows one bf16 ulp from the device result, so
either choice passes a correct kernel; rounding is the one a numpy reader expects.
"""
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

import numpy as np

CASE_FILE = "case.json"
DEFAULT_SEED = 19

# GM element type -> the numpy dtype of its raw file (bf16 as its 16-bit patterns)
NP_TYPES = {
    "f32": np.float32, "f16": np.float16, "bf16": np.uint16, "f64": np.float64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
}


@dataclass
class CaseMeta:
    elem_counts: Dict[str, int]
    np_types: Dict[str, np.dtype]
    read_order: List[str]
    outputs: List[str] = field(default_factory=list)
    elem_types: Dict[str, str] = field(default_factory=dict)
    seed: int = DEFAULT_SEED
    scalars: List[int] = field(default_factory=list)

    @property
    def inputs(self) -> List[str]:
        return [n for n in self.read_order if n not in self.outputs]


def _read_case(path=CASE_FILE):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise SystemExit(f"validation_runtime: cannot read {path}: {e.strerror}")


def load_case_meta(case_file: str = CASE_FILE, *_unused) -> CaseMeta:
    case = _read_case(case_file)
    bufs = case["buffers"]
    for b in bufs:
        if b["dtype"] not in NP_TYPES:
            raise SystemExit(f"validation_runtime: element type {b['dtype']} has no numpy type")
    return CaseMeta(
        elem_counts={b["name"]: int(b["elems"]) for b in bufs},
        np_types={b["name"]: np.dtype(NP_TYPES[b["dtype"]]) for b in bufs},
        read_order=[b["name"] for b in bufs],
        outputs=list(case.get("outputs", [])),
        elem_types={b["name"]: b["dtype"] for b in bufs},
        seed=int(case.get("seed", DEFAULT_SEED)),
        scalars=[int(v) for v in case.get("scalars", [])],
    )


def load_int32_assignments(case_file: str = CASE_FILE) -> List[int]:
    """The kernel's scalar argument values, in argument order."""
    return [int(v) for v in _read_case(case_file).get("scalars", [])]


class _Drawn(np.ndarray):
    """What `_Generator.uniform` returns: an f32 array whose `astype(np.float32)` is the
    array itself. The goldens write `generator.uniform(...).astype(np.float32)`, which
    copies the 800 MiB draw of the largest weights for nothing; the draw is a
    temporary, so the copy changes no value (it was a third of the golden's time)."""

    def astype(self, dtype, *args, **kwargs):
        if np.dtype(dtype) == self.dtype and not args and not kwargs:
            return self.view(np.ndarray)
        return np.ndarray.astype(self.view(np.ndarray), dtype, *args, **kwargs)


class _Generator:
    """numpy's Generator (default_rng(seed)) whose `uniform` draws f32 values directly,
    in blocks: the weights of the largest goldens are 200 M elements, and drawing them
    as f64 first would double the memory the golden touches (2.4 GiB at once instead of
    1.6 for qwen3_decode_incore_15; first-touched memory is what the golden's time goes
    to on this kind of virtual machine). **[decision]** The inputs are any values in
    the golden's range: the golden computes its expected outputs from the same buffers,
    and the exact reference checks ptoc bit for bit on them."""

    def __init__(self, seed):
        self._g = np.random.default_rng(seed)

    def uniform(self, low=0.0, high=1.0, size=None):
        if size is None or np.ndim(low) or np.ndim(high):
            return self._g.uniform(low, high, size)
        out = np.empty(size, dtype=np.float32)
        flat, step = out.reshape(-1), 1 << 22
        lo, span = np.float32(low), np.float32(high - low)
        for i in range(0, flat.size, step):
            part = flat[i:i + step]
            self._g.random(part.size, dtype=np.float32, out=part)
            part *= span
            part += lo
        return out.view(_Drawn)

    def __getattr__(self, name):
        return getattr(self._g, name)


def rng():
    return _Generator(int(_read_case().get("seed", DEFAULT_SEED)))


def write_buffers(meta: CaseMeta, buffers: dict):
    """Every GM buffer the golden made, as `NAME.bin` with its element type."""
    for name in meta.read_order:
        if name in buffers:
            data = np.ascontiguousarray(np.asarray(buffers[name]).reshape(-1))
            _check_count(meta, name, data)
            data.astype(meta.np_types[name], copy=False).tofile(f"{name}.bin")


def write_golden(meta: CaseMeta, golden: dict):
    """The expected contents of each output buffer, as `golden_NAME.bin`."""
    for name, data in golden.items():
        data = np.ascontiguousarray(np.asarray(data).reshape(-1))
        if name in meta.np_types:
            _check_count(meta, name, data)
            data = data.astype(meta.np_types[name], copy=False)
        data.tofile(f"golden_{name}.bin")


def _check_count(meta, name, data):
    want = meta.elem_counts.get(name)
    if want is not None and data.size != want:
        raise SystemExit(f"validation_runtime: buffer {name} has {data.size} elements, "
                         f"the kernel's views hold {want}")


def bf16_to_float32(x) -> np.ndarray:
    """bf16 bit patterns (uint16) -> the f32 values they denote (exact)."""
    bits = np.asarray(x).astype(np.uint16, copy=False)
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def float32_to_bf16(x) -> np.ndarray:
    """f32 values -> bf16 bit patterns (uint16), rounded to nearest, ties to even.
    Works in blocks, in place in three block-sized buffers, so that a 400 MiB weight
    needs no full-size temporaries."""
    src = np.ascontiguousarray(np.asarray(x, dtype=np.float32))
    out = np.empty(src.shape, dtype=np.uint16)
    u_all, o_all = src.reshape(-1).view(np.uint32), out.reshape(-1)
    step = 1 << 18
    r_buf, m_buf, nan_buf = np.empty(step, np.uint32), np.empty(step, np.uint32), np.empty(step, bool)
    for lo in range(0, u_all.size, step):
        u = u_all[lo:lo + step]
        r, m, nan = r_buf[:u.size], m_buf[:u.size], nan_buf[:u.size]
        np.right_shift(u, np.uint32(16), out=r)      # (u + 0x7FFF + lsb) >> 16
        np.bitwise_and(r, np.uint32(1), out=r)
        r += np.uint32(0x7FFF)
        r += u
        r >>= np.uint32(16)
        np.bitwise_and(u, np.uint32(0x7FFFFFFF), out=m)
        np.greater(m, np.uint32(0x7F800000), out=nan)
        if nan.any():                                # NaN stays a quiet NaN
            r[nan] = (u[nan] >> np.uint32(16)) | np.uint32(0x0040)
        o_all[lo:lo + u.size] = r
    return out


def _strided_index(offset, rows, cols, row_stride, size):
    offset, rows, cols, row_stride = int(offset), int(rows), int(cols), int(row_stride)
    if rows <= 0 or cols <= 0:
        raise ValueError(f"strided block of {rows}x{cols} elements")
    last = offset + (rows - 1) * row_stride + cols - 1
    if offset < 0 or last >= size:
        raise ValueError(f"strided block [{offset}, {last}] outside a buffer of {size} elements")
    return offset + np.arange(rows)[:, None] * row_stride + np.arange(cols)[None, :]


def load_strided_2d(buf, offset, rows, cols, row_stride) -> np.ndarray:
    """rows x cols elements of a flat buffer, row r from offset + r * row_stride."""
    flat = np.asarray(buf).reshape(-1)
    return flat[_strided_index(offset, rows, cols, row_stride, flat.size)].copy()


def store_strided_2d(dst, src, offset, row_stride) -> np.ndarray:
    """Writes the 2-D src into dst (flat view) as load_strided_2d reads; returns dst."""
    src = np.asarray(src)
    if src.ndim != 2:
        raise ValueError("store_strided_2d: src must be 2-D")
    flat = np.asarray(dst).reshape(-1)
    flat[_strided_index(offset, src.shape[0], src.shape[1], row_stride, flat.size)] = src
    return flat.reshape(np.shape(dst))
