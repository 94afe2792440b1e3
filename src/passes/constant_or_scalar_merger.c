/*
 * constant_or_scalar_merger.c - -sdy-constant-or-scalar-merger
 * (sdy_export_passes.md): the inverse of the import's splitter once
 * propagation is done.  Walking the module in post-order, a constant
 * (sdy.constant, stablehlo.constant, arith.constant) whose attributes,
 * inherent and discardable, equal those of an earlier constant of the
 * same region is replaced by it; likewise a stablehlo.broadcast_in_dim of
 * a scalar with the same attributes, region, result type and operand as
 * an earlier one.  Attributes include the sharding, so differently
 * sharded or annotated copies stay apart; as in Shardy the op's name is
 * not part of the comparison.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

static bool
named_subset(const sl_named_attr *a, uint32_t na, const sl_named_attr *b, uint32_t nb)
{
	for (uint32_t i = 0; i < na; i++) {
		bool found = false;
		for (uint32_t j = 0; j < nb && !found; j++)
			found = a[i].name == b[j].name && sli_attr_equal(a[i].attr, b[j].attr);
		if (!found)
			return false;
	}
	return true;
}

/* Whether the attribute dictionaries of x and y (props and attrs) are equal. */
static bool
same_attrs(const sl_op *x, const sl_op *y)
{
	return x->nattrs == y->nattrs && x->nprops == y->nprops &&
	       named_subset(x->attrs, x->nattrs, y->attrs, y->nattrs) &&
	       named_subset(x->props, x->nprops, y->props, y->nprops);
}

static bool
is_constant(const sl_op *op)
{
	return op->kind == SL_OP_SDY_CONSTANT || op->kind == SL_OP_CONSTANT ||
	       op->kind == SL_OP_ARITH_CONSTANT;
}

static bool
is_scalar_broadcast(const sl_op *op)
{
	const sl_type *t = op->noperands == 1 ? op->operands[0]->type : NULL;
	return op->kind == SL_OP_BROADCAST_IN_DIM && t && t->kind == SL_TYPE_TENSOR &&
	       !t->unranked && t->rank == 0;
}

/* Whether a may stand for b: same kind of candidate and the same key. */
static bool
same_key(const sl_op *a, const sl_op *b)
{
	if (a->parent->parent != b->parent->parent || !same_attrs(a, b))
		return false;
	if (is_constant(a))
		return is_constant(b);
	return is_scalar_broadcast(b) && a->operands[0] == b->operands[0] &&
	       a->results[0].type == b->results[0].type;
}

int
sli_pass_constant_or_scalar_merger(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0}, kept = {0};
	sli_collect_postorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->nresults != 1 || !op->parent || !(is_constant(op) || is_scalar_broadcast(op)))
			continue;
		sl_op *same = NULL;
		for (size_t k = 0; k < kept.n && !same; k++)
			if (same_key(kept.v[k], op))
				same = kept.v[k];
		if (!same) {
			SL_VEC_PUSH(kept, op);
			continue;
		}
		sli_value_replace_uses(&op->results[0], &same->results[0], NULL);
		sli_op_erase(op);
	}
	SL_VEC_FREE(kept);
	SL_VEC_FREE(ops);
	return 0;
}
