/*
 * model.c - the cost model of a module (shardlp-cost(7), "The model of a
 * program"): its tensors (static ranked values) with their user pins,
 * its ops with their sharding rules (src/rules) and fixed requirements,
 * and the ties between tensors that carry one sharding.  Invariant: every
 * tensor an op or tie names is in the model, found by value (tensor_of).
 */
#include "cost/cost.h"

#include <stdlib.h>
#include <string.h>

#include "cost/axes.h"
#include "cost/options.h"
#include "cost/order.h"
#include "cost/primitives.h"
#include "cost/shardings.h"
#include "ir/rewrite.h"
#include "util/uf.h"

/* {====================================================================
 * Value -> tensor index: the table's items are tensor index + 1
 * ===================================================================== */

typedef struct tensor_key {
	const sli_cost_model *cm;
	const sl_value *v;
} tensor_key;

static bool
tensor_eq(const void *item, const void *key)
{
	const tensor_key *k = key;
	return k->cm->tensors.v[(uintptr_t)item - 1].v == k->v;
}

uint32_t
sli_cost_tensor_of(const sli_cost_model *cm, const sl_value *v)
{
	tensor_key k = {cm, v};
	void *item = sli_htab_get(&cm->tensor_of, sli_ptr_hash(v), tensor_eq, &k);
	return item ? (uint32_t)((uintptr_t)item - 1) : SLI_COST_NO_TENSOR;
}

/* }==================================================================== */

void
sli_cost_params_init(sli_cost_params *p)
{
	memset(p, 0, sizeof *p);
	p->bandwidth = SLI_COST_DEFAULT_BANDWIDTH;
	p->latency = SLI_COST_DEFAULT_LATENCY;
	p->flops = SLI_COST_DEFAULT_FLOPS;
	p->hbm = SLI_COST_DEFAULT_HBM;
	p->memory_budget = SLI_COST_BUDGET_HBM;
}

/* {====================================================================
 * Building the model
 * ===================================================================== */

/* An sdy collective (all_gather, all_slice, ...): its result sharding is
 * its out_sharding. */
static bool
collective(const sl_op *op)
{
	return sli_op_info[op->kind].format == SL_FMT_SDY_COLLECTIVE;
}

typedef struct builder {
	sli_cost_model *cm;
	sl_context *ctx;
	int failed;
	SL_VEC(struct { int64_t id; uint32_t t; }) groups;
} builder;

/* Warns of a user sharding the model approximates (the solver's build). */
static void
report(builder *b, sl_loc loc, int kind)
{
	if (!b->cm->params.report)
		return;
	if (kind == SLI_COST_SH_SUBAXES)
		sli_diag(b->ctx, SL_DIAG_WARNING, loc, "sharding outside the "
		         "optimisation model (sub-axes): kept as written, priced "
		         "without its sub-axes");
	else
		sli_diag(b->ctx, SL_DIAG_WARNING, loc, "sharding outside the "
		         "optimisation model (another mesh or rank): kept as "
		         "written, priced as replicated");
}

/* The user sharding v holds, if any, as ct's pin (or, outside the
 * model, as its fixed sharding). */
static void
pin_tensor(builder *b, sli_cost_tensor *ct, const sl_value *v)
{
	const sl_sharding *s = sli_cost_value_sharding(v);
	if (!s)
		return;
	sli_cost_asg q;
	int kind = sli_cost_from_sharding(b->cm, s, ct->rank, &q, &ct->pin);
	if (kind == SLI_COST_SH_OTHER) {
		ct->kept = true;
		ct->fixed = SL_NEW(&b->cm->arena, sli_cost_asg);
		*ct->fixed = q;
	} else {
		ct->pin.what = v->def ? (v->def->kind == SL_OP_SDY_SHARDING_CONSTRAINT
		                         ? "sharding constraint" : "result sharding")
		                      : "argument sharding";
	}
	if (kind != SLI_COST_SH_EXACT)
		report(b, s->loc, kind);
}

/* v is tensor idx from now on (a value met again: its latest tensor). */
static void
map_value(sli_cost_model *cm, const sl_value *v, uint32_t idx)
{
	tensor_key k = {cm, v};
	uint64_t h = sli_ptr_hash(v);
	sli_hslot *slot = sli_htab_slot(&cm->tensor_of, h, tensor_eq, &k, 64);
	if (slot->item)
		slot->item = (void *)((uintptr_t)idx + 1);
	else
		sli_htab_fill(&cm->tensor_of, slot, h, (void *)((uintptr_t)idx + 1));
}

static uint32_t
add_tensor(builder *b, sl_value *v, uint32_t forbidden, bool pinnable)
{
	sli_cost_model *cm = b->cm;
	sl_type *ty = v->type;
	if (!ty || !sli_type_is_static(ty))
		return SLI_COST_NO_TENSOR;
	if (ty->rank > SLI_COST_MAX_RANK) {
		sli_error(b->ctx, sli_value_loc(v), "tensor of rank %u: the cost model takes "
		          "rank %d at most", ty->rank, SLI_COST_MAX_RANK);
		b->failed = 1;
		return SLI_COST_NO_TENSOR;
	}
	sli_cost_tensor ct;
	memset(&ct, 0, sizeof ct);
	ct.v = v;
	ct.rank = ty->rank;
	ct.dims = ty->dims;
	ct.elem_bytes = ty->elem && ty->elem->bits ? (ty->elem->bits + 7) / 8 : 4;
	ct.forbidden = forbidden;
	memset(ct.pin.axes, -1, sizeof ct.pin.axes);
	memset(ct.major, -1, sizeof ct.major);
	if (pinnable)
		pin_tensor(b, &ct, v);
	uint32_t idx = (uint32_t)cm->tensors.n;
	SL_VEC_PUSH(cm->tensors, ct);
	map_value(cm, v, idx);
	return idx;
}

