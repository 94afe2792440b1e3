/* stab.c - the scoped table of names (stab.h). */
#include "util/stab.h"

#include <string.h>

typedef struct name_key {
	const sli_stab *t;
	const char *p;
	uint32_t n;
} name_key;

static bool
name_eq(const void *item, const void *key)
{
	const name_key *k = key;
	const sli_sname *e = &k->t->v.v[(uintptr_t)item - 1];
	return e->n == k->n && memcmp(e->p, k->p, k->n) == 0;
}

/* The item is the binding itself (an index + 1 passed as the key). */
static bool
same_binding(const void *item, const void *key)
{
	return item == key;
}

void
sli_stab_fini(sli_stab *t)
{
	SL_VEC_FREE(t->v);
	sli_htab_fini(&t->index);
}

uint32_t
sli_stab_find(const sli_stab *t, const char *p, uint32_t n)
{
	name_key k = {t, p, n};
	return (uint32_t)(uintptr_t)sli_htab_get(&t->index, sli_hash(p, n), name_eq, &k);
}

uint32_t
sli_stab_bind(sli_stab *t, const char *p, uint32_t n)
{
	name_key k = {t, p, n};
	uint64_t h = sli_hash(p, n);
	sli_hslot *slot = sli_htab_slot(&t->index, h, name_eq, &k, 256);
	sli_sname e = {p, n, (uint32_t)(uintptr_t)slot->item, h};
	SL_VEC_PUSH(t->v, e);
	void *item = (void *)(uintptr_t)t->v.n;
	if (slot->item)
		slot->item = item;
	else
		sli_htab_fill(&t->index, slot, h, item);
	return (uint32_t)t->v.n - 1;
}

void
sli_stab_pop(sli_stab *t, size_t mark)
{
	while (t->v.n > mark) {
		const sli_sname *e = &t->v.v[t->v.n - 1];
		void *item = (void *)(uintptr_t)t->v.n;
		sli_hslot *slot = sli_htab_slot(&t->index, e->hash, same_binding, item, 256);
		if (e->hidden)
			slot->item = (void *)(uintptr_t)e->hidden;
		else
			sli_htab_remove(&t->index, slot);
		t->v.n--;
	}
}
