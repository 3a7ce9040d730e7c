/* harness_npy.c: NumPy .npy files for the `ptoc run` harness (harness.c; ptort.h
 * section 6; docs/runtime.md "NumPy files").
 *
 * A .npy file is the magic "\x93NUMPY", a version (1.0: a 2-byte header length; 2.0
 * and 3.0: 4 bytes), a header that is a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (32, 32), } padded with blanks
 * and a newline, then the elements in C or Fortran order. Reading checks the dtype
 * and the shape against the kernel argument and turns the elements into the GM layout
 * (C order; 4-bit types, one per uint8 in the file, packed two per byte); dimensions
 * of size 1 do not count in the shape's comparison (they move no element); writing
 * does the reverse, always in C order. Only stdio: the same code on every host. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

#define NPY_MAX_RANK 64
#define NPY_MAX_HEADER (1u << 20)

typedef struct npy_hdr {
	char descr[32];
	int structured; /* descr is not a string (a record dtype) */
	int fortran;
	unsigned rank;
	uint64_t shape[NPY_MAX_RANK];
} npy_hdr;

int hnpy_is_npy(const char *path)
{
	size_t n = strlen(path);
	const char *e = path + n - 4;
	return n >= 4 && e[0] == '.' && (e[1] | 0x20) == 'n' && (e[2] | 0x20) == 'p' &&
	       (e[3] | 0x20) == 'y';
}

/* Bytes per element in a file: the storage width, a 4-bit element in a whole byte. */
static unsigned item_bytes(ptort_type t)
{
	unsigned b = ptort_type_bits(t);
	return b < 8 ? 1 : b / 8;
}

/* The dtype of type t in a .npy file: its own where NumPy has it, else the unsigned
 * integer of its storage width (docs/runtime.md "NumPy files"). */
static const char *descr_of(ptort_type t)
{
	switch (t) {
	case PTORT_F32:
		return "<f4";
	case PTORT_F16:
		return "<f2";
	case PTORT_I8:
		return "|i1";
	case PTORT_I16:
		return "<i2";
	case PTORT_I32:
		return "<i4";
	case PTORT_I64:
		return "<i8";
	case PTORT_U16:
	case PTORT_BF16:
		return "<u2";
	case PTORT_U32:
		return "<u4";
	case PTORT_U64:
		return "<u8";
	default: /* ui8, the 8-bit and 4-bit formats, i4 */
		return "|u1";
	}
}

/* Whether NumPy lacks type t (its arrays then hold bit patterns in unsigned integers). */
static int numpy_lacks(ptort_type t)
{
	return t != PTORT_F32 && t != PTORT_F16 && !(t >= PTORT_I8 && t <= PTORT_U64);
}

/* Whether the file's descr d is the dtype of t ('|', '<' and '=' alike for one byte). */
static int descr_ok(const char *d, ptort_type t)
{
	const char *want = descr_of(t);
	if (!strcmp(d, want))
		return 1;
	return want[0] == '|' && (d[0] == '<' || d[0] == '=' || d[0] == '|') && !strcmp(d + 1, want + 1);
}

/* NumPy's name of a simple dtype ("float32"), or NULL. */
static const char *dtype_name(const char *d, char *buf, size_t cap)
{
	static const struct {
		char k;
		const char *name;
	} kinds[] = {{'f', "float"}, {'i', "int"}, {'u', "uint"}, {'c', "complex"}, {'b', "bool"}};
	size_t i;
	char *end;
	long n;
	if (!d[0] || !d[1] || !strchr("<>|=", d[0]))
		return NULL;
	n = strtol(d + 2, &end, 10);
	if (*end || n <= 0 || n > 64)
		return NULL;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].k == d[1]) {
			if (d[1] == 'b')
				snprintf(buf, cap, "bool");
			else
				snprintf(buf, cap, "%s%ld%s", kinds[i].name, n * 8,
					 d[0] == '>' && n > 1 ? ", big-endian" : "");
			return buf;
		}
	return NULL;
}