static void
add_tie(builder *b, const sl_value *x, const sl_value *y, sl_loc loc, const char *why)
{
	uint32_t a = sli_cost_tensor_of(b->cm, x), c = sli_cost_tensor_of(b->cm, y);
	if (a == SLI_COST_NO_TENSOR || c == SLI_COST_NO_TENSOR || a == c)
		return;
	if (b->cm->tensors.v[a].rank != b->cm->tensors.v[c].rank)
		return;
	sli_cost_tie t = {a, c, loc, why};
	SL_VEC_PUSH(b->cm->ties, t);
}

/*
 * The device's FLOP/s for op: by the element type of its first result
 * (of its first operand when it has none), else the default.
 */
static double
flop_rate(const sli_cost_params *p, sl_context *ctx, const sl_op *op)
{
	const sl_type *ty = op->nresults ? op->results[0].type
	                  : op->noperands ? op->operands[0]->type : NULL;
	const sl_type *e = ty && ty->kind == SL_TYPE_TENSOR ? ty->elem : ty;
	if (e && e->kind == SL_TYPE_ELEM) {
		const char *name = sl_sym_str(ctx, e->text);
		for (uint32_t i = 0; i < p->ntype_flops; i++)
			if (!strcmp(p->type_flops[i].type, name) && p->type_flops[i].flops > 0)
				return p->type_flops[i].flops;
	}
	return p->flops > 0 ? p->flops : SLI_COST_DEFAULT_FLOPS;
}

static double
flop_weight(sl_op_kind k)
{
	switch (k) {
	case SL_OP_DOT_GENERAL:
	case SL_OP_DOT:
	case SL_OP_CONVOLUTION:
		return 2;
	case SL_OP_RESHAPE: case SL_OP_TRANSPOSE: case SL_OP_BROADCAST_IN_DIM:
	case SL_OP_SLICE: case SL_OP_DYNAMIC_SLICE: case SL_OP_CONCATENATE:
	case SL_OP_PAD: case SL_OP_CONSTANT: case SL_OP_IOTA: case SL_OP_GATHER:
	case SL_OP_REVERSE: case SL_OP_BITCAST_CONVERT: case SL_OP_DYNAMIC_UPDATE_SLICE:
	case SL_OP_GET_TUPLE_ELEMENT: case SL_OP_TUPLE: case SL_OP_OPTIMIZATION_BARRIER:
		return 0;
	default:
		return (sli_op_info[k].traits & T_SDY) ? 0 : 1;
	}
}

/* A rule with one factor per dimension shared by operand i and result i. */
static int
identity_rule(builder *b, const sl_op *op, sl_rule *r)
{
	sli_arena *ar = &b->cm->arena;
	uint32_t n = op->nresults < op->noperands ? op->nresults : op->noperands;
	uint32_t nf = 0;
	memset(r, 0, sizeof *r);
	for (uint32_t i = 0; i < n; i++) {
		sl_type *t = op->results[i].type;
		if (!t || !sli_type_is_static(t) || op->operands[i]->type != t)
			return -1;
		nf += t->rank;
	}
	r->nfactors = nf;
	r->factor_sizes = SL_NEWN(ar, int64_t, nf + 1);
	r->noperands = op->noperands;
	r->nresults = op->nresults;
	r->operands = SL_NEWN(ar, sl_tensor_mapping, op->noperands + 1);
	r->results = SL_NEWN(ar, sl_tensor_mapping, op->nresults + 1);
	nf = 0;
	for (uint32_t i = 0; i < n; i++) {
		sl_type *t = op->results[i].type;
		sl_dim_mapping *dm = SL_NEWN(ar, sl_dim_mapping, t->rank + 1);
		for (uint32_t d = 0; d < t->rank; d++) {
			r->factor_sizes[nf] = t->dims[d];
			dm[d].factors = SL_NEWN(ar, uint32_t, 1);
			dm[d].factors[0] = nf++;
			dm[d].n = 1;
		}
		r->operands[i].dims = r->results[i].dims = dm;
		r->operands[i].rank = r->results[i].rank = t->rank;
	}
	return 0;
}

static void walk_block(builder *b, sl_block *blk, uint32_t forbidden);

/* The model axes of op's manual axes, on the mesh of its shardings (on
 * every model mesh that has an axis of that name, when they name none). */
static uint32_t
manual_axes_mask(builder *b, const sl_op *op)
{
	const sl_axis_list *axes = sli_manual_axes(op);
	const sl_sharding *s = op->noperands ? sli_comp_in_sharding(op, 0)
	                                     : sli_result_sharding(op, 0);
	int mesh = s ? sli_cost_sharding_mesh(b->cm, s) : -1;
	uint32_t mask = 0;
	for (uint32_t k = 0; axes && k < axes->n; k++)
		mask |= sli_cost_axis_mask(b->cm, axes->v[k].name);
	return mesh >= 0 ? mask & b->cm->mesh_axes[mesh] : mask;
}

static void
add_op(builder *b, sl_op *op, sli_cost_opkind kind, const sl_rule *rule,
       uint32_t forbidden)
{
	sli_cost_model *cm = b->cm;
	sli_cost_op co;
	memset(&co, 0, sizeof co);
	co.op = op;
	co.kind = kind;
	if (rule)
		co.rule = *rule;
	co.noperands = op->noperands;
	co.nresults = op->nresults;
	co.operands = SL_NEWN(&cm->arena, uint32_t, op->noperands + 1);
	co.results = SL_NEWN(&cm->arena, uint32_t, op->nresults + 1);
	for (uint32_t i = 0; i < op->noperands; i++)
		co.operands[i] = sli_cost_tensor_of(cm, op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++)
		co.results[i] = sli_cost_tensor_of(cm, &op->results[i]);
	co.flop_weight = kind == SLI_COST_RULE ? flop_weight(op->kind) : 0;
	co.flop_rate = flop_rate(&cm->params, cm->m->ctx, op);
	co.forbidden = forbidden;
	SL_VEC_PUSH(cm->ops, co);
}

