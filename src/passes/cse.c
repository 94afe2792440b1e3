/*
 * cse.c - -cse, MLIR's common subexpression elimination for the ops
 * shardlp knows to be free of side effects (sli_op_format_pure) and to
 * have no regions: an op equal to one before it (same kind and name,
 * operands, result types, attributes and properties, shardings included)
 * whose results that op's dominate takes its results, and is erased.
 * Dominance in structured regions: an op sees the ops before it in its
 * block and in the blocks around it, up to a region isolated from above
 * (a function, a computation), as MLIR's scoped table does.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/rewrite.h"
#include "util/hash.h"

/* The tables of the scopes open, innermost last. */
typedef struct scopes {
	SL_VEC(sli_htab) v;
	size_t base;		/* the first scope visible (isolated region) */
	size_t erased;
} scopes;

static uint64_t
op_hash(const sl_op *op)
{
	uint64_t h = sli_hash_mix(SLI_HASH_SEED, (uint64_t)op->kind);
	h = sli_hash_mix(h, op->name);
	for (uint32_t i = 0; i < op->noperands; i++)
		h = sli_hash_mix(h, (uint64_t)(uintptr_t)op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++)
		h = sli_hash_mix(h, (uint64_t)(uintptr_t)op->results[i].type);
	return sli_hash_mix(h, (uint64_t)op->nattrs << 32 | op->nprops);
}

static bool
attrs_equal(const sl_named_attr *a, const sl_named_attr *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].name != b[i].name || !sli_attr_equal(a[i].attr, b[i].attr))
			return false;
	return true;
}

static bool
op_equal(const void *item, const void *key)
{
	const sl_op *a = item, *b = key;
	if (a->kind != b->kind || a->name != b->name || a->noperands != b->noperands ||
	    a->nresults != b->nresults || a->nattrs != b->nattrs || a->nprops != b->nprops)
		return false;
	for (uint32_t i = 0; i < a->noperands; i++)
		if (a->operands[i] != b->operands[i])
			return false;
	for (uint32_t i = 0; i < a->nresults; i++)
		if (a->results[i].type != b->results[i].type)
			return false;
	return attrs_equal(a->attrs, b->attrs, a->nattrs) &&
	       attrs_equal(a->props, b->props, a->nprops);
}

static void walk_region(sl_module *m, scopes *S, sl_region *r, bool isolated);

/* The ops of block b, in order, against the scopes open. */
static void
walk_block(sl_module *m, scopes *S, sl_block *b)
{
	sl_op *next;
	for (sl_op *op = b->first; op; op = next) {
		next = op->next;
		bool iso = (sli_op_info[op->kind].traits & T_ISO) || op->kind == SL_OP_FUNC;
		for (uint32_t k = 0; k < op->nregions; k++)
			walk_region(m, S, &op->regions[k], iso);
		if (op->nregions || !op->nresults || !sli_op_format_pure(op))
			continue;
		uint64_t h = op_hash(op);
		sl_op *same = NULL;
		for (size_t s = S->v.n; s-- > S->base && !same;)
			same = sli_htab_get(&S->v.v[s], h, op_equal, op);
		if (same) {
			for (uint32_t i = 0; i < op->nresults; i++)
				sli_value_replace_uses(&op->results[i], &same->results[i], op);
			sli_op_erase(op);
			S->erased++;
			continue;
		}
		sli_htab *t = &S->v.v[S->v.n - 1];
		sli_hslot *slot = sli_htab_slot(t, h, op_equal, op, 16);
		sli_htab_fill(t, slot, h, op);
	}
}

/* Each block of r in a scope of its own; isolated: nothing outside seen. */
static void
walk_region(sl_module *m, scopes *S, sl_region *r, bool isolated)
{
	size_t base = S->base;
	if (isolated)
		S->base = S->v.n;
	for (sl_block *b = r->first; b; b = b->next) {
		sli_htab t = {NULL, 0, 0};
		SL_VEC_PUSH(S->v, t);
		walk_block(m, S, b);
		sli_htab_fini(&S->v.v[--S->v.n]);
	}
	S->base = base;
}

int
sli_pass_cse(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	scopes S = {{0}, 0, 0};
	for (uint32_t k = 0; m->top && k < m->top->nregions; k++)
		walk_region(m, &S, &m->top->regions[k], true);
	SL_VEC_FREE(S.v);
	return 0;
}
