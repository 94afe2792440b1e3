/*
 * arena.h - bump allocator.  Everything allocated from an arena dies with
 * sli_arena_fini (or is recycled by sli_arena_reset); nothing is freed
 * one by one.
 */
#ifndef SL_IR_ARENA_H
#define SL_IR_ARENA_H

#include <stddef.h>
#include <string.h>

typedef struct sli_chunk sli_chunk;

typedef struct sli_arena {
	sli_chunk *head;
	char *cur, *end;	/* free space of the head chunk, up to... */
	char *lim;	/* ...its end: `end` stops short of it where the
			   memory made resident so far ends (arena.c) */
	size_t total;	/* bytes obtained from malloc, for memory reports */
	unsigned next;	/* size of the next chunk, 0 for the first */
	_Bool huge;	/* chunks on huge pages (sli_arena_expect); in
			   next's padding: a bigger struct shifted the
			   module's fields and made printing 4% slower */
} sli_arena;

void sli_arena_init(sli_arena *a);
void sli_arena_fini(sli_arena *a);
void sli_arena_reset(sli_arena *a);
void *sli_arena_alloc_slow(sli_arena *a, size_t n);
/* Tells the arena it will hold about `bytes`: from SLI_ARENA_HUGE up,
 * its chunks are of the largest size from the first and ask for huge
 * pages (arena.c). */
void sli_arena_expect(sli_arena *a, size_t bytes);
enum { SLI_ARENA_HUGE = 16 * 1024 * 1024 };
/* Ends the head chunk: the next allocation takes a new chunk, so that it
 * can come from memory freed since, not the chunk's untouched rest. */
void sli_arena_seal(sli_arena *a);

/* Returns n bytes aligned to 8, uninitialised. */
/*
 * Under AddressSanitizer every allocation gets a chunk of its own, so that
 * reads and writes past the end of an arena object are caught.
 */
#if defined(__SANITIZE_ADDRESS__)
#define SL_ARENA_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SL_ARENA_EXACT 1
#endif
#endif

static inline void *
sli_arena_alloc(sli_arena *a, size_t n)
{
#ifdef SL_ARENA_EXACT
	return sli_arena_alloc_slow(a, n);
#endif
	n = (n + 7) & ~(size_t)7;
	if ((size_t)(a->end - a->cur) >= n && a->cur) {
		void *p = a->cur;
		a->cur += n;
		return p;
	}
	return sli_arena_alloc_slow(a, n);
}

static inline void *
sli_arena_zalloc(sli_arena *a, size_t n)
{
	return memset(sli_arena_alloc(a, n), 0, n);
}

void *sli_arena_dup(sli_arena *a, const void *p, size_t n);
char *sli_arena_strndup(sli_arena *a, const char *s, size_t n);

#define SL_NEW(a, T) ((T *)sli_arena_zalloc((a), sizeof(T)))
#define SL_NEWN(a, T, n) ((T *)sli_arena_zalloc((a), sizeof(T) * (size_t)(n)))

#endif