/*
 * Values flowing into one value dst: a loop's operand and its body's
 * result into the carried value, each branch's result into the case's, a
 * computation's operand into its argument and its body's result into its
 * result.  Shardy lets every source differ from the target (their common
 * sharding sits on a data-flow edge) and the partitioner reshards each
 * one that does; so the flow is an op that prices, for each source, the
 * reshard to the target's sharding, and holds no memory of its own.
 */
static void
add_flow(builder *b, sl_op *op, sl_value *const *src, uint32_t n, sl_value *dst,
         uint32_t forbidden)
{
	sli_cost_model *cm = b->cm;
	sli_arena *ar = &cm->arena;
	uint32_t t = sli_cost_tensor_of(cm, dst);
	if (t == SLI_COST_NO_TENSOR)
		return;
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	sli_cost_op co;
	memset(&co, 0, sizeof co);
	co.op = op;
	co.kind = SLI_COST_IDENTITY;
	co.forbidden = forbidden;
	co.operands = SL_NEWN(ar, uint32_t, n + 1);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t u = src[i] ? sli_cost_tensor_of(cm, src[i]) : SLI_COST_NO_TENSOR;
		if (u == SLI_COST_NO_TENSOR || u == t || cm->tensors.v[u].rank != ct->rank ||
		    memcmp(cm->tensors.v[u].dims, ct->dims, ct->rank * sizeof *ct->dims))
			continue;
		co.operands[co.noperands++] = u;
	}
	if (!co.noperands)
		return;
	co.nresults = 1;
	co.results = SL_NEWN(ar, uint32_t, 2);
	co.results[0] = t;
	sl_dim_mapping *dm = SL_NEWN(ar, sl_dim_mapping, ct->rank + 1);
	co.rule.nfactors = ct->rank;
	co.rule.factor_sizes = SL_NEWN(ar, int64_t, ct->rank + 1);
	for (uint32_t d = 0; d < ct->rank; d++) {
		co.rule.factor_sizes[d] = ct->dims[d];
		dm[d].factors = SL_NEWN(ar, uint32_t, 1);
		dm[d].factors[0] = d;
		dm[d].n = 1;
	}
	co.rule.noperands = co.noperands;
	co.rule.nresults = 1;
	co.rule.operands = SL_NEWN(ar, sl_tensor_mapping, co.noperands + 1);
	co.rule.results = SL_NEWN(ar, sl_tensor_mapping, 2);
	for (uint32_t i = 0; i <= co.noperands; i++) {
		sl_tensor_mapping *tm = i < co.noperands ? &co.rule.operands[i] : &co.rule.results[0];
		tm->rank = ct->rank;
		tm->dims = dm;
	}
	SL_VEC_PUSH(cm->ops, co);
}

/* The terminator's operand k of the first block of region r, or NULL. */
static sl_value *
returned(sl_region *r, uint32_t k)
{
	sl_op *term = r->first ? r->first->last : NULL;
	return term && (sli_op_info[term->kind].traits & T_TERM) && k < term->noperands
	       ? term->operands[k] : NULL;
}

static void
block_args(builder *b, sl_block *blk, uint32_t forbidden, bool pinnable)
{
	for (uint32_t i = 0; i < blk->nargs; i++)
		add_tensor(b, &blk->args[i], forbidden, pinnable);
}

/* Fixes tensor t (if any) to the sharding it has now (none: replicated). */
static void
fix_current(builder *b, uint32_t t)
{
	sli_cost_model *cm = b->cm;
	if (t == SLI_COST_NO_TENSOR || cm->tensors.v[t].fixed)
		return;
	sli_cost_tensor *ct = &cm->tensors.v[t];
	const sl_sharding *s = sli_cost_value_sharding(ct->v);
	ct->fixed = SL_NEW(&cm->arena, sli_cost_asg);
	memset(ct->fixed->a, SLI_COST_NONE, sizeof ct->fixed->a);
	if (s)
		sli_cost_from_sharding(cm, s, ct->rank, ct->fixed, NULL);
}

/*
 * An sdy.data_flow_edge (added by the import steps) is no op of the
 * program: it holds the sharding of its owner (a result of while, case or
 * a computation, or a computation's block argument) and of the values
 * tied to it, and the export steps sink it back onto them.  So its result
 * is its owner's tensor, read and written through the edge, and pinned by
 * the user sharding the import moved onto it; it costs nothing and holds
 * no memory of its own.  Returns false when the owner has no tensor.
 */
static bool
alias_edge(builder *b, sl_op *op)
{
	sli_cost_model *cm = b->cm;
	if (op->noperands != 1 || op->nresults != 1)
		return false;
	uint32_t t = sli_cost_tensor_of(cm, op->operands[0]);
	if (t == SLI_COST_NO_TENSOR || op->results[0].type != op->operands[0]->type)
		return false;
	sli_cost_tensor *ct = &cm->tensors.v[t];
	ct->v = &op->results[0];
	if (!ct->fixed)
		pin_tensor(b, ct, ct->v);
	map_value(cm, ct->v, t);
	return true;
}

/*
 * Per argument of block e, whether a data-flow edge of e holds it (the
 * import steps put the local view of a manual computation's in_sharding
 * there).  Heap array.
 */
