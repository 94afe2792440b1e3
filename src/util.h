/*
 * util.h - allocation that never returns NULL, growable vectors and an
 * output/string buffer shared by every module of the library.
 * Ownership: a buffer owns its bytes until sli_buf_fini or sli_buf_take.
 */
#ifndef SL_UTIL_H
#define SL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>

void *sli_xmalloc(size_t n);
void *sli_xcalloc(size_t n, size_t size);
void *sli_xrealloc(void *p, size_t n);
char *sli_xstrdup(const char *s);
char *sli_xstrndup(const char *s, size_t n);
/* Makes the pages from the one holding p to the last whole page before
 * p + n resident and writable at once (util.c); advice only.  The first
 * may be shared with other memory, which it leaves as it is; calls on
 * consecutive ranges leave no page between them out. */
void sli_populate(void *p, size_t n);

/* Euclid's greatest common divisor (of sizes; its sign follows C's %). */
static inline int64_t
sli_gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#define SL_UNREACHABLE() sli_unreachable(__FILE__, __LINE__)
_Noreturn void sli_unreachable(const char *file, int line);

/*
 * Typed vector: struct { T *v; size_t n, cap; }.  SL_VEC_PUSH grows by
 * doubling; growth is checked for overflow by sli_grow.
 */
#define SL_VEC(T) struct { T *v; size_t n, cap; }
void *sli_grow(void *p, size_t *cap, size_t need, size_t elem);
#define SL_VEC_RESERVE(vec, need) \
	((need) > (vec).cap ? (void)((vec).v = sli_grow((vec).v, &(vec).cap, (need), sizeof *(vec).v)) : (void)0)
#define SL_VEC_PUSH(vec, x) \
	(SL_VEC_RESERVE(vec, (vec).n + 1), (vec).v[(vec).n++] = (x))
#define SL_VEC_FREE(vec) (free((vec).v), (vec).v = NULL, (vec).n = (vec).cap = 0)

/* A growable byte buffer, used for output and for building messages. */
typedef struct sli_buf {
	char *p;
	size_t n, cap;
} sli_buf;

void sli_buf_init(sli_buf *b);
void sli_buf_fini(sli_buf *b);
void sli_buf_reserve(sli_buf *b, size_t extra);
void sli_buf_put(sli_buf *b, const char *s, size_t n);
void sli_buf_puts(sli_buf *b, const char *s);
void sli_buf_printf(sli_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sli_buf_vprintf(sli_buf *b, const char *fmt, va_list ap);
void sli_buf_i64(sli_buf *b, int64_t v);
/* NUL-terminated view; the buffer keeps ownership. */
const char *sli_buf_cstr(sli_buf *b);
static inline void
sli_buf_putc(sli_buf *b, char c)
{
	if (b->n + 1 >= b->cap)
		sli_buf_reserve(b, 1);
	b->p[b->n++] = c;
}

uint64_t sli_hash(const void *p, size_t n);

/* A hash of an address for tables keyed by pointer (its high bits mixed). */
static inline uint32_t
sli_ptr_hash(const void *p)
{
	return (uint32_t)((((uint64_t)(uintptr_t)p >> 3) * 0x9E3779B97F4A7C15ULL) >> 32);
}

/* Reads a whole file (or stdin for "-") into a NUL-terminated heap buffer. */
char *sli_read_file(const char *path, size_t *len);

#endif
