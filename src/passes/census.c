/*
 * census.c - which kinds of ops a module holds, so that pipelines skip
 * the passes that have nothing to do.
 */
#include "passes/census.h"

#include "passes/symtab.h"

#include <string.h>

static int
census_op(sl_op *op, void *ud)
{
	unsigned *c = ud;
	switch (op->kind) {
	case SL_OP_CALL:
		*c |= SLI_HAS_CALL;
		break;
	case SL_OP_SDY_MANUAL_COMPUTATION:
		*c |= SLI_HAS_MANUAL | SLI_HAS_DATA_FLOW_OP;
		break;
	case SL_OP_SDY_NAMED_COMPUTATION:
		*c |= SLI_HAS_NAMED | SLI_HAS_DATA_FLOW_OP;
		break;
	case SL_OP_WHILE:
	case SL_OP_CASE:
	case SL_OP_OPTIMIZATION_BARRIER:
		*c |= SLI_HAS_DATA_FLOW_OP;
		break;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		*c |= SLI_HAS_EDGE;
		break;
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		*c |= SLI_HAS_FUNC_EDGE;
		break;
	case SL_OP_SDY_SHARDING_CONSTRAINT:
		*c |= SLI_HAS_CONSTRAINT;
		break;
	case SL_OP_SDY_SHARDING_GROUP:
		*c |= SLI_HAS_GROUP;
		break;
	case SL_OP_SDY_RESHARD:
		*c |= SLI_HAS_RESHARD;
		break;
	case SL_OP_COMPOSITE:
		*c |= SLI_HAS_COMPOSITE;
		break;
	default:
		break;
	}
	return 0;
}

unsigned
sli_census(sl_module *m)
{
	unsigned c = 0;
	sli_walk(m->top, census_op, &c);
	return c;
}

bool
sli_has_private_symbol(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		sl_attr *v = sli_op_get(op, SLS_sym_visibility);
		if (v && v->kind == SL_ATTR_STRING && v->u.s.n == 7 &&
		    !memcmp(v->u.s.p, "private", 7) && sli_op_sym_name(m, op))
			return true;
	}
	return false;
}

bool
sli_funcs_may_move(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	uint32_t n = 0;
	for (sl_op *op = body ? body->first : NULL; op; op = op->next)
		if (op->kind == SL_OP_FUNC && (++n > 1 || op->next))
			return true;
	return false;
}
