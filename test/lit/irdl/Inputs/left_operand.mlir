"func.func"() <{function_type = (!pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, !pto.tile_buf<"right", f16, 16, 16, 16, 16, "row_major", "col_major", 512, 0, 0>, !pto.tile_buf<"acc", f32, 16, 16, 16, 16, "col_major", "row_major", 1024, 0, 0>) -> (), sym_name = "k"}> ({
^bb0(%a: !pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, %b: !pto.tile_buf<"right", f16, 16, 16, 16, 16, "row_major", "col_major", 512, 0, 0>, %c: !pto.tile_buf<"acc", f32, 16, 16, 16, 16, "col_major", "row_major", 1024, 0, 0>):
  "pto.tmatmul"(%a, %b, %c) : (!pto.tile_buf<"vec", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>, !pto.tile_buf<"right", f16, 16, 16, 16, 16, "row_major", "col_major", 512, 0, 0>, !pto.tile_buf<"acc", f32, 16, 16, 16, 16, "col_major", "row_major", 1024, 0, 0>) -> ()
  "func.return"() : () -> ()
}) : () -> ()
