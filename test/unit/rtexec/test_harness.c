/* test_harness.c: ptort_main, the `ptoc run` harness (ptort.h section 6), around
 * kernels written here: files in and out byte for byte, sizes from the table or from
 * the file (dynamic shapes, a pipe-like device), a kernel writing into a mapped
 * input-only buffer (the file stays as it was), every bad input (missing, short,
 * long file, a directory; unknown option or argument; missing or malformed scalar)
 * with its exit status and located message, a runtime error reported at the location
 * ptort_ctx_locate recorded that leaves the --out file unwritten, and outputs written
 * all or none. stderr goes to a file the test reads back. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "rtexec_ref.h"

static char dir[256], errpath[300];
static uint64_t seen_elems[3];
static int64_t seen_scalar;

static const uint32_t caps[PTORT_MEM_COUNT] = {4096, 0, 0, 0, 0, 0, 0};

static ptort_ctx *mk_ctx(void)
{
	return ptort_ctx_create(caps);
}

/* dst[i] = src[i] + n (u32), over the dst buffer's elements */
static void add_call(ptort_ctx *ctx, void *const buf[], const uint64_t elems[],
		     const int64_t scalar[])
{
	uint32_t *s = buf[0], *d = buf[1];
	uint64_t i;
	(void)ctx;
	seen_elems[0] = elems[0];
	seen_elems[1] = elems[1];
	seen_scalar = scalar[2];
	for (i = 0; i < elems[1] && i < elems[0]; i++)
		d[i] = s[i] + (uint32_t)scalar[2];
}

/* a kernel whose instruction fails: a DMA from a view past its buffer */
static void bad_call(ptort_ctx *ctx, void *const buf[], const uint64_t elems[],
		     const int64_t scalar[])
{
	const int64_t sh[2] = {4, 8}, st[2] = {8, 1};
	ptort_view v = ptort_view_tensor(buf[0], elems[0] - 1, 2, sh, st);
	ptort_gm_view g;
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_I32, 0, 0, 0, 16, 16, 4, 8, 512);
	(void)scalar;
	ptort_gm_view_init(&g, PTORT_I32, &v);
	ptort_ctx_locate(ctx, "k.pto", 6, 3); /* no error yet: nothing */
	ptort_dma_load(ctx, buf[0], &g, &t);
	ptort_ctx_locate(ctx, "k.pto", 7, 3);
	ptort_dma_load(ctx, buf[0], &g, &t); /* a second error: not its location */
	ptort_ctx_locate(ctx, "k.pto", 8, 3);
	((uint32_t *)buf[1])[0] = 1;
}

static const uint64_t dst_shape[2] = {2, 4};
static const ptort_main_arg add_args[3] = {
	{.name = "src", .bits = 32, .elems = 8, .file = "k.pto", .line = 2, .col = 14,
	 .type = PTORT_U32},
	{.name = "dst", .bits = 32, .elems = 8, .file = "k.pto", .line = 2, .col = 33,
	 .type = PTORT_U32, .rank = 2, .shape = dst_shape},
	{.name = "n", .bits = 0, .elems = 0},
};
/* a table written before element types: 16-bit buffers without .type */
static const ptort_main_arg untyped_args[3] = {
	{.name = "src", .bits = 16, .elems = 8, .file = "k.pto", .line = 2, .col = 14},
	{.name = "dst", .bits = 16, .elems = 8},
	{.name = "n", .bits = 0, .elems = 0},
};
static const ptort_main_arg dyn_args[3] = {
	{.name = "src", .bits = 32, .elems = 0},
	{.name = "dst", .bits = 32, .elems = 0},
	{.name = "n", .bits = 0, .elems = 0},
};
static const ptort_main_arg bad_args[2] = {
	{.name = "src", .bits = 32, .elems = 32},
	{.name = "dst", .bits = 32, .elems = 1},
};
static const ptort_main_desc add_desc = {.nargs = 3, .args = add_args, .ctx_create = mk_ctx,
					 .call = add_call};
static const ptort_main_desc untyped_desc = {.nargs = 3, .args = untyped_args,
					     .ctx_create = mk_ctx, .call = add_call};
