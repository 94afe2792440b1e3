/*
 * unflatten_call_graph.c - -sdy-unflatten-call-graph (spec/propagation.md
 * section 8.1, step 16): calls to clones of one original function with
 * identical argument and result shardings all call the first such
 * callee met; then sdy.original_func_name and sdy.func_manual_axes leave
 * every function.  symbol-dce removes the unused clones afterwards.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdint.h>

#include <stdlib.h>

static bool
same(const sl_sharding *a, const sl_sharding *b)
{
	return a == b || (a && b && sli_sharding_equal(a, b));
}

static bool
same_shardings(const sl_op *f, const sl_op *g)
{
	sl_block *a = sli_func_body(f), *b = sli_func_body(g);
	uint32_t na = a ? a->nargs : 0, nb = b ? b->nargs : 0;
	if (na != nb || sli_func_nresults(f) != sli_func_nresults(g))
		return false;
	for (uint32_t i = 0; i < na; i++)
		if (!same(sli_func_arg_sharding(f, i), sli_func_arg_sharding(g, i)))
			return false;
	for (uint32_t i = 0; i < sli_func_nresults(f); i++)
		if (!same(sli_func_res_sharding(f, i), sli_func_res_sharding(g, i)))
			return false;
	return true;
}

int
sli_pass_unflatten_call_graph(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	/*
	 * The functions kept so far, chained per original name (kept in
	 * order; first[name] and next[] index it), so that each call looks
	 * only at the functions it could be merged with.
	 */
	SL_VEC(sl_op *) kept = {0};
	SL_VEC(size_t) next = {0};
	sli_symidx first = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *call = ops.v[i];
		if (call->kind != SL_OP_CALL)
			continue;
		sl_op *f = sli_call_func(m, call);
		if (!f)
			continue;
		sl_sym orig = sli_func_original_name(m, f);
		sl_op *to = NULL;
		size_t last = SIZE_MAX;
		for (size_t k = sli_symidx_get(&first, orig); k != SIZE_MAX && !to; k = next.v[k]) {
			if (kept.v[k] == f || same_shardings(kept.v[k], f))
				to = kept.v[k];
			last = k;
		}
		if (!to) {
			/* append to the chain of orig */
			if (last == SIZE_MAX)
				sli_symidx_set(&first, orig, kept.n);
			else
				next.v[last] = kept.n;
			SL_VEC_PUSH(kept, f);
			SL_VEC_PUSH(next, SIZE_MAX);
		} else if (to != f) {
			sli_call_set_callee(m, call, sli_op_sym_name(m, to));
		}
	}
	sli_symidx_fini(&first);
	SL_VEC_FREE(next);
	SL_VEC_FREE(kept);
	SL_VEC_FREE(ops);
	sl_sym orig = sli_sym(m, "sdy.original_func_name");
	sl_sym manual = sli_sym(m, "sdy.func_manual_axes");
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		sli_op_set_attr(m, f, orig, NULL);
		sli_op_set_attr(m, f, manual, NULL);
	}
	return 0;
}
