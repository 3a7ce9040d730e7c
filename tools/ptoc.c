/* ptoc: the command-line driver. Dispatches on the first word to a subcommand;
 * anything else is the compile command. */
#include <stdio.h>
#include <string.h>

#include "tools.h"

int main(int argc, char **argv)
{
	if (argc >= 2) {
		if (!strcmp(argv[1], "cvt"))
			return cmd_cvt(argc - 1, argv + 1);
		if (!strcmp(argv[1], "legality"))
			return cmd_legality(argc - 1, argv + 1);
		if (!strcmp(argv[1], "run"))
			return cmd_run(argc - 1, argv + 1);
	}
	return cmd_compile(argc, argv);
}
