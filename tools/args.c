/* args.c: command-line helpers shared by the subcommands. */
#include <stdio.h>
#include <string.h>

#include "ptoc/legality.h"
#include "tools.h"

const char *tool_unknown_target(const char *v, char *buf, size_t cap)
{
	char names[128];
	ptoc_target_spellings(names, sizeof names);
	snprintf(buf, cap, "unknown target '%s' (expected %s)", v, names);
	return buf;
}

const char *tool_opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}
