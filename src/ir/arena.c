/* arena.c - chunked bump allocator; large requests get a chunk of their own. */
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

enum { CHUNK = 64 * 1024 };

void
sli_arena_init(sli_arena *a)
{
	a->head = NULL;
	a->cur = a->end = NULL;
	a->total = 0;
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
	if (n > SIZE_MAX - sizeof(sli_chunk) - CHUNK)
		sli_xmalloc(SIZE_MAX);	/* reports out of memory */
	bool own = n > CHUNK / 4;
#ifdef SL_ARENA_EXACT
	own = true;
#endif
	if (own) {
		/* A big block: give it its own chunk behind the head. */
		sli_chunk *c = sli_xmalloc(sizeof *c + n);
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
	size_t size = CHUNK;
	sli_chunk *c = sli_xmalloc(sizeof *c + size);
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
