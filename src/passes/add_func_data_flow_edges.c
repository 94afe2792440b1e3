/*
 * add_func_data_flow_edges.c - -sdy-add-func-data-flow-edges
 * (spec/import-passes.md section 2.8): a `sdy.func_data_flow_edge` on
 * every static-shaped argument of each non-main function and on every
 * call result, through which all other uses of the value are routed.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

/* Creates the edge of v, carrying s as its sharding. */
static sl_op *
new_edge(sl_module *m, sl_value *v, const sl_sharding *s, sl_loc loc)
{
	sl_op *e = sli_op_create(m, SL_OP_SDY_FUNC_DATA_FLOW_EDGE, &v, 1, &v->type, 1, 0);
	e->loc = sli_value_loc(v).line ? sli_value_loc(v) : loc;
	if (s) {
		sl_sharding *c = (sl_sharding *)s;
		sli_result_set_spv(m, e, sli_attr_spv(m, &c, 1));
	}
	return e;
}

int
sli_pass_add_func_data_flow_edges(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_op *main = sli_main_func(m);
	if (!main) {
		sli_error(m->ctx, m->top->loc, "module has no main function: "
		          "expected one function, or one named 'main'");
		return -1;
	}
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body->first; f; f = f->next) {
		if (f->kind != SL_OP_FUNC || f == main || !sli_func_body(f))
			continue;
		sl_block *b = sli_func_body(f);
		sl_op *last = NULL;
		for (uint32_t i = 0; i < b->nargs; i++) {
			sl_value *a = &b->args[i];
			if (!sli_type_is_static(a->type))
				continue;
			sl_op *e = new_edge(m, a, sli_func_arg_sharding(f, i), f->loc);
			sli_value_replace_uses(a, &e->results[0], e);
			if (last)
				sli_op_insert_after(last, e);
			else
				sli_op_prepend(b, e);
			last = e;
		}
	}
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t k = 0; k < ops.n; k++) {
		sl_op *call = ops.v[k];
		if (call->kind != SL_OP_CALL)
			continue;
		sl_op *last = call;
		for (uint32_t i = 0; i < call->nresults; i++) {
			sl_value *r = &call->results[i];
			if (!sli_type_is_static(r->type))
				continue;
			sl_op *e = new_edge(m, r, sli_result_sharding(call, i), call->loc);
			sli_value_replace_uses(r, &e->results[0], e);
			sli_op_insert_after(last, e);
			last = e;
		}
	}
	SL_VEC_FREE(ops);
	return 0;
}