static bool *
edged_args(const sl_block *e)
{
	bool *edged = sli_xcalloc(e->nargs + 1, sizeof *edged);
	for (const sl_op *o = e->first; o; o = o->next)
		if (o->kind == SL_OP_SDY_DATA_FLOW_EDGE && o->noperands == 1 &&
		    !o->operands[0]->def && o->operands[0]->block == e)
			edged[o->operands[0]->index] = true;
	return edged;
}

/*
 * The entry of operand i (tensor tin) into the body argument of a manual
 * computation (tensor targ, its local view): one factor per dimension of
 * the argument; the operand needs the factors' axes plus the manual axes
 * of its in_sharding (manual, the only axes inner forbids the factors),
 * the argument takes the factors' axes.  So the argument may grow in its
 * open dims as greedy propagation grows it, and the operand pays the
 * reshard to whatever in_sharding that makes.
 */
static void
entry_op(builder *b, sl_op *op, uint32_t tin, uint32_t targ, uint32_t inner,
         const sli_cost_asg *manual)
{
	sli_cost_model *cm = b->cm;
	const sli_cost_tensor *ca = &cm->tensors.v[targ];
	sli_arena *ar = &cm->arena;
	sli_cost_op co;
	memset(&co, 0, sizeof co);
	co.op = op;
	co.kind = SLI_COST_IDENTITY;
	co.rule.nfactors = ca->rank;
	co.rule.factor_sizes = SL_NEWN(ar, int64_t, ca->rank + 1);
	co.rule.noperands = co.rule.nresults = 1;
	co.rule.operands = SL_NEWN(ar, sl_tensor_mapping, 1);
	co.rule.results = SL_NEWN(ar, sl_tensor_mapping, 1);
	sl_dim_mapping *dm = SL_NEWN(ar, sl_dim_mapping, ca->rank + 1);
	for (uint32_t d = 0; d < ca->rank; d++) {
		co.rule.factor_sizes[d] = ca->dims[d];
		dm[d].factors = SL_NEWN(ar, uint32_t, 1);
		dm[d].factors[0] = d;
		dm[d].n = 1;
	}
	co.rule.operands[0].dims = co.rule.results[0].dims = dm;
	co.rule.operands[0].rank = co.rule.results[0].rank = ca->rank;
	co.noperands = co.nresults = 1;
	co.operands = SL_NEWN(ar, uint32_t, 1);
	co.results = SL_NEWN(ar, uint32_t, 1);
	co.operands[0] = tin;
	co.results[0] = targ;
	co.flop_rate = SLI_COST_DEFAULT_FLOPS;
	co.forbidden = inner;
	co.extra = SL_NEW(ar, sli_cost_asg);
	*co.extra = *manual;
	SL_VEC_PUSH(cm->ops, co);
}

/*
 * sdy.manual_computation: the body sees the local view of each operand
 * (its in_sharding without the manual axes).  An argument whose view sits
 * on a data-flow edge is pinned by it and may grow (entry_op); one
 * without is fixed to the view.  The results are pinned by the
 * out_shardings; a manual axis an out_sharding lacks may not shard them.
 */
static void
manual_computation(builder *b, sl_op *op, uint32_t forbidden)
{
	sli_cost_model *cm = b->cm;
	uint32_t inner = forbidden | manual_axes_mask(b, op);
	sl_block *e = op->nregions ? op->regions[0].first : NULL;
	bool *edged = e ? edged_args(e) : NULL;
	sli_cost_asg *manual = e ? sli_xcalloc(e->nargs + 1, sizeof *manual) : NULL;
	/* the arguments' tensors, taken before their edges alias them */
	uint32_t *targ = e ? sli_xcalloc(e->nargs + 1, sizeof *targ) : NULL;
	if (e) {
		block_args(b, e, inner, false);
		for (uint32_t i = 0; i < e->nargs; i++) {
			uint32_t t = targ[i] = sli_cost_tensor_of(cm, &e->args[i]);
			const sl_sharding *s = sli_comp_in_sharding(op, i);
			sli_cost_asg q;
			edged[i] = edged[i] && t != SLI_COST_NO_TENSOR && s &&
			           i < op->noperands &&
			           sli_cost_tensor_of(cm, op->operands[i]) != SLI_COST_NO_TENSOR;
			if (t == SLI_COST_NO_TENSOR || !s ||
			    sli_cost_from_sharding(cm, s, cm->tensors.v[t].rank, &q,
			                           NULL) == SLI_COST_SH_OTHER) {
				edged[i] = false;
				continue;
			}
			for (uint32_t a = 0; a < SLI_COST_MAX_AXES; a++)
				manual[i].a[a] = (inner >> a & 1) && !(forbidden >> a & 1)
				                 ? q.a[a] : SLI_COST_NONE;
			if (edged[i])
				continue;
			/* the local view: manual axes gone, the rest fixed */
			sli_cost_tensor *ct = &cm->tensors.v[t];
			ct->fixed = SL_NEW(&cm->arena, sli_cost_asg);
			for (uint32_t a = 0; a < SLI_COST_MAX_AXES; a++)
				ct->fixed->a[a] = (inner >> a & 1) ? SLI_COST_NONE : q.a[a];
		}
		walk_block(b, e, inner);
	}
	for (uint32_t i = 0; i < op->nresults; i++) {
		uint32_t t = add_tensor(b, &op->results[i], forbidden, true);
		if (t == SLI_COST_NO_TENSOR)
			continue;
		/* a manual axis its out sharding lacks would change the
		 * body's local type */
		sli_cost_tensor *ct = &cm->tensors.v[t];
		uint32_t used = 0;
		for (uint32_t d = 0; d < ct->rank; d++)
			for (uint32_t k = 0; k < SLI_COST_MAX_AXES &&
			     ct->pin.axes[d][k] >= 0; k++)
				used |= 1u << ct->pin.axes[d][k];
		ct->forbidden |= (inner & ~forbidden) & ~used;
	}
	add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
	sli_cost_op *co = &cm->ops.v[cm->ops.n - 1];
	co->req = SL_NEWN(&cm->arena, sli_cost_asg, op->noperands + 1);
	for (uint32_t i = 0; i < op->noperands; i++) {
		const sl_sharding *s = sli_comp_in_sharding(op, i);
		uint32_t t = co->operands[i];
		memset(co->req[i].a, SLI_COST_NONE, sizeof co->req[i].a);
		if (e && i < e->nargs && edged[i])
			co->operands[i] = SLI_COST_NO_TENSOR;	/* its entry prices it */
		else if (s && t != SLI_COST_NO_TENSOR)
			sli_cost_from_sharding(cm, s, cm->tensors.v[t].rank, &co->req[i], NULL);
	}
	for (uint32_t i = 0; e && i < e->nargs; i++)
		if (edged[i])
			entry_op(b, op, sli_cost_tensor_of(cm, op->operands[i]), targ[i],
			         inner, &manual[i]);
	free(edged);
	free(manual);
	free(targ);
}

