/*
 * arena.c - chunked bump allocator; large requests get a chunk of their
 * own.  Chunks double from 64 KiB to 4 MiB, so that a big module lives in
 * few chunks.  They are plain malloc blocks: offering them to the kernel
 * for transparent huge pages (madvise) made every first touch of 2 MiB
 * stall on compaction and zeroing, which cost a third of the CPU time of
 * parsing a 144 MB program (doc/performance.md).  Instead, the head
 * chunk is made resident a window at a time, ahead of the bump pointer,
 * by one madvise(MADV_POPULATE_WRITE) (Linux 5.14; elsewhere the pages
 * fault in one by one as before): a page fault for each fresh 4 KiB page
 * was a fifth of the time of parsing.  A window, not the whole chunk,
 * so that the unused tail of the last chunk stays out of the resident
 * set; in the smaller chunks a small one (populate), so that a small
 * module's arenas are resident little beyond their use.  On a virtual
 * machine of the kind CI runs on, a fault costs 11-14 us a page and the
 * window 4-6 us (doc/performance.md, step 18).
 *
 * An arena told it will be big (sli_arena_expect: a module parsed from
 * 16 MiB of text or more) takes chunks of the largest size from the
 * first, each on a 2 MiB boundary and offered for transparent huge
 * pages (madvise; where the system refuses, small pages do).  Such a
 * module outgrows the caches and the reach of the TLB with small pages,
 * and every pass that walks it missed the TLB on most ops; parsing
 * 8,000 layers (36 MB) took 0.130 s -> 0.120 s and propagating it
 * 0.084 s -> 0.078 s (doc/performance.md, step 17).  On the kernel of
 * step 1 the first touch of each huge page stalled on compaction; on
 * today's it no longer does.  Below that size the partial huge page at
 * the end of each arena would cost more memory than the walks gain.
 */
#include "config.h"

#include "ir/arena.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct sli_chunk {
	sli_chunk *next;
	size_t mapped;		/* bytes mapped for it, or 0: from malloc */
	_Alignas(16) char data[];
};

enum { CHUNK = 64 * 1024, MAX_CHUNK = 4 * 1024 * 1024, WINDOW = 256 * 1024, SMALL_WINDOW = 16 * 1024 };

/*
 * Makes the window from `from` (in the head chunk, which ends at lim)
 * resident, and returns the window's end: WINDOW bytes in the chunks of
 * the largest sizes, SMALL_WINDOW in the smaller ones, so that the last
 * chunk of a small module's arena is resident little beyond its use
 * (1,000 layers: parsing 12% faster than without these windows, peak
 * memory the same; 64 KiB ones were 7% faster still but put 250 KB on
 * the peak, 4.05 times the input).
 */
static char *
populate(const sli_arena *a, char *from, char *lim)
{
	size_t w = a->next >= MAX_CHUNK ? WINDOW : SMALL_WINDOW;
	char *to = (size_t)(lim - from) > w ? from + w : lim;
	sli_populate(from, (size_t)(to - from));
	return to;
}

enum { HUGE_PAGE = 2 * 1024 * 1024 };

/* A chunk of `bytes` bytes in all (header included), on huge pages if
 * asked and the system maps it. */
static sli_chunk *
chunk_new(size_t bytes, bool huge)
{
#if defined(MADV_HUGEPAGE) && !defined(SL_ARENA_EXACT)
	if (huge && bytes % HUGE_PAGE == 0) {
		/* room to start on a boundary; the pages before and after go back */
		size_t len = bytes + HUGE_PAGE;
		char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		               -1, 0);
		if (q != MAP_FAILED) {
			char *p = q + (HUGE_PAGE - (uintptr_t)q % HUGE_PAGE) % HUGE_PAGE;
			if (p > q)
				munmap(q, (size_t)(p - q));
			if (p + bytes < q + len)
				munmap(p + bytes, (size_t)(q + len - (p + bytes)));
			(void)madvise(p, bytes, MADV_HUGEPAGE);	/* a hint */
			sli_chunk *c = (sli_chunk *)(void *)p;
			c->mapped = bytes;
			return c;
		}
	}
#else
	(void)huge;
#endif
	sli_chunk *c = sli_xmalloc(bytes);
	c->mapped = 0;
	return c;
}

void
sli_arena_init(sli_arena *a)
{
	a->head = NULL;
	a->cur = a->end = a->lim = NULL;
	a->total = 0;
	a->next = 0;
	a->huge = false;
}

void
sli_arena_expect(sli_arena *a, size_t bytes)
{
	if (bytes < SLI_ARENA_HUGE)
		return;
	a->huge = true;
	if (!a->head)
		a->next = MAX_CHUNK;
}

void
sli_arena_fini(sli_arena *a)
{
	sli_chunk *c = a->head, *next;
	for (; c; c = next) {
		next = c->next;
		if (c->mapped)
			munmap(c, c->mapped);
		else
			free(c);
	}
	sli_arena_init(a);
}

void
sli_arena_reset(sli_arena *a)
{
	sli_arena_fini(a);
}

void *
sli_arena_alloc_slow(sli_arena *a, size_t n)
{
	if (n > SIZE_MAX - sizeof(sli_chunk) - MAX_CHUNK)
		sli_xmalloc(SIZE_MAX);	/* reports out of memory */
	bool own = n > CHUNK / 4;	/* also below the first chunk's size */
#ifdef SL_ARENA_EXACT
	own = true;
#endif
	if (!own && a->cur && (size_t)(a->lim - a->cur) >= n) {
		/* past the window, in the head chunk: the next window */
		a->end = populate(a, a->end, a->lim);
		void *p = a->cur;
		a->cur += n;
		return p;
	}
	if (own) {
		/* A big block: give it its own chunk behind the head. */
		sli_chunk *c = chunk_new(sizeof(sli_chunk) + n, false);
		a->total += n;
		if (a->head) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = NULL;
			a->head = c;
			a->cur = a->end = a->lim = c->data + n;
		}
		return c->data;
	}
	size_t bytes = a->next ? a->next : CHUNK;
	a->next = (unsigned)(bytes < MAX_CHUNK ? bytes * 2 : bytes);
	size_t size = bytes - sizeof(sli_chunk);
	sli_chunk *c = chunk_new(bytes, a->huge);
	c->next = a->head;
	a->head = c;
	a->total += size;
	a->cur = c->data + n;
	a->lim = c->data + size;
	a->end = populate(a, c->data, a->lim);
	return c->data;
}

void
sli_arena_seal(sli_arena *a)
{
	a->cur = a->end = a->lim;
}

void *
sli_arena_dup(sli_arena *a, const void *p, size_t n)
{
	void *q = sli_arena_alloc(a, n);
	if (n)
		memcpy(q, p, n);
	return q;
}

char *
sli_arena_strndup(sli_arena *a, const char *s, size_t n)
{
	char *q = sli_arena_alloc(a, n + 1);
	memcpy(q, s, n);
	q[n] = 0;
	return q;
}
