"func.func"() <{function_type = (!pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>) -> (), sym_name = "k"}> ({
^bb0(%a: !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, %b: !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>):
  "pto.tcvt"(%a, %b, %b, %b) : (!pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>) -> ()
  "func.return"() : () -> ()
}) : () -> ()
