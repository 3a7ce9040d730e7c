/* harness_internal.h: what harness.c (ptort_main) uses of harness_npy.c, the NumPy
 * .npy files of `ptoc run` (docs/runtime.md "NumPy files"). Never installed. */
#ifndef PTORT_HARNESS_INTERNAL_H
#define PTORT_HARNESS_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "ptort.h"

/* Whether `path` names a .npy file (its name ends in ".npy", any case). */
int hnpy_is_npy(const char *path);

/* Reads the .npy file `path` for GM argument `a`: checks its header, dtype, shape and
 * size against the argument and returns its elements in the GM layout (C order, 4-bit
 * elements packed two per byte, element 2k in the low nibble) in a fresh malloc'd
 * buffer of bytes_of(*elems) + 1 bytes. Returns 0, or -1 with the reason in err (cap
 * bytes; a sentence without the "--in ARG: " prefix), *p then NULL. */
int hnpy_load(const ptort_main_arg *a, const char *path, void **p, uint64_t *elems, char *err,
	      size_t cap);

/* Writes `elems` elements of argument `a` from its GM buffer `p` to f as a .npy array
 * (version 1.0 header, C order, a's shape; one dimension of elems when a has no rank or
 * is dynamic). Returns 0, or -1 (errno set) when a write fails. */
int hnpy_write(FILE *f, const ptort_main_arg *a, const void *p, uint64_t elems);

#endif
