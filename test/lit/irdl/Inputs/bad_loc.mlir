"func.func"() <{function_type = (!pto.tile_buf<"l1", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>) -> (), sym_name = "k"}> ({
^bb0(%a: !pto.tile_buf<"l1", f16, 16, 16, 16, 16, "row_major", "none_box", 512, 0, 0>):
  "func.return"() : () -> ()
}) : () -> ()
