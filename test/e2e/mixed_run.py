#!/usr/bin/env python3
"""mixed_run.py PTOC CORPUS WORK: the mixed cube/vector kernels of the PTOAS corpus
(test/lit/Inputs/corpus-mixed.txt) that have GM arguments, run by `ptoc run` as
clusters and compared with a numpy model of each, written here from what the kernel
says (docs/semantics.md §8.9): the cube's matmul, the split of its tile between the two
vector cores (split 1 rows, 2 columns, 0 the whole tile to vector core 0 only), every
FIFO round, each vector core's half. Inputs are small integers, so every f32 sum is
exact and numpy's matmul is the hardware's. tprint text is compared value by value in
the order the cluster's fixed schedule prints it (each kernel's model says it); every
kernel without GM outputs also runs as 3 clusters on 1, 2 and 4 threads with the same
text. Kernels with sections of one kind and no FIFO (issue428) take pto_ref's
interpreter, with the section run once, as their model.
Prints one line per kernel (PASS / FAIL) and exits 1 on a failure."""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pto_ref  # noqa: E402


def ints(rng, shape, lo=-3, hi=4):
    return rng.integers(lo, hi, size=shape).astype(np.float32)


def bf16_bits(x):
    """small integers are exact in bf16: its bits are the f32's upper half"""
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def parse_prints(text):
    """tprint text -> list of arrays"""
    tiles, cur = [], None
    for ln in text.splitlines():
        if ln.startswith("tile "):
            r, c = (int(x) for x in ln.split()[2].split("x"))
            cur = []
            tiles.append((r, c, cur))
        elif cur is not None and ln.strip():
            cur.append([float(x) for x in ln.split()])
    return [np.array(rows, dtype=np.float64).reshape(r, c) for r, c, rows in tiles]


# Each case: rel, target, make(rng) -> (inputs {arg: array}, outputs {arg: expected},
# prints [expected arrays in print order]).
def test1(rng):  # a@b, split 1: AIV0 prints rows 0-7, AIV1 rows 8-15
    a, b = ints(rng, (16, 16)), ints(rng, (16, 16))
    c = a @ b
    return {"gm_a": a, "gm_b": b}, {}, [c[:8], c[8:]]


def test2(rng):  # 4 rounds of a@b_i; the cube pushes all 4 (8 slots), then AIV0, AIV1 pop
    a, b = ints(rng, (16, 16)), ints(rng, (64, 16))
    cs = [a @ b[16 * i:16 * i + 16] for i in range(4)]
    return {"gm_a": a, "gm_b_all": b}, {}, [c[:8] for c in cs] + [c[8:] for c in cs]


def test3(rng):  # split 0: AIV0 sends src, the cube returns src@identity, AIV0 prints it
    s, m = ints(rng, (16, 16)), ints(rng, (16, 16))
    return {"gm_src": s, "gm_identity": m}, {}, [s @ m]


def test4(rng):  # out[8s:8s+8, 128i:128i+128] += (lhs@rhs) half s of round i
    lhs, rhs, out = ints(rng, (16, 64)), ints(rng, (64, 512)), ints(rng, (16, 512))
    want = out + lhs @ rhs
    return ({"gm_out": out, "gm_lhs": bf16_bits(lhs), "gm_rhs": bf16_bits(rhs)},
            {"gm_out": want}, [])


def roundtrip_nosplit(rng):  # AIV0: src -> cube (src@m) -> AIV0 -> gm_out
    s, m, out = ints(rng, (16, 16)), ints(rng, (16, 16)), ints(rng, (16, 16))
    return {"gm_src": s, "gm_identity": m, "gm_out": out}, {"gm_out": s @ m}, []


# The A2A3 GM slot buffer as pto-isa's A2A3 TPipe lays it out (include/pto/npu/a2a3/
# TPush.hpp; docs/semantics.md §8.9), written here from that rule: one ring of
# slot_num slots of slot_size bytes per direction at the buffer's start; a pipe of both
# directions puts the vector-to-cube ring right after the cube-to-vector one; slot k at
# ring + k * slot_size holds the cube's whole tile row-major (row stride = its valid
# columns); a vector core's part under split 1 starts sub * part rows * cols elements
# in, under split 2 sub * part cols elements in with the row stride twice its columns;
# no offset per block (a kernel that runs several blocks offsets the buffer itself).
def slot_ring(dir_mask, direction, slot_size, slot_num):
    """byte offset of a direction's ring (0 cube to vector, 1 vector to cube)"""
    return slot_num * slot_size if direction == 1 and dir_mask == 3 else 0


