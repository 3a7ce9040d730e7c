"""big_weight.py: inputs and the independent reference of big_weight.pto.

  big_weight.py gen W.bin             writes the 8192x8192 bf16 weight (random bits)
  big_weight.py check W.bin O.bin R C  O (16 x 512) must be, for k in 0..15, the
                                       16x32 block of W at rows R.., columns C+512k..
                                       in its columns 32k.., bit for bit (numpy slices)
"""
import sys

import numpy as np

N = 8192


def main():
    if sys.argv[1] == "gen":
        rng = np.random.default_rng(7)
        rng.integers(0, 1 << 16, size=N * N, dtype=np.uint16).tofile(sys.argv[2])
        return 0
    w = np.memmap(sys.argv[2], dtype=np.uint16, mode="r", shape=(N, N))
    o = np.fromfile(sys.argv[3], dtype=np.uint16)
    r, c = int(sys.argv[4]), int(sys.argv[5])
    if o.size != 16 * 512:
        print("output has %d elements, want %d" % (o.size, 16 * 512))
        return 1
    o = o.reshape(16, 512)
    want = np.concatenate([w[r:r + 16, c + 512 * k:c + 512 * k + 32] for k in range(16)], axis=1)
    bad = np.argwhere(o != want)
    if bad.size:
        i, j = bad[0]
        print("%d of %d elements differ; first at (%d, %d): %#06x, want %#06x"
              % (len(bad), o.size, i, j, o[i, j], want[i, j]))
        return 1
    print("big_weight: %d elements match (rows %d.., columns %d + 512 k)" % (o.size, r, c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
