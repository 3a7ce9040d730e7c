/* tools.h: the ptoc driver's subcommands. Each returns the process exit status:
 * 0 success, 1 a diagnosed error in the input, 2 a usage error. */
#ifndef PTOC_TOOLS_H
#define PTOC_TOOLS_H

#include <stddef.h>

/* cmd_compile.c: ptoc FILE.pto [-o OUT] [--emit ...] ... (the default command) */
int cmd_compile(int argc, char **argv);
/* cmd_cvt.c: ptoc cvt --from T --to T [--rmode M] [--sat on|off] [VALUE...] */
int cmd_cvt(int argc, char **argv);
/* cmd_legality.c: ptoc legality [--target T] [--from T] [--to T] [--format F] */
int cmd_legality(int argc, char **argv);
/* cmd_run.c: ptoc run FILE.pto [--target T] [--entry NAME] [--in A=F]... [--out A=F]... */
int cmd_run(int argc, char **argv);

/* args.c: the value of option `name` at argv[*i], written `name=V` or `name V`
 * (then *i moves past V). NULL when argv[*i] is another option, or when the value
 * is missing (then *missing is set to 1). */
const char *tool_opt_value(int argc, char **argv, int *i, const char *name, int *missing);

/* args.c: "unknown target 'V' (expected a2a3, a3, a2, a5)" into buf (the names from
 * ptoc_target_spellings, the one spelling rule); returns buf. */
const char *tool_unknown_target(const char *v, char *buf, size_t cap);

/* args.c: the default pipeline (ptoc_default_pipeline) without its insert-sync pass
 * (sync < 0), or up to and including it (sync > 0: the placed level-2 IR with the
 * inserted syncs, what `--insert-sync --emit=ir` prints), into buf; returns buf. */
const char *tool_sync_pipeline(int sync, char *buf, size_t cap);

/* run_cache.c: the cache of programs `ptoc run` built (key: the kernel and harness C,
 * the compiler's words and identity, the runtime header's contents and library's
 * identity). Every failure of the cache is a miss: it never fails a run. */
struct ptoc_buf;
struct run_cache {
	char *dir;                    /* NULL: no cache */
	char *entry;                  /* dir/key once the key is computed */
	char key[33];
	unsigned long long max_bytes; /* eviction bound */
	int hit;
};
/* Resolves the directory (dir, else $PTOC_CACHE_DIR, $XDG_CACHE_HOME/ptoc,
 * $HOME/.cache/ptoc) and creates it; no cache when `disabled` or none works. */
int run_cache_open(struct run_cache *c, const char *dir, int disabled);
void run_cache_key(struct run_cache *c, const struct ptoc_buf *kernel,
		   const struct ptoc_buf *harness, char *const *ccargv, int nccargv,
		   const char *inc, const char *lib);
/* Puts the cached program for the key at `prog` (0), or -1 on a miss. */
int run_cache_fetch(struct run_cache *c, const char *prog);
/* Adds the program just built at `prog` (nothing after a hit), then evicts. */
void run_cache_store(struct run_cache *c, const char *prog);
void run_cache_close(struct run_cache *c);

#endif
