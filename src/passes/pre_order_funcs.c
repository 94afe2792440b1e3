/*
 * pre_order_funcs.c - -sdy-pre-order-funcs (spec/import-passes.md
 * section 2.13): functions are moved to the end of the module in
 * call-graph pre-order (callers before callees); other ops keep their
 * places before them.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

int
sli_pass_pre_order_funcs(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec funcs = {0};
	int rc = sli_func_order(m, true, false, &funcs);
	sl_block *body = sli_module_body(m);
	for (size_t i = 0; i < funcs.n; i++) {
		sli_op_erase(funcs.v[i]);
		sli_op_append(body, funcs.v[i]);
	}
	SL_VEC_FREE(funcs);
	return rc;
}
