/* cmd_run.c: `ptoc run FILE.pto [--target T] [--entry NAME] [--in ARG=FILE]...
 * [--out ARG=FILE]... [--arg ARG=VALUE]... [--blocks N] [--threads T] [--cc CC] [--keep]
 * [--cache-dir DIR] [--no-cache]`.
 *
 * Compiles the module through the default pipeline to C plus the harness of the entry
 * kernel (ptoc_module_compile, outputs C and MAIN), both in a temporary directory, builds them with the
 * system C compiler against the runtime, runs the program with the --in/--out/--arg
 * options (the harness reads, checks and writes the GM buffers and runs the blocks;
 * runtime/include/ptort.h sections 6 and 7 document it) and removes the directory.
 * --blocks and --threads are checked here, before anything is compiled.
 *
 * The C compiler: --cc, else $CC, else `cc` (the build's own compiler when the runtime
 * was built with sanitizers, with their flags). The runtime: $PTOC_RUNTIME_INCLUDE
 * and $PTOC_RUNTIME_LIB when set, else an installed layout beside the binary
 * (BIN/../include/ptort.h, BIN/../lib/libptort.a), else the build tree the binary was
 * configured in (paths embedded by tools/CMakeLists.txt).
 *
 * A program once built is kept in the cache of run_cache.c, keyed by everything it
 * was built from, and a later run of the same kernel takes it from there. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptoc/legality.h"
#include "ptoc/ptoc.h"
#include "ptort.h"
#include "tools.h"

#ifndef PTOC_BUILD_RT_INCLUDE
#define PTOC_BUILD_RT_INCLUDE ""
#endif
#ifndef PTOC_BUILD_RT_LIB
#define PTOC_BUILD_RT_LIB ""
#endif
#ifndef PTOC_BUILD_CC
#define PTOC_BUILD_CC "cc"
#endif
#ifndef PTOC_BUILD_RT_FLAGS
#define PTOC_BUILD_RT_FLAGS ""
#endif

#define MAX_ARGS 4096
/* the harness's limits (ptort.h section 6) */
#define MAX_BLOCKS PTORT_MAX_BLOCKS
#define MAX_THREADS PTORT_MAX_THREADS

static int err_write(void *user, const char *data, size_t len)
{
	(void)user;
	return fwrite(data, 1, len, stderr) == len ? 0 : -1;
}

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	ptoc_context_render_diag(user, sev, loc, msg, len, err_write, NULL);
}

