/* check.h: the checks of the C unit tests (every program under test/unit uses this one
 * copy; test/CMakeLists.txt puts this folder on their include path).
 *
 *   CHECK(cond)               one check; when cond is false: a failure, printed as
 *   CHECK(cond, fmt, ...)     "FILE:LINE: FAIL: cond[: message]"
 *   CHECK_FAIL(fmt, ...)      a failure the test found by its own comparison (one check)
 *   check_failed()            records a failure the test prints itself: returns 1
 *                             while failures are still printed (the first
 *                             CHECK_PRINT_LIMIT), else 0
 *   check_count(n)            n checks done in bulk (the test's own comparisons)
 *   check_fail_count(n)       n failures found (and already printed) elsewhere
 *   check_failures()          failures so far
 *   check_report(name)        prints "name: N checks, F failed"; returns the exit status:
 *                             0 when every check passed, 1 when one failed *or when no
 *                             check ran at all* (a test that checked nothing has not
 *                             passed)
 *   check_skip(name, fmt, ...)  prints "name: SKIP: reason"; returns CHECK_SKIP
 *
 * A test that cannot run its check (an input file or a host feature is missing)
 * returns check_skip(...) from main: its CMake file declares SKIP_RETURN_CODE
 * CHECK_SKIP (77), so CTest reports it as skipped, never as passed.
 *
 * The first CHECK_PRINT_LIMIT failures are printed (define it before including to
 * change it); later ones are only counted. Header-only and C99; the counters are
 * static, so each translation unit counts its own checks. */
#ifndef PTOC_TEST_CHECK_H
#define PTOC_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#define CHECK_SKIP 77

#ifndef CHECK_PRINT_LIMIT
#define CHECK_PRINT_LIMIT 40
#endif

#if defined(__GNUC__)
#define CHECK_PRINTF_(f, a) __attribute__((format(printf, f, a)))
#else
#define CHECK_PRINTF_(f, a)
#endif

static unsigned long long check_n_, check_failed_;

static inline int check_failed(void)
{
	return check_failed_++ < CHECK_PRINT_LIMIT;
}

static inline void check_failed_at_(const char *file, int line, const char *cond)
{
	if (check_failed())
		printf("%s:%d: FAIL: %s\n", file, line, cond);
}

static inline void check_failed_msg_(const char *file, int line, const char *cond, const char *fmt,
				     ...) CHECK_PRINTF_(4, 5);
static inline void check_failed_msg_(const char *file, int line, const char *cond, const char *fmt,
				     ...)
{
	va_list ap;
	if (!check_failed())
		return;
	printf("%s:%d: FAIL: %s%s", file, line, cond, *cond ? ": " : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* CHECK with one argument or with a message: picks CHECK_1_ or CHECK_M_ by the number
 * of arguments (at most 32), so the message stays printf-checked. */
#define CHECK(...) \
	CHECK_PICK_(__VA_ARGS__, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, \
		    CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, \
		    CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, \
		    CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, \
		    CHECK_M_, CHECK_M_, CHECK_M_, CHECK_M_, CHECK_1_, CHECK_NONE_) \
	(__VA_ARGS__)
#define CHECK_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, \
		    a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, \
		    a30, a31, a32, which, ...) \
	which
#define CHECK_1_(cond)                                                \
	do {                                                          \
		check_n_++;                                           \
		if (!(cond))                                          \
			check_failed_at_(__FILE__, __LINE__, #cond);  \
	} while (0)
#define CHECK_M_(cond, ...)                                                          \
	do {                                                                         \
		check_n_++;                                                          \
		if (!(cond))                                                         \
			check_failed_msg_(__FILE__, __LINE__, #cond, __VA_ARGS__);   \
	} while (0)

#define CHECK_FAIL(...)                                                    \
	do {                                                               \
		check_n_++;                                                \
		check_failed_msg_(__FILE__, __LINE__, "", __VA_ARGS__);    \
	} while (0)

static inline void check_count(unsigned long long n)
{
	check_n_ += n;
}

static inline void check_fail_count(unsigned long long n)
{
	check_failed_ += n;
}

static inline unsigned long long check_failures(void)
{
	return check_failed_;
}

static inline int check_report(const char *name)
{
	printf("%s: %llu checks, %llu failed\n", name, check_n_, check_failed_);
	if (!check_n_) {
		printf("%s: FAIL: no check ran\n", name);
		return 1;
	}
	return check_failed_ ? 1 : 0;
}

static inline int check_skip(const char *name, const char *fmt, ...) CHECK_PRINTF_(2, 3);
static inline int check_skip(const char *name, const char *fmt, ...)
{
	va_list ap;
	printf("%s: SKIP: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return CHECK_SKIP;
}

#endif