/* "(32, 32)", "(5,)", "()" */
static void shape_str(char *buf, size_t cap, unsigned rank, const uint64_t *shape)
{
	size_t n = 0;
	unsigned i;
	n += (size_t)snprintf(buf, cap, "(");
	for (i = 0; i < rank && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%llu", i ? ", " : "",
				      (unsigned long long)shape[i]);
	if (n < cap)
		snprintf(buf + n, cap - n, "%s)", rank == 1 ? "," : "");
}

/* Whether two shapes are equal once their dimensions of size 1 are left out: such a
 * dimension changes no element's place in C or in Fortran order. */
static int same_shape(unsigned ra, const uint64_t *a, unsigned rb, const uint64_t *b)
{
	unsigned i = 0, j = 0;
	for (;;) {
		while (i < ra && a[i] == 1)
			i++;
		while (j < rb && b[j] == 1)
			j++;
		if (i == ra || j == rb)
			return i == ra && j == rb;
		if (a[i++] != b[j++])
			return 0;
	}
}

/* ---- the header ------------------------------------------------------- */

typedef struct hparse {
	const char *s, *end;
	const char *why; /* what was expected, after a failure */
} hparse;

static void skip_ws(hparse *h)
{
	while (h->s < h->end && (*h->s == ' ' || *h->s == '\t' || *h->s == '\n' || *h->s == '\r'))
		h->s++;
}

/* After white space, `c` if it comes next: 1 (consumed), else 0. */
static int accept(hparse *h, char c)
{
	skip_ws(h);
	if (h->s < h->end && *h->s == c) {
		h->s++;
		return 1;
	}
	return 0;
}

static int eat(hparse *h, char c, const char *why)
{
	if (accept(h, c))
		return 0;
	h->why = why;
	return -1;
}

/* A quoted string ('...' or "...") into buf. */
static int str_lit(hparse *h, char *buf, size_t cap, const char *why)
{
	char q;
	size_t n = 0;
	skip_ws(h);
	if (h->s >= h->end || (*h->s != '\'' && *h->s != '"')) {
		h->why = why;
		return -1;
	}
	q = *h->s++;
	while (h->s < h->end && *h->s != q) {
		if (n + 1 < cap)
			buf[n++] = *h->s;
		h->s++;
	}
	if (h->s >= h->end) {
		h->why = "an unterminated string";
		return -1;
	}
	h->s++;
	buf[n] = 0;
	return 0;
}

static int word(hparse *h, const char *w)
{
	size_t n = strlen(w);
	skip_ws(h);
	if ((size_t)(h->end - h->s) >= n && !memcmp(h->s, w, n)) {
		h->s += n;
		return 1;
	}
	return 0;
}

/* (d0, d1, ...) */
static int shape_lit(hparse *h, npy_hdr *o)
{
	o->rank = 0;
	if (eat(h, '(', "a tuple after 'shape'"))
		return -1;
	for (;;) {
		uint64_t v = 0;
		int digits = 0;
		skip_ws(h);
		if (h->s < h->end && *h->s == ')') {
			h->s++;
			return 0;
		}
		while (h->s < h->end && *h->s >= '0' && *h->s <= '9') {
			if (v > (UINT64_MAX >> 4)) {
				h->why = "a dimension below 2^60";
				return -1;
			}
			v = v * 10 + (uint64_t)(*h->s++ - '0');
			digits++;
		}
		if (!digits) {
			h->why = "a non-negative integer in 'shape'";
			return -1;
		}
		if (h->s < h->end && *h->s == 'L') /* Python 2 long */
			h->s++;
		if (o->rank == NPY_MAX_RANK) {
			h->why = "at most 64 dimensions";
			return -1;
		}
		o->shape[o->rank++] = v;
		if (accept(h, ','))
			continue;
		if (eat(h, ')', "',' or ')' in 'shape'"))
			return -1;
		return 0;
	}
}

