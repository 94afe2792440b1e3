/*
 * remove_sharding_groups.c - -sdy-remove-sharding-groups (export;
 * spec/import-passes.md section 4): every `sdy.sharding_group` is erased.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

int
sli_pass_remove_sharding_groups(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_SDY_SHARDING_GROUP)
			sli_op_erase(ops.v[i]);
	SL_VEC_FREE(ops);
	return 0;
}
