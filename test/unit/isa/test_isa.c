/* test_isa.c: the PTORT_ISA cap (docs/runtime.md, "Instruction-set levels") took
 * effect. The host's features come from the compiler's own detection
 * (__builtin_cpu_supports), independent of runtime/src/cpu.c; the level expected is
 * the lower of the host's and the cap named by PTORT_ISA, which this test reads itself.
 * CTest runs it under every cap (test/unit/isa/CMakeLists.txt), beside the mmad,
 * conversion and vector level tests under the same caps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_internal.h"
#include "mmad_internal.h"

int main(void)
{
	const char *env = getenv("PTORT_ISA"), *want, *got;
	int cap = 2, host = 0, bad = 0, lv, expect_mmad;
	unsigned f = ptort_cpu_features();
	if (env && *env) {
		if (!strcmp(env, "portable"))
			cap = 0;
		else if (!strcmp(env, "avx2"))
			cap = 1;
		else if (!strcmp(env, "avx512") || !strcmp(env, "native"))
			cap = 2;
		else
			cap = 0, bad = 1;
	}
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		host = 1;
	if (host && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
		host = 2;
#endif
	lv = host < cap ? host : cap;
	want = lv == 2 ? "avx512" : lv == 1 ? "avx2" : "portable";
	got = ptort_cpu_isa_name();
	printf("test_isa: PTORT_ISA=%s host level %d, cap %d: %s (features 0x%x)\n",
	       env ? env : "(unset)", host, cap, got, f);
	CHECK(!strcmp(got, want), "level %s, expected %s", got, want);
	CHECK(ptort_cpu_isa_env_bad() == bad, "env_bad %d, expected %d", ptort_cpu_isa_env_bad(),
	      bad);
	if (cap == 0)
		CHECK(f == 0, "portable cap kept features 0x%x", f);
	if (cap < 2)
		CHECK(!(f & PTORT_CPU_AVX512), "AVX-512 kept under cap %d", cap);
	/* mmad's levels follow the capped features: AVX2 needs FMA and F16C beside it */
	expect_mmad = lv;
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
	if (lv >= 1 && !(__builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c")))
		expect_mmad = 0;
#endif
	CHECK(mmad_best_level() == expect_mmad, "mmad level %d, expected %d", mmad_best_level(),
	      expect_mmad);
	return check_report("isa");
}
