/* cmd_legality.c: placeholder until its issue lands; reports itself as unavailable. */
#include <stdio.h>

#include "tools.h"

int cmd_legality(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ptoc: 'legality' is not available in this build yet\n");
	return 2;
}
