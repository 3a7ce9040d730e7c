"""cluster_slots.py gen|check DIR: inputs and an independent model of
cluster_blocks_a2a3.pto's outputs under --blocks 2. The GM slot buffer follows pto-isa's
A2A3 TPipe layout (docs/semantics.md §8.9), written here from that rule: a pipe of both
directions has one ring of slot_num slots of slot_size bytes per direction, the
cube-to-vector ring at the buffer's start and the vector-to-cube ring right after it;
slot k at ring + k * slot_size holds the cube's whole tile row-major; no offset per
block (the kernel offsets the buffer by 4 KiB per block itself). Untouched bytes keep
the buffer's fill (-1)."""
import sys

import numpy as np

SLOT, NUM, PER_BLOCK = 1024, 2, 4096  # bytes; per block: the two rings


def model(a, b, g):
    c = np.zeros((32, 16), np.float32)
    g = g.copy()
    for blk in range(2):
        x = a[16 * blk:16 * blk + 16]
        y = x @ b
        c[16 * blk:16 * blk + 16] = y
        base = blk * PER_BLOCK // 4                    # f32 index of the block's part
        c2v = base + 0 * SLOT // 4                     # slot 0 of the cube-to-vector ring
        v2c = base + NUM * SLOT // 4                   # slot 0 of the vector-to-cube ring
        g[c2v:c2v + 256] = y.reshape(-1)               # the cube's push: its whole tile
        for s in range(2):                             # the vector cores' split-2 parts:
            for r in range(16):                        # core s's 8 columns of each row
                g[v2c + 16 * r + 8 * s:v2c + 16 * r + 8 * s + 8] = x[r, 8 * s:8 * s + 8]
    return c, g


def main(mode, d):
    rng = np.random.default_rng(27)
    a = rng.integers(-3, 4, (32, 16)).astype(np.float32)
    b = rng.integers(-3, 4, (16, 16)).astype(np.float32)
    g = np.full(2 * PER_BLOCK // 4, -1, np.float32)
    if mode == "gen":
        a.tofile(d + "/a.bin"), b.tofile(d + "/b.bin"), g.tofile(d + "/g.bin")
        np.zeros((32, 16), np.float32).tofile(d + "/c.bin")
        return 0
    c, g = model(a, b, g)
    ok = True
    for n, want in (("c", c), ("g", g)):
        got = np.fromfile(d + "/%s_out.bin" % n, np.float32)
        if got.shape != want.reshape(-1).shape or (got != want.reshape(-1)).any():
            bad = np.argwhere(got != want.reshape(-1))
            print("%s differs at %s" % (n, bad[:4].ravel() if bad.size else "its size"))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
