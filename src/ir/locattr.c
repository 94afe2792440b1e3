/*
 * locattr.c - the trailing `loc(...)` attributes of ops, in a side table
 * of the module keyed by the op: few ops carry one (a program printed
 * with debug info, or written by hand), and a pointer in every op struct
 * cost 8 bytes a op of a large module's peak memory (issue 17).  Entries
 * of erased ops stay (op structs are never reused).
 */
#include "config.h"

#include "ir/ir.h"

typedef struct oploc {
	const sl_op *op;
	sl_attr *loc;
} oploc;

static bool
oploc_eq(const void *item, const void *key)
{
	return ((const oploc *)item)->op == key;
}

static uint64_t
oploc_hash(const sl_op *op)
{
	return sli_hash_mix(SLI_HASH_SEED, (uint64_t)(uintptr_t)op);
}

sl_attr *
sli_op_locattr(const sl_module *m, const sl_op *op)
{
	if (!m->oplocs.n)
		return NULL;
	const oploc *e = sli_htab_get(&m->oplocs, oploc_hash(op), oploc_eq, op);
	return e ? e->loc : NULL;
}

void
sli_op_set_locattr(sl_module *m, sl_op *op, sl_attr *loc)
{
	uint64_t h = oploc_hash(op);
	if (!loc && !m->oplocs.n)
		return;
	sli_hslot *s = sli_htab_slot(&m->oplocs, h, oploc_eq, op, 64);
	if (s->item) {
		((oploc *)s->item)->loc = loc;
		return;
	}
	if (!loc)
		return;
	oploc *e = SL_NEW(&m->arena, oploc);
	e->op = op;
	e->loc = loc;
	sli_htab_fill(&m->oplocs, s, h, e);
}

void
sli_op_copy_loc(sl_module *m, sl_op *to, const sl_op *from)
{
	to->loc = from->loc;
	sli_op_set_locattr(m, to, sli_op_locattr(m, from));
}
