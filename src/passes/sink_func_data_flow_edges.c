/*
 * sink_func_data_flow_edges.c - -sdy-sink-func-data-flow-edges (export;
 * spec/import-passes.md section 4): each `sdy.func_data_flow_edge` is
 * replaced by its operand, which takes the edge's sharding (or, lacking
 * one, a fully open copy of its own).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

int
sli_pass_sink_func_data_flow_edges(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *e = ops.v[i];
		if (e->kind != SL_OP_SDY_FUNC_DATA_FLOW_EDGE || e->noperands != 1)
			continue;
		sl_value *x = e->operands[0];
		sl_sharding *s = sli_result_sharding(e, 0);
		sl_sharding *old = sli_value_sharding(x);
		if (!s && old)
			s = sli_sharding_open(m, old->mesh_name, old->mesh, old->rank);
		if (s)
			sli_value_set_sharding(m, x, s);
		sli_value_replace_uses(&e->results[0], x, e);
		sli_op_erase(e);
	}
	SL_VEC_FREE(ops);
	return 0;
}
