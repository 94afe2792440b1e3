/*
 * liveness.c - memory as a constraint (shardlp-cost(7), MEMORY): the live
 * range of every tensor of the model over the program order, the peak
 * live bytes per device of an assignment, and the maximal live sets that
 * the ILP's budget rows sum over.
 *
 * Program order: ops numbered in post-order of a walk of each function
 * (an op's regions before the op, functions one after another), so that
 * a loop's operands stay live over its body and its results begin after
 * it.  A tensor lives from the position of its defining op (a block
 * argument: from its block's first position) to its last use; function
 * arguments and returned values span the whole program, as they are held
 * by the caller.  A data-flow edge is its owner's tensor and adds nothing.
 */
#include "cost/cost.h"
#include "cost/primitives.h"

#include <stdlib.h>
#include <string.h>

typedef struct walker {
	sli_cost_model *cm;
	uint32_t pos;
	SL_VEC(sl_loc) locs;	/* the op at each position */
} walker;

static void
def_at(walker *w, const sl_value *v, uint32_t pos)
{
	uint32_t t = sli_cost_tensor_of(w->cm, v);
	if (t == UINT32_MAX)
		return;
	sli_cost_tensor *ct = &w->cm->tensors.v[t];
	if (pos < ct->live_from)
		ct->live_from = pos;
	if (ct->live_to < pos)
		ct->live_to = pos;
}

static void
use_at(walker *w, const sl_value *v, uint32_t pos)
{
	uint32_t t = sli_cost_tensor_of(w->cm, v);
	if (t == UINT32_MAX)
		return;
	sli_cost_tensor *ct = &w->cm->tensors.v[t];
	if (ct->live_to < pos)
		ct->live_to = pos;
}

static void walk_ops(walker *w, sl_block *blk);

static void
walk_op(walker *w, sl_op *op)
{
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *blk = op->regions[r].first; blk; blk = blk->next) {
			for (uint32_t i = 0; i < blk->nargs; i++)
				def_at(w, &blk->args[i], w->pos);
			walk_ops(w, blk);
		}
	uint32_t pos = w->pos++;
	SL_VEC_PUSH(w->locs, op->loc);
	for (uint32_t i = 0; i < op->noperands; i++)
		use_at(w, op->operands[i], pos);
	for (uint32_t i = 0; i < op->nresults; i++)
		def_at(w, &op->results[i], pos);
}

static void
walk_ops(walker *w, sl_block *blk)
{
	for (sl_op *op = blk->first; op; op = op->next)
		walk_op(w, op);
}

/* Function arguments and returned values: live from 0 to the end. */
static void
pin_func_ends(walker *w, sl_op *f, uint32_t end)
{
	sl_block *e = f->regions[0].first;
	for (uint32_t i = 0; i < e->nargs; i++) {
		uint32_t t = sli_cost_tensor_of(w->cm, &e->args[i]);
		if (t != UINT32_MAX)
			w->cm->tensors.v[t].live_from = 0, w->cm->tensors.v[t].live_to = end;
	}
	sl_op *ret = e->last;
	if (ret && ret->kind == SL_OP_RETURN)
		for (uint32_t i = 0; i < ret->noperands; i++) {
			uint32_t t = sli_cost_tensor_of(w->cm, ret->operands[i]);
			if (t != UINT32_MAX)
				w->cm->tensors.v[t].live_to = end;
		}
}

/*
 * The maximal live sets: a set is maximal at a position where some range
 * ends after some range began since the last such position (the cliques
 * of an interval graph).  Each becomes a row of cm.
 */
static void
live_rows(sli_cost_model *cm, const sl_loc *locs)
{
	uint32_t np = cm->npositions, nt = (uint32_t)cm->tensors.n;
	uint32_t *starts = sli_xcalloc(np + 1, sizeof *starts);
	uint32_t *ends = sli_xcalloc(np + 1, sizeof *ends);
	for (uint32_t t = 0; t < nt; t++) {
		starts[cm->tensors.v[t].live_from]++;
		ends[cm->tensors.v[t].live_to]++;
	}
	bool fresh = false;
	for (uint32_t p = 0; p < np; p++) {
		fresh |= starts[p] > 0;
		if (!ends[p] || !fresh)
			continue;
		fresh = false;
		SL_VEC_PUSH(cm->row_start, (uint32_t)cm->rows.n);
		SL_VEC_PUSH(cm->row_loc, locs[p]);
		for (uint32_t t = 0; t < nt; t++)
			if (cm->tensors.v[t].live_from <= p && p <= cm->tensors.v[t].live_to)
				SL_VEC_PUSH(cm->rows, t);
	}
	SL_VEC_PUSH(cm->row_start, (uint32_t)cm->rows.n);
	free(starts);
	free(ends);
}

void
sli_cost_liveness(sli_cost_model *cm)
{
	walker w = {cm, 0, {0}};
	for (size_t t = 0; t < cm->tensors.n; t++) {
		cm->tensors.v[t].live_from = UINT32_MAX;
		cm->tensors.v[t].live_to = 0;
	}
	sl_block *body = cm->m->top->regions[0].first;
	for (sl_op *f = body->first; f; f = f->next)
		if (f->kind == SL_OP_FUNC && f->nregions && f->regions[0].first)
			walk_op(&w, f);
	uint32_t end = w.pos ? w.pos - 1 : 0;
	for (sl_op *f = body->first; f; f = f->next)
		if (f->kind == SL_OP_FUNC && f->nregions && f->regions[0].first)
			pin_func_ends(&w, f, end);
	for (size_t t = 0; t < cm->tensors.n; t++) {
		sli_cost_tensor *ct = &cm->tensors.v[t];
		if (ct->live_from == UINT32_MAX)	/* never reached: say all */
			ct->live_from = 0, ct->live_to = end;
		if (ct->live_to < ct->live_from)
			ct->live_to = ct->live_from;
	}
	cm->npositions = end + 1;

	const sli_cost_params *p = &cm->params;
	cm->budget = p->memory_budget == SLI_COST_BUDGET_HBM ? p->hbm
	           : p->memory_budget > 0 ? p->memory_budget : 0;
	if (cm->budget > 0) {
		sli_cost_asg *rep = sli_xcalloc(cm->tensors.n + 1, sizeof *rep);
		memset(rep, SLI_COST_NONE, (cm->tensors.n + 1) * sizeof *rep);
		cm->budget_binds = sli_cost_peak_bytes(cm, rep, NULL) > cm->budget;
		free(rep);
	}
	if (cm->budget_binds)
		live_rows(cm, w.locs.v);
	SL_VEC_FREE(w.locs);
}

double
sli_cost_peak_bytes(const sli_cost_model *cm, const sli_cost_asg *q, uint32_t *at)
{
	uint32_t np = cm->npositions;
	double *delta = sli_xcalloc(np + 1, sizeof *delta);
	for (size_t t = 0; t < cm->tensors.n; t++) {
		const sli_cost_tensor *ct = &cm->tensors.v[t];
		double b = sli_cost_tensor_bytes(cm, (uint32_t)t, &q[t]);
		delta[ct->live_from] += b;
		delta[ct->live_to + 1] -= b;
	}
	double live = 0, peak = 0;
	uint32_t where = 0;
	for (uint32_t p = 0; p < np; p++) {
		live += delta[p];
		if (live > peak)
			peak = live, where = p;
	}
	free(delta);
	if (at)
		*at = where;
	return peak;
}