static void
visit(builder *b, sl_op *op, uint32_t forbidden)
{
	sli_cost_model *cm = b->cm;
	sl_rule rule;

	switch (op->kind) {
	case SL_OP_SDY_MESH:
	case SL_OP_RETURN:
	case SL_OP_SHLO_RETURN:
	case SL_OP_SDY_RETURN:
		return;
	case SL_OP_SDY_SHARDING_GROUP: {
		sl_attr *g = sli_op_get(op, SLS_group_id);
		uint32_t t = op->noperands ? sli_cost_tensor_of(cm, op->operands[0])
		                           : SLI_COST_NO_TENSOR;
		if (!g || g->kind != SL_ATTR_INT || t == SLI_COST_NO_TENSOR)
			return;
		for (size_t i = 0; i < b->groups.n; i++) {
			if (b->groups.v[i].id != g->u.i.v)
				continue;
			/* members of other shapes are the import steps' error
			 * (sdy-sharding-group-import), not tied here */
			const sli_cost_tensor *x = &cm->tensors.v[b->groups.v[i].t];
			const sli_cost_tensor *y = &cm->tensors.v[t];
			if (x->rank == y->rank && !memcmp(x->dims, y->dims, x->rank * sizeof *x->dims))
				add_tie(b, x->v, op->operands[0], op->loc, "sharding group");
			return;
		}
		SL_VEC_RESERVE(b->groups, b->groups.n + 1);
		b->groups.v[b->groups.n].id = g->u.i.v;
		b->groups.v[b->groups.n].t = t;
		b->groups.n++;
		return;
	}
	case SL_OP_WHILE:
		for (uint32_t i = 0; i < op->nresults; i++)
			add_tensor(b, &op->results[i], forbidden, true);
		for (uint32_t k = 0; k < op->nregions; k++) {
			sl_block *e = op->regions[k].first;
			if (!e)
				continue;
			block_args(b, e, forbidden, false);
			for (uint32_t i = 0; i < e->nargs && i < op->nresults; i++)
				add_tie(b, &e->args[i], &op->results[i], op->loc, "while");
			walk_block(b, e, forbidden);
		}
		for (uint32_t i = 0; i < op->nresults; i++) {
			sl_value *src[2] = {i < op->noperands ? op->operands[i] : NULL,
			                    op->nregions > 1 ? returned(&op->regions[1], i) : NULL};
			add_flow(b, op, src, 2, &op->results[i], forbidden);
		}
		return;
	case SL_OP_CASE:
	case SL_OP_IF:
		for (uint32_t i = 0; i < op->nresults; i++)
			add_tensor(b, &op->results[i], forbidden, true);
		for (uint32_t k = 0; k < op->nregions; k++)
			for (sl_block *e = op->regions[k].first; e; e = e->next)
				walk_block(b, e, forbidden);
		for (uint32_t i = 0; i < op->nresults; i++) {
			SL_VEC(sl_value *) src = {0};
			for (uint32_t k = 0; k < op->nregions; k++)
				SL_VEC_PUSH(src, returned(&op->regions[k], i));
			add_flow(b, op, src.v, (uint32_t)src.n, &op->results[i], forbidden);
			SL_VEC_FREE(src);
		}
		return;
	case SL_OP_SDY_NAMED_COMPUTATION: {
		sl_block *e = op->nregions ? op->regions[0].first : NULL;
		for (uint32_t i = 0; i < op->nresults; i++)
			add_tensor(b, &op->results[i], forbidden, true);
		if (!e)
			return;
		block_args(b, e, forbidden, true);
		for (uint32_t i = 0; i < e->nargs && i < op->noperands; i++)
			add_flow(b, op, &op->operands[i], 1, &e->args[i], forbidden);
		walk_block(b, e, forbidden);
		for (uint32_t i = 0; i < op->nresults; i++) {
			sl_value *src = returned(&op->regions[0], i);
			add_flow(b, op, &src, 1, &op->results[i], forbidden);
		}
		return;
	}
	case SL_OP_SDY_MANUAL_COMPUTATION:
		manual_computation(b, op, forbidden);
		return;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		if (alias_edge(b, op))
			return;
		break;
	default:
		break;
	}
	for (uint32_t i = 0; i < op->nresults; i++)
		add_tensor(b, &op->results[i], forbidden, true);
	switch (op->kind) {
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_PROPAGATION_BARRIER:
	case SL_OP_OPTIMIZATION_BARRIER:
		if (identity_rule(b, op, &rule) == 0) {
			add_op(b, op, SLI_COST_IDENTITY, &rule, forbidden);
			return;
		}
		add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
		return;
	default:
		break;
	}
	if (collective(op)) {
		/*
		 * An explicit collective: what it moves is fixed, its operand
		 * and its result (out_sharding) held as they are (the verifier
		 * ties the two), and it costs the reshard from the one to the
		 * other, as a reshard would.
		 */
		for (uint32_t i = 0; i < op->noperands; i++)
			fix_current(b, sli_cost_tensor_of(cm, op->operands[i]));
		for (uint32_t i = 0; i < op->nresults; i++)
			fix_current(b, sli_cost_tensor_of(cm, &op->results[i]));
		if (identity_rule(b, op, &rule) == 0)
			add_op(b, op, SLI_COST_IDENTITY, &rule, forbidden);
		else
			add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
		return;
	}
	sli_rule_opts ro;
	memset(&ro, 0, sizeof ro);
	ro.conservative = cm->params.conservative;
	ro.arena = &cm->arena;
	int rc = sli_rule_for_op(cm->m, op, &ro, &rule);
	sli_rule_opts_fini(&ro);
	if (rc < 0) {
		b->failed = 1;
		return;
	}
	if (rc == SLI_RULE_FOUND && rule.noperands == op->noperands &&
	    rule.nresults == op->nresults)
		add_op(b, op, SLI_COST_RULE, &rule, forbidden);
	else
		add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
}

