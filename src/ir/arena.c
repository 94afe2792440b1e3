/*
 * arena.c - chunked bump allocator; large requests get a chunk of their
 * own.  Chunks double from 64 KiB to 4 MiB, so that a big module lives in
 * few chunks.  They are plain malloc blocks: offering them to the kernel
 * for transparent huge pages (madvise) made every first touch of 2 MiB
 * stall on compaction and zeroing, which cost a third of the CPU time of
 * parsing a 144 MB program (doc/performance.md).
 */
#include "config.h"

#include "ir/arena.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct sli_chunk {
	sli_chunk *next;
	size_t size;
	_Alignas(16) char data[];
};

enum { CHUNK = 64 * 1024, MAX_CHUNK = 4 * 1024 * 1024 };

/* A chunk of `bytes` bytes in all (header included). */
static sli_chunk *
chunk_new(size_t bytes)
{
	return sli_xmalloc(bytes);
}

void
sli_arena_init(sli_arena *a)
{
	a->head = NULL;
	a->cur = a->end = NULL;
	a->total = 0;
	a->next = 0;
}

void
sli_arena_fini(sli_arena *a)
{
	sli_chunk *c = a->head, *next;
	for (; c; c = next) {
		next = c->next;
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
	if (own) {
		/* A big block: give it its own chunk behind the head. */
		sli_chunk *c = chunk_new(sizeof(sli_chunk) + n);
		c->size = n;
		a->total += n;
		if (a->head) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = NULL;
			a->head = c;
			a->cur = a->end = c->data + n;
		}
		return c->data;
	}
	size_t bytes = a->next ? a->next : CHUNK;
	a->next = bytes < MAX_CHUNK ? bytes * 2 : bytes;
	size_t size = bytes - sizeof(sli_chunk);
	sli_chunk *c = chunk_new(bytes);
	c->size = size;
	c->next = a->head;
	a->head = c;
	a->total += size;
	a->cur = c->data + n;
	a->end = c->data + size;
	return c->data;
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
