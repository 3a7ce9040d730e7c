"""exact.py: the exact reference of each Qwen3 decode kernel, bit for bit.

Written from what each kernel's .pto computes under docs/semantics.md, independently of
ptoc and of PTOAS's goldens (which compute in numpy's own order and are checked only
within a tolerance). Each reference takes the GM buffers as the kernel receives them
(raw numpy arrays: bf16 as uint16 bit patterns) and the scalar arguments, and returns
the expected final contents of every buffer the kernel writes.

Arithmetic, each a single correctly rounded step (numpy float32 + - * / sqrt are; a
float64 value is rounded once to f32 by astype):
  * matmul (semantics.md §6.3): per output element, acc = +0 then for k = 0, 1, ...
    acc = round_f32(acc + a_k * b_k); the product of two bf16/f16 values is exact in
    float64 and a sum of two values of at most 24 significant bits is exact enough in
    float64 for its one rounding to f32 to be the correctly rounded sum (53 >= 2*24+2).
  * f32 -> bf16: round to nearest, ties to even (tcvt RINT), validation_runtime's.
"""
import numpy as np

from validation_runtime import float32_to_bf16 as f32_to_bf16  # noqa: F401 (nearest even)

HIDDEN = 8192
INTER = 25600


def bf16_f64(bits):
    """bf16 bit patterns -> float64 values (exact)."""
    b = np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)
    return b.view(np.float32).astype(np.float64)


def grid(flat, offset, rows, cols, row_stride):
    """rows x cols block of a flat buffer (a copy), row r at offset + r * row_stride."""
    idx = offset + np.arange(rows)[:, None] * row_stride + np.arange(cols)[None, :]
    if offset < 0 or idx[-1, -1] >= flat.size:
        raise ValueError("reference block outside its buffer")
    return flat[idx]


def put(flat, block, offset, row_stride):
    rows, cols = block.shape
    idx = offset + np.arange(rows)[:, None] * row_stride + np.arange(cols)[None, :]
    flat[idx] = block


def mmad_seq(a, b, acc=None):
    """C = A . B with one f32 rounding per k step in increasing k (a, b float64 holding
    values whose products are exact in float64); acc: the starting f32 accumulator."""
    m, k = a.shape
    k2, n = b.shape
    assert k == k2
    c = np.zeros((m, n), dtype=np.float32) if acc is None else acc.astype(np.float32).copy()
    for q in range(k):
        c = (c.astype(np.float64) + a[:, q:q + 1] * b[q:q + 1, :]).astype(np.float32)
    return c


# ---- cube kernels ------------------------------------------------------------------

def k9(buf, s):
    """out[16x64] f32 = A[b0 : b0+16, 0:8192] . W[0:8192, o0 : o0+64] (bf16 in GM)."""
    b0, o0 = s
    a = bf16_f64(grid(buf["v1"], b0 * HIDDEN, 16, HIDDEN, HIDDEN))
    w = bf16_f64(grid(buf["v2"], o0, HIDDEN, 64, HIDDEN))
    return {"v3": mmad_seq(a, w).reshape(-1)}


def k12(buf, s):
    """out[16x256] f32 = X[0:16, 0:8192] . W[0:8192, o0 : o0+256], W 8192 x 25600."""
    (o0,) = s
    x = bf16_f64(grid(buf["v1"], 0, 16, HIDDEN, HIDDEN))
    w = bf16_f64(grid(buf["v2"], o0, HIDDEN, 256, INTER))
    return {"v3": mmad_seq(x, w).reshape(-1)}


def k15(buf, s):
    """out[16x128] f32 = M[0:16, 0:25600] . W[0:25600, d0 : d0+128], W 25600 x 8192."""
    (d0,) = s
    m = bf16_f64(grid(buf["v1"], 0, 16, INTER, INTER))
    w = bf16_f64(grid(buf["v2"], d0, INTER, 128, HIDDEN))
    return {"v3": mmad_seq(m, w).reshape(-1)}


REFS = {
    "qwen3_decode_incore_9": k9,
    "qwen3_decode_incore_12": k12,
    "qwen3_decode_incore_13": k12,
    "qwen3_decode_incore_15": k15,
}
