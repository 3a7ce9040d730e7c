"""blocks_ref.py: inputs and the numpy reference of blocks.pto / blocks_arg.pto.

  blocks_ref.py gen FILE            a 256x64 f32 input (seed 18), values in [-40, 40)
  blocks_ref.py check X Y N REV     Y against x*x + 0.5 (f32, rounded per operation as
                                    numpy does) for the first N groups of 8 rows, the
                                    groups in reverse order (group b at N-1-b) when
                                    REV is 1, zeros elsewhere; bit for bit
"""
import sys

import numpy as np

if sys.argv[1] == "gen":
    rng = np.random.default_rng(18)
    rng.uniform(-40, 40, (256, 64)).astype(np.float32).tofile(sys.argv[2])
    sys.exit(0)
x = np.fromfile(sys.argv[2], np.float32).reshape(256, 64)
y = np.fromfile(sys.argv[3], np.float32).reshape(256, 64)
n, rev = int(sys.argv[4]), sys.argv[5] == "1"
want = np.zeros_like(x)
for b in range(n):
    r = n - 1 - b if rev else b
    want[8 * r:8 * r + 8] = x[8 * b:8 * b + 8] * x[8 * b:8 * b + 8] + np.float32(0.5)
bad = int(np.count_nonzero(want.view(np.uint32) != y.view(np.uint32)))
print("blocks_ref: %d blocks: %d of %d elements differ" % (n, bad, y.size))
sys.exit(1 if bad else 0)
