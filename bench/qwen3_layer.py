#!/usr/bin/python3
"""qwen3_layer.py: wall time of PTOAS's Qwen3 decode layer (17 kernels) through ptoc,
split into its parts, beside the time of PTOAS's numpy goldens for the same kernels and
the time of each kernel's mmad work alone.

  qwen3_layer.py [--ptoc PTOC] [--shared SHARED] [--work DIR] [--target a2a3|a5]
                 [--rtinc DIR] [--rtlib LIB] [--cc CC] [--runs N] [--kernels N,N...]

Defaults: build/bin/ptoc, ../shared, /tmp/ptoc-qwen3-bench, a2a3, runtime/include and
build/lib/libptort.a of this tree, $CC or cc. For each kernel of
SHARED/corpus/ptoas/samples/Qwen3DecodeA3 (A5: the cube kernels of Qwen3DecodeA5):
  golden   PTOAS's *_golden.py run as test/qwen3/run.py runs it (input generation
           with numpy's random generator, the reference in numpy, files written)
  compile  `ptoc FILE -o kernel.c` + `ptoc FILE --emit=main -o main.c`
  build    CC -std=c99 -O0 kernel.c main.c libptort.a -lm (what `ptoc run` does)
  run      the program on the golden's input files (reading them is part of it)
  ptoc run the whole `ptoc run` command on the same files, for comparison
  mmad     the time spent inside ptort_mmad during a run: the same program built
           again with -Wl,--wrap=ptort_mmad and a wrapper that times each call
           (CLOCK_MONOTONIC) and writes the call count, the shapes and the sum at
           exit; the kernel's matrix multiplications alone, same shapes, same count,
           same data (the cube kernels; "-" for kernels without tmatmul)
--kernels N,N... times only those kernels (e.g. 1: one call of the cube kernel
qwen3_decode_incore_1, 4 x 16 tmatmul(.acc) of 16x512x64 bf16).
With --runs N (default 1) each part but the golden is timed N times and the fastest
kept (this machine is shared: single runs move by tens of percent).
A kernel ptoc does not compile yet is listed as such and left out of the sums. The
outputs are not checked here (test/qwen3/run.py does that). Figures, not assertions.
"""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "qwen3"))
import run as q3  # noqa: E402


def timed(cmd, **kw):
    t = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return p, time.monotonic() - t


# The ptort_mmad wrapper linked into the timed twin of each program (--wrap).
MMAD_WRAP = r"""
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ptort.h"
int __real_ptort_mmad(ptort_ctx *ctx, const ptort_tile *c, const ptort_tile *a,
                      const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
                      const ptort_tile *bc);
static double secs;
static unsigned long calls;
static char shapes[256];
static void report(void)
{
	const char *p = getenv("PTOC_MMAD_TIMES");
	FILE *f = p ? fopen(p, "w") : NULL;
	if (f) {
		fprintf(f, "%lu %.9f %s\n", calls, secs, shapes);
		fclose(f);
	}
}
int __wrap_ptort_mmad(ptort_ctx *ctx, const ptort_tile *c, const ptort_tile *a,
                      const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
                      const ptort_tile *bc)
{
	struct timespec t0, t1;
	int r;
	char s[48];
	if (!calls++)
		atexit(report);
	snprintf(s, sizeof s, "%ux%ux%u,", (unsigned)m, (unsigned)k, (unsigned)n);
	if (!strstr(shapes, s) && strlen(shapes) + strlen(s) < sizeof shapes)
		strcat(shapes, s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = __real_ptort_mmad(ctx, c, a, b, m, k, n, init, bc);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return r;
}
"""


