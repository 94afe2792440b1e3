/*
 * index.c - the tables of one propagation pass indexed by op id (pre-order
 * position) and value id: uses, data-flow edges, sharding groups, callers
 * of each function, meshes and the main function, and each op's class
 * for the worklist.  Rebuilt by sli_prop_index whenever the IR changes
 * shape (spec/propagation.md 1.5, 7.7).
 */
#include "propagation/prop_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct collect {
	SL_VEC(sl_op *) ops;
	SL_VEC(sl_value *) values;
	SL_VEC(uint32_t) nuses;		/* per value: its number of uses */
	size_t uses;			/* operands in all */
	bool stale;			/* an operand not numbered yet */
} collect;

/* Numbers a value and gives it no uses yet. */
static void
collect_value(collect *c, sl_value *v)
{
	v->id = (uint32_t)c->values.n;
	SL_VEC_PUSH(c->values, v);
	SL_VEC_PUSH(c->nuses, 0);
}

/*
 * Numbers op and its values (results, then its blocks' arguments), and
 * counts the uses of its operands, which in pre-order were numbered
 * before: counting in this walk saves one more stream through the ops.
 * An operand not numbered yet (a use before its definition) makes the
 * counts stale, and sli_prop_index counts again.
 */
static int
collect_op(sl_op *op, void *ud)
{
	collect *c = ud;
	op->id = (uint32_t)c->ops.n;
	SL_VEC_PUSH(c->ops, op);
	for (uint32_t k = 0; k < op->noperands; k++) {
		sl_value *v = op->operands[k];
		if (!v)
			continue;
		c->uses++;
		if (v->id < c->values.n && c->values.v[v->id] == v)
			c->nuses.v[v->id]++;
		else
			c->stale = true;
	}
	for (uint32_t i = 0; i < op->nresults; i++)
		collect_value(c, &op->results[i]);
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (uint32_t i = 0; i < b->nargs; i++)
				collect_value(c, &b->args[i]);
	return 0;
}

void
sli_prop_index_fini(sli_prop *P)
{
	if (P->calls)
		for (uint32_t i = 0; i < P->nops; i++)
			free(P->calls[i]);
	free(P->calls);
	free(P->ops);
	free(P->values);
	free(P->use_n);
	free(P->edge);
	free(P->rules);
	sli_htab_fini(&P->rule_reps);
	sli_arena_fini(&P->tabmem);
	for (size_t i = 0; i < P->groups.n; i++)
		free(P->groups.v[i]);
	SL_VEC_FREE(P->groups);
	SL_VEC_FREE(P->group_sizes);
	P->calls = NULL;
	P->ops = NULL;
	P->values = NULL;
	P->use_first = P->use_n = NULL;
	P->uses = NULL;
	P->edge = NULL;
	P->group = NULL;
	P->rules = NULL;
	P->sig = NULL;
	P->opclass = NULL;
	P->cur = NULL;
	P->getslot = NULL;
	P->own = NULL;
	P->quiet = NULL;
	P->stack = NULL;
	P->queued = NULL;
}

/* The value a data_flow_edge's owner stands for, and the other targets. */
static void
index_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults)
		return;
	sl_value *owner = e->operands[0];
	P->edge[owner->id] = e;
	P->edge[e->results[0].id] = e;
	if (owner->def && owner->def->kind == SL_OP_WHILE) {
		sl_op *w = owner->def;
		for (uint32_t r = 0; r < w->nregions && r < 2; r++) {
			sl_block *b = w->regions[r].first;
			if (b && owner->index < b->nargs)
				P->edge[b->args[owner->index].id] = e;
		}
	}
}

/* Whether visit() hands op to visit_generic. */
static bool
generic_visit(const sl_op *op)
{
	return op->kind != SL_OP_SDY_PROPAGATION_BARRIER &&
	       op->kind != SL_OP_SDY_DATA_FLOW_EDGE &&
	       op->kind != SL_OP_SDY_FUNC_DATA_FLOW_EDGE;
}

sl_sym
sli_prop_callee(sl_module *m, const sl_op *call)
{
	sl_attr *c = sli_op_get(call, SLS_callee);
	if (!c || c->kind != SL_ATTR_SYMREF)
		return 0;
	return sli_attr_sym(m->ctx, c);
}