/* The header dict: every key once, no other key. */
static int dict_lit(hparse *h, npy_hdr *o)
{
	int seen[3] = {0, 0, 0};
	char key[32];
	if (eat(h, '{', "'{'"))
		return -1;
	for (;;) {
		int k;
		skip_ws(h);
		if (h->s < h->end && *h->s == '}')
			break;
		if (str_lit(h, key, sizeof key, "a key in quotes") || eat(h, ':', "':' after a key"))
			return -1;
		k = !strcmp(key, "descr") ? 0 : !strcmp(key, "fortran_order") ? 1
		    : !strcmp(key, "shape") ? 2 : -1;
		if (k < 0) {
			h->why = "only the keys 'descr', 'fortran_order' and 'shape'";
			return -1;
		}
		if (seen[k]++) {
			h->why = "each key once";
			return -1;
		}
		if (k == 0) {
			skip_ws(h);
			if (h->s < h->end && *h->s == '[') { /* a record dtype: refused later */
				int depth = 0;
				for (; h->s < h->end; h->s++) {
					depth += *h->s == '[' ? 1 : *h->s == ']' ? -1 : 0;
					if (!depth)
						break;
				}
				if (h->s >= h->end) {
					h->why = "']' closing 'descr'";
					return -1;
				}
				h->s++;
				o->structured = 1;
			} else if (str_lit(h, o->descr, sizeof o->descr, "a string after 'descr'")) {
				return -1;
			}
		} else if (k == 1) {
			if (word(h, "True"))
				o->fortran = 1;
			else if (word(h, "False"))
				o->fortran = 0;
			else {
				h->why = "True or False after 'fortran_order'";
				return -1;
			}
		} else if (shape_lit(h, o)) {
			return -1;
		}
		if (accept(h, ','))
			continue;
		if (eat(h, '}', "',' or '}' after a value"))
			return -1;
		h->s--;
	}
	if (!seen[0] || !seen[1] || !seen[2]) {
		h->why = !seen[0] ? "a 'descr' key" : !seen[1] ? "a 'fortran_order' key" : "a 'shape' key";
		return -1;
	}
	return 0;
}