def main():
    o = {"--ptoc": os.path.join(ROOT, "build", "bin", "ptoc"),
         "--shared": os.path.join(ROOT, "..", "shared"),
         "--work": "/tmp/ptoc-qwen3-bench", "--target": "a2a3",
         "--rtinc": os.path.join(ROOT, "runtime", "include"),
         "--rtlib": os.path.join(ROOT, "build", "lib", "libptort.a"),
         "--cc": os.environ.get("CC", "cc"), "--runs": "1", "--kernels": ""}
    a = sys.argv[1:]
    while a:
        if a[0] in ("-h", "--help"):
            print(__doc__)
            return 0
        if a[0] not in o or len(a) < 2:
            sys.stderr.write("qwen3_layer.py: bad option %s (see --help)\n" % a[0])
            return 2
        o[a[0]] = a[1]
        a = a[2:]
    ptoc, work = os.path.abspath(o["--ptoc"]), os.path.abspath(o["--work"])
    samples = os.path.join(o["--shared"], "corpus", "ptoas", "samples")
    a3dir = os.path.join(samples, "Qwen3DecodeA3")
    if not os.path.isfile(os.path.join(a3dir, "qwen3_decode_golden_lib.py")):
        print("no PTOAS corpus with the Qwen3 goldens under %s" % o["--shared"])
        return 1
    target = o["--target"]
    nums = range(17) if target == "a2a3" else q3.A5_KERNELS
    if o["--kernels"]:
        nums = [int(x) for x in o["--kernels"].split(",")]
    arch = "A3" if target == "a2a3" else "A5"
    env = q3.golden_env()
    os.makedirs(work, exist_ok=True)
    wrap_c = os.path.join(work, "mmad_wrap.c")
    with open(wrap_c, "w", encoding="utf-8") as f:
        f.write(MMAD_WRAP)
    print("Qwen3 decode layer, %s, seconds of wall time (golden: one run; ptoc's parts and "
          "mmad: fastest of %s)" % (target, o["--runs"]))
    print("%-8s %8s %8s %8s %8s %8s %10s %8s  %s" % ("kernel", "golden", "compile", "build", "run",
                                                    "sum", "ptoc run", "mmad", "mmad calls"))
    tot = {"golden": 0.0, "compile": 0.0, "build": 0.0, "run": 0.0, "ptoc": 0.0, "mmad": 0.0}
    skipped = []
    for num in nums:
        name = "qwen3_decode_incore_%d" % num
        pto = os.path.join(samples, "Qwen3Decode" + arch, name + ".pto")
        d = os.path.join(work, name)
        case = q3.case_for(pto, q3.SCALARS[num])
        kc, mc, prog = os.path.join(d, "kernel.c"), os.path.join(d, "main.c"), os.path.join(d, "prog")
        os.makedirs(d, exist_ok=True)
        p, t_c1 = timed([ptoc, pto, "--target", target, "-o", kc])
        if p.returncode:
            skipped.append("%s (%s)" % (name, p.stderr.decode(errors="replace").split("\n")[0]
                                        .split("error: ", 1)[-1]))
            shutil.rmtree(d, ignore_errors=True)
            continue
        err, t_gold = q3.run_golden(case, d, a3dir, name, env)
        if err:
            print("%s: %s" % (name, err))
            return 1
        outs = [b for b in case["buffers"]
                if os.path.isfile(os.path.join(d, "golden_%s.bin" % b["name"]))]
        io = q3.io_args(case, d, outs, target)
        prog_mm, mm_times = prog + "_mmad", os.path.join(d, "mmad_times")
        best, mm = None, None
        for _ in range(max(1, int(o["--runs"]))):
            p, t_c1 = timed([ptoc, pto, "--target", target, "-o", kc])
            p2, t_c2 = timed([ptoc, pto, "--target", target, "--emit=main", "-o", mc])
            p3, t_b = timed(o["--cc"].split() + ["-std=c99", "-O0", "-I" + o["--rtinc"], kc, mc,
                                                 o["--rtlib"], "-lm", "-o", prog])
            p4, t_r = timed([prog] + io)
            p5, t_p = timed([ptoc, "run", pto, "--target", target] + io)
            t = (t_c1 + t_c2, t_b, t_r, t_p)
            best = t if best is None else tuple(min(x, y) for x, y in zip(best, t))
            # the timed twin (untimed build), same inputs
            p6, _ = timed(o["--cc"].split() + ["-std=c99", "-O0", "-I" + o["--rtinc"], kc, mc,
                                                wrap_c, o["--rtlib"], "-lm",
                                                "-Wl,--wrap=ptort_mmad", "-o", prog_mm])
            if p6.returncode:
                print("%s: building the mmad-timed program failed: %s"
                      % (name, p6.stderr.decode(errors="replace")[-400:]))
                return 1
            if os.path.exists(mm_times):
                os.unlink(mm_times)
            p7, _ = timed([prog_mm] + io, env=dict(os.environ, PTOC_MMAD_TIMES=mm_times))
            if p7.returncode:
                print("%s: the mmad-timed run failed: %s"
                      % (name, p7.stderr.decode(errors="replace")[-400:]))
                return 1
            if os.path.exists(mm_times):
                with open(mm_times, encoding="utf-8") as f:
                    w = f.read().split()
                calls, secs, shapes = int(w[0]), float(w[1]), (w[2].rstrip(",") if len(w) > 2 else "")
                mm = (calls, secs, shapes) if mm is None or secs < mm[1] else mm
        for q, what in ((p, "compile"), (p2, "emit main"), (p3, "build"), (p4, "run"), (p5, "ptoc run")):
            if q.returncode:
                print("%s: %s failed: %s" % (name, what, q.stderr.decode(errors="replace")[-400:]))
                return 1
        t_c, t_b, t_r, t_p = best
        mm_s = "%8.4f  %d x %s" % (mm[1], mm[0], mm[2]) if mm else "%8s" % "-"
        print("%-8s %8.2f %8.3f %8.3f %8.3f %8.3f %10.3f %s" % ("%s/%d" % (arch, num), t_gold, t_c,
                                                             t_b, t_r, t_c + t_b + t_r, t_p, mm_s))
        for k, v in (("golden", t_gold), ("compile", t_c), ("build", t_b), ("run", t_r), ("ptoc", t_p),
                     ("mmad", mm[1] if mm else 0.0)):
            tot[k] += v
        shutil.rmtree(d, ignore_errors=True)
        sys.stdout.flush()
    print("%-8s %8.2f %8.3f %8.3f %8.3f %8.3f %10.3f %8.4f" % (
        "total", tot["golden"], tot["compile"], tot["build"], tot["run"],
        tot["compile"] + tot["build"] + tot["run"], tot["ptoc"], tot["mmad"]))
    for s in skipped:
        print("not compiled yet: %s" % s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