static void usage(FILE *f)
{
	fputs("usage: ptoc run FILE.pto [--target a2a3|a5] [--entry NAME] [--in ARG=FILE]...\n"
	      "                [--out ARG=FILE]... [--arg ARG=VALUE]... [--blocks N] [--threads T]\n"
	      "                [--cc CC] [--keep] [--cache-dir DIR] [--no-cache] [--sync-check]\n"
	      "                [--sync-schedule=inorder|adversarial]\n"
	      "\n"
	      "Compiles FILE.pto to C, builds it with the C compiler against the runtime and runs\n"
	      "the entry kernel on the CPU.\n"
	      "\n"
	      "  --in ARG=FILE    read GM buffer ARG from FILE (raw binary; its size must match the\n"
	      "                   make_tensor_view shapes); FILE.npy: a NumPy array with the\n"
	      "                   buffer's dtype and shape (C or Fortran order; bf16 as uint16,\n"
	      "                   the fp8 formats, hif8 and e8m0 as uint8, 4-bit types one per\n"
	      "                   uint8)\n"
	      "  --out ARG=FILE   write GM buffer ARG to FILE after the run (starts zeroed unless\n"
	      "                   also given with --in); FILE.npy: as a NumPy array\n"
	      "  --arg ARG=VALUE  the value of a scalar argument: an integer or index one, or\n"
	      "                   VALUE `block`, `block*K`, `block+C` or `block*K+C` giving\n"
	      "                   each block its own; an f32/f16/bf16 one: a decimal number\n"
	      "                   (rounded once to the type), inf, nan or a bit pattern 0x...\n"
	      "                   ARG: the argument's name without %, or its position from 0\n"
	      "  --blocks N       run the kernel for blocks 0..N-1 (pto.get_block_idx; default 1,\n"
	      "                   at most 1048576), each with its own on-chip memories, all on one\n"
	      "                   GM; two blocks writing the same GM bytes, or one reading bytes\n"
	      "                   another writes, is a race: reported, no output written\n"
	      "  --threads T      worker threads for the blocks (default: the online CPUs; at most\n"
	      "                   N); the results are the same for every T\n"
	      "                   A mixed cube/vector kernel runs each block as a cluster of one\n"
	      "                   cube and two vector cores (docs/semantics.md §8.9); a deadlock\n"
	      "                   is an error saying what each core waits for\n"
	      "  --entry NAME     the kernel (default: the function marked pto.entry, or the only one,\n"
	      "                   or a cube and a vector function with the same arguments, or\n"
	      "                   one of them without any, run as one cluster)\n"
	      "  --target T       a2a3 (a3, a2) or a5, any case (default: the module's\n"
	      "                   pto.target_arch, else a2a3); --pto-arch=T is the same\n"
	      "  --cc CC          the C compiler (default: $CC, else cc)\n"
	      "  --keep           keep the temporary directory with the C files and print its path\n"
	      "  --cache-dir DIR  where built programs are kept and reused (default:\n"
	      "                   $PTOC_CACHE_DIR, else $XDG_CACHE_HOME/ptoc, else ~/.cache/ptoc;\n"
	      "                   at most $PTOC_CACHE_MAX_MB MiB, default 512, least recently\n"
	      "                   used programs removed first)\n"
	      "  --no-cache       build the program, use no cache\n"
	      "  --no-insert-sync compile without the insert-sync pass (the kernel's pipes\n"
	      "                   unsynchronised unless it has sync ops of its own);\n"
	      "                   --insert-sync (the default) and --enable-insert-sync keep it\n"
	      "  --sync-check     check the kernel's set_flag/wait_flag/barrier plan while it runs\n"
	      "                   (docs/sync-check.md): races between pipes, deadlocks, bad\n"
	      "                   events are errors at the ops' locations; no output written\n"
	      "  --sync-schedule=S  inorder (the default: instructions run in program order)\n"
	      "                   or adversarial: each pipe runs its latest-issued work first\n"
	      "                   as far as the kernel's syncs allow, so that a missing sync\n"
	      "                   changes the outputs (docs/sync-check.md)\n"
	      "\n"
	      "exit status: 0 success, 1 errors (input, compiler, runtime), 2 usage error\n",
	      f);
}

static int usage_error(const char *fmt, const char *a)
{
	fputs("ptoc run: ", stderr);
	fprintf(stderr, fmt, a);
	fputs(" (try ptoc run --help)\n", stderr);
	return 2;
}

