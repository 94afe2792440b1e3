/*
 * flatten_call_graph.c - -sdy-flatten-call-graph (spec/import-passes.md
 * section 2.12): every function is called at most once; later calls get a
 * recursive clone of the callee, named through one symbol table.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdint.h>
#include <stdlib.h>

int
sli_pass_flatten_call_graph(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec calls = {0};
	if (sli_call_order(m, false, true, &calls)) {
		SL_VEC_FREE(calls);
		return -1;
	}
	sli_symtab syms;
	sli_symtab_init(&syms, m);
	sli_symidx seen = {0};	/* callees called so far */
	for (size_t k = 0; k < calls.n; k++) {
		sl_op *call = calls.v[k];
		sl_sym callee = sli_call_callee(m, call);
		if (sli_symidx_get(&seen, callee) == SIZE_MAX) {
			sli_symidx_set(&seen, callee, k);
			continue;
		}
		sl_op *f = sli_call_func(m, call);
		sl_op *c = sli_clone_func_recursively(&syms, f);
		sli_call_set_callee(m, call, sli_op_sym_name(m, c));
	}
	sli_symidx_fini(&seen);
	SL_VEC_FREE(calls);
	sli_symtab_fini(&syms);
	return 0;
}
