/*
 * populate.c - the pass -sdy-populate-op-sharding-rules: every op inside a
 * func.func gets its sharding rule from the registry as sdy.sharding_rule
 * (spec/sharding-rules.md section 1).  Ops visited in post-order, as MLIR's
 * walk does; an op that already has a rule keeps it.  Option
 * conservative-propagation selects the conservative rule variants.
 */
#include "rules/rules.h"

#include <stdlib.h>

#include "passes/pass.h"

typedef SL_VEC(sl_op *) opvec;

/* Appends the ops nested in op, then op itself (post-order). */
static void
collect_post_order(sl_op *root, opvec *out)
{
	/* explicit stack of (op, next region) so deep nesting cannot overflow */
	typedef struct frame {
		sl_op *op;
		uint32_t region;
		sl_block *block;
		sl_op *child;
	} frame;
	SL_VEC(frame) st = {0};
	frame f0 = {root, 0, NULL, NULL};

	SL_VEC_PUSH(st, f0);
	while (st.n) {
		frame *f = &st.v[st.n - 1];
		sl_op *next = NULL;

		while (!next) {
			if (f->child) {
				next = f->child;
				f->child = next->next;
				break;
			}
			if (f->block && f->block->next) {
				f->block = f->block->next;
				f->child = f->block->first;
				continue;
			}
			if (f->region < f->op->nregions) {
				f->block = f->op->regions[f->region++].first;
				f->child = f->block ? f->block->first : NULL;
				continue;
			}
			break;
		}
		if (next) {
			frame nf = {next, 0, NULL, NULL};
			SL_VEC_PUSH(st, nf);
		} else {
			SL_VEC_PUSH(*out, f->op);
			st.n--;
		}
	}
	SL_VEC_FREE(st);
}

/* The func.func ops of the module, also inside nested builtin.modules. */
static void
collect_funcs(sl_op *op, opvec *out)
{
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next) {
				if (o->kind == SL_OP_FUNC)
					collect_post_order(o, out);
				else if (o->kind == SL_OP_MODULE)
					collect_funcs(o, out);
			}
}

int
sli_pass_populate_op_sharding_rules(sl_module *m, const sli_pass_opts *opts)
{
	sli_rule_opts ro = {0};
	opvec ops = {0};
	int rc = 0;

	ro.conservative = opts->rules.conservative;
	ro.warn = true;
	if (m->top)
		collect_funcs(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (sli_rule_attach(m, ops.v[i], &ro, NULL) < 0)
			rc = -1;
	sli_rule_opts_fini(&ro);
	SL_VEC_FREE(ops);
	return rc;
}
