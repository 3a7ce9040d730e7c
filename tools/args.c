/* args.c: command-line helpers shared by the subcommands. */
#include <stdio.h>
#include <string.h>

#include "ptoc/legality.h"
#include "ptoc/ptoc.h"
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

const char *tool_sync_pipeline(int sync, char *buf, size_t cap)
{
	const char *d = ptoc_default_pipeline(), *p = strstr(d, "insert-sync");
	size_t n = strlen(d), at, len = strlen("insert-sync");
	if (!cap)
		return buf;
	if (!p || n >= cap) { /* no such pass: the default pipeline as it is */
		snprintf(buf, cap, "%s", d);
		return buf;
	}
	at = (size_t)(p - d);
	if (sync > 0) {
		memcpy(buf, d, at + len);
		buf[at + len] = 0;
		return buf;
	}
	/* drop "insert-sync" and the comma after it (or before it, at the end) */
	if (d[at + len] == ',')
		len++;
	else if (at)
		at--, len++;
	memcpy(buf, d, at);
	memcpy(buf + at, d + at + len, n - at - len + 1);
	return buf;
}
