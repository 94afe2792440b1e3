/*
 * hash.h - one open-addressing hash set of pointers for the whole library.
 * The caller hashes a key and says when an item matches it; the table
 * keeps each item's hash, probes linearly and doubles before it is half
 * full.  Ownership: the table owns its slot array only, never the items
 * (which must not be NULL: a NULL item marks an empty slot).
 */
#ifndef SL_UTIL_HASH_H
#define SL_UTIL_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One FNV-1a step: h with the word x folded in (start from
 * SLI_HASH_SEED), for keys built of several fields. */
#define SLI_HASH_SEED 0xcbf29ce484222325ull
static inline uint64_t
sli_hash_mix(uint64_t h, uint64_t x)
{
	return (h ^ x) * 0x100000001b3ull;
}

typedef struct sli_hslot {
	uint64_t hash;
	void *item;		/* NULL: empty */
} sli_hslot;

/* Zero-initialised is empty and ready; sli_htab_fini frees the slots. */
typedef struct sli_htab {
	sli_hslot *slots;
	uint32_t n, cap;	/* cap: a power of two, or 0 */
} sli_htab;

/* Whether item is the one looked up with key. */
typedef bool sli_htab_eq(const void *item, const void *key);

void sli_htab_fini(sli_htab *t);
/* Empties t, keeping its slot array. */
void sli_htab_clear(sli_htab *t);
/* Doubles t (first to `min` slots) when it is half full. */
void sli_htab_reserve(sli_htab *t, uint32_t min);

/*
 * The slot of the item with hash h that eq accepts for key, or else the
 * empty slot where it belongs, which stays valid for sli_htab_fill until
 * the next lookup.  `min` is the first size of the slot array.  Inline,
 * so that eq, known at the call, is inlined too.
 */
static inline sli_hslot *
sli_htab_slot(sli_htab *t, uint64_t h, sli_htab_eq *eq, const void *key, uint32_t min)
{
	if (t->n * 2 >= t->cap)
		sli_htab_reserve(t, min);
	uint32_t mask = t->cap - 1;
	uint32_t j = (uint32_t)h & mask;
	for (;; j = (j + 1) & mask) {
		sli_hslot *s = &t->slots[j];
		if (!s->item || (s->hash == h && eq(s->item, key)))
			return s;
	}
}

/* Puts item (hash h) into the empty slot s that a lookup returned. */
static inline void
sli_htab_fill(sli_htab *t, sli_hslot *s, uint64_t h, void *item)
{
	s->hash = h;
	s->item = item;
	t->n++;
}

/* The item with hash h that eq accepts for key, or NULL. */
static inline void *
sli_htab_find(sli_htab *t, uint64_t h, sli_htab_eq *eq, const void *key, uint32_t min)
{
	return sli_htab_slot(t, h, eq, key, min)->item;
}

/* As sli_htab_find, for a table that is only read: t never grows. */
static inline void *
sli_htab_get(const sli_htab *t, uint64_t h, sli_htab_eq *eq, const void *key)
{
	if (!t->cap)
		return NULL;
	uint32_t mask = t->cap - 1;
	for (uint32_t j = (uint32_t)h & mask;; j = (j + 1) & mask) {
		const sli_hslot *s = &t->slots[j];
		if (!s->item || (s->hash == h && eq(s->item, key)))
			return s->item;
	}
}

#endif
