/*
 * locattr.c - the `loc(...)` attributes written after ops and block
 * arguments, in a side table of the module keyed by the op or value: few
 * carry one (a program printed with debug info, or written by hand), and
 * a pointer in every op and value struct cost 8 bytes each of a large
 * module's peak memory (issue 17).  Entries of erased ops and values
 * stay (their structs are never reused).
 */
#include "config.h"

#include "ir/ir.h"

typedef struct locent {
	const void *key;	/* an sl_op or sl_value */
	sl_attr *loc;
} locent;

static bool
locent_eq(const void *item, const void *key)
{
	return ((const locent *)item)->key == key;
}

static uint64_t
locent_hash(const void *key)
{
	return sli_hash_mix(SLI_HASH_SEED, (uint64_t)(uintptr_t)key);
}

static sl_attr *
loc_get(const sl_module *m, const void *key)
{
	if (!m->locattrs.n)
		return NULL;
	const locent *e = sli_htab_get(&m->locattrs, locent_hash(key), locent_eq, key);
	return e ? e->loc : NULL;
}

static void
loc_set(sl_module *m, const void *key, sl_attr *loc)
{
	if (!loc && !m->locattrs.n)
		return;
	uint64_t h = locent_hash(key);
	sli_hslot *s = sli_htab_slot(&m->locattrs, h, locent_eq, key, 64);
	if (s->item) {
		((locent *)s->item)->loc = loc;
		return;
	}
	if (!loc)
		return;
	locent *e = SL_NEW(&m->arena, locent);
	e->key = key;
	e->loc = loc;
	sli_htab_fill(&m->locattrs, s, h, e);
}

sl_attr *
sli_op_locattr(const sl_module *m, const sl_op *op)
{
	return loc_get(m, op);
}

void
sli_op_set_locattr(sl_module *m, sl_op *op, sl_attr *loc)
{
	loc_set(m, op, loc);
}

void
sli_op_copy_loc(sl_module *m, sl_op *to, const sl_op *from)
{
	to->loc = from->loc;
	loc_set(m, to, loc_get(m, from));
}

sl_attr *
sli_value_locattr(const sl_module *m, const sl_value *v)
{
	return loc_get(m, v);
}

void
sli_value_set_locattr(sl_module *m, sl_value *v, sl_attr *loc)
{
	loc_set(m, v, loc);
}