static void
walk_block(builder *b, sl_block *blk, uint32_t forbidden)
{
	for (sl_op *op = blk->first; op && !b->failed; op = op->next)
		visit(b, op, forbidden);
}

/* func.return operands against the function's result shardings. */
static void
add_return(builder *b, sl_op *func)
{
	sli_cost_model *cm = b->cm;
	sl_block *e = func->regions[0].first;
	sl_op *ret = e ? e->last : NULL;
	if (!ret || ret->kind != SL_OP_RETURN)
		return;
	bool any = false;
	for (uint32_t i = 0; i < sli_func_nresults(func); i++)
		any |= sli_func_res_sharding(func, i) != NULL;
	if (!any)
		return;
	add_op(b, ret, SLI_COST_OPAQUE, NULL, 0);
	sli_cost_op *co = &cm->ops.v[cm->ops.n - 1];
	co->req = SL_NEWN(&cm->arena, sli_cost_asg, ret->noperands + 1);
	for (uint32_t i = 0; i < ret->noperands; i++) {
		uint32_t t = co->operands[i];
		const sl_sharding *s = sli_func_res_sharding(func, i);
		if (!s || t == SLI_COST_NO_TENSOR) {
			/* no requirement: the edge is free */
			co->operands[i] = SLI_COST_NO_TENSOR;
			continue;
		}
		/* one outside the model is held as written, approximated */
		sli_cost_pin pin;
		int kind = sli_cost_from_sharding(cm, s, cm->tensors.v[t].rank,
		                                  &co->req[i], &pin);
		if (kind != SLI_COST_SH_EXACT)
			report(b, s->loc, kind);
		if (kind != SLI_COST_SH_OTHER && cm->params.extend_results)
			sli_cost_result_options(cm, co, i, &pin);
	}
}

/* Whether every reshard of cm costs >= 0 (sli_cost_model). */
static bool
reshards_nonnegative(const sli_cost_model *cm)
{
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (!(cm->axis_lat[a] >= 0 && cm->axis_bw[a] >= 0))
			return false;
	for (size_t t = 0; t < cm->tensors.n; t++) {
		const sli_cost_tensor *ct = &cm->tensors.v[t];
		if (!(ct->elem_bytes >= 0))
			return false;
		for (uint32_t d = 0; d < ct->rank; d++)
			if (ct->dims[d] < 0)
				return false;
	}
	return true;
}

/* The ops and values (results, block arguments) of a module. */
typedef struct census {
	size_t ops, values;
} census;

static int
count(sl_op *op, void *ud)
{
	census *c = ud;
	c->ops++;
	c->values += op->nresults;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *blk = op->regions[r].first; blk; blk = blk->next)
			c->values += blk->nargs;
	return 0;
}

/* An empty value table that holds n tensors without growing. */
static void
reserve_table(sli_cost_model *cm, size_t n)
{
	uint32_t slots = 64;
	while (slots / 2 <= n && slots < UINT32_MAX / 2 + 1)
		slots *= 2;
	sli_htab_reserve(&cm->tensor_of, slots);
}

/*
 * Room for a tensor per value and an op per op of m: the arrays are
 * large, and each doubling copies them (an upper bound on the tensors;
 * a manual computation's entries are ops beyond it).
 */
static void
reserve(sli_cost_model *cm, sl_module *m)
{
	census c = {0, 0};
	sli_walk(m->top, count, &c);
	SL_VEC_RESERVE(cm->tensors, c.values);
	SL_VEC_RESERVE(cm->ops, c.ops);
	reserve_table(cm, c.values);
}

/* {====================================================================
 * Whole axes (sli_cost_tensor.whole)
 * ===================================================================== */

/* Whether some dim of tensor ct has a size that a split mesh axis does
 * not divide: a part of the axis may fit it where the whole does not. */
static bool
uses_part(const sli_cost_model *cm, const sli_cost_tensor *ct)
{
	for (uint32_t d = 0; d < ct->rank; d++)
		for (uint32_t a = 1; a < cm->naxes; a++)
			if (cm->axis_pre[a] > 1 && ct->dims[d] > 1 &&
			    ct->dims[d] % cm->axis_whole[a] != 0)
				return true;
	return false;
}

/* Whether the user's sharding of ct keeps the pieces of a mesh axis
 * apart (its written axes, and those it leaves replicated). */
