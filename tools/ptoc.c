/* ptoc: the command-line driver. Dispatches on the first word to a subcommand;
 * anything else is the compile command. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools.h"

static int dispatch(int argc, char **argv)
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

int main(int argc, char **argv)
{
	int rc = dispatch(argc, argv);
	/* What went to stdout is complete only when its last buffer is written: a full disk
	 * or a closed file is an error of the command. Closing also frees the buffer, which
	 * LeakSanitizer would otherwise see at exit. */
	if (fclose(stdout) != 0 && rc == 0) {
		fprintf(stderr, "ptoc: error: cannot write the standard output: %s\n", strerror(errno));
		rc = 1;
	}
	return rc;
}
