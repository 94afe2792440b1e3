/*
 * drop_sharding_rules.c - -sdy-drop-sharding-rules (export;
 * spec/import-passes.md section 4): every `sdy.sharding_rule` that is not
 * a custom rule is removed.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static int
drop(sl_op *op, void *ud)
{
	sl_module *m = ud;
	sl_attr *r = sli_op_rule_attr(op);
	if (r && !(r->kind == SL_ATTR_RULE && r->u.rule.custom))
		sli_op_set_rule_attr(m, op, NULL);
	return 0;
}

int
sli_pass_drop_sharding_rules(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_walk(m->top, drop, m);
	return 0;
}
