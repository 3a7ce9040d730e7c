/* bench.h: the benchmarks of ptoc-bench. Each prints one figure per line
 * ("<what> ... <value> <unit>") beside a baseline measured in the same run. */
#ifndef PTOC_BENCH_H
#define PTOC_BENCH_H

double bench_now(void); /* monotonic seconds */
/* The best time of one call of fn(arg), in seconds: after a warm-up call, the calls per
 * sample double until a sample lasts `sample` seconds (or 2^20 calls), then samples are
 * taken until there are `min_samples` of them and `min_total` seconds have passed; the
 * fastest sample, divided by its calls, wins. */
double bench_best(void (*fn)(void *), void *arg, double sample, int min_samples,
		  double min_total);
/* The arguments of a benchmark whose one option is `--runs R` (R > 0): sets *runs and
 * returns 0, or prints `ptoc-bench NAME [--runs R]` as its usage and returns 2. */
int bench_runs_arg(int argc, char **argv, const char *name, unsigned *runs);
/* The bytes of file `path` (malloc'd, *len of them), or NULL when it cannot be read. */
char *bench_slurp(const char *path, size_t *len);
/* Prints how busy the machine was (the 1-minute load average beside the online CPUs):
 * a wall-clock speed-up over threads needs idle CPUs. */
void bench_print_load(void);

/* bench_cvt.c */
int bench_cvt(int argc, char **argv);
/* bench_mmad.c */
int bench_mmad(int argc, char **argv);
/* bench_kernel.c */
int bench_kernel(int argc, char **argv);
/* bench_vop.c */
int bench_vop(int argc, char **argv);
/* bench_parse.c */
int bench_parse(int argc, char **argv);
/* Writes the module `ptoc-bench parse` times (n kernels) to `path`; 0 on success. */
int bench_parse_generate(const char *path, unsigned n);
/* bench_launch.c */
int bench_launch(int argc, char **argv);
/* bench_cluster.c */
int bench_cluster(int argc, char **argv);
/* bench_mlir.c */
int bench_mlir(int argc, char **argv);

#endif