static const ptort_main_desc dyn_desc = {.nargs = 3, .args = dyn_args, .ctx_create = mk_ctx,
					 .call = add_call};
static const ptort_main_desc bad_desc = {.nargs = 2, .args = bad_args, .ctx_create = mk_ctx,
					 .call = bad_call};

static char *path(const char *name)
{
	static char p[8][320];
	static unsigned k;
	char *s = p[k++ % 8];
	snprintf(s, 320, "%s/%s", dir, name);
	return s;
}

static void put_file(const char *name, const void *p, size_t n)
{
	FILE *f = fopen(path(name), "wb");
	CHECK(f && fwrite(p, 1, n, f) == n && fclose(f) == 0, "writing %s", name);
}

static size_t get_file(const char *name, void *p, size_t cap)
{
	FILE *f = fopen(path(name), "rb");
	size_t n;
	if (!f)
		return (size_t)-1;
	n = fread(p, 1, cap, f);
	fclose(f);
	return n;
}

/* Runs ptort_main with the NULL-terminated words; returns its status, stderr in err. */
static int run(const ptort_main_desc *d, char *err, size_t cap, ...)
{
	char *argv[16];
	int argc = 0, rc, saved;
	va_list ap;
	FILE *f;
	size_t n;
	argv[argc++] = "kernel";
	va_start(ap, cap);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	f = freopen(errpath, "w", stderr);
	rc = ptort_main(d, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	(void)f;
	f = fopen(errpath, "r");
	n = f ? fread(err, 1, cap - 1, f) : 0;
	err[n] = 0;
	if (f)
		fclose(f);
	return rc;
}

#define EXPECT(rc_, want_rc, err_, text)                                                        \
	CHECK((rc_) == (want_rc) && strstr(err_, text), "status %d (want %d), stderr '%s' "     \
	      "(want '%s')", rc_, want_rc, err_, text)

int main(void)
{
	uint32_t src[8], out[9], i;
	char err[2048], arg_in[400], arg_out[400];
	int rc;
	snprintf(dir, sizeof dir, "%s/ptort-harness-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return check_skip("rtexec_harness", "cannot create a temporary directory");
	snprintf(errpath, sizeof errpath, "%s/stderr", dir);
	for (i = 0; i < 8; i++)
		src[i] = 0xfffffff0u + 3 * i;
	put_file("src.bin", src, sizeof src);
	put_file("short.bin", src, 28);
	{
		uint32_t l[9] = {0};
		put_file("long.bin", l, sizeof l);
	}
	put_file("dyn.bin", src, 12);

	/* the run: out = src + n, by name and by position */
	snprintf(arg_in, sizeof arg_in, "src=%s", path("src.bin"));
	snprintf(arg_out, sizeof arg_out, "1=%s", path("out.bin"));
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--out", arg_out, "--arg", "n=0x11", NULL);
	EXPECT(rc, 0, err, "");
	CHECK(get_file("out.bin", out, sizeof out) == 32);
	for (i = 0; i < 8; i++)
		CHECK(out[i] == src[i] + 0x11u, "out[%u] = %#x", i, out[i]);
	CHECK(seen_elems[0] == 8 && seen_elems[1] == 8 && seen_scalar == 0x11);

	/* dynamic shapes: the file gives the size; an --out-only dynamic buffer has none */
	snprintf(arg_in, sizeof arg_in, "src=%s", path("dyn.bin"));
	snprintf(arg_out, sizeof arg_out, "dst=%s", path("dyn.bin"));
	rc = run(&dyn_desc, err, sizeof err, "--in", arg_in, "--in", arg_out, "--arg", "n=-1", NULL);
	EXPECT(rc, 0, err, "");
	CHECK(seen_elems[0] == 3 && seen_elems[1] == 3 && seen_scalar == -1);
	rc = run(&dyn_desc, err, sizeof err, "--in", arg_in, "--out", arg_out, "--arg", "n=1", NULL);
	EXPECT(rc, 1, err, "argument 'dst' has no static size");

	/* bad files */
	snprintf(arg_in, sizeof arg_in, "src=%s", path("short.bin"));
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--arg", "n=1", NULL);
	EXPECT(rc, 1, err, "k.pto:2:14: error: --in src: '");
	EXPECT(rc, 1, err, "short.bin' is too short: 28 bytes, the kernel expects 32 (8 elements of 32 bits)");
	snprintf(arg_in, sizeof arg_in, "src=%s", path("long.bin"));
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--arg", "n=1", NULL);
	EXPECT(rc, 1, err, "long.bin' is too long: 36 bytes, the kernel expects 32");
	snprintf(arg_in, sizeof arg_in, "src=%s", path("nope.bin"));
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--arg", "n=1", NULL);
	EXPECT(rc, 1, err, "k.pto:2:14: error: --in src: cannot read '");
	EXPECT(rc, 1, err, "nope.bin': No such file or directory");
	snprintf(arg_in, sizeof arg_in, "src=%s", dir);
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--arg", "n=1", NULL);
	EXPECT(rc, 1, err, "': it is a directory");
	rc = run(&add_desc, err, sizeof err, "--in", "src=/dev/zero", "--arg", "n=1", NULL);
	EXPECT(rc, 1, err, "--in src: '/dev/zero' is too long: more than 32 bytes");
	snprintf(arg_in, sizeof arg_in, "dst=%s", path("short.bin"));
	rc = run(&dyn_desc, err, sizeof err, "--in", "src=/dev/null", "--in", arg_in, "--arg", "n=1", NULL);
	EXPECT(rc, 0, err, "");
	CHECK(seen_elems[0] == 0 && seen_elems[1] == 7);

	/* a kernel writing into an input-only (mapped) buffer leaves its file alone; an
	 * --in that is also an --out is written back */
	snprintf(arg_in, sizeof arg_in, "src=%s", path("src.bin"));
	snprintf(arg_out, sizeof arg_out, "dst=%s", path("dyn2.bin"));
	put_file("dyn2.bin", src, sizeof src);
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--in", arg_out, "--arg", "n=5", NULL);
	EXPECT(rc, 0, err, "");
	CHECK(get_file("dyn2.bin", out, sizeof out) == 32 && !memcmp(out, src, 32));
	rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--in", arg_out, "--out", arg_out,
		 "--arg", "n=5", NULL);
	EXPECT(rc, 0, err, "");
	CHECK(get_file("dyn2.bin", out, sizeof out) == 32);
	for (i = 0; i < 8; i++)
		CHECK(out[i] == src[i] + 5u, "dyn2[%u] = %#x", i, out[i]);

	/* outputs all or none: the second one cannot be written, the first stays absent */
	snprintf(arg_in, sizeof arg_in, "src=%s", path("out2.bin"));
	snprintf(arg_out, sizeof arg_out, "dst=%s", path("no/such/dir/o.bin"));
	rc = run(&add_desc, err, sizeof err, "--out", arg_in, "--out", arg_out, "--arg", "n=5", NULL);
	EXPECT(rc, 1, err, "k.pto:2:33: error: --out dst: cannot write '");
	CHECK(get_file("out2.bin", out, sizeof out) == (size_t)-1, "out2.bin written");

	/* usage */
	rc = run(&add_desc, err, sizeof err, "--bogus", NULL);
	EXPECT(rc, 2, err, "unknown option '--bogus'");
	rc = run(&add_desc, err, sizeof err, "--in", NULL);
	EXPECT(rc, 2, err, "option '--in' needs ARG=VALUE");
	rc = run(&add_desc, err, sizeof err, "--in", "src", NULL);
	EXPECT(rc, 2, err, "'src' is not ARG=VALUE");
	rc = run(&add_desc, err, sizeof err, "--in", "3=x", NULL);
	EXPECT(rc, 2, err, "no kernel argument '3=x'");
	rc = run(&add_desc, err, sizeof err, "--arg", "src=1", NULL);
	EXPECT(rc, 2, err, "'src' is a GM buffer: use --in or --out");
	rc = run(&add_desc, err, sizeof err, "--in", "n=x", NULL);
	EXPECT(rc, 2, err, "'n' is a scalar: use --arg");
	rc = run(&add_desc, err, sizeof err, NULL);
	EXPECT(rc, 2, err, "the scalar argument 'n' needs a value");
	rc = run(&add_desc, err, sizeof err, "--arg", "n=12z", NULL);
	EXPECT(rc, 2, err, "--arg n=12z: not a 64-bit integer");
	rc = run(&add_desc, err, sizeof err, "--arg", "n=99999999999999999999", NULL);
	EXPECT(rc, 2, err, "not a 64-bit integer");

	/* .npy files (docs/runtime.md "NumPy files"): the output as numpy.save writes it,
	 * header padded to 64 bytes, the argument's type and shape; read back as an input;
	 * a table without element types refuses them */
	{
		static const char hdr[] = "\x93NUMPY\x01\x00\x76\x00{'descr': '<u4', "
					  "'fortran_order': False, 'shape': (2, 4), }";
		unsigned char npy[256];
		size_t n;
		snprintf(arg_in, sizeof arg_in, "src=%s", path("src.bin"));
		snprintf(arg_out, sizeof arg_out, "dst=%s", path("out.npy"));
		rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--out", arg_out, "--arg", "n=3",
			 NULL);
		EXPECT(rc, 0, err, "");
		n = get_file("out.npy", npy, sizeof npy);
		CHECK(n == 128 + 32, "out.npy has %zu bytes", n);
		CHECK(n == 160 && !memcmp(npy, hdr, sizeof hdr - 1) && npy[127] == '\n' &&
		      npy[126] == ' ', "out.npy's header");
		for (i = 0; n == 160 && i < 8; i++) {
			uint32_t v;
			memcpy(&v, npy + 128 + 4 * i, 4);
			CHECK(v == src[i] + 3, "out.npy element %u = %#x", i, v);
		}
		snprintf(arg_in, sizeof arg_in, "dst=%s", path("out.npy"));
		snprintf(arg_out, sizeof arg_out, "dst=%s", path("out2.npy"));
		rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--out", arg_out, "--arg", "n=3",
			 NULL);
		EXPECT(rc, 0, err, "");
		CHECK(get_file("out2.npy", out, sizeof out) == sizeof out, "out2.npy");
		snprintf(arg_in, sizeof arg_in, "src=%s", path("out.npy"));
		rc = run(&add_desc, err, sizeof err, "--in", arg_in, "--arg", "n=3", NULL);
		EXPECT(rc, 1, err, "k.pto:2:14: error: --in src: '");
		EXPECT(rc, 1, err, "out.npy' has shape (2, 4); the argument's shape is (8,)");
		rc = run(&untyped_desc, err, sizeof err, "--in", arg_in, "--arg", "n=3", NULL);
		EXPECT(rc, 1, err, "out.npy': the program has no element type for the argument");
		snprintf(arg_out, sizeof arg_out, "dst=%s", path("out3.npy"));
		rc = run(&untyped_desc, err, sizeof err, "--out", arg_out, "--arg", "n=3", NULL);
		EXPECT(rc, 1, err, "--out dst: '");
		EXPECT(rc, 1, err, "out3.npy': the program has no element type for the argument "
		       "(build it again with ptoc), so .npy files cannot be written");
		CHECK(get_file("out3.npy", out, sizeof out) == (size_t)-1, "out3.npy written");
	}

	/* a runtime error: reported, status 1, the --out file not written */
	snprintf(arg_out, sizeof arg_out, "dst=%s", path("rt.bin"));
	rc = run(&bad_desc, err, sizeof err, "--out", arg_out, NULL);
	EXPECT(rc, 1, err, "k.pto:7:3: error: runtime error: dma_load");
	CHECK(get_file("rt.bin", out, sizeof out) == (size_t)-1, "rt.bin written");

	{
		const char *names[] = {"src.bin", "short.bin", "long.bin", "dyn.bin", "out.bin",
				       "stderr", "rt.bin", "dyn2.bin", "out2.bin", "out.npy",
				       "out2.npy"};
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			unlink(path(names[i]));
		rmdir(dir);
	}
	return check_report("rtexec_harness");
}
