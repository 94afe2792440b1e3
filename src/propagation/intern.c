/*
 * intern.c - hash-consing of the shardings propagation writes: equal
 * shardings share one address in the module arena, so that step
 * signatures and the step memo compare shardings by pointer.
 */
#include "propagation/prop_internal.h"

static bool
axes_eq(const sl_axis_list *a, const sl_axis_list *b)
{
	return sli_axis_list_equal(a->v, a->n, b->v, b->n);
}

bool
sli_prop_sharding_eq(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh_name != b->mesh_name || a->rank != b->rank ||
	    a->reduction != b->reduction)
		return false;
	if ((a->mesh || b->mesh) &&
	    (!a->mesh || !b->mesh || !sli_mesh_equal(a->mesh, b->mesh)))
		return false;
	for (uint32_t d = 0; d < a->rank; d++) {
		const sl_dim_sharding *x = &a->dims[d], *y = &b->dims[d];
		if (x->open != y->open || x->priority != y->priority || !axes_eq(&x->axes, &y->axes))
			return false;
	}
	return axes_eq(&a->replicated, &b->replicated) && axes_eq(&a->unreduced, &b->unreduced);
}

static uint64_t
axes_hash(uint64_t h, const sl_axis_list *l)
{
	h = sli_prop_mix(h, l->n);
	for (uint32_t i = 0; i < l->n; i++) {
		h = sli_prop_mix(h, l->v[i].name);
		if (l->v[i].sub)
			h = sli_prop_mix(sli_prop_mix(h, (uint64_t)l->v[i].pre),
			                 (uint64_t)l->v[i].size);
	}
	return h;
}

/* Agrees with sharding_eq up to inline meshes, which hash by address. */
static uint64_t
sharding_hash(const sl_sharding *s)
{
	uint64_t h = 1469598103934665603ULL;
	h = sli_prop_mix(sli_prop_mix(h, s->mesh_name), (uint64_t)(uintptr_t)s->mesh);
	h = sli_prop_mix(sli_prop_mix(h, s->rank), (uint64_t)s->reduction);
	for (uint32_t d = 0; d < s->rank; d++) {
		h = sli_prop_mix(sli_prop_mix(h, s->dims[d].open), (uint64_t)s->dims[d].priority);
		h = axes_hash(h, &s->dims[d].axes);
	}
	return axes_hash(axes_hash(h, &s->replicated), &s->unreduced);
}

static sl_axis_list
dup_axes(sli_arena *a, const sl_axis_list *l)
{
	sl_axis_list r = {NULL, l->n};
	if (l->n)
		r.v = sli_arena_dup(a, l->v, sizeof *l->v * l->n);
	return r;
}

/*
 * The module-arena sharding equal to s (a scratch sharding): the one made
 * before, or a copy.  Equal results of many steps share one sharding, so
 * the step signatures, which compare shardings by address, hit more often
 * and the module grows only by shardings that are new.
 */
static bool
interned_eq(const void *item, const void *key)
{
	return sli_prop_sharding_eq(item, key);
}

const sl_sharding *
sli_prop_intern(sli_prop *P, const sl_sharding *s)
{
	uint64_t h = sharding_hash(s);
	sli_hslot *slot = sli_htab_slot(&P->interned, h, interned_eq, s, 1024);
	if (slot->item)
		return slot->item;
	sli_arena *a = &P->m->arena;
	sl_sharding *c = SL_NEW(a, sl_sharding);
	*c = *s;
	c->dims = SL_NEWN(a, sl_dim_sharding, s->rank ? s->rank : 1);
	for (uint32_t d = 0; d < s->rank; d++) {
		c->dims[d] = s->dims[d];
		c->dims[d].axes = dup_axes(a, &s->dims[d].axes);
	}
	c->replicated = dup_axes(a, &s->replicated);
	c->unreduced = dup_axes(a, &s->unreduced);
	sli_htab_fill(&P->interned, slot, h, c);
	return c;
}