/* Reads and parses the header of f; 0, or -1 with the message in err. */
static int read_header(FILE *f, const char *path, npy_hdr *o, char *err, size_t cap)
{
	unsigned char pre[12];
	uint32_t hlen;
	char *text;
	hparse h;
	size_t n = fread(pre, 1, 8, f);
	if (n < 6 || memcmp(pre, "\x93NUMPY", 6)) {
		if (ferror(f))
			snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
		else
			snprintf(err, cap, "'%s' is not a .npy file (it does not start with NumPy's "
				 "magic string \\x93NUMPY)", path);
		return -1;
	}
	if (n < 8) {
		snprintf(err, cap, "'%s' is truncated: it ends inside its header", path);
		return -1;
	}
	if (pre[6] < 1 || pre[6] > 3 || pre[7] != 0) {
		snprintf(err, cap, "'%s' has .npy format version %u.%u (ptoc reads 1.0, 2.0 and 3.0)",
			 path, pre[6], pre[7]);
		return -1;
	}
	n = pre[6] == 1 ? 2 : 4;
	if (fread(pre + 8, 1, n, f) != n) {
		snprintf(err, cap, "'%s' is truncated: it ends inside its header", path);
		return -1;
	}
	hlen = pre[8] | (uint32_t)pre[9] << 8;
	if (n == 4)
		hlen |= (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
	if (hlen > NPY_MAX_HEADER) {
		snprintf(err, cap, "'%s' has a malformed header: %lu bytes long", path,
			 (unsigned long)hlen);
		return -1;
	}
	text = malloc((size_t)hlen + 1);
	if (!text) {
		snprintf(err, cap, "out of memory");
		return -1;
	}
	if (fread(text, 1, hlen, f) != hlen) {
		free(text);
		snprintf(err, cap, "'%s' is truncated: it ends inside its header", path);
		return -1;
	}
	memset(o, 0, sizeof *o);
	h.s = text;
	h.end = text + hlen;
	h.why = NULL;
	if (dict_lit(&h, o)) {
		snprintf(err, cap, "'%s' has a malformed header: expected %s at byte %lu of %lu",
			 path, h.why, (unsigned long)(h.s - text), (unsigned long)hlen);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/* ---- reading ---------------------------------------------------------- */

/* Reads exactly n bytes; 0, 1 when the file ended first, -1 on a read error. */
static int read_exact(FILE *f, void *p, size_t n, size_t *got)
{
	*got = fread(p, 1, n, f);
	if (*got == n)
		return 0;
	return ferror(f) ? -1 : 1;
}

/* dst (C order) from src (Fortran order) for elements of `item` bytes. */
static void from_fortran(unsigned char *dst, const unsigned char *src, unsigned rank,
			 const uint64_t *shape, size_t item)
{
	uint64_t idx[NPY_MAX_RANK], fstride[NPY_MAX_RANK], n = 1, k, off = 0;
	unsigned d;
	for (d = 0; d < rank; d++) {
		fstride[d] = n;
		n *= shape[d];
		idx[d] = 0;
	}
	for (k = 0; k < n; k++) {
		memcpy(dst + k * item, src + off * item, item);
		for (d = rank; d-- > 0;) { /* the next index in C order */
			if (++idx[d] < shape[d]) {
				off += fstride[d];
				break;
			}
			idx[d] = 0;
			off -= (shape[d] - 1) * fstride[d];
		}
	}
}

int hnpy_load(const ptort_main_arg *a, const char *path, void **p, uint64_t *elems, char *err,
	      size_t cap)
{
	npy_hdr h;
	char got_s[128], want_s[128], name[48];
	const uint64_t *want = a->rank ? a->shape : &a->elems;
	unsigned want_rank = a->rank ? a->rank : 1, d;
	unsigned item, bits = a->bits;
	uint64_t n = 1, nbytes;
	size_t got;
	unsigned char *file = NULL, *buf = NULL, extra;
	FILE *f;
	int rc, transpose;
	*p = NULL;
	if (ptort_type_bits(a->type) != a->bits) {
		snprintf(err, cap, "'%s': the program has no element type for the argument (build "
			 "it again with ptoc), so .npy files cannot be checked", path);
		return -1;
	}
	item = item_bytes(a->type);
	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (read_header(f, path, &h, err, cap))
		goto fail;
	if (h.structured || !descr_ok(h.descr, a->type)) {
		const char *wd = descr_of(a->type);
		char wn[48];
		dtype_name(wd, wn, sizeof wn);
		if (h.structured)
			snprintf(got_s, sizeof got_s, "a structured dtype");
		else if (dtype_name(h.descr, name, sizeof name))
			snprintf(got_s, sizeof got_s, "%s ('%s')", name, h.descr);
		else
			snprintf(got_s, sizeof got_s, "dtype '%s'", h.descr);
		if (numpy_lacks(a->type))
			snprintf(want_s, sizeof want_s, "%s ('%s', %s bit patterns%s)", wn, wd,
				 ptort_type_name(a->type), bits < 8 ? ", one element per byte" : "");
		else
			snprintf(want_s, sizeof want_s, "%s ('%s')", wn, wd);
		snprintf(err, cap, "'%s' holds %s; the kernel's %s buffer takes %s", path, got_s,
			 ptort_type_name(a->type), want_s);
		goto fail;
	}
	for (d = 0; d < h.rank; d++) {
		if (h.shape[d] && n > UINT64_MAX / h.shape[d] / item) {
			snprintf(err, cap, "'%s' has a malformed header: its shape is too large", path);
			goto fail;
		}
		n *= h.shape[d];
	}
	if (a->elems && !same_shape(h.rank, h.shape, want_rank, want)) {
		shape_str(got_s, sizeof got_s, h.rank, h.shape);
		shape_str(want_s, sizeof want_s, want_rank, want);
		snprintf(err, cap, "'%s' has shape %s; the argument's shape is %s", path, got_s, want_s);
		goto fail;
	}
	nbytes = n * item;
	if (nbytes > (size_t)-1 - 2) {
		snprintf(err, cap, "'%s' is too large for this host", path);
		goto fail;
	}
	/* C order in whole bytes lands in the GM buffer directly; else the file's bytes are
	 * read whole, then put in C order and packed */
	transpose = h.fortran && h.rank > 1;
	buf = malloc((size_t)(bits < 8 ? (n + 1) / 2 : nbytes) + 1); /* no n * bits: it may wrap */
	file = transpose || bits < 8 ? malloc((size_t)nbytes + 1) : buf;
	if (!buf || !file) {
		snprintf(err, cap, "out of memory");
		goto fail;
	}
	rc = read_exact(f, file, (size_t)nbytes, &got);
	if (rc) {
		shape_str(got_s, sizeof got_s, h.rank, h.shape);
		if (rc < 0)
			snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
		else
			snprintf(err, cap, "'%s' is truncated: %llu data bytes, its shape %s of '%s' "
				 "needs %llu", path, (unsigned long long)got, got_s, h.descr,
				 (unsigned long long)nbytes);
		goto fail;
	}
	if (fread(&extra, 1, 1, f) == 1) {
		shape_str(got_s, sizeof got_s, h.rank, h.shape);
		snprintf(err, cap, "'%s' is too long: more than the %llu data bytes of its shape %s "
			 "of '%s'", path, (unsigned long long)nbytes, got_s, h.descr);
		goto fail;
	}
	if (transpose) {
		unsigned char *c = bits < 8 ? malloc((size_t)nbytes + 1) : buf;
		if (!c) {
			snprintf(err, cap, "out of memory");
			goto fail;
		}
		from_fortran(c, file, h.rank, h.shape, item);
		free(file);
		file = c;
	}
	if (bits < 8) { /* one element per byte -> two per byte */
		uint64_t k;
		for (k = 0; k < n; k++)
			if (file[k] > 0xF) {
				snprintf(err, cap, "'%s': element %llu is 0x%X, not a %s bit pattern (0 to "
					 "0xF, one element per byte)", path, (unsigned long long)k,
					 file[k], ptort_type_name(a->type));
				goto fail;
			}
		memset(buf, 0, (size_t)((n + 1) / 2));
		for (k = 0; k < n; k++)
			buf[k / 2] |= (unsigned char)(file[k] << (k & 1 ? 4 : 0));
	}
	if (file != buf)
		free(file);
	fclose(f);
	*p = buf;
	*elems = n;
	return 0;
fail:
	if (file != buf)
		free(file);
	free(buf);
	fclose(f);
	return -1;
}

/* ---- writing ---------------------------------------------------------- */

int hnpy_write(FILE *f, const ptort_main_arg *a, const void *p, uint64_t elems)
{
	char hdr[64 * 24 + 160], shape[64 * 22 + 8];
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
	const uint64_t one[1] = {elems};
	size_t n, total;
	shape_str(shape, sizeof shape, a->rank && a->elems ? a->rank : 1,
		  a->rank && a->elems ? a->shape : one);
	n = (size_t)snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
			     descr_of(a->type), shape);
	total = (10 + n + 1 + 63) / 64 * 64; /* the data starts on a multiple of 64 */
	memset(hdr + n, ' ', total - 10 - n - 1);
	hdr[total - 10 - 1] = '\n';
	n = total - 10;
	pre[8] = (unsigned char)(n & 0xFF);
	pre[9] = (unsigned char)(n >> 8);
	if (fwrite(pre, 1, 10, f) != 10 || fwrite(hdr, 1, n, f) != n)
		return -1;
	if (a->bits >= 8) {
		size_t bytes = (size_t)elems * (a->bits / 8);
		return !bytes || fwrite(p, 1, bytes, f) == bytes ? 0 : -1;
	} else {
		const unsigned char *s = p;
		unsigned char chunk[4096];
		uint64_t k = 0;
		while (k < elems) {
			size_t m = 0;
			for (; m < sizeof chunk && k < elems; m++, k++)
				chunk[m] = (unsigned char)((s[k / 2] >> (k & 1 ? 4 : 0)) & 0xF);
			if (fwrite(chunk, 1, m, f) != m)
				return -1;
		}
	}
	return 0;
}
