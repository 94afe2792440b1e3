/*
 * verify_quick.c - whether a module verifies, in one walk.  The walk of
 * verify.c follows MLIR's order so that the first failure it reports is
 * MLIR's; that order costs seven passes over the module (use counts,
 * attributes built while parsing, ops, isolation, symbol uses), each a
 * stream through all of it, which on a program larger than the caches
 * made verifying cost half as much as parsing.  This walk makes the same
 * checks, each op's all at once, with the verifier quiet; sl_module_verify
 * runs the ordered walk only when one of them fails.  The checks are the
 * same functions, so the two walks fail on the same modules.
 */
#include "verify/verifier.h"

#include <stdlib.h>

typedef struct quick {
	verifier *v;
	/* data-flow edges: their check needs use counts, taken at the end */
	SL_VEC(sl_op *) edges;
} quick;

/*
 * Region isolation (sli_verify_isolation), one operand at a time: `iso`
 * is the region of the nearest isolated-from-above op around the user.
 * A value of the user's own block, the common case, is inside it.
 */
static bool
operand_inside(const sl_op *user, const sl_value *val, const sl_region *iso)
{
	const sl_block *b = val->def ? val->def->parent : val->block;

	if (b == user->parent)
		return true;
	return sli_verify_region_within(sli_verify_value_region(val), iso);
}

static int
quick_op(quick *q, sl_op *op, const sl_region *iso)
{
	verifier *v = q->v;

	v->op = op;
	if (sli_verify_built_attrs_of(v, op) || sli_verify_op_attrs(v, op))
		return -1;
	if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE ||
	    op->kind == SL_OP_SDY_FUNC_DATA_FLOW_EDGE)
		SL_VEC_PUSH(q->edges, op);
	else if (sli_verify_invariants(v, op))
		return -1;
	if (sli_verify_symbol_uses(v, op))
		return -1;
	for (uint32_t i = 0; iso && i < op->noperands; i++)
		if (!operand_inside(op, op->operands[i], iso))
			return -1;
	if (op->kind == SL_OP_MODULE && sli_verify_symbol_names(v, op))
		return -1;
	bool isolated = sli_verify_is_isolated(op);
	for (uint32_t r = 0; r < op->nregions; r++) {
		const sl_region *inner = isolated ? &op->regions[r] : iso;

		for (sl_block *b = op->regions[r].first; b; b = b->next) {
			if (!b->first && sli_verify_needs_terminator(op))
				return -1;
			for (sl_op *o = b->first; o; o = o->next)
				if (quick_op(q, o, inner))
					return -1;
		}
	}
	return 0;
}

int
sli_verify_quick(verifier *v)
{
	quick q = {v, {0}};
	int rc = quick_op(&q, v->m->top, NULL);

	if (rc == 0 && q.edges.n) {
		sli_compute_use_counts(v->m->top);
		for (size_t i = 0; rc == 0 && i < q.edges.n; i++) {
			v->op = q.edges.v[i];
			rc = sli_verify_invariants(v, q.edges.v[i]);
		}
	}
	SL_VEC_FREE(q.edges);
	return rc;
}