static bool
pin_apart(const sli_cost_model *cm, const sli_cost_tensor *ct)
{
	if (!ct->pin.any)
		return false;
	sli_cost_asg q;
	memset(q.a, SLI_COST_NONE, sizeof q.a);
	for (uint32_t d = 0; d < ct->rank; d++)
		for (uint32_t k = 0; k < SLI_COST_MAX_AXES && ct->pin.axes[d][k] >= 0; k++)
			q.a[ct->pin.axes[d][k]] = (int8_t)d;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (ct->pin.replicated >> a & 1)
			q.a[a] = (int8_t)ct->rank;	/* a dim of its own */
	return sli_cost_asg_apart(cm, &q);
}

/* Whether mapping tm joins factors on one dim (a reshape's does). */
static bool
compound(const sl_tensor_mapping *tm)
{
	for (uint32_t d = 0; tm && d < tm->rank; d++)
		if (tm->dims[d].n > 1)
			return true;
	return false;
}

static bool pair_ops(sli_pmap *tw, sl_op *a, sl_op *b);
static void join_ties(sli_cost_model *cm);

/*
 * Clears `whole` on the tensors whose sharding in module p (a greedy
 * result of the same program) keeps the pieces of a mesh axis apart, so
 * that p stays a point of the model; on all of them when p cannot be
 * paired with the model's module.
 */
static void
apart_in(sli_cost_model *cm, const sl_module *p)
{
	sli_pmap tw;
	sli_pmap_init(&tw);
	bool paired = cm->m->top && p->top && pair_ops(&tw, cm->m->top, p->top);
	for (size_t t = 0; t < cm->tensors.n; t++) {
		sli_cost_tensor *ct = &cm->tensors.v[t];
		const sl_value *v = paired ? sli_pmap_get(&tw, ct->v) : NULL;
		const sl_sharding *sh = v ? sli_cost_value_sharding(v) : NULL;
		sli_cost_asg q;
		if (!ct->whole || (paired && !sh))
			continue;
		if (!sh || sli_cost_from_sharding(cm, sh, ct->rank, &q, NULL) !=
		           SLI_COST_SH_EXACT) {
			ct->whole = false;
			continue;
		}
		if (sli_cost_asg_apart(cm, &q))
			ct->whole = false;
	}
	sli_pmap_fini(&tw);
}

/*
 * Marks the tensors whose options take the pieces of each mesh axis
 * together (sli_cost_tensor.whole): with sub_axes by the program's sizes
 * (not primes, not anywhere), every tensor but those with a size a whole
 * split axis does not divide, those of an op that joins factors on one
 * dim (a reshape), a fixed one, those whose user sharding or a greedy
 * result (params.cut_by) keeps the pieces apart, and those tied to one
 * of these.
 */
static void
whole_axes(sli_cost_model *cm)
{
	bool split = false;
	for (uint32_t a = 1; a < cm->naxes; a++)
		split |= cm->axis_pre[a] > 1;
	if (!split || !cm->params.sub_axes || cm->params.sub_axes_primes ||
	    cm->params.sub_axes_anywhere)
		return;
	for (size_t t = 0; t < cm->tensors.n; t++) {
		sli_cost_tensor *ct = &cm->tensors.v[t];
		ct->whole = !ct->fixed && !pin_apart(cm, ct) && !uses_part(cm, ct);
	}
	for (size_t o = 0; o < cm->ops.n; o++) {
		const sli_cost_op *co = &cm->ops.v[o];
		bool c = false;
		for (uint32_t i = 0; i < co->noperands && !c; i++)
			c = compound(sli_cost_mapping_of(co, false, i));
		for (uint32_t i = 0; i < co->nresults && !c; i++)
			c = compound(sli_cost_mapping_of(co, true, i));
		for (uint32_t i = 0; c && i < co->noperands; i++)
			if (co->operands[i] != SLI_COST_NO_TENSOR)
				cm->tensors.v[co->operands[i]].whole = false;
		for (uint32_t i = 0; c && i < co->nresults; i++)
			if (co->results[i] != SLI_COST_NO_TENSOR)
				cm->tensors.v[co->results[i]].whole = false;
	}
	for (uint32_t k = 0; k < cm->params.ncut_by; k++)
		if (cm->params.cut_by[k] && cm->params.cut_by[k]->ctx == cm->m->ctx)
			apart_in(cm, cm->params.cut_by[k]);
	/* tied tensors take one sharding: apart in one, apart in all */
	if (cm->ties.n)
		join_ties(cm);
}

/* Clears `whole` on every tensor tied to one that is not. */
static void
join_ties(sli_cost_model *cm)
{
	sli_uf u;
	sli_uf_init(&u, (uint32_t)cm->tensors.n);
	for (size_t i = 0; i < cm->ties.n; i++)
		sli_uf_union(&u, cm->ties.v[i].a, cm->ties.v[i].b);
	bool *apart = sli_xcalloc(cm->tensors.n + 1, sizeof *apart);
	for (uint32_t t = 0; t < cm->tensors.n; t++)
		apart[sli_uf_find(&u, t)] |= !cm->tensors.v[t].whole;
	for (uint32_t t = 0; t < cm->tensors.n; t++)
		cm->tensors.v[t].whole &= !apart[sli_uf_find(&u, t)];
	free(apart);
	sli_uf_fini(&u);
}

/* }==================================================================== */