void
sli_prop_index(sli_prop *P)
{
	const sl_rule **old_rules = P->rules;
	uint32_t old_nops = P->nops;
	P->rules = NULL;
	sli_prop_index_fini(P);
	collect c = {0};
	sli_walk(P->m->top, collect_op, &c);
	P->ops = c.ops.v;
	P->nops = (uint32_t)c.ops.n;
	P->values = c.values.v;
	P->nvalues = (uint32_t)c.values.n;
	uint32_t nv = P->nvalues ? P->nvalues : 1, no = P->nops ? P->nops : 1;

	P->use_first = SL_NEWN(&P->tabmem, uint32_t, nv);
	SL_VEC_PUSH(c.nuses, 0);	/* nv entries, also for no values */
	P->use_n = c.nuses.v;
	size_t nuses = c.uses;
	if (c.stale) {
		memset(P->use_n, 0, sizeof *P->use_n * nv);
		for (uint32_t i = 0; i < P->nops; i++)
			for (uint32_t k = 0; k < P->ops[i]->noperands; k++)
				if (P->ops[i]->operands[k])
					P->use_n[P->ops[i]->operands[k]->id]++;
	}
	P->uses = sli_arena_alloc(&P->tabmem, sizeof *P->uses * (nuses ? nuses : 1));
	uint32_t off = 0;
	for (uint32_t v = 0; v < P->nvalues; v++) {
		P->use_first[v] = off;
		off += P->use_n[v];
	}

	/* most programs have few edges: calloc leaves the pages it maps
	 * untouched until an edge is written */
	P->edge = sli_xcalloc(nv, sizeof *P->edge);
	P->rules = sli_xcalloc(no, sizeof *P->rules);
	if (old_rules) {
		/* op ids are stable when nothing was inserted */
		if (old_nops == P->nops)
			memcpy(P->rules, old_rules, sizeof *P->rules * P->nops);
		free(old_rules);
	}
	P->calls = sli_xcalloc(no, sizeof *P->calls);
	P->sig = SL_NEWN(&P->tabmem, uint64_t, no);
	P->opclass = SL_NEWN(&P->tabmem, uint8_t, no);
	static const sl_sharding unloaded;
	P->unloaded = &unloaded;
	P->getslot = SL_NEWN(&P->tabmem, int32_t, nv);
	P->own = SL_NEWN(&P->tabmem, sl_attr *, no);
	P->quiet = SL_NEWN(&P->tabmem, uint8_t, no);
	P->cur = sli_arena_alloc(&P->tabmem, sizeof *P->cur * nv);
	for (uint32_t v = 0; v < nv; v++)
		P->cur[v] = P->unloaded;
	P->stack = sli_arena_alloc(&P->tabmem, sizeof *P->stack * no);
	P->queued = SL_NEWN(&P->tabmem, uint8_t, no);
	P->nstack = 0;

	/*
	 * One walk over the ops for the use lists, the edges, callers and
	 * sharding groups (members in op order, groups in id order later),
	 * and the op classes, which only need the use counts: each walk
	 * over the ops of a big module streams it through the caches again.
	 */
	uint32_t *fill = sli_xmalloc(sizeof *fill * nv);
	memcpy(fill, P->use_first, sizeof *fill * P->nvalues);
	SL_VEC(int64_t) ids = {0};
	SL_VEC(SL_VEC(sl_value *)) members = {0};
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		for (uint32_t k = 0; k < op->noperands; k++) {
			sl_value *v = op->operands[k];
			if (!v)
				continue;
			sli_prop_use *u = &P->uses[fill[v->id]++];
			u->op = i;
			u->index = k;
		}
		uint8_t cls = sli_op_priority_class(P, op);
		if (generic_visit(op))
			cls |= SLI_OPCLASS_GENERIC |
			       (sli_prop_has_no_rule(op) ? SLI_OPCLASS_NO_STEP : 0);
		if (op->nattrs)
			cls |= SLI_OPCLASS_ATTRS;
		P->opclass[i] = cls;
		if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
			index_edge(P, op);
		} else if (op->kind == SL_OP_CALL) {
			sl_op *f = sli_lookup_func(P->m, sli_prop_callee(P->m, op));
			if (f) {
				size_t n = 0;
				while (P->calls[f->id] && P->calls[f->id][n])
					n++;
				P->calls[f->id] = sli_xrealloc(P->calls[f->id], sizeof(sl_op *) * (n + 2));
				P->calls[f->id][n] = op;
				P->calls[f->id][n + 1] = NULL;
			}
		} else if (op->kind == SL_OP_SDY_SHARDING_GROUP && op->noperands) {
			sl_attr *a = sli_op_get(op, SLS_group_id);
			int64_t id = a && a->kind == SL_ATTR_INT ? a->u.i.v : 0;
			size_t g = 0;
			while (g < ids.n && ids.v[g] != id)
				g++;
			if (g == ids.n) {
				SL_VEC_PUSH(ids, id);
				SL_VEC_RESERVE(members, g + 1);
				memset(&members.v[g], 0, sizeof members.v[g]);
				members.n = g + 1;
			}
			sl_value *v = op->operands[0];
			bool dup = false;
			for (size_t j = 0; j < members.v[g].n; j++)
				dup |= members.v[g].v[j] == v;
			if (!dup)
				SL_VEC_PUSH(members.v[g], v);
		}
	}
	/* groups sorted by id */
	size_t ng = ids.n;
	size_t *order = sli_xmalloc(sizeof *order * (ng ? ng : 1));
	for (size_t i = 0; i < ng; i++) {
		size_t j = i;
		while (j > 0 && ids.v[order[j - 1]] > ids.v[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	/* no table when there are no groups, the common case */
	if (ng) {
		P->group = sli_arena_alloc(&P->tabmem, sizeof *P->group * nv);
		for (uint32_t v = 0; v < nv; v++)
			P->group[v] = -1;
	}
	for (size_t i = 0; i < ng; i++) {
		size_t g = order[i];
		SL_VEC_PUSH(P->groups, members.v[g].v);
		SL_VEC_PUSH(P->group_sizes, (uint32_t)members.v[g].n);
		for (size_t j = 0; j < members.v[g].n; j++)
			P->group[members.v[g].v[j]->id] = (int32_t)i;
	}
	free(order);
	free(fill);
	SL_VEC_FREE(ids);
	SL_VEC_FREE(members);

	/* meshes and the main function */
	free(P->meshes);
	P->meshes = NULL;
	P->nmeshes = 0;
	P->main_func = NULL;
	sl_op *only = NULL;
	uint32_t nfuncs = 0;
	sl_block *top = P->m->top->nregions ? P->m->top->regions[0].first : NULL;
	for (sl_op *op = top ? top->first : NULL; op; op = op->next) {
		if (op->kind == SL_OP_SDY_MESH) {
			sl_attr *mesh = sli_op_get(op, SLS_mesh);
			if (!mesh || mesh->kind != SL_ATTR_MESH)
				continue;
			P->meshes = sli_xrealloc(P->meshes, sizeof *P->meshes * (P->nmeshes + 1));
			P->meshes[P->nmeshes].name = sli_op_sym_name(P->m, op);
			P->meshes[P->nmeshes].mesh = &mesh->u.mesh;
			P->nmeshes++;
		} else if (op->kind == SL_OP_FUNC) {
			nfuncs++;
			only = op;
			sl_sym name = sli_op_sym_name(P->m, op);
			if (!strcmp(sl_sym_str(P->ctx, name), "main"))
				P->main_func = op;
		}
	}
	if (nfuncs == 1)
		P->main_func = only;
	if (P->main_func && (!P->main_func->nregions || !P->main_func->regions[0].first))
		P->main_func = NULL;

}

uint32_t
sli_prop_use_count(const sli_prop *P, const sl_value *v)
{
	return v->id < P->nvalues && P->values[v->id] == v ? P->use_n[v->id] : 0;
}

const sl_mesh *
sli_prop_mesh_of(const sli_prop *P, const sl_sharding *s)
{
	if (s->mesh)
		return s->mesh;
	for (uint32_t i = 0; i < P->nmeshes; i++)
		if (P->meshes[i].name == s->mesh_name)
			return P->meshes[i].mesh;
	return NULL;
}