def slot_write(buf, byte_off, tile, split=0, sub=0):
    """writes `tile` (a 2-D f32 array: the cube's whole tile, or vector core sub's part)
    into the slot at byte_off of the f32 array buf"""
    r, c = tile.shape
    e0, stride = byte_off // 4, c
    if split == 1:
        e0 += sub * r * c
    elif split == 2:
        e0, stride = e0 + sub * c, 2 * c
    for i in range(r):
        buf[e0 + i * stride:e0 + i * stride + c] = tile[i]


def a3_test1(rng):
    """A2A3 through the GM slot buffer; split 0: AIV0 prints all of a@b. One cluster
    uses slot 0 of its 8 x 1 KiB ring; three clusters share the buffer (the kernel does
    not offset it by block), which BLOCKS_ERR expects as a race between blocks"""
    a, b = ints(rng, (16, 16)), ints(rng, (16, 16))
    slots = np.zeros(2048, dtype=np.float32)  # 8 slots x 1 KiB
    return {"gm_a": a, "gm_b": b, "gm_slot_buffer": slots}, {}, [a @ b]


def lowering_a3(rng):
    """a cube and a vector function without an entry: one cluster (semantics.md §8.9).
    Both directions (dir_mask 3) through the GM slot buffer, split 0 (vector core 0
    only), 4 slots of 1 KiB per ring (reserve_buffer 4096 / slot_size 1024). The cube
    pushes its acc tile and the vector core its vec tile, both never written (on-chip
    memory starts zero): slot 0 of each ring becomes 16 x 16 zero f32, the rest of the
    buffer stays as it was"""
    g = rng.standard_normal(4 * 4096).astype(np.float32)
    want = g.copy()
    zero = np.zeros((16, 16), np.float32)
    slot_write(want, slot_ring(3, 0, 1024, 4), zero)
    slot_write(want, slot_ring(3, 1, 1024, 4), zero)
    return {"gm_slot_buffer": g}, {"gm_slot_buffer": want}, []


def lowering_a3_a5(rng):
    """the same kernel on A5: PTOAS lowers the pipe inits to on-chip pipes without the
    GM slot buffer, so the buffer stays as it was"""
    g = rng.standard_normal(4 * 4096).astype(np.float32)
    return {"gm_slot_buffer": g}, {"gm_slot_buffer": g.copy()}, []


class SectionInterp(pto_ref.Interp):
    """pto_ref's interpreter for a kernel whose sections are of one kind (no FIFO):
    a cube section runs once (the cube core); get_block_idx / _num are cluster 0 of 1"""

    def op_pto_section_cube(self, op, ins, env):
        self.block(op.regions[0][1], env)

    def op_pto_get_block_idx(self, op, ins, env):
        return 0

    def op_pto_get_block_num(self, op, ins, env):
        return 1


def issue428(rng):
    """the cube-only kernel through pto_ref (the reference interpreter of the corpus
    runs) with a cube section: arg0 = the f32 results of its matmul chains"""
    out = np.zeros((64, 64), np.float32)
    a1 = rng.integers(-2, 3, (64, 64)).astype(np.float16)
    a2 = rng.integers(-2, 3, (32, 32)).astype(np.float16)
    return {"arg0": out, "arg1": a1, "arg2": a2}, {"arg0": "pto_ref"}, [], {"arg3": 3}


def dynamic_valid(rng):
    """a vector section only: each vector core loads 32, then 33 elements into a tile
    of 32 columns (valid_col 33 > 32): the kernel's own error, located at its tload"""
    return ({"arg0": ints(rng, (64,)), "arg1": ints(rng, (64,))}, {}, [], {"argN": 64},
            "test_dynamic_valid_shape.pto:24:9: error: runtime error: dma_load: destination "
            "tile has shape 1x32 with valid region 1x33")


def issue481(rng):
    """A2A3 through a GM slot buffer the kernel offsets by its block itself (addptr);
    the vector kernel frees a slot it never popped: the FIFO protocol's error, at the
    free, on vector core 0 (the first core to reach it in the cluster's fixed order).
    arg0 is set_ffts's FFTS address (a memref in no address space: GM)"""
    return ({"arg0": np.zeros(256, np.int64), "arg1": np.zeros(4 * 4096, np.float32),
             "arg2": ints(rng, (16,)), "arg3": ints(rng, (16,))}, {}, [], {},
            "issue481_addptr_gm_slot_buffer.pto:25:5: error: runtime error: tfree_from_aic: "
            "no popped slot to free in the cube-to-vector FIFO of vector core 0 (0 popped, "
            "0 freed)")