int
sli_cost_model_build(sl_module *m, const sli_cost_params *p, sli_cost_model *cm)
{
	builder b;
	memset(cm, 0, sizeof *cm);
	memset(&b, 0, sizeof b);
	cm->m = m;
	if (p)
		cm->params = *p;
	else
		sli_cost_params_init(&cm->params);
	sli_arena_init(&cm->arena);
	b.cm = cm;
	b.ctx = m->ctx;
	sl_block *body = m->top && m->top->nregions ? m->top->regions[0].first : NULL;
	if (!body || sli_cost_find_mesh(cm, b.ctx, body)) {
		if (body == NULL)
			sli_error(b.ctx, sli_loc_none(), "empty module");
		sli_cost_model_fini(cm);
		return -1;
	}
	reserve(cm, m);
	for (sl_op *f = body->first; f && !b.failed; f = f->next) {
		if (f->kind != SL_OP_FUNC || !f->nregions || !f->regions[0].first)
			continue;
		sl_block *e = f->regions[0].first;
		block_args(&b, e, 0, true);
		for (sl_block *blk = e; blk && !b.failed; blk = blk->next) {
			if (blk != e)
				block_args(&b, blk, 0, false);
			walk_block(&b, blk, 0);
		}
		if (!b.failed)
			add_return(&b, f);
	}
	SL_VEC_FREE(b.groups);
	if (b.failed) {
		sli_cost_model_fini(cm);
		return -1;
	}
	whole_axes(cm);
	sli_cost_compute_major(cm);
	sli_cost_liveness(cm);
	cm->op_memo = sli_cost_op_memo_new(cm->ops.n);
	cm->reshards_nonnegative = reshards_nonnegative(cm);
	return 0;
}

void
sli_cost_model_fini(sli_cost_model *cm)
{
	sli_htab_fini(&cm->tensor_of);
	SL_VEC_FREE(cm->tensors);
	SL_VEC_FREE(cm->ops);
	SL_VEC_FREE(cm->ties);
	SL_VEC_FREE(cm->row_start);
	SL_VEC_FREE(cm->rows);
	SL_VEC_FREE(cm->row_loc);
	sli_arena_fini(&cm->arena);
	sli_cost_op_memo_free(cm->op_memo);
	cm->op_memo = NULL;
}

/* }==================================================================== */

/* {====================================================================
 * The model of a copy: cm's tensors, ops and ties on a copy's values
 * ===================================================================== */

/*
 * Pairs op a of cm's module with op b of the copy, and their results,
 * regions, blocks, block arguments and nested ops in order.  False where
 * the two differ in shape.
 */
static bool
pair_ops(sli_pmap *tw, sl_op *a, sl_op *b)
{
	if (a->kind != b->kind || a->nresults != b->nresults ||
	    a->noperands != b->noperands || a->nregions != b->nregions)
		return false;
	sli_pmap_set(tw, a, b);
	for (uint32_t i = 0; i < a->nresults; i++)
		sli_pmap_set(tw, &a->results[i], &b->results[i]);
	for (uint32_t r = 0; r < a->nregions; r++) {
		sl_block *x = a->regions[r].first, *y = b->regions[r].first;
		for (; x && y; x = x->next, y = y->next) {
			if (x->nargs != y->nargs)
				return false;
			for (uint32_t i = 0; i < x->nargs; i++)
				sli_pmap_set(tw, &x->args[i], &y->args[i]);
			sl_op *o = x->first, *q = y->first;
			for (; o && q; o = o->next, q = q->next)
				if (!pair_ops(tw, o, q))
					return false;
			if (o || q)
				return false;
		}
		if (x || y)
			return false;
	}
	return true;
}

/* A heap copy of n items of size bytes at p. */
static void *
dup_items(const void *p, size_t n, size_t size)
{
	void *d = sli_xmalloc(n * size + 1);
	if (n)
		memcpy(d, p, n * size);
	return d;
}

#define DUP_VEC(to, from) \
	((to).v = dup_items((from).v, (from).n, sizeof *(from).v), \
	 (to).n = (to).cap = (from).n)

/* cm on c through the twins tw (each op and value of cm's module to
 * its copy's) into out.  Returns 0, or -1 (out freed) when a tensor or
 * op of cm has no twin. */
static int
move_onto(const sli_cost_model *cm, sl_module *c, const sli_pmap *tw,
          sli_cost_model *out)
{
	*out = *cm;
	out->m = c;
	out->params.report = false;	/* cm's module has reported */
	DUP_VEC(out->tensors, cm->tensors);
	DUP_VEC(out->ops, cm->ops);
	DUP_VEC(out->ties, cm->ties);
	DUP_VEC(out->row_start, cm->row_start);
	DUP_VEC(out->rows, cm->rows);
	DUP_VEC(out->row_loc, cm->row_loc);
	sli_arena_init(&out->arena);
	memset(&out->tensor_of, 0, sizeof out->tensor_of);
	reserve_table(out, out->tensors.n);
	out->op_memo = sli_cost_op_memo_new(out->ops.n);
	for (size_t t = 0; t < out->tensors.n; t++) {
		sli_cost_tensor *ct = &out->tensors.v[t];
		sl_value *v = sli_pmap_get(tw, ct->v);
		if (!v || !v->type || v->type->rank != ct->rank) {
			sli_cost_model_fini(out);
			return -1;
		}
		ct->v = v;
		ct->dims = v->type->dims;
		map_value(out, v, (uint32_t)t);
	}
	for (size_t o = 0; o < out->ops.n; o++) {
		sli_cost_op *co = &out->ops.v[o];
		if (!(co->op = sli_pmap_get(tw, co->op))) {
			sli_cost_model_fini(out);
			return -1;
		}
	}
	return 0;
}

int
sli_cost_model_build_copy(const sli_cost_model *cm, sl_module *c,
                          sli_cost_model *out)
{
	sli_pmap tw;
	sli_pmap_init(&tw);
	int rc = cm->m->top && c->top && pair_ops(&tw, cm->m->top, c->top)
	         ? move_onto(cm, c, &tw, out) : -1;
	sli_pmap_fini(&tw);
	if (rc) {
		sli_cost_params cp = cm->params;
		cp.report = false;
		rc = sli_cost_model_build(c, &cp, out);
	}
	return rc;
}

/* }==================================================================== */
