/*
 * propagate_sharding_from_func_to_call.c -
 * -sdy-propagate-sharding-from-func-to-call (spec/import-passes.md
 * section 2.3): a call without `sdy.sharding` takes its callee's result
 * shardings, when one of them is on a non-maximal mesh.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

int
sli_pass_propagate_sharding_from_func_to_call(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t k = 0; k < ops.n; k++) {
		sl_op *call = ops.v[k];
		if (call->kind != SL_OP_CALL || sli_result_spv(call))
			continue;
		sl_op *f = sli_call_func(m, call);
		if (!f)
			continue;
		uint32_t n = sli_func_nresults(f);
		sl_sharding *first = NULL;
		for (uint32_t i = 0; i < n && !first; i++) {
			sl_sharding *s = sli_func_res_sharding(f, i);
			const sl_mesh *mesh = s ? sli_sharding_mesh(m, s) : NULL;
			if (s && !(mesh && mesh->naxes == 0 && mesh->nids == 1))
				first = s;
		}
		if (!first || n != call->nresults)
			continue;
		sl_sharding **v = SL_NEWN(&m->arena, sl_sharding *, n);
		for (uint32_t i = 0; i < n; i++) {
			v[i] = sli_func_res_sharding(f, i);
			if (!v[i])
				v[i] = sli_sharding_open(m, first->mesh_name, first->mesh,
				                         sli_value_rank(&call->results[i]));
		}
		sli_result_set_spv(m, call, sli_attr_spv(m, v, n));
	}
	SL_VEC_FREE(ops);
	return 0;
}