def reserve_prefix(rng):
    """a reserve_buffer beside a copy through UB, no FIFO op: one core (semantics.md
    §8.9) copies arg0's 16x16x16 f16 (the memref form: dense row-major) to arg1"""
    a = rng.standard_normal((16, 16, 16)).astype(np.float16)
    return {"arg0": a, "arg1": np.zeros_like(a)}, {"arg1": a.copy()}, []


def dir_both(rng):
    """both directions, split 1, A5. Each vector core pushes its 16x16 vec tile (never
    written: on-chip memory starts zero) to the cube, which joins the two by rows into
    the 32x16 right operand, multiplies gm_a (16x32) by it and pushes the 16x16 result
    back by rows: vector core 0 prints rows 0-7, core 1 rows 8-15. The cube function
    has the GM arguments, the vector function none: one cluster (semantics.md §8.9)"""
    a, b = ints(rng, (16, 32)), ints(rng, (16, 32))
    right = np.concatenate([np.zeros((16, 16), np.float32), np.zeros((16, 16), np.float32)])
    c = a @ right
    return {"gm_a": a, "gm_b": b}, {}, [c[:8], c[8:]]


def emitc_l2g2l(rng):
    """explicit l2g2l pipes of 8 slots of 1 KiB through a GM slot buffer of 256 f32
    (1 KiB): the cube's push needs the cube-to-vector ring, 8 slots x 1 KiB from the
    buffer's start, a located runtime error at the push (the kernel also pushes without
    a split what the vector cores pop by rows; PTOAS's file checks only the C it emits)"""
    lo = slot_ring(1, 0, 1024, 8)
    return ({"gm_slot_buffer": np.zeros(256, np.float32)}, {}, [], {"c2v_consumer_buf": 0},
            "tpush_tpop_emitc.pto:14:5: error: runtime error: tpush_to_aiv: the GM slot "
            "buffer holds 1024 bytes; the cube-to-vector FIFO's 8 slots of 1024 bytes need "
            "bytes [%d, %d)" % (lo, lo + 8 * 1024))


CASES = [
    ("samples/TPushTPop/test1/kernel.pto", "a5", test1),
    ("samples/TPushTPop/test2/kernel.pto", "a5", test2),
    ("samples/TPushTPop/test3/kernel.pto", "a5", test3),
    ("samples/TPushTPop/test4/kernel.pto", "a5", test4),
    ("basic/test_tpush_tpop_roundtrip_nosplit_a5.pto", "a5", roundtrip_nosplit),
    ("samples/TPushTPop/a3/test1/kernel.pto", "a2a3", a3_test1),
    ("basic/tpush_tpop_frontend_lowering_a3.pto", "a2a3", lowering_a3),
    ("basic/tpush_tpop_frontend_lowering_a3.pto", "a5", lowering_a3_a5),
    ("basic/issue428_cube_sync_regression.pto", "a2a3", issue428),
    ("basic/issue428_cube_sync_regression.pto", "a5", issue428),
    ("samples/Sync/test_dynamic_valid_shape.pto", "a2a3", dynamic_valid),
    ("samples/Sync/test_dynamic_valid_shape.pto", "a5", dynamic_valid),
    ("basic/issue481_addptr_gm_slot_buffer.pto", "a2a3", issue481),
    ("basic/plan_memory_reserve_buffer_prefix.pto", "a2a3", reserve_prefix),
    ("basic/plan_memory_reserve_buffer_prefix.pto", "a5", reserve_prefix),
    ("basic/tpush_tpop_dir_both.pto", "a5", dir_both),
    ("basic/tpush_tpop_emitc.pto", "a2a3", emitc_l2g2l),
]


# Kernels whose clusters share GM slots when run as several blocks (the buffer is not
# offset by block): --blocks 3 is a race between blocks, at the second cluster's pop.
BLOCKS_ERR = {
    "samples/TPushTPop/a3/test1/kernel.pto":
        "kernel.pto:72:18: error: GM race: block 1 reads bytes [0, 1024) of 'gm_slot_buffer', "
        "which block 0 writes",
}


