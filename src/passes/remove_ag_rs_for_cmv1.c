/*
 * remove_ag_rs_for_cmv1.c - -sdy-remove-all-gather-reduce-scatter-for-cmv1
 * (sdy_export_passes.md): for collective matmul V1, an `sdy.all_gather`
 * whose only use is a stablehlo.dot or dot_general is replaced by its
 * input, and an `sdy.reduce_scatter` of a dot's result that has no
 * unreduced axes is removed, the dot taking its out_sharding.
 * Inferred from the case (all_gather_dot_reduce_scatter): the dot's
 * result must have the reduce-scatter as its only use, else both stay.
 * Uses are counted once, before any change.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static bool
is_dot(const sl_op *op)
{
	return op && (op->kind == SL_OP_DOT || op->kind == SL_OP_DOT_GENERAL);
}

/* The one user of v, or NULL. */
static sl_op *
only_user(const sli_uses *u, const sl_value *v)
{
	size_t n;
	const sli_use *use = sli_uses_of(u, v, &n);
	return n == 1 ? use[0].user : NULL;
}

static void
bypass(sl_op *op)
{
	sli_value_replace_uses(&op->results[0], op->operands[0], op);
	sli_op_erase(op);
}

int
sli_pass_remove_ag_rs_for_cmv1(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_uses u;
	sli_collect_postorder(m->top, &ops);
	sli_uses_compute(&u, m->top);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->noperands != 1 || op->nresults != 1)
			continue;
		if (op->kind == SL_OP_SDY_ALL_GATHER && is_dot(only_user(&u, &op->results[0]))) {
			bypass(op);
		} else if (op->kind == SL_OP_SDY_REDUCE_SCATTER) {
			sl_value *in = op->operands[0];
			const sl_sharding *s = in->def ? sli_result_sharding(in->def, 0) : NULL;
			if (!is_dot(in->def) || only_user(&u, in) != op || (s && s->unreduced.n))
				continue;
			sli_result_set_sharding(m, in->def, 0, sli_result_sharding(op, 0));
			bypass(op);
		}
	}
	sli_uses_fini(&u);
	SL_VEC_FREE(ops);
	return 0;
}
