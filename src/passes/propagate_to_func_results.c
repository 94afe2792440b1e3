/*
 * propagate_to_func_results.c - -sdy-propagate-to-func-results (export;
 * spec/import-passes.md section 4): every function other than main takes
 * the shardings of its returned values as its result shardings (or loses
 * a result sharding when the value has none).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

int
sli_pass_propagate_to_func_results(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_op *main = sli_main_func(m);
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC || f == main || !sli_func_body(f))
			continue;
		sl_op *ret = sli_func_body(f)->last;
		if (!ret || ret->kind != SL_OP_RETURN)
			continue;
		for (uint32_t i = 0; i < ret->noperands; i++)
			sli_func_set_res_sharding(m, f, i, sli_value_sharding(ret->operands[i]));
	}
	return 0;
}
