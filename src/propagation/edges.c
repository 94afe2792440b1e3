/*
 * edges.c - steps through sdy.propagation_barrier (spec 7.5) and through
 * sdy.data_flow_edge (7.6): the edge's target against its sources, the
 * operands and terminator values of while, case, optimization_barrier
 * and the computations.
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"

void
sli_prop_visit_barrier(sli_prop *P, sl_op *op)
{
	if (op->noperands != 1 || op->nresults != 1 ||
	    !sli_prop_static_tensor(op->results[0].type))
		return;
	sl_attr *d = sli_op_get(op, SLS_allowed_direction);
	int dir = d && d->kind == SL_ATTR_DIRECTION ? d->u.direction : SL_DIR_NONE;
	const sl_rule *rule = sli_prop_identity_rule(P, op->results[0].type, 1, 1);
	stensor ts[2];
	sli_prop_plain(P, &ts[0], op->operands[0]);
	sli_prop_plain(P, &ts[1], &op->results[0]);
	step_args a = {op, rule, NULL, DIR_FIXED, dir, false, true, true, false, NULL, false};
	sli_prop_step(P, &a, ts, 1, 1);
}

static sl_value *
terminator_operand(sl_region *r, uint32_t k)
{
	sl_block *b = r->first;
	sl_op *t = b ? b->last : NULL;
	return t && (sli_op_info[t->kind].traits & T_TERM) && k < t->noperands
	       ? t->operands[k] : NULL;
}

void
sli_prop_visit_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults || !sli_prop_static_tensor(e->results[0].type))
		return;
	sl_value *owner = e->operands[0];
	sl_op *d = owner->def;
	uint32_t k = owner->index;
	/* the sources, then the target: at most one source per region, or two */
	uint32_t cap = (d ? d->nregions : 0) + 2, n = 0;
	stensor *ts = sli_arena_alloc(&P->scratch, sizeof *ts * (cap + 1));
	stensor target;
	sli_prop_plain(P, &target, &e->results[0]);
	if (d) {
		switch (d->kind) {
		case SL_OP_WHILE:
			if (k < d->noperands)
				sli_prop_plain(P, &ts[n++], d->operands[k]);
			if (d->nregions > 1 && terminator_operand(&d->regions[1], k))
				sli_prop_plain(P, &ts[n++], terminator_operand(&d->regions[1], k));
			break;
		case SL_OP_CASE:
			for (uint32_t r = 0; r < d->nregions; r++)
				if (terminator_operand(&d->regions[r], k))
					sli_prop_plain(P, &ts[n++],
					               terminator_operand(&d->regions[r], k));
			break;
		case SL_OP_OPTIMIZATION_BARRIER:
			if (k < d->noperands)
				sli_prop_plain(P, &ts[n++], d->operands[k]);
			break;
		case SL_OP_SDY_MANUAL_COMPUTATION:
			target.view = VIEW_MC_RES;
			target.mc = d;
			target.mci = k;
			target.s = sli_sharding_erase_manual(P->m, d, target.s);
			/* fall through */
		case SL_OP_SDY_NAMED_COMPUTATION:
			if (d->nregions && terminator_operand(&d->regions[0], k))
				sli_prop_plain(P, &ts[n++], terminator_operand(&d->regions[0], k));
			break;
		default:
			break;
		}
	} else if (owner->block && owner->block->parent) {
		sl_op *o = owner->block->parent->parent;
		if (o && (o->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
		          o->kind == SL_OP_SDY_NAMED_COMPUTATION) && k < o->noperands) {
			sli_prop_plain(P, &ts[n++], o->operands[k]);
			if (o->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
				target.view = VIEW_MC_ARG;
				target.mc = o;
				target.mci = k;
				target.s = sli_prop_add_manual(P->m, o, sli_comp_in_sharding(o, k),
				                               target.s);
			}
		}
	}
	if (!n)
		return;
	ts[n] = target;
	const sl_rule *rule = sli_prop_identity_rule(P, e->results[0].type, n, 1);
	step_args a = {e, rule, NULL, DIR_STRATEGY, 0, false, false, true, false, NULL, false};
	sli_prop_step(P, &a, ts, n, 1);
}
