/*
 * data_flow_edges.c - `sdy.data_flow_edge` ops on the edge owners of
 * data-flow ops (spec/import-passes.md section 0.4), and the op insertion
 * the edge-making passes share.
 */
#include "passes/data_flow_edges.h"

#include <string.h>

bool
sli_is_data_flow_op(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_MANUAL_COMPUTATION:
	case SL_OP_WHILE:
	case SL_OP_CASE:
	case SL_OP_OPTIMIZATION_BARRIER:
		return true;
	default:
		return false;
	}
}

/* The manual-computation in-sharding s without its manual axes. */
static sl_sharding *
drop_manual(sl_module *m, const sl_sharding *s, const sl_axis_list *manual)
{
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->dims = r->rank ? SL_NEWN(&m->arena, sl_dim_sharding, r->rank) : NULL;
	for (uint32_t d = 0; d < s->rank; d++) {
		r->dims[d] = s->dims[d];
		uint32_t k = 0;
		const sl_axis_list *l = &s->dims[d].axes;
		while (k < l->n) {
			bool is_manual = false;
			for (uint32_t j = 0; j < manual->n; j++)
				is_manual |= manual->v[j].name == l->v[k].name;
			if (!is_manual)
				break;
			k++;
		}
		r->dims[d].axes.v = l->v + k;
		r->dims[d].axes.n = l->n - k;
	}
	const sl_axis_list *lists[2] = {&s->replicated, &s->unreduced};
	sl_axis_list *outs[2] = {&r->replicated, &r->unreduced};
	for (int t = 0; t < 2; t++) {
		sl_axis_ref *v = lists[t]->n ? SL_NEWN(&m->arena, sl_axis_ref, lists[t]->n) : NULL;
		uint32_t n = 0;
		for (uint32_t k = 0; k < lists[t]->n; k++) {
			bool is_manual = false;
			for (uint32_t j = 0; j < manual->n; j++)
				is_manual |= manual->v[j].name == lists[t]->v[k].name;
			if (!is_manual)
				v[n++] = lists[t]->v[k];
		}
		outs[t]->v = v;
		outs[t]->n = n;
	}
	return r;
}

void
sli_op_insert_after(sl_op *after, sl_op *op)
{
	if (after->next)
		sli_op_insert_before(after->next, op);
	else
		sli_op_append(after->parent, op);
}

void
sli_op_prepend(sl_block *b, sl_op *op)
{
	if (b->first)
		sli_op_insert_before(b->first, op);
	else
		sli_op_append(b, op);
}

/* One edge for owner, created after `after` (at the start of block `b`
 * when after is NULL); the uses of owner are redirected now, or recorded
 * in `defer` (owner -> edge result). */
static void
add_edge(sl_module *m, sl_value *owner, const sl_sharding *s, sl_op *after, sl_block *b,
         sli_vmap *defer)
{
	if (!sli_type_is_static(owner->type))
		return;
	sl_op *e = sli_op_create(m, SL_OP_SDY_DATA_FLOW_EDGE, &owner, 1, &owner->type, 1, 0);
	sl_loc at = sli_value_loc(owner);
	e->loc = at.line ? at : (after ? after->loc : b->parent->parent->loc);
	if (s)
		sli_result_set_sharding(m, e, 0, s);
	if (defer)
		sli_vmap_set(defer, owner, &e->results[0]);
	else
		sli_value_replace_uses(owner, &e->results[0], e);
	if (after)
		sli_op_insert_after(after, e);
	else
		sli_op_prepend(b, e);
}

static void
add_edges(sl_module *m, sl_op *op, sli_vmap *defer)
{
	bool has_args = op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	                op->kind == SL_OP_SDY_MANUAL_COMPUTATION;
	const sl_axis_list *manual = sli_manual_axes(op);
	if (has_args && op->nregions && op->regions[0].first) {
		sl_block *b = op->regions[0].first;
		/* In reverse, each at the block start, so they end up in order. */
		for (uint32_t i = b->nargs; i-- > 0;) {
			sl_sharding *s = sli_comp_in_sharding(op, i);
			if (s && op->kind == SL_OP_SDY_MANUAL_COMPUTATION && manual)
				s = drop_manual(m, s, manual);
			add_edge(m, &b->args[i], s, NULL, b, defer);
		}
	}
	for (uint32_t i = op->nresults; i-- > 0;)
		add_edge(m, &op->results[i], sli_result_sharding(op, i), op, NULL, defer);
}

void
sli_add_data_flow_edges(sl_module *m, sl_op *op)
{
	add_edges(m, op, NULL);
}

typedef struct redirect {
	const sli_vmap *map;
} redirect;

/* Operands through the map, except the operand of an edge (its owner). */
static int
redirect_op(sl_op *op, void *ud)
{
	const redirect *r = ud;
	if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE && op->noperands == 1 &&
	    sli_vmap_get(r->map, op->operands[0]) == &op->results[0])
		return 0;
	for (uint32_t i = 0; i < op->noperands; i++)
		op->operands[i] = sli_vmap_lookup(r->map, op->operands[i]);
	return 0;
}

void
sli_add_data_flow_edges_all(sl_module *m, sl_op *const *ops, size_t n)
{
	sli_vmap map;
	sli_vmap_init(&map);
	for (size_t i = 0; i < n; i++)
		if (sli_is_data_flow_op(ops[i]))
			add_edges(m, ops[i], &map);
	if (map.n) {
		redirect r = {&map};
		sli_walk(m->top, redirect_op, &r);
	}
	sli_vmap_fini(&map);
}
