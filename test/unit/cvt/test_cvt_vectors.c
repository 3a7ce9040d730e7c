/* test_cvt_vectors.c: every line of the worked-vector files of PTOC_SHARED_DIR/vectors
 * (seed_vectors.txt, seed001_ceil_examples.txt) through ptort_cvt1, ptort_cvt_run and
 * the reference. Line format (the files' own):
 *     src dst rmode sat input expected   # comment
 * sat "-" is the pair's default (docs/semantics.md §3.2, no target rules); "expected" is a
 * hex pattern or "nan" (any NaN of the destination). The files already record the
 * corrected value where a seed text has a typo, so the expected column is used as is.
 * Usage: test_cvt_vectors <shared-dir>. SKIP (exit 77) when <shared-dir>/vectors does
 * not exist; once it does, each file must be there and hold at least one vector. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "check.h"
#include "cvttest.h"

static int check_file(const char *path, int *lines)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int ln = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char src[32], dst[32], mode[32], sat[8], in[40], exp[40];
		ptort_type from, to;
		ptort_rmode rm;
		ln++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		int k = sscanf(line, "%31s %31s %31s %7s %39s %39s", src, dst, mode, sat, in, exp);
		if (k <= 0)
			continue;
		if (k != 6 || ref_type_parse(src, &from) || ref_type_parse(dst, &to) ||
		    ref_mode_parse(mode, &rm)) {
			CHECK_FAIL("%s:%d: cannot parse the line", path, ln);
			continue;
		}
		int s = !strcmp(sat, "-") ? ref_default_sat(from, to) : !strcmp(sat, "on");
		uint64_t x = strtoull(in, NULL, 16), want = strtoull(exp, NULL, 16);
		int anynan = !strcmp(exp, "nan");
		unsigned char sb[8] = {0}, db[8] = {0};
		tst_set(from, sb, 0, x);
		ptort_cvt_status rc = ptort_cvt_run(from, to, sb, db, 1, rm, s);
		uint64_t got[3] = {ptort_cvt1(from, to, x, rm, s), tst_get(to, db, 0),
				   ref_cvt(from, to, x, rm, s)};
		static const char *who[3] = {"ptort_cvt1", "ptort_cvt_run", "reference"};
		(*lines)++;
		check_count(3);
		for (int i = 0; i < 3; i++) {
			int ok = anynan ? ref_is_nan(to, got[i]) : got[i] == want;
			if (i == 1 && rc != PTORT_CVT_OK)
				ok = 0;
			if (!ok) {
				if (check_failed())
					printf("FAIL %s:%d: %s %s %s sat=%s 0x%llX: %s gives 0x%llX, expected %s\n",
					       path, ln, src, dst, mode, s ? "on" : "off", (unsigned long long)x,
					       who[i], (unsigned long long)got[i], exp);
			}
		}
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *files[] = {"seed_vectors.txt", "seed001_ceil_examples.txt"};
	const char *dir = argc > 1 ? argv[1] : "../shared";
	char vdir[4096];
	struct stat sb;
	int lines = 0;
	snprintf(vdir, sizeof vdir, "%s/vectors", dir);
	if (stat(vdir, &sb) || !S_ISDIR(sb.st_mode))
		return check_skip("cvt_vectors", "%s not found", vdir);
	ref_init();
	for (int i = 0; i < 2; i++) {
		char path[4200];
		int before = lines;
		snprintf(path, sizeof path, "%s/%s", vdir, files[i]);
		CHECK(check_file(path, &lines) == 0, "%s cannot be read", path);
		CHECK(lines > before, "%s holds no vector", path);
		printf("%s: %d lines checked\n", files[i], lines - before);
	}
	return check_report("cvt_vectors");
}
