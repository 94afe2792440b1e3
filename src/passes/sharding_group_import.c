/*
 * sharding_group_import.c - -sdy-sharding-group-import
 * (spec/import-passes.md section 2.10): checks that the members of a
 * group share their enclosing manual computation and their shape, merges
 * groups that share a value, renumbers them 0..N-1 in order of first
 * appearance and drops duplicate group ops on one value.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

#include "util/uf.h"

static sl_op *
enclosing_manual(const sl_op *op)
{
	for (sl_op *p = sli_op_parent(op); p; p = sli_op_parent(p))
		if (p->kind == SL_OP_SDY_MANUAL_COMPUTATION)
			return p;
	return NULL;
}

static int64_t
group_id(const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_group_id);
	return a && a->kind == SL_ATTR_INT ? a->u.i.v : 0;
}

/* What is known of one group id. */
typedef struct group {
	int64_t id;
	sl_op *manual;
	const sl_type *type;
	int64_t number;
} group;

typedef SL_VEC(group) groupvec;

static size_t
find_group(groupvec *g, int64_t id)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].id == id)
			return i;
	return (size_t)-1;
}

int
sli_pass_sharding_group_import(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec all = {0}, ops = {0};
	sli_collect_preorder(m->top, &all);
	for (size_t i = 0; i < all.n; i++)
		if (all.v[i]->kind == SL_OP_SDY_SHARDING_GROUP && all.v[i]->noperands == 1)
			SL_VEC_PUSH(ops, all.v[i]);
	SL_VEC_FREE(all);
	groupvec g = {0};
	int rc = 0;
	/* Validation, in op order; first sighting of each id. */
	for (size_t i = 0; i < ops.n && !rc; i++) {
		sl_op *op = ops.v[i];
		int64_t id = group_id(op);
		sl_op *mc = enclosing_manual(op);
		const sl_type *t = op->operands[0]->type;
		size_t k = find_group(&g, id);
		if (k == (size_t)-1) {
			group ng = {id, mc, t, 0};
			SL_VEC_PUSH(g, ng);
			continue;
		}
		if (g.v[k].manual != mc) {
			sli_error(m->ctx, op->loc, "ShardingGroupOps values cannot cross "
			          "ManualComputationOp boundaries for groupId: %lld", (long long)id);
			rc = -1;
		} else if (g.v[k].type != t) {
			sli_error(m->ctx, op->loc, "ShardingGroupOps values must have the same "
			          "shape for groupId: %lld", (long long)id);
			rc = -1;
		}
	}
	SL_VEC_FREE(g);
	if (rc || !ops.n) {
		SL_VEC_FREE(ops);
		return rc;
	}
	/* Values in order of first occurrence, each with its group ops. */
	sli_opvec values = {0};	/* first group op of each value */
	sli_uf merged;		/* over indices in g (at most one per op) */
	sli_uf_init(&merged, (uint32_t)ops.n);
	for (size_t i = 0; i < ops.n; i++) {
		bool seen = false;
		for (size_t k = 0; k < values.n && !seen; k++)
			seen = values.v[k]->operands[0] == ops.v[i]->operands[0];
		if (!seen)
			SL_VEC_PUSH(values, ops.v[i]);
	}
	for (size_t v = 0; v < values.n; v++) {
		const sl_value *val = values.v[v]->operands[0];
		size_t first = (size_t)-1;
		for (size_t i = 0; i < ops.n; i++) {
			if (ops.v[i]->operands[0] != val)
				continue;
			int64_t id = group_id(ops.v[i]);
			size_t k = find_group(&g, id);
			if (k == (size_t)-1) {
				group ng = {id, NULL, NULL, -1};
				SL_VEC_PUSH(g, ng);
				k = g.n - 1;
			}
			if (first == (size_t)-1) {
				first = k;
				continue;
			}
			sli_uf_union(&merged, (uint32_t)k, (uint32_t)first);
		}
	}
	int64_t next = 0;
	for (size_t k = 0; k < g.n; k++)
		if (sli_uf_find(&merged, (uint32_t)k) == k)
			g.v[k].number = next++;
	sl_type *i64 = sli_type_elem(m->ctx, "i64", 3);
	size_t *cls = sli_xmalloc(sizeof *cls * ops.n);
	for (size_t i = 0; i < ops.n; i++)
		cls[i] = sli_uf_find(&merged, (uint32_t)find_group(&g, group_id(ops.v[i])));
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		size_t k = cls[i];
		/* A duplicate: an earlier op of the same class on the same value. */
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = ops.v[j]->parent && ops.v[j]->operands[0] == op->operands[0] &&
			      cls[j] == k;
		if (dup) {
			sli_op_erase(op);
			continue;
		}
		sli_op_set_prop(m, op, SLS_group_id, sli_attr_int(m, g.v[k].number, i64));
	}
	free(cls);
	sli_uf_fini(&merged);
	SL_VEC_FREE(g);
	SL_VEC_FREE(values);
	SL_VEC_FREE(ops);
	return 0;
}