static int read_file(const char *path, ptoc_buf *b)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	struct stat sb;
	if (!f)
		return -1;
	if (fstat(fileno(f), &sb) || S_ISDIR(sb.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (ptoc_buf_write(b, chunk, n)) {
			fclose(f);
			return -1;
		}
	if (ferror(f) || (!b->data && ptoc_buf_write(b, "", 0))) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int write_file(const char *path, const ptoc_buf *b)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(b->data, 1, b->len, f) == b->len;
	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* Compiles `file` to the kernel C and the harness C (ptoc_module_compile: the default
 * pipeline and emit-c, then the harness of the lowered module). Returns 0 or 1
 * (diagnosed). */
static int compile(const char *file, const char *target, const char *entry, const char *pipeline,
		   ptoc_buf *kc, ptoc_buf *hc)
{
	ptoc_buf src = {0};
	ptoc_context *ctx;
	ptoc_module *m;
	ptoc_compile_opts o = {0};
	int rc = 1;
	if (read_file(file, &src)) {
		fprintf(stderr, "ptoc run: cannot read '%s': %s\n", file, strerror(errno));
		ptoc_buf_free(&src);
		return 1;
	}
	if (!(ctx = ptoc_context_create())) {
		ptoc_buf_free(&src);
		fputs("ptoc run: out of memory\n", stderr);
		return 1;
	}
	ptoc_context_set_diag_handler(ctx, on_diag, ctx);
	ptoc_context_add_source(ctx, file, src.data, src.len);
	m = ptoc_parse_part(ctx, src.data, src.len, file, 1);
	o.target = target;
	o.entry = entry;
	o.pipeline = pipeline;
	o.output = PTOC_OUTPUT_C;
	if (m && !ptoc_context_error_count(ctx) && !ptoc_module_compile(m, &o, ptoc_buf_write, kc)) {
		o.pipeline = ""; /* lowered already */
		o.output = PTOC_OUTPUT_MAIN;
		if (!ptoc_module_compile(m, &o, ptoc_buf_write, hc))
			rc = 0;
	}
	if (rc && !ptoc_context_error_count(ctx))
		fputs("ptoc run: out of memory\n", stderr);
	ptoc_context_destroy(ctx);
	ptoc_buf_free(&src);
	return rc;
}

static int is_file(const char *p)
{
	struct stat sb;
	return p && *p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static char *join(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = malloc(na + nb + 2);
	if (s) {
		memcpy(s, a, na);
		s[na] = '/';
		memcpy(s + na + 1, b, nb + 1);
	}
	return s;
}

/* Finds the runtime's include directory and static library; 0 or -1. */
static int find_runtime(char **inc, char **lib)
{
	char self[4096], *dir, *h, *l;
	ssize_t n;
	const char *ei = getenv("PTOC_RUNTIME_INCLUDE"), *el = getenv("PTOC_RUNTIME_LIB");
	*inc = *lib = NULL;
	if (ei && el) {
		*inc = strdup(ei);
		*lib = strdup(el);
		return *inc && *lib ? 0 : -1;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = 0;
		dir = strrchr(self, '/');
		if (dir) {
			*dir = 0;
			h = join(self, "../include/ptort.h");
			l = join(self, "../lib/libptort.a");
			if (is_file(h) && is_file(l)) {
				h[strlen(h) - strlen("/ptort.h")] = 0;
				*inc = h;
				*lib = l;
				return 0;
			}
			free(h);
			if (is_file(l) && is_file(PTOC_BUILD_RT_INCLUDE "/ptort.h")) {
				*inc = strdup(PTOC_BUILD_RT_INCLUDE);
				*lib = l;
				return *inc ? 0 : -1;
			}
			free(l);
		}
	}
	if (is_file(PTOC_BUILD_RT_LIB) && is_file(PTOC_BUILD_RT_INCLUDE "/ptort.h")) {
		*inc = strdup(PTOC_BUILD_RT_INCLUDE);
		*lib = strdup(PTOC_BUILD_RT_LIB);
		return *inc && *lib ? 0 : -1;
	}
	return -1;
}

/* Runs argv; its stdout and stderr go to `log` when given. The kernel program
 * (`kernel`) gets PTOC_RUN_PROG=ptoc run, the name its messages give, set in the child:
 * ptoc's own environment stays as it was. Returns the exit status, 127 when it cannot
 * be executed, 128+signal when killed. */
static int run(char **argv, const char *log, int kernel)
{
	pid_t pid;
	int st;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		if (log) {
			FILE *f = fopen(log, "w");
			if (f) {
				dup2(fileno(f), 1);
				dup2(fileno(f), 2);
			}
		}
		if (kernel)
			setenv("PTOC_RUN_PROG", "ptoc run", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 127;
}

/* Splits `s` on blanks into argv[*n...]. */
static void split_words(char *s, char **argv, int *n)
{
	char *p = s;
	while (*p && *n < MAX_ARGS - 16) {
		while (*p == ' ' || *p == '\t')
			*p++ = 0;
		if (!*p)
			break;
		argv[(*n)++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
}

static void print_file(const char *path)
{
	ptoc_buf b = {0};
	if (!read_file(path, &b))
		fwrite(b.data, 1, b.len, stderr);
	ptoc_buf_free(&b);
}

int cmd_run(int argc, char **argv)
{
	const char *file = NULL, *entry = NULL, *cc = NULL, *cache_dir = NULL, *v;
	struct run_cache cache = {0};
	int no_cache = 0, nkey, no_sync = 0;
	char pipebuf[512];
	char **fwd, tmpl[4096], *kfile = NULL, *hfile = NULL, *prog = NULL, *log = NULL;
	char *inc = NULL, *lib = NULL, *ccbuf = NULL, *flags = NULL, *incflag = NULL;
	char *cargv[MAX_ARGS];
	int nfwd = 0, keep = 0, i, rc = 1, nc = 0;
	const char *blocks = NULL, *threads = NULL;
	const char *target = NULL;
	ptoc_buf kc = {0}, hc = {0};
	const char *tmpdir = getenv("TMPDIR");
	fwd = calloc(2 * (size_t)argc + 6, sizeof *fwd); /* --in=A=F becomes two words */
	if (!fwd)
		return 1;
	fwd[nfwd++] = NULL; /* the program, set below */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			free(fwd);
			return 0;
		}
		if (!strcmp(a, "--keep")) {
			keep = 1;
			continue;
		}
		if (!strcmp(a, "--no-cache")) {
			no_cache = 1;
			continue;
		}
		if (!strcmp(a, "--no-insert-sync") || !strcmp(a, "--insert-sync") ||
		    !strcmp(a, "--enable-insert-sync")) {
			no_sync = a[2] == 'n';
			continue;
		}
		if (!strcmp(a, "--sync-check")) { /* the runtime's switch (ptort_sync.h) */
			setenv("PTORT_SYNC_CHECK", "1", 1);
			continue;
		}
		if (!strcmp(a, "--sync-schedule") || !strncmp(a, "--sync-schedule=", 16)) {
			const char *v = a[15] == '=' ? a + 16 : i + 1 < argc ? argv[++i] : NULL;
			if (!v) {
				free(fwd);
				return usage_error("%s", "--sync-schedule needs inorder or adversarial");
			}
			if (strcmp(v, "inorder") && strcmp(v, "adversarial")) {
				free(fwd);
				return usage_error("--sync-schedule: '%s' is not inorder or adversarial", v);
			}
			/* the runtime's switch (ptort_sync.h) */
			setenv("PTORT_SYNC_SCHEDULE", v, 1);
			continue;
		}
		if (!strcmp(a, "--in") || !strcmp(a, "--out") || !strcmp(a, "--arg") ||
		    !strcmp(a, "--target") || !strcmp(a, "--entry") || !strcmp(a, "--cc") ||
		    !strcmp(a, "--blocks") || !strcmp(a, "--threads") || !strcmp(a, "--cache-dir") ||
		    !strncmp(a, "--in=", 5) || !strncmp(a, "--out=", 6) || !strncmp(a, "--arg=", 6) ||
		    !strncmp(a, "--target=", 9) || !strncmp(a, "--entry=", 8) || !strncmp(a, "--cc=", 5) ||
		    !strncmp(a, "--pto-arch=", 11) || !strncmp(a, "--blocks=", 9) ||
		    !strncmp(a, "--threads=", 10) || !strncmp(a, "--cache-dir=", 12)) {
			const char *eq = strchr(a, '=');
			char opt[16];
			size_t ol = eq ? (size_t)(eq - a) : strlen(a);
			if (ol >= sizeof opt)
				ol = sizeof opt - 1;
			memcpy(opt, a, ol);
			opt[ol] = 0;
			if (eq)
				v = eq + 1;
			else if (i + 1 < argc)
				v = argv[++i];
			else {
				free(fwd);
				return usage_error("option '%s' needs a value", a);
			}
			if (!strcmp(opt, "--target") || !strcmp(opt, "--pto-arch")) {
				ptoc_target tg;
				target = v;
				if (ptoc_target_parse(v, strlen(v), &tg)) {
					char names[128];
					ptoc_target_spellings(names, sizeof names);
					fprintf(stderr, "ptoc run: unknown target '%s' (%s) (try ptoc run "
						"--help)\n", v, names);
					free(fwd);
					return 2;
				}
			} else if (!strcmp(opt, "--entry")) {
				entry = v;
			} else if (!strcmp(opt, "--cc")) {
				cc = v;
			} else if (!strcmp(opt, "--cache-dir")) {
				if (!*v) {
					free(fwd);
					return usage_error("%s", "--cache-dir needs a directory");
				}
				cache_dir = v;
			} else if (!strcmp(opt, "--blocks") || !strcmp(opt, "--threads")) {
				if (!ptort_count_parse(v, opt[2] == 'b' ? MAX_BLOCKS : MAX_THREADS)) {
					fprintf(stderr, "ptoc run: %s: '%s' is not a count from 1 to %u (try "
						"ptoc run --help)\n", opt, v,
						opt[2] == 'b' ? MAX_BLOCKS : MAX_THREADS);
					free(fwd);
					return 2;
				}
				*(opt[2] == 'b' ? &blocks : &threads) = v;
			} else {
				if (!strchr(v, '=')) {
					free(fwd);
					return usage_error("'%s' is not ARG=VALUE", v);
				}
				fwd[nfwd++] = (char *)(!strcmp(opt, "--in") ? "--in" :
						       !strcmp(opt, "--out") ? "--out" : "--arg");
				fwd[nfwd++] = (char *)v;
			}
			continue;
		}
		if (a[0] == '-' && a[1]) {
			free(fwd);
			return usage_error("unknown option '%s'", a);
		}
		if (file) {
			free(fwd);
			return usage_error("more than one input file ('%s')", a);
		}
		file = a;
	}
	if (!file) {
		free(fwd);
		return usage_error("%s", "no input file");
	}
	if (compile(file, target, entry, no_sync ? tool_sync_pipeline(-1, pipebuf, sizeof pipebuf) : NULL,
		    &kc, &hc))
		goto out;
	if (find_runtime(&inc, &lib)) {
		fputs("ptoc run: cannot find the runtime (ptort.h and libptort.a): set "
		      "PTOC_RUNTIME_INCLUDE and PTOC_RUNTIME_LIB\n", stderr);
		goto out;
	}
	snprintf(tmpl, sizeof tmpl, "%s/ptoc-run-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "ptoc run: cannot create a temporary directory '%s': %s\n", tmpl,
			strerror(errno));
		goto out;
	}
	kfile = join(tmpl, "kernel.c");
	hfile = join(tmpl, "main.c");
	prog = join(tmpl, "kernel");
	log = join(tmpl, "cc.log");
	incflag = malloc(strlen(inc ? inc : "") + 3);
	if (!kfile || !hfile || !prog || !log || !incflag) {
		fputs("ptoc run: out of memory\n", stderr);
		goto clean;
	}
	sprintf(incflag, "-I%s", inc);
	if (write_file(kfile, &kc) || write_file(hfile, &hc)) {
		fprintf(stderr, "ptoc run: cannot write in '%s': %s\n", tmpl, strerror(errno));
		goto clean;
	}
	/* the compiler */
	if (!cc)
		cc = getenv("CC");
	if (!cc || !*cc)
		cc = PTOC_BUILD_RT_FLAGS[0] ? PTOC_BUILD_CC : "cc";
	ccbuf = strdup(cc);
	flags = strdup(PTOC_BUILD_RT_FLAGS);
	if (!ccbuf || !flags)
		goto clean;
	cargv[0] = NULL;
	nc = 1;
	cargv[nc++] = "-std=c99";
	cargv[nc++] = "-O0"; /* a call listing; before the words of CC, so CC="cc -O2" wins */
	split_words(ccbuf, cargv, &nc);
	if (nc == 3) {
		fputs("ptoc run: empty C compiler name\n", stderr);
		goto clean;
	}
	cargv[0] = cargv[3];
	memmove(cargv + 3, cargv + 4, (size_t)(nc - 4) * sizeof *cargv);
	nc--;
	split_words(flags, cargv, &nc);
	nkey = nc; /* the compiler's words; the file names below are temporary */
	cargv[nc++] = incflag;
	cargv[nc++] = kfile;
	cargv[nc++] = hfile;
	cargv[nc++] = lib;
	cargv[nc++] = "-lm";
	cargv[nc++] = "-lpthread";
	cargv[nc++] = "-o";
	cargv[nc++] = prog;
	cargv[nc] = NULL;
	run_cache_open(&cache, cache_dir, no_cache);
	run_cache_key(&cache, &kc, &hc, cargv, nkey, inc, lib);
	if (run_cache_fetch(&cache, prog) == 0)
		goto built;
	i = run(cargv, log, 0);
	if (i == 127) {
		fprintf(stderr, "ptoc run: no C compiler: cannot run '%s' (install one, or set CC "
			"or --cc)\n", cargv[0]);
		goto clean;
	}
	if (i != 0) {
		print_file(log);
		fprintf(stderr, "ptoc run: the C compiler '%s' failed (exit status %d)\n", cargv[0], i);
		goto clean;
	}
	run_cache_store(&cache, prog);
built:
	/* the kernel */
	if (blocks) {
		fwd[nfwd++] = "--blocks";
		fwd[nfwd++] = (char *)blocks;
	}
	if (threads) {
		fwd[nfwd++] = "--threads";
		fwd[nfwd++] = (char *)threads;
	}
	fwd[0] = prog;
	fwd[nfwd] = NULL;
	i = run(fwd, NULL, 1);
	if (i == 0 || i == 1 || i == 2)
		rc = i;
	else
		fprintf(stderr, "ptoc run: the kernel program failed (status %d)\n", i);
clean:
	if (keep) {
		if (cache.hit)
			fprintf(stderr, "ptoc run: kept %s (the program from the cache: %s)\n", tmpl,
				cache.entry);
		else
			fprintf(stderr, "ptoc run: kept %s\n", tmpl);
	} else {
		if (kfile)
			unlink(kfile);
		if (hfile)
			unlink(hfile);
		if (prog)
			unlink(prog);
		if (log)
			unlink(log);
		rmdir(tmpl);
	}
out:
	run_cache_close(&cache);
	ptoc_buf_free(&kc);
	ptoc_buf_free(&hc);
	free(fwd);
	free(kfile);
	free(hfile);
	free(prog);
	free(log);
	free(inc);
	free(lib);
	free(ccbuf);
	free(flags);
	free(incflag);
	return rc;
}
