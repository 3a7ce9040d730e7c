#!/usr/bin/env python3
"""many_cvt.py N: a kernel of N load / convert (f32 -> f16, RINT) / store groups, each
on its own 16x32 rows of x and y (insert_sync/many_cvt.test). place-tiles reuses the
tiles' bytes from group to group, so consecutive groups depend on each other through
UB: thousands of dependences between thousands of ops, as in run/cvt_sweep.test."""
import sys

n = int(sys.argv[1])
T32 = ("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, "
       "blayout=row_major, slayout=none_box, fractal=512, pad=0>")
T16 = T32.replace("f32", "f16")
L = ["module {",
     "  func.func @many(%x: !pto.ptr<f32>, %y: !pto.ptr<f16>) attributes {pto.entry} {",
     "    %c0 = arith.constant 0 : index",
     "    %c1 = arith.constant 1 : index",
     "    %c16 = arith.constant 16 : index",
     "    %c32 = arith.constant 32 : index",
     "    %%cr = arith.constant %d : index" % (16 * n),
     "    %vx = pto.make_tensor_view %x, shape = [%cr, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>",
     "    %vy = pto.make_tensor_view %y, shape = [%cr, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>"]
for k in range(n):
    L += ["    %%r%d = arith.constant %d : index" % (k, 16 * k),
          "    %%px%d = pto.partition_view %%vx, offsets = [%%r%d, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x32xf32>" % (k, k),
          "    %%py%d = pto.partition_view %%vy, offsets = [%%r%d, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x32xf16>" % (k, k),
          "    %%a%d = pto.alloc_tile : %s" % (k, T32),
          "    %%h%d = pto.alloc_tile : %s" % (k, T16),
          "    pto.tload ins(%%px%d : !pto.partition_tensor_view<16x32xf32>) outs(%%a%d : %s)" % (k, k, T32),
          "    pto.tcvt ins(%%a%d {rmode = #pto<round_mode RINT>} : %s) outs(%%h%d : %s)" % (k, T32, k, T16),
          "    pto.tstore ins(%%h%d : %s) outs(%%py%d : !pto.partition_tensor_view<16x32xf16>)" % (k, T16, k)]
L += ["    return", "  }", "}", ""]
sys.stdout.write("\n".join(L))
