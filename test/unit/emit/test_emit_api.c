/* test_emit_api.c: ptoc_module_emit_c through include/ptoc only: a tile kernel is
 * lowered and printed as C naming the runtime calls and the target's UB size; a
 * bad target and an unlowerable op are reported through the handler, never printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptoc/ptoc.h"

static unsigned ndiags;
static char text[1 << 16];
static size_t ntext;

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg,
		    size_t len)
{
	(void)user;
	(void)sev;
	(void)loc;
	(void)msg;
	(void)len;
	ndiags++;
}

static int collect(void *user, const char *data, size_t len)
{
	(void)user;
	if (ntext + len >= sizeof text)
		return -1;
	memcpy(text + ntext, data, len);
	ntext += len;
	text[ntext] = 0;
	return 0;
}


static const char kernel[] =
	"func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f16>) {\n"
	"  %c0 = arith.constant 0 : index\n"
	"  %c1 = arith.constant 1 : index\n"
	"  %c16 = arith.constant 16 : index\n"
	"  %c32 = arith.constant 32 : index\n"
	"  %sv = pto.make_tensor_view %src, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>\n"
	"  %dv = pto.make_tensor_view %dst, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>\n"
	"  %sp = pto.partition_view %sv, offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x32xf32>\n"
	"  %dp = pto.partition_view %dv, offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x32xf16>\n"
	"  %x = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
	"  %h = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
	"  pto.tload ins(%sp : !pto.partition_tensor_view<16x32xf32>) outs(%x : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
	"  pto.tcvt ins(%x : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%h : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
	"  pto.tstore ins(%h : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%dp : !pto.partition_tensor_view<16x32xf16>)\n"
	"  return\n"
	"}\n";

static ptoc_module *parse(ptoc_context *ctx, const char *src)
{
	ptoc_module *m = ptoc_parse(ctx, src, strlen(src), "k.pto");
	CHECK(m != NULL);
	if (m)
		CHECK(ptoc_module_verify(m) == 0);
	return m;
}

int main(void)
{
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);

	m = parse(ctx, kernel);
	ntext = 0;
	CHECK(m && ptoc_module_emit_c(m, "a5", collect, NULL) == 0);
	CHECK(strstr(text, "target a5") != NULL);
	CHECK(strstr(text, "262144u") != NULL); /* A5 UB */
	CHECK(strstr(text, "void k(ptort_ctx *ctx, void *src, uint64_t src_elems, void *dst, uint64_t dst_elems)") != NULL);
	/* the default pipeline synchronises the pipes (insert-sync), and fuse-dma fuses the
	 * load with the conversion across the flag between them (the fused instruction on
	 * V, where the conversion was) */
	CHECK(strstr(text, "ptort_sync_set(") != NULL);
	CHECK(strstr(text, "ptort_dma_load_cvt(") != NULL);
	CHECK(strstr(text, "ptort_vconv_v(") == NULL);
	CHECK(strstr(text, "ptort_dma_store(") != NULL);
	CHECK(ndiags == 0);

	/* without insert-sync, fuse-dma fuses the load with the whole-tile conversion */
	m = parse(ctx, kernel);
	ntext = 0;
	{
		ptoc_compile_opts o = {0};
		o.target = "a5";
		o.pipeline = "inline,check-cube,legalize-cvt,bufferize,place-tiles,split-repeats,"
			     "fuse-dma";
		o.output = PTOC_OUTPUT_C;
		CHECK(m && ptoc_module_compile(m, &o, collect, NULL) == 0);
	}
	CHECK(strstr(text, "ptort_dma_load_cvt(") != NULL);
	CHECK(strstr(text, "ptort_vconv_v(") == NULL);

	m = parse(ctx, kernel);
	ntext = 0;
	{
		ptoc_compile_opts o = {0};
		o.pipeline = "inline,check-cube,legalize-cvt,bufferize,place-tiles,split-repeats,"
			     "fuse-dma";
		o.output = PTOC_OUTPUT_C;
		CHECK(m && ptoc_module_compile(m, &o, collect, NULL) == 0);
	}
	CHECK(strstr(text, "target a2a3") != NULL);
	/* the repeat form's run of vconv fuses with the load as well */
	CHECK(strstr(text, "ptort_dma_load_cvt(") != NULL);
	CHECK(strstr(text, "ptort_vconv(") == NULL);

	m = parse(ctx, kernel);
	ntext = 0;
	CHECK(m && ptoc_module_emit_c(m, "a9", collect, NULL) == -1);
	CHECK(ntext == 0 && ndiags == 1);

	m = parse(ctx, "func.func @f() {\n  %f = arith.constant 1.0 : f8E4M3FN\n  return\n}\n");
	ntext = 0;
	ndiags = 0;
	CHECK(m && ptoc_module_emit_c(m, NULL, collect, NULL) == -1);
	CHECK(ndiags == 1);

	ptoc_context_destroy(ctx);
	return check_report("test_emit_api");
}
