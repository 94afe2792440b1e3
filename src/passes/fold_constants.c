/*
 * fold_constants.c - what MLIR's canonicalizer does to constants, for
 * -canonicalize on programs that still hold stablehlo.constant (Shardy's
 * import turns them into sdy.constant, which is no constant to MLIR's
 * folder and is left alone):
 *
 *  - The constants of a function (or of any op isolated from above, such
 *    as sdy.manual_computation) live in its entry block: visited in
 *    program order, each constant not yet at the front of that block (or
 *    right after a constant already placed) moves to its front.  So
 *    constants already leading the block keep their order and the others
 *    end up before them in the reverse of their order in the program, as
 *    mlir-opt prints them; constants in nested regions (a while body)
 *    move out to the entry block as well.
 *  - A constant equal to one placed before (the same value and type in
 *    the same function) is replaced by it: one constant per value.
 *
 * Other attributes (an sdy.sharding) play no part in the equality, as in
 * MLIR's folder.  Folding of other ops is not done: StableHLO's own ops
 * leave it to separate simplification passes.
 */
#include "passes/pass.h"

#include "passes/passutil.h"

#include <stdlib.h>

typedef SL_VEC(sl_op *) opvec;

static int
collect_constants(sl_op *op, void *ud)
{
	opvec *v = ud;
	if (op->kind == SL_OP_CONSTANT && op->nresults == 1) {
		op->id = 0;
		SL_VEC_PUSH(*v, op);
	}
	return 0;
}

/* The entry block of the region constants of the block b go to. */
static sl_block *
insertion_block(sl_block *b)
{
	for (;;) {
		sl_region *r = b->parent;
		sl_op *owner = r ? r->parent : NULL;
		if (!owner || !owner->parent ||
		    (sli_op_info[owner->kind].traits & T_ISO) || owner->kind == SL_OP_FUNC)
			return r ? r->first : b;
		b = owner->parent;
	}
}

/* Whether c's value and type are those of k. */
static bool
same_constant(const sl_op *c, const sl_op *k)
{
	return c->results[0].type == k->results[0].type &&
	       sli_attr_equal(sli_op_get(c, SLS_value), sli_op_get(k, SLS_value));
}

/* The uses of each erased duplicate (its id: 1 + its index in repl) move
 * to the constant it duplicates. */
static int
forward_uses(sl_op *op, void *ud)
{
	sl_op **repl = ud;
	for (uint32_t i = 0; i < op->noperands; i++) {
		const sl_op *d = op->operands[i] ? op->operands[i]->def : NULL;
		if (d && d->kind == SL_OP_CONSTANT && !d->parent && d->id)
			op->operands[i] = &repl[d->id - 1]->results[0];
	}
	return 0;
}

bool
sli_fold_constants(sl_module *m)
{
	opvec all = {0}, kept = {0}, repl = {0};
	bool changed = false;
	sli_walk(m->top, collect_constants, &all);
	SL_VEC(sl_block *) home = {0};	/* kept.v[k] lives in home.v[k] */
	for (size_t i = 0; i < all.n; i++) {
		sl_op *c = all.v[i];
		sl_block *ib = insertion_block(c->parent);
		size_t k;
		for (k = 0; k < kept.n; k++)
			if (home.v[k] == ib && same_constant(c, kept.v[k]))
				break;
		if (k < kept.n) {
			sli_op_erase(c);
			SL_VEC_PUSH(repl, kept.v[k]);
			c->id = (uint32_t)repl.n;
			changed = true;
			continue;
		}
		const sl_op *p = c->prev;
		bool placed = c->parent == ib &&
		              (!p || (p->kind == SL_OP_CONSTANT && p->id == UINT32_MAX));
		if (!placed) {
			sli_op_erase(c);
			if (ib->first)
				sli_op_insert_before(ib->first, c);
			else
				sli_op_append(ib, c);
			changed = true;
		}
		c->id = UINT32_MAX;	/* placed: a constant after it stays */
		SL_VEC_PUSH(kept, c);
		SL_VEC_PUSH(home, ib);
	}
	if (repl.n)
		sli_walk(m->top, forward_uses, repl.v);
	SL_VEC_FREE(all);
	SL_VEC_FREE(kept);
	SL_VEC_FREE(repl);
	SL_VEC_FREE(home);
	return changed;
}
