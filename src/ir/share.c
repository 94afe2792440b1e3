/*
 * share.c - read-only blocks shared by a module's attributes: the integer
 * lists of dimension numbers (dims = [0, 1], contracting_dims = [2] x
 * [0], array<i64: ...>) and the structs that hold them repeat on
 * thousands of ops of a large program with a handful of distinct values,
 * so each distinct block is kept once in the module arena (issue 17:
 * peak memory).  Nothing writes through a shared block.  Whole
 * attributes likewise, where neither their contents nor their location
 * are ever used apart from their value.
 */
#include "config.h"

#include "ir/ir.h"

typedef struct share_item {
	size_t n;
	_Alignas(8) unsigned char data[];
} share_item;

typedef struct share_key {
	const void *p;
	size_t n;
} share_key;

static bool
share_eq(const void *item, const void *key)
{
	const share_item *it = item;
	const share_key *k = key;
	return it->n == k->n && memcmp(it->data, k->p, k->n) == 0;
}

const void *
sli_module_share(sl_module *m, const void *p, size_t n)
{
	if (!n)
		return NULL;
	share_key k = {p, n};
	uint64_t h = sli_hash_words(p, n);
	sli_hslot *slot = sli_htab_slot(&m->shared, h, share_eq, &k, 256);
	if (!slot->item) {
		share_item *it = sli_arena_alloc(&m->arena, sizeof *it + n);
		it->n = n;
		memcpy(it->data, p, n);
		sli_htab_fill(&m->shared, slot, h, it);
	}
	return ((const share_item *)slot->item)->data;
}

/* An attribute's bytes after its location: its kind, then its value. */
typedef struct attr_key {
	const sl_attr *a;
	size_t n;	/* bytes of the value (the union member) */
} attr_key;

static bool
attr_eq(const void *item, const void *key)
{
	const sl_attr *it = item;
	const attr_key *k = key;
	return it->kind == k->a->kind && memcmp(&it->u, &k->a->u, k->n) == 0;
}

sl_attr *
sli_attr_share(sl_module *m, const sl_attr *a)
{
	size_t size = sli_attr_size(a->kind);
	attr_key k = {a, size - offsetof(sl_attr, u)};
	uint64_t h = sli_hash_words(&a->u, k.n) ^ (uint64_t)a->kind;
	sli_hslot *slot = sli_htab_slot(&m->shared_attrs, h, attr_eq, &k, 256);
	if (!slot->item) {
		sl_attr *c = sli_arena_alloc(&m->arena, size);
		memcpy(c, a, size);
		c->shared = 1;
		sli_htab_fill(&m->shared_attrs, slot, h, c);
	}
	return slot->item;
}

static bool
named1_eq(const void *item, const void *key)
{
	const sl_named_attr *it = item, *k = key;
	return it->name == k->name && it->attr == k->attr;
}

static uint64_t
named1_hash(sl_sym name, const sl_attr *attr)
{
	return sli_hash_mix(sli_hash_mix(SLI_HASH_SEED, name), (uint64_t)(uintptr_t)attr);
}

sl_named_attr *
sli_named1_share(sl_module *m, sl_sym name, sl_attr *attr)
{
	sl_named_attr k = {name, attr};
	uint64_t h = named1_hash(name, attr);
	sli_hslot *slot = sli_htab_slot(&m->shared_named, h, named1_eq, &k, 256);
	if (!slot->item) {
		sl_named_attr *v = SL_NEW(&m->arena, sl_named_attr);
		*v = k;
		sli_htab_fill(&m->shared_named, slot, h, v);
	}
	return slot->item;
}

bool
sli_named1_shared(const sl_module *m, const sl_named_attr *v)
{
	return sli_htab_get(&m->shared_named, named1_hash(v->name, v->attr), named1_eq, v) == v;
}
