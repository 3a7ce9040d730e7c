/* bench.h: the benchmarks of ptoc-bench. Each prints one figure per line
 * ("<what> ... <value> <unit>") beside a baseline measured in the same run. */
#ifndef PTOC_BENCH_H
#define PTOC_BENCH_H

double bench_now(void); /* monotonic seconds */
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
