/*
 * add_data_flow_edges.c - -sdy-add-data-flow-edges
 * (spec/import-passes.md section 2.7): a `sdy.data_flow_edge` on every
 * edge owner of every data-flow op (inner ops first), holding the owner's
 * current sharding.  Functions and calls get none.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

int
sli_pass_add_data_flow_edges(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_postorder(m->top, &ops);
	sli_add_data_flow_edges_all(m, ops.v, ops.n);
	SL_VEC_FREE(ops);
	return 0;
}
