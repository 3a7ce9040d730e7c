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

#endif
