/* util.c - checked allocation, vectors, byte buffers, hashing, file reading. */
#include "util.h"

#include "shardlp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static sl_fatal_fn *fatal_hook;

void
sl_set_fatal_hook(sl_fatal_fn *fn)
{
	fatal_hook = fn;
}

/* Hands message to the program's hook, then ends the process. */
static _Noreturn void
fatal(const char *message)
{
	if (fatal_hook)
		fatal_hook(message);
	abort();
}

static _Noreturn void
oom(void)
{
	fatal("out of memory");
}

void *
sli_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *
sli_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *
sli_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *
sli_xstrndup(const char *s, size_t n)
{
	char *p = sli_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
sli_xstrdup(const char *s)
{
	return sli_xstrndup(s, strlen(s));
}

void
sli_unreachable(const char *file, int line)
{
	char message[256];
	snprintf(message, sizeof message, "internal error at %s:%d", file, line);
	fatal(message);
}

/*
 * A vector of GROW_HUGE bytes or more (a big module's tables: the
 * parser's names, the propagation index's ops and uses) is offered for
 * transparent huge pages: where the system grants them its pages fault
 * in 2 MiB at a time, on a virtual machine of CI's kind 50 times
 * cheaper than 4 KiB at a time (doc/performance.md, step 18).  Only its
 * aligned 2 MiB stretches, and only where written, so the waste is the
 * partly written last one.  A hint: refused, small pages do.
 */
enum { GROW_HUGE = 4 << 20, HUGE_PAGE = 2 << 20 };

static void
offer_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *
sli_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 4;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			oom();
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		oom();
	*cap = c;
	p = sli_xrealloc(p, c * elem);
	if (c * elem >= GROW_HUGE)
		offer_huge(p, c * elem);
	return p;
}

void
sli_buf_init(sli_buf *b)
{
	b->p = NULL;
	b->n = b->cap = 0;
}

void
sli_buf_fini(sli_buf *b)
{
	free(b->p);
	sli_buf_init(b);
}

void
sli_buf_reserve(sli_buf *b, size_t extra)
{
	if (b->n + extra + 1 <= b->cap)
		return;
	b->p = sli_grow(b->p, &b->cap, b->n + extra + 1, 1);
}

void
sli_buf_put(sli_buf *b, const char *s, size_t n)
{
	sli_buf_reserve(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

void
sli_buf_puts(sli_buf *b, const char *s)
{
	sli_buf_put(b, s, strlen(s));
}

void
sli_buf_vprintf(sli_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	sli_buf_reserve(b, (size_t)n);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	b->n += (size_t)n;
}

void
sli_buf_printf(sli_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sli_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
sli_buf_i64(sli_buf *b, int64_t v)
{
	char tmp[24];
	int i = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	sli_buf_reserve(b, (size_t)i + 1);
	if (v < 0)
		b->p[b->n++] = '-';
	while (i)
		b->p[b->n++] = tmp[--i];
}

const char *
sli_buf_cstr(sli_buf *b)
{
	sli_buf_reserve(b, 0);
	b->p[b->n] = 0;
	return b->p;
}

uint64_t
sli_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return h;
}

/*
 * One madvise(MADV_POPULATE_WRITE) (Linux 5.14) for many pages costs far
 * less than a page fault on each: on a virtual machine of the kind CI
 * runs on, 4 us a page against 14 us (doc/performance.md, step 18).
 * Elsewhere the pages fault in one by one as before.
 */
void
sli_populate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	static uintptr_t page;
	if (!page)
		page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);	/* advice only */
#else
	(void)p;
	(void)n;
#endif
}

char *
sl_read_text(FILE *f, size_t *len)
{
	/*
	 * A regular file is read into one block of its size (and room to
	 * see its end), made resident before the read copies into it (a
	 * page fault a page cost more); grown by doubling, the copies left
	 * behind stayed in the heap, as much again as a small program's
	 * text (issue 17).
	 */
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < SIZE_MAX / 2)
		cap = (size_t)st.st_size + 2;
	char *p = malloc(cap);
	if (p)
		sli_populate(p, cap);
	while (p) {
		if (n + 1 >= cap) {
			char *q = cap <= SIZE_MAX / 2 ? realloc(p, cap * 2) : NULL;
			if (!q) {
				free(p);
				p = NULL;
				break;
			}
			p = q;
			cap *= 2;
		}
		size_t got = fread(p + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	if (ferror(f)) {
		free(p);
		errno = EIO;
		return NULL;
	}
	p[n] = 0;
	*len = n;
	return p;
}

char *
sli_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	char *p = sl_read_text(f, len);
	int err = errno;
	if (f != stdin)
		fclose(f);
	errno = err;
	return p;
}
