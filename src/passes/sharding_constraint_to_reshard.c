/*
 * sharding_constraint_to_reshard.c - -sdy-sharding-constraint-to-reshard
 * (export; spec/import-passes.md section 4): every
 * `sdy.sharding_constraint` becomes an `sdy.reshard` with the same input,
 * sharding and attributes.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static int
convert(sl_op *op, void *ud)
{
	sl_module *m = ud;
	if (op->kind == SL_OP_SDY_SHARDING_CONSTRAINT) {
		op->kind = SL_OP_SDY_RESHARD;
		op->name = sli_sym(m, "sdy.reshard");
	}
	return 0;
}

int
sli_pass_sharding_constraint_to_reshard(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_walk(m->top, convert, m);
	return 0;
}