def ref_outputs(ptoc, path, target, ins, outs, scalars):
    """the outputs marked "pto_ref": pto_ref's interpreter on the generic form"""
    p = subprocess.run([ptoc, path, "--target", target, "--emit=generic"], capture_output=True,
                       text=True)
    func = pto_ref.parse_module(p.stdout)[0]
    names = [a.lstrip("%") for a in func.regions[0][0]]
    gm = {i: np.ascontiguousarray(ins[n]).view(np.uint8).reshape(-1).copy()
          for i, n in enumerate(names) if n in ins}
    sc = {i: scalars[n] for i, n in enumerate(names) if n in scalars}
    SectionInterp(target, manual=True).run(func, gm, sc)
    for k in outs:
        i = names.index(k)
        outs[k] = gm[i].view(ins[k].dtype).reshape(ins[k].shape)


def run(ptoc, path, target, work, ins, outs, extra):
    cmd = [ptoc, "run", path, "--target", target] + extra
    for k, v in ins.items():
        f = os.path.join(work, "in_%s.npy" % k)
        np.save(f, v)
        cmd += ["--in", "%s=%s" % (k, f)]
    for k in outs:
        cmd += ["--out", "%s=%s" % (k, os.path.join(work, "out_%s.npy" % k))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    got = {k: np.load(os.path.join(work, "out_%s.npy" % k)) for k in outs} if not p.returncode else {}
    return p.returncode, p.stdout, p.stderr, got


def check(ptoc, corpus, rel, target, make, work):
    rng = np.random.default_rng(len(rel) * 7919 + sum(map(ord, rel)))
    case = make(rng)
    ins, outs, prints = case[:3]
    scalars = case[3] if len(case) > 3 else {}
    path = os.path.join(corpus, rel)
    if any(isinstance(v, str) for v in outs.values()):
        ref_outputs(ptoc, path, target, ins, outs, scalars)
    extra = sum((["--arg", "%s=%d" % kv] for kv in scalars.items()), [])
    rc, text, err, got = run(ptoc, path, target, work, ins, outs, extra)
    if len(case) > 4:
        return None if rc == 1 and case[4] in err else "expected the error %r, got %d: %s" % (
            case[4], rc, err.strip()[:300])
    if rc:
        return "ptoc run failed: " + err.strip()[:600]
    for k, want in outs.items():
        g = got[k].reshape(want.shape)
        if not np.array_equal(g.view(np.uint8), want.view(np.uint8)):
            bad = np.argwhere(g != want)[0]
            return "%s differs first at %s: %r, want %r" % (k, tuple(bad), g[tuple(bad)],
                                                             want[tuple(bad)])
    tiles = parse_prints(text)
    if len(tiles) != len(prints):
        return "%d tiles printed, the model prints %d" % (len(tiles), len(prints))
    for i, (g, w) in enumerate(zip(tiles, prints)):
        if g.shape != w.shape or not np.array_equal(g, w.astype(np.float64)):
            return "printed tile %d differs from the model" % i
    # 3 clusters on 1, 2 and 4 threads: the same text every time (no GM output is
    # compared here: the clusters of these kernels write the same bytes, a race)
    if outs:
        return None
    texts = set()
    for t in (1, 2, 4):
        rc, text3, err, _ = run(ptoc, path, target, work, ins, {},
                                ["--blocks", "3", "--threads", str(t)] + extra)
        if rel in BLOCKS_ERR:
            if rc != 1 or BLOCKS_ERR[rel] not in err:
                return "--blocks 3 --threads %d: expected %r, got %d: %s" % (
                    t, BLOCKS_ERR[rel], rc, err.strip()[:300])
            continue
        if rc:
            return "--blocks 3 --threads %d failed: %s" % (t, err.strip()[:300])
        texts.add(text3)
    if rel in BLOCKS_ERR:
        return None
    if len(texts) != 1 or text3 != text * 3:
        return "--blocks 3 prints differ between thread counts or from three single runs"
    return None


def main(argv):
    ptoc, corpus, work = argv[1:4]
    fails = 0
    for rel, target, make in CASES:
        w = os.path.join(work, rel.replace("/", "_"))
        os.makedirs(w, exist_ok=True)
        e = check(ptoc, corpus, rel, target, make, w)
        note = ": the expected runtime error" if not e and len(make(np.random.default_rng(0))) > 4 else ""
        print("%s %s %s%s" % ("FAIL" if e else "PASS", target, rel, ": " + e if e else note))
        fails += e is not None
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
