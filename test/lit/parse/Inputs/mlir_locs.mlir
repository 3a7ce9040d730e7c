// A generator's module in MLIR's generic form with its locations, as
// mlir-opt --mlir-print-debuginfo writes them: loc(...) after ops and block arguments,
// the aliases after the module. Read by ../mlir_locations.test.
"builtin.module"() ({
  "func.func"() <{function_type = (!pto.tile<16x16xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: !pto.tile<16x16xf32> loc("model.py":3:1)):
    %0 = "pto.tcvt"(%arg0) {rmode = #pto<round_mode RINT>} : (!pto.tile<16x16xf32>) -> !pto.tile<16x16xf8E4M3FN> loc(#loc2)
    %1 = "pto.tcvt"(%arg0) {rmode = #pto<round_mode RINT>} : (!pto.tile<16x16xf32>) -> !pto.tile<16x16xf16> loc(unknown)
    %2 = "pto.tcvt"(%arg0) {rmode = #pto<round_mode RINT>} : (!pto.tile<16x16xf32>) -> !pto.tile<16x16xbf16>
    "func.return"() : () -> () loc(#loc3)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("model.py":1:1)
#loc1 = loc("model.py":2:5)
#loc2 = loc(callsite(#loc4 at #loc5))
#loc3 = loc("ret"("model.py":20:3))
#loc4 = loc("layers.py":12:7)
#loc5 = loc(fused[#loc1, "model.py":9:9])
