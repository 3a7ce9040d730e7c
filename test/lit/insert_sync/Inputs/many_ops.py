"""many_ops.py N: a kernel of N dependent tadds on one 16x64 f32 tile between a tload
and a tstore (insert_sync/many_deps.test)."""
import sys

n = int(sys.argv[1])
v = "!pto.partition_tensor_view<16x64xf32>"
t = "!pto.tile<16x64xf32>"
print("module {")
print("  func.func @many(%x: !pto.ptr<f32>) attributes {pto.entry} {")
for name, val in (("c0", 0), ("c1", 1), ("c16", 16), ("c64", 64)):
    print("    %%%s = arith.constant %d : index" % (name, val))
print("    %vx = pto.make_tensor_view %x, shape = [%c16, %c64], strides = [%c64, %c1]"
      " : !pto.tensor_view<?x?xf32>")
print("    %%px = pto.partition_view %%vx, offsets = [%%c0, %%c0], sizes = [%%c16, %%c64]"
      " : !pto.tensor_view<?x?xf32> -> %s" % v)
print("    %%t0 = pto.tload %%px : %s -> %s" % (v, t))
for i in range(n):
    print("    %%t%d = pto.tadd %%t%d, %%t%d : (%s, %s) -> %s" % (i + 1, i, i, t, t, t))
print("    pto.tstore %%t%d, %%px : %s, %s" % (n, t, v))
print("    return")
print("  }")
print("}")
